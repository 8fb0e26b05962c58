'use strict';
// boardgame.io: does the server refuse illegal moves (changing nothing) and keep each
// seat's pushed state free of the other hands? One match of a chosen deal, four seats
// speaking the socket.io protocol as in the load.

const eights = require('./eights.cjs');
const { exposed, shows, result, checkSeed } = require('./checks.cjs');
const { Seat, newMatch, moveFrame } = require('./bgio_driver.cjs');

const NSP_PREFIX = '42/eights,';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const parse = (frame) => JSON.parse(frame.slice(NSP_PREFIX.length));

/** Ask `seat` for its state again (a "sync"): what the server holds for it now. */
async function resync(seat, matchID, number, credentials) {
  const synced = seat.frame(`${NSP_PREFIX}["sync"`);
  seat.send('sync', matchID, String(number), credentials, eights.SEATS);
  return parse(await synced)[2].state;
}

/** Each illegal move: who sends it, what, with whose credentials. */
function illegalMoves(game) {
  const hand = game.hands[0];
  const onto = eights.top(game);
  const foreign = game.hands[1][0];
  const unmatched = hand.find((card) => !eights.matches(card, onto));
  const legal = hand[eights.playable(hand, onto)];
  return [
    ['a card not in hand', 0, { kind: 'play', card: foreign }, 0],
    ['a card matching neither suit nor rank', 0, { kind: 'play', card: unmatched }, 0],
    ['a draw while holding a playable card', 0, { kind: 'draw' }, 0],
    ['a move out of turn (seat 1)', 1, { kind: 'play', card: game.hands[1][0] }, 1],
    ["seat 0's legal move with seat 1's credentials", 0, { kind: 'play', card: legal }, 1],
  ];
}

async function refusals(seats, match, game) {
  const checks = [];
  for (const [name, by, move, credentialsOf] of illegalMoves(game)) {
    seats[by].ws.send(moveFrame(move, by, match.credentials[credentialsOf], 0, match.matchID));
    await sleep(150); // the move is queued per match; the sync below is not
    const state = await resync(seats[0], match.matchID, 0, match.credentials[0]);
    const unchanged =
      state._stateID === 0 && state.G.moves === 0 && shows(state.G, game.hands[0]);
    checks.push(result(`refused: ${name}`, unchanged, `_stateID ${state._stateID}, moves ${state.G.moves}`));
  }
  return checks;
}

async function accepted(seats, match, game) {
  const hand = game.hands[0];
  const move = { kind: 'play', card: hand[eights.playable(hand, eights.top(game))] };
  const pushed = seats[1].frame(`${NSP_PREFIX}["update"`);
  const answered = seats[0].answer(1);
  seats[0].ws.send(moveFrame(move, 0, match.credentials[0], 0, match.matchID));
  const stateID = await answered;
  eights.apply(game, 0, move);
  const state = parse(await pushed)[2];
  const leaked = exposed(state, game.hands, 1);
  return [
    result('accepted: a legal move', stateID === 1, `_stateID ${stateID}`),
    result(
      "redacted: seat 1's pushed update after it",
      leaked.length === 0 && shows(state, game.hands[1]),
      leaked.length ? `shows the hands of seats ${leaked}` : 'its own hand only'
    ),
  ];
}

async function check(address) {
  const seed = checkSeed(eights);
  const game = eights.deal(seed);
  const match = await newMatch(address, seed);
  const counter = { measuring: false };
  const seats = Array.from({ length: eights.SEATS }, () => new Seat(address, counter));
  const syncs = [];
  for (let n = 0; n < eights.SEATS; n++) {
    syncs.push((await seats[n].enter(match.matchID, n, match.credentials[n]))[2]);
  }
  const checks = syncs.map((sync, n) => {
    const leaked = exposed(sync.state, game.hands, n);
    return result(
      `redacted: seat ${n}'s synced state`,
      leaked.length === 0 && shows(sync.state, game.hands[n]),
      leaked.length ? `shows the hands of seats ${leaked}` : 'its own hand only'
    );
  });
  checks.push(...(await refusals(seats, match, game)));
  checks.push(...(await accepted(seats, match, game)));
  const notes = [];
  const initial = exposed(syncs[1].initialState, eights.deal(seed).hands, 1); // as dealt
  if (initial.length) {
    notes.push(
      `the "sync" answer also carries initialState unredacted (playerView is not applied ` +
        `to it): seat 1 is sent the dealt hands of seats ${initial}, the deck's order and ` +
        `the generator (boardgame.io 0.50, issue #1159); the per-move updates are redacted`
    );
  }
  notes.push('a refused move is answered with the unchanged state pushed to every seat (no reason)');
  for (const seat of seats) seat.ws.close();
  return { checks, notes };
}

module.exports = { check };
