'use strict';
// The load generator of one peer, steered by bench.peers over stdin (one command a line)
// and answering on stdout (one JSON object a line):
//
//   node driver.cjs --peer bgio|colyseus --address 127.0.0.1:PORT [--tables 16] [--plans 64]
//
//   (start)  -> {"ready": true, "moves_per_game": [...]}   the planned games
//   check    -> {"checks": [{name, ok, detail}], "notes": [...]}   validation and redaction
//   run      -> {"running": true}      every table plays, one move in flight each
//   measure  -> {"measuring": true}    count from now
//   report   -> {"moves", "latencies_ms", "updates", ...}   counted since measure; stops counting
//   pause    -> {"paused": true}       once every table's move in flight is answered
//   quit     -> exits
//
// Each table replays planned games (eights.plan: every seat plays its first playable card),
// so the driver never decides: it writes a prepared move, waits for the answer pushed to the
// mover (its latency), counts the updates pushed to every seat, and starts a new match
// (the peer's own lobby or matchmaker) when a game is played out.

const readline = require('node:readline');
const eights = require('./eights.cjs');

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

const stats = {
  measuring: false,
  moves: 0,
  latencies: [],
  updates: 0,
  failures: {},
  created: 0,
  finished: 0,
  reset() {
    this.moves = this.updates = this.created = this.finished = 0;
    this.latencies = [];
    this.failures = {};
  },
  failure(what) {
    if (this.measuring) this.failures[what] = (this.failures[what] || 0) + 1;
  },
};

/** Whether the tables play, and a way to wait until they all rest. */
class Control {
  constructor(tables) {
    this.tables = tables;
    this.running = false;
    this.resting = 0;
    this.wakers = [];
    this.restWaiters = [];
  }

  async gate() {
    if (this.running) return;
    this.resting += 1;
    this.notifyRest();
    await new Promise((resolve) => this.wakers.push(resolve));
    this.resting -= 1;
  }

  run() {
    this.running = true;
    for (const wake of this.wakers.splice(0)) wake();
  }

  pause() {
    this.running = false;
    return new Promise((resolve) => {
      this.restWaiters.push(resolve);
      this.notifyRest();
    });
  }

  notifyRest() {
    if (this.resting === this.tables) for (const done of this.restWaiters.splice(0)) done();
  }
}

async function play(table, control, nextPlan) {
  for (;;) {
    await control.gate();
    try {
      if (table.plan === null || table.step >= table.plan.moves.length) {
        if (table.plan !== null && stats.measuring) stats.finished += 1;
        await table.start(nextPlan());
        if (stats.measuring) stats.created += 1;
      }
      const outcome = await table.move(stats);
      if (outcome !== null) {
        stats.failure(outcome);
        table.plan = null; // off the plan: start a new match
      }
    } catch (error) {
      stats.failure(`error: ${error.message}`);
      table.plan = null;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function reply(object) {
  process.stdout.write(`${JSON.stringify(object)}\n`);
}

async function main() {
  const name = option('peer', 'bgio') === 'colyseus' ? 'colyseus' : 'bgio';
  const peer = require(`./${name}_driver.cjs`);
  const checks = require(`./${name}_check.cjs`);
  const address = option('address', '127.0.0.1:8000');
  const count = Number(option('tables', '16'));
  const plans = Array.from({ length: Number(option('plans', '64')) }, (_, n) => eights.plan(n + 1));
  let next = 0;
  const nextPlan = () => plans[next++ % plans.length];
  const tables = Array.from({ length: count }, () => peer.table(address, stats));
  const control = new Control(count);
  for (const table of tables) play(table, control, nextPlan);
  reply({ ready: true, moves_per_game: plans.map((p) => p.moves.length), complete: plans.every((p) => p.complete) });
  const commands = {
    check: async () => checks.check(address),
    run: async () => (control.run(), { running: true }),
    measure: async () => (stats.reset(), (stats.measuring = true), { measuring: true }),
    report: async () => {
      stats.measuring = false;
      const { moves, latencies, updates, failures, created, finished } = stats;
      return { moves, latencies_ms: latencies, updates, failures, created, finished };
    },
    pause: async () => (await control.pause(), { paused: true }),
    quit: async () => process.exit(0),
  };
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const command = commands[line.trim()];
    reply(command ? await command() : { error: `unknown command ${line}` });
  }
  process.exit(0); // stdin closed: bench.peers is gone
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
