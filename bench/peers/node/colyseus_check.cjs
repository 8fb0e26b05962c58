'use strict';
// Colyseus: does the room refuse illegal moves (changing nothing) and send each client
// its own hand only? One room of a chosen deal, four colyseus.js clients as in the load;
// what a client holds is what it decoded from the bytes it was sent.

const { Client } = require('colyseus.js');
const eights = require('./eights.cjs');
const { exposed, shows, result, checkSeed } = require('./checks.cjs');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A colyseus.js room with its first (full) state, and the next answer awaited. */
function attach(room) {
  const seat = { room, waiter: null };
  seat.first = new Promise((resolve) => {
    room.onStateChange((state) => {
      resolve();
      const waiter = seat.waiter;
      if (waiter !== null && state.moves >= waiter.wanted) {
        seat.waiter = null;
        waiter.resolve(state.moves);
      }
    });
  });
  room.onMessage('refused', (why) => {
    const waiter = seat.waiter;
    seat.waiter = null;
    if (waiter !== null) waiter.resolve(`refused: ${why}`);
  });
  return seat;
}

async function newRoom(client, seed) {
  const seats = [attach(await client.create('eights', { seed }))];
  const roomId = seats[0].room.roomId;
  for (let n = 1; n < eights.SEATS; n++) seats.push(attach(await client.joinById(roomId)));
  await Promise.all(seats.map((seat) => seat.first));
  return seats;
}

/** The `moves` count of the first state at `wanted` or later, a refusal, or a timeout. */
function answer(seat, wanted) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      seat.waiter = null;
      resolve('no answer in 10 s');
    }, 10000);
    seat.waiter = { wanted, resolve: (what) => (clearTimeout(timer), resolve(what)) };
  });
}

function send(room, move) {
  if (move.kind === 'play') room.send('play', move.card);
  else room.send('draw');
}

function redacted(seats, game, when) {
  return seats.map((seat, n) => {
    const state = seat.room.state.toJSON();
    const leaked = exposed(state, game.hands, n);
    return result(
      `redacted: seat ${n}'s state ${when}`,
      leaked.length === 0 && shows(state, game.hands[n]),
      leaked.length ? `shows the hands of seats ${leaked}` : 'its own hand only'
    );
  });
}

async function refusals(seats, game) {
  const hand = game.hands[0];
  const onto = eights.top(game);
  const tries = [
    ['a card not in hand', 0, { kind: 'play', card: game.hands[1][0] }],
    ['a card matching neither suit nor rank', 0, { kind: 'play', card: hand.find((c) => !eights.matches(c, onto)) }],
    ['a draw while holding a playable card', 0, { kind: 'draw' }],
    ['a move out of turn (seat 1)', 1, { kind: 'play', card: game.hands[1][0] }],
  ];
  const checks = [];
  for (const [name, by, move] of tries) {
    const answered = answer(seats[by], 1);
    send(seats[by].room, move);
    const what = await answered;
    await sleep(50); // a patch, had one been sent, would be here by now
    const state = seats[0].room.state;
    const unchanged = state.moves === 0 && shows(state.toJSON(), hand);
    checks.push(result(`refused: ${name}`, unchanged && String(what).startsWith('refused'), `${what}; moves ${state.moves}`));
  }
  return checks;
}

async function check(address) {
  const seed = checkSeed(eights);
  const game = eights.deal(seed);
  const seats = await newRoom(new Client(`ws://${address}`), seed);
  const checks = redacted(seats, game, 'on joining');
  checks.push(...(await refusals(seats, game)));
  const hand = game.hands[0];
  const move = { kind: 'play', card: hand[eights.playable(hand, eights.top(game))] };
  const answered = answer(seats[0], 1);
  send(seats[0].room, move);
  const what = await answered;
  eights.apply(game, 0, move);
  await sleep(50); // every seat's patch
  checks.push(result('accepted: a legal move', what === 1, `moves ${what}`));
  checks.push(...redacted(seats, game, 'after it'));
  await Promise.all(seats.map((seat) => seat.room.leave(true)));
  const notes = [
    "a seat is its connection (a room's session): no per-move credentials; a refused move " +
      "is answered to its sender alone ('refused' and the reason)",
  ];
  return { checks, notes };
}

module.exports = { check };
