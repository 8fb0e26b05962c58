'use strict';
// A seat's awaited answer, without a timer per move: one watchdog a second gives up on
// any answer older than 10 s (the move fails with TIMEOUT and its table starts anew).

const TIMEOUT = 'no answer in 10 s';
const seats = new Set();

setInterval(() => {
  const now = performance.now();
  for (const seat of seats) {
    const waiter = seat.waiter;
    if (waiter !== null && now - waiter.since > 10000) {
      seat.waiter = null;
      waiter.resolve(TIMEOUT);
    }
  }
}, 1000).unref();

/** Await `seat`'s answer: its `waiter` ({wanted, resolve, since}) is resolved by the seat's
 * own message handler, or by the watchdog. */
function answer(seat, wanted) {
  seats.add(seat);
  return new Promise((resolve) => {
    seat.waiter = { wanted, resolve, since: performance.now() };
  });
}

/** The seat is gone: stop watching it. */
const forget = (seat) => seats.delete(seat);

/** Resolve the seat's waiter with `what` (if it waits). */
function settle(seat, what) {
  const waiter = seat.waiter;
  if (waiter !== null) {
    seat.waiter = null;
    waiter.resolve(what);
  }
}

module.exports = { TIMEOUT, answer, forget, settle };
