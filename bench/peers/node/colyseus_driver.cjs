'use strict';
// Colyseus' side of driver.cjs: a table is four seats of one room, each a websocket
// speaking Colyseus' protocol as colyseus.js does: the first seat creates the room through
// the matchmaker (POST /matchmake/create/eights with the plan's seed), the others join it
// by id, each then connects to /<processId>/<roomId>?sessionId=… and acknowledges
// JOIN_ROOM. A move is a ROOM_DATA frame ('play' with the card, or 'draw'), encoded as
// colyseus.js encodes it. A played-out match is left (LEAVE_ROOM) by all four and a new
// room is created.
//
// colyseus.js decodes every patch into its copy of the state; at Colyseus' speed that cost
// the driver more CPU than the server, so the load does not decode: every accepted move
// sends one patch to every seat (every move changes the shared `moves` and `turn`), so a
// mover's answer is its room's next patch by count, and a refused move its 'refused'
// message. The checks (colyseus_check.cjs) use colyseus.js and read decoded states.

const WebSocket = require('ws');
const { encode } = require('@colyseus/schema');
const eights = require('./eights.cjs');
const { answer, forget, settle } = require('./answers.cjs');
const { postJson } = require('./http.cjs');

const JOIN_ROOM = 10;
const LEAVE_ROOM = 12;
const ROOM_DATA = 13;
const ROOM_STATE = 14;
const ROOM_STATE_PATCH = 15;

/** A ROOM_DATA frame as colyseus.js' room.send(type, message) writes it (a card is a
 * msgpack positive fixint: its own byte). */
function dataFrame(type, card) {
  const buffer = Buffer.alloc(64);
  buffer[0] = ROOM_DATA;
  const it = { offset: 1 };
  encode.string(buffer, type, it);
  if (card !== undefined) buffer[it.offset++] = card;
  return buffer.subarray(0, it.offset);
}

const PLAY = Array.from({ length: 52 }, (_, card) => dataFrame('play', card));
const DRAW = dataFrame('draw');
const frameOf = (move) => (move.kind === 'play' ? PLAY[move.card] : DRAW);

/** A seat reservation from the matchmaker (its errors come back as 200 with `error`). */
async function matchmake(address, path, options) {
  const reservation = await postJson(address, `/matchmake/${path}`, options);
  if (reservation.error) throw new Error(`matchmake ${path}: ${reservation.error}`);
  return reservation;
}

/** One seat's connection to a room: patches counted, the next patch or refusal awaited. */
class Seat {
  constructor(stats) {
    this.stats = stats;
    this.ws = null;
    this.patches = 0;
    this.waiter = null; // {wanted, resolve}: the patch that makes `patches` reach wanted
  }

  /** Connect with a seat reservation; resolves once the room's full state has arrived. */
  connect(address, { room, sessionId }) {
    this.ws = new WebSocket(`ws://${address}/${room.processId}/${room.roomId}?sessionId=${sessionId}`);
    return new Promise((resolve, reject) => {
      this.ws.once('error', reject);
      this.ws.on('message', (data) => {
        const code = data[0];
        if (code === ROOM_STATE_PATCH) this.patched();
        else if (code === ROOM_DATA) this.refused();
        else if (code === JOIN_ROOM) this.ws.send(Buffer.of(JOIN_ROOM));
        else if (code === ROOM_STATE) resolve(this);
      });
    });
  }

  patched() {
    this.patches += 1;
    if (this.stats.measuring) this.stats.updates += 1;
    if (this.waiter !== null && this.patches >= this.waiter.wanted) settle(this, null);
  }

  refused() {
    settle(this, 'refused');
  }

  /** null once the patch count reaches `wanted`; 'refused' or answers.TIMEOUT if not. */
  answer(wanted) {
    return answer(this, wanted);
  }

  leave() {
    forget(this);
    return new Promise((resolve) => {
      this.ws.once('close', resolve);
      this.ws.send(Buffer.of(LEAVE_ROOM));
    });
  }
}

async function newRoom(address, seed, stats) {
  const created = await matchmake(address, 'create/eights', { seed });
  const seats = [await new Seat(stats).connect(address, created)];
  for (let n = 1; n < eights.SEATS; n++) {
    const reservation = await matchmake(address, `joinById/${created.room.roomId}`, {});
    seats.push(await new Seat(stats).connect(address, reservation));
  }
  return seats;
}

function table(address, stats) {
  let seats = [];
  return {
    plan: null,
    step: 0,
    async start(plan) {
      this.plan = null;
      await Promise.all(seats.map((seat) => seat.leave()));
      seats = await newRoom(address, plan.seed, stats);
      Object.assign(this, { plan, step: 0 });
    },
    /** The plan's next move; null when accepted, else what went wrong. */
    async move() {
      const seat = seats[this.plan.seats[this.step]];
      const answered = seat.answer(this.step + 1);
      const started = performance.now();
      seat.ws.send(frameOf(this.plan.moves[this.step]));
      const what = await answered;
      if (what !== null) return what;
      if (stats.measuring) {
        stats.moves += 1;
        stats.latencies.push(performance.now() - started);
      }
      this.step += 1;
      return null;
    },
  };
}

module.exports = { table };
