'use strict';
// boardgame.io's side of driver.cjs: a table is four seats, each a websocket speaking
// socket.io's protocol (engine.io v4 frames) to the game's namespace as boardgame.io's own
// socket.io transport does: "sync" to join a match, "update" with the action, the state id
// and the credentials to move. Matches come from the Lobby API (create, then join per seat:
// credentials). The client's local replay of the game (its reducer) is not run: moves are
// planned, so only the frame's kind is read, and the mover's answer's _stateID.
//
// A seat keeps its websocket across matches and leaves the namespace ("41") before it joins
// the next match ("40", then "sync"), as a player leaving a match and joining another would,
// without a new TCP connection each time (the referee's streams share connections too).

const WebSocket = require('ws');
const eights = require('./eights.cjs');
const { answer, settle } = require('./answers.cjs');
const { postJson } = require('./http.cjs');

const NSP = '/eights';
const UPDATE = Buffer.from(`42${NSP},["update"`);
const STATE_ID = '"_stateID":';

const startsWith = (buffer, prefix) =>
  buffer.length >= prefix.length && buffer.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;

/** The state id a pushed update carries (the state's own comes before its log's). */
function stateIdOf(buffer) {
  let at = buffer.indexOf(STATE_ID) + STATE_ID.length;
  let id = 0;
  for (let c = buffer[at]; c >= 0x30 && c <= 0x39; c = buffer[++at]) id = id * 10 + (c - 0x30);
  return id;
}

/** One seat's websocket: pings answered, updates counted, the next update or a frame of a
 * given prefix awaited. */
class Seat {
  constructor(address, stats) {
    this.address = address;
    this.stats = stats;
    this.ws = null;
    this.joined = false;
    this.waiter = null; // {wanted, resolve}: the first update with a state id >= wanted
    this.expect = null; // {prefix, resolve}: the next frame starting with prefix, as text
  }

  async open() {
    this.ws = new WebSocket(`ws://${this.address}/socket.io/?EIO=4&transport=websocket`);
    this.ws.on('message', (data) => this.receive(data));
    const opened = this.frame('0');
    await new Promise((resolve, reject) => {
      this.ws.once('open', resolve);
      this.ws.once('error', reject);
    });
    await opened;
  }

  receive(data) {
    if (data.length === 1 && data[0] === 0x32) return this.ws.send('3'); // ping -> pong
    const expect = this.expect;
    if (expect !== null && startsWith(data, expect.prefix)) {
      this.expect = null;
      expect.resolve(data.toString());
    }
    if (startsWith(data, UPDATE)) {
      if (this.stats.measuring) this.stats.updates += 1;
      // An update of the move before (pushed to every seat) may still be on its way here.
      if (this.waiter !== null) {
        const id = stateIdOf(data);
        if (id >= this.waiter.wanted) settle(this, id);
      }
    }
    return undefined;
  }

  /** The state id of the first update at `wanted` or later (answers.TIMEOUT if none: a
   * refused move is answered with the unchanged state, whose id is the one before). */
  answer(wanted) {
    return answer(this, wanted);
  }

  frame(prefix) {
    return new Promise((resolve) => (this.expect = { prefix: Buffer.from(prefix), resolve }));
  }

  send(event, ...args) {
    this.ws.send(`42${NSP},${JSON.stringify([event, ...args])}`);
  }

  /** Leave the namespace (the previous match) if in it, join it again and sync `matchID`. */
  async enter(matchID, seat, credentials) {
    if (this.ws === null) await this.open();
    if (this.joined) this.ws.send(`41${NSP},`);
    const connected = this.frame(`40${NSP},`);
    this.ws.send(`40${NSP},`);
    await connected;
    this.joined = true;
    const synced = this.frame(`42${NSP},["sync"`);
    this.send('sync', matchID, String(seat), credentials, eights.SEATS);
    return JSON.parse((await synced).slice(`42${NSP},`.length));
  }
}

async function newMatch(address, seed) {
  const body = { numPlayers: eights.SEATS, setupData: { seed }, unlisted: true };
  const { matchID } = await postJson(address, '/games/eights/create', body);
  const credentials = [];
  for (let seat = 0; seat < eights.SEATS; seat++) {
    const joined = await postJson(address, `/games/eights/${matchID}/join`, {
      playerID: String(seat),
      playerName: `p${seat}`,
    });
    credentials.push(joined.playerCredentials);
  }
  return { matchID, credentials };
}

function moveFrame(move, seat, credentials, stateID, matchID) {
  const args = move.kind === 'play' ? `[${move.card}]` : '[]';
  return (
    `42${NSP},["update",{"type":"MAKE_MOVE","payload":{"type":"${move.kind}","args":${args},` +
    `"playerID":"${seat}","credentials":"${credentials}"}},${stateID},"${matchID}","${seat}"]`
  );
}

function table(address, stats) {
  const seats = Array.from({ length: eights.SEATS }, () => new Seat(address, stats));
  return {
    plan: null,
    step: 0,
    match: null,
    async start(plan) {
      this.plan = null;
      const match = await newMatch(address, plan.seed);
      await Promise.all(seats.map((seat, n) => seat.enter(match.matchID, n, match.credentials[n])));
      Object.assign(this, { plan, step: 0, match });
    },
    /** The plan's next move; null when accepted, else what went wrong. */
    async move() {
      const seat = this.plan.seats[this.step];
      const { matchID, credentials } = this.match;
      const frame = moveFrame(this.plan.moves[this.step], seat, credentials[seat], this.step, matchID);
      const answered = seats[seat].answer(this.step + 1);
      const started = performance.now();
      seats[seat].ws.send(frame);
      const stateID = await answered;
      if (stateID !== this.step + 1) return typeof stateID === 'string' ? stateID : 'off the plan';
      if (stats.measuring) {
        stats.moves += 1;
        stats.latencies.push(performance.now() - started);
      }
      this.step += 1;
      return null;
    },
  };
}

module.exports = { table, Seat, newMatch, moveFrame };
