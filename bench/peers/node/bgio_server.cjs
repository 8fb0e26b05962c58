'use strict';
// boardgame.io 0.50 serving the eights game: its Lobby API (create, join: credentials) and
// its socket.io transport on one port of 127.0.0.1, in-memory storage (the default without
// a database), each move checked against the player's credentials. Run with
// NODE_ENV=production (no per-move info logs). Prints "listening on 127.0.0.1:PORT".
//
//   node bgio_server.cjs [--port 0]

const { Server, Origins } = require('boardgame.io/server');
const { INVALID_MOVE } = require('boardgame.io/core');
const eights = require('./eights.cjs');

function move(kind) {
  return ({ G, playerID }, card) => {
    const seat = Number(playerID);
    const wanted = { kind, card };
    if (eights.refusal(G, seat, wanted) !== null) return INVALID_MOVE;
    eights.apply(G, seat, wanted); // G is boardgame.io's immer draft
    return undefined;
  };
}

/** What a seat sees: its own hand, the others' hand sizes, the top card and the deck's
 * size; never another hand, the deck's order nor the generator. */
function playerView({ G, playerID }) {
  const seat = playerID === null || playerID === undefined ? -1 : Number(playerID);
  return {
    hand: seat >= 0 && seat < G.hands.length ? G.hands[seat] : [],
    counts: G.hands.map((hand) => hand.length),
    top: eights.top(G),
    deck: G.deck.length,
    turn: G.turn,
    moves: G.moves,
    winner: G.winner,
  };
}

const Eights = {
  name: 'eights',
  minPlayers: eights.SEATS,
  maxPlayers: eights.SEATS,
  disableUndo: true, // a card game with hidden hands offers no undo (and keeps no copies)
  setup: (_context, setupData) => eights.deal(Number(setupData && setupData.seed) || 1),
  moves: { play: move('play'), draw: move('draw') },
  turn: { minMoves: 1, maxMoves: 1 }, // a play or a draw ends the turn
  endIf: ({ G }) => (G.winner >= 0 ? { winner: String(G.winner) } : undefined),
  playerView,
};

function parsePort(argv) {
  const at = argv.indexOf('--port');
  return at >= 0 ? Number(argv[at + 1]) : 0;
}

async function main() {
  const server = Server({ games: [Eights], origins: [Origins.LOCALHOST] });
  // koa-socket-2 made app.listen call app.server.listen(...args): bind loopback only.
  server.app.listen = (port, callback) => server.app.server.listen(port, '127.0.0.1', callback);
  const { appServer } = await server.run(parsePort(process.argv));
  const { port } = appServer.address();
  process.stdout.write(`boardgame.io listening on 127.0.0.1:${port}\n`);
  console.log = console.error; // stdout is a pipe nobody reads after the port
  const stop = () => {
    server.kill({ appServer });
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

module.exports = { Eights };

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
