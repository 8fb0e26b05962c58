'use strict';
// Colyseus 0.16 serving the eights game: a room per match, its state an @colyseus/schema
// tree whose hands are tagged for views (each client's StateView holds its own seat, so a
// client is sent its own hand only), binary patches to the room's four sockets after every
// accepted move (broadcastPatch at once, rather than on a 50 ms patch timer), a refused
// move answered to its sender alone. No storage. Prints "listening on 127.0.0.1:PORT".
//
//   node colyseus_server.cjs [--port 0]

const { Room, Server } = require('@colyseus/core');
const { WebSocketTransport } = require('@colyseus/ws-transport');
const { ArraySchema, schema, StateView } = require('@colyseus/schema');
const eights = require('./eights.cjs');

const Player = schema({ hand: { view: true, type: ['uint8'] }, cards: 'uint8' }, 'Player');
const Table = schema(
  {
    players: { array: Player },
    top: 'uint8',
    deck: 'uint8',
    turn: 'uint8',
    moves: 'uint16',
    winner: 'int8',
  },
  'Table'
);

class EightsRoom extends Room {
  onCreate(options) {
    this.maxClients = eights.SEATS;
    this.game = eights.deal(Number(options && options.seed) || 1); // never in the state
    const table = new Table();
    for (const hand of this.game.hands) {
      const player = new Player();
      player.hand = new ArraySchema(...hand);
      player.cards = hand.length;
      table.players.push(player);
    }
    table.top = eights.top(this.game);
    table.deck = this.game.deck.length;
    table.turn = 0;
    table.moves = 0;
    table.winner = -1;
    this.setState(table);
    this.setPatchRate(null); // patches go out when a move is accepted (broadcastPatch)
    this.joined = 0;
    this.onMessage('play', (client, card) => this.move(client, { kind: 'play', card }));
    this.onMessage('draw', (client) => this.move(client, { kind: 'draw' }));
  }

  onJoin(client) {
    const seat = this.joined++;
    client.userData = { seat };
    client.view = new StateView();
    client.view.add(this.state.players[seat]);
  }

  move(client, move) {
    const seat = client.userData.seat;
    const why = this.joined < eights.SEATS ? 'waiting for players' : eights.refusal(this.game, seat, move);
    if (why !== null) {
      client.send('refused', why);
      return;
    }
    const change = eights.apply(this.game, seat, move);
    const player = this.state.players[seat];
    if (change.played !== undefined) player.hand.splice(change.index, 1);
    else if (change.drawn !== null) player.hand.push(change.drawn);
    player.cards = this.game.hands[seat].length;
    this.state.top = eights.top(this.game);
    this.state.deck = this.game.deck.length;
    this.state.turn = this.game.turn;
    this.state.moves = this.game.moves;
    this.state.winner = this.game.winner;
    this.broadcastPatch();
  }
}

function parsePort(argv) {
  const at = argv.indexOf('--port');
  return at >= 0 ? Number(argv[at + 1]) : 0;
}

async function main() {
  const transport = new WebSocketTransport();
  const server = new Server({ transport, greet: false });
  server.define('eights', EightsRoom);
  await server.listen(parsePort(process.argv), '127.0.0.1');
  const { port } = transport.server.address();
  process.stdout.write(`colyseus listening on 127.0.0.1:${port}\n`);
  console.log = console.error; // stdout is a pipe nobody reads after the port
}

module.exports = { EightsRoom };

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
