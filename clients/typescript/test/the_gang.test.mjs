// Whole games of The Gang against a running referee, through the BUILT package (dist/,
// imported by the package's own name so its "exports" map is exercised too).
//
//   REFEREE_GRPC_URL=http://127.0.0.1:PORT   gRPC (HTTP/2 cleartext), the ./node entry
//   REFEREE_HTTP_URL=http://127.0.0.1:PORT   Connect JSON: the ./web entry's fetch transport
//                                            (the browser path) and the ./node JSON one
//
// tests/clients/test_typescript_client.py starts a referee and runs this file. A missing
// URL fails its half loudly; nothing is skipped.
import assert from "node:assert/strict";
import { createHash, randomUUID } from "node:crypto";
import { describe, test } from "node:test";

import {
  ChipColour,
  Code,
  bearerAuth,
  createRefereeClient,
  refereeError,
} from "@referee/client";
import { createRefereeGrpcTransport, createRefereeJsonTransport } from "@referee/client/node";
import { createRefereeWebTransport } from "@referee/client/web";

const SEATS = 3;
const MAX_MOVES = 200; // 5 heists of 4 rounds of 3 chips at most: 60 moves
const COLOURS = [ChipColour.WHITE, ChipColour.YELLOW, ChipColour.ORANGE, ChipColour.RED];

function url(name) {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set: run tests/clients/test_typescript_client.py, or set it`);
  }
  return value;
}

/** A deadline, so a stuck call fails the test instead of hanging it. */
const CALL = { timeoutMs: 10_000 };

function takeChip(colour, stars) {
  return { game: { case: "theGang", value: { action: { case: "takeChip", value: { colour, stars } } } } };
}

function returnChip(colour, stars) {
  return { game: { case: "theGang", value: { action: { case: "returnChip", value: { colour, stars } } } } };
}

async function createTable(transport) {
  const anonymous = createRefereeClient(transport);
  const created = await anonymous.createGame({ game: "the_gang", seats: SEATS }, CALL);
  assert.equal(created.version, 0n);
  assert.match(created.seedSha256, /^[0-9a-f]{64}$/);
  assert.deepEqual(
    created.seatTokens.map((t) => t.seat),
    [...Array(SEATS).keys()],
  );
  const seats = created.seatTokens.map((t) => createRefereeClient(transport, t.token));
  return { created, gameId: created.gameId, seats };
}

/** The Gang's part of a view (the `game_view` oneof). */
function gang(view) {
  assert.equal(view.gameView.case, "theGang");
  return view.gameView.value;
}

/** The current round's chips: stars -> holder (undefined: in the centre). */
function holders(view) {
  const row = gang(view).chips.at(-1);
  assert.equal(row.colour, gang(view).round);
  return new Map(row.chips.map((chip) => [chip.stars, chip.holder]));
}

function holds(view, seat) {
  return [...holders(view).values()].includes(seat);
}

/**
 * The policy of tests/service/players.py and the_gang_driver.py (pick_move): every seat that
 * may act and holds no chip of this round takes one from the centre (the first legal such
 * move), so each round ends after one chip per seat and each heist ends after four rounds;
 * three vaults or three alarms end the game within five heists.
 */
function progressMove(view, legal) {
  const centre = holders(view);
  return legal.find((move) => {
    const action = move.game.case === "theGang" ? move.game.value.action : undefined;
    if (action?.case === "confirmRoundEnd") return true;
    return action?.case === "takeChip" && centre.get(action.value.stars) === undefined;
  });
}

/** `promise`, or a failure after `ms` (the timer never keeps the process alive). */
async function within(promise, ms, message) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Seat 0's WatchGame stream, collected in the background once its snapshot arrived. */
async function watch(client, gameId) {
  const controller = new AbortController();
  const stream = client.watchGame({ gameId }, { signal: controller.signal })[Symbol.asyncIterator]();
  const first = await stream.next();
  assert.equal(first.done, false);
  const messages = [first.value];
  const done = (async () => {
    try {
      for (;;) {
        const next = await stream.next();
        if (next.done) return messages;
        messages.push(next.value);
        if (next.value.view?.outcome) return messages;
      }
    } catch (error) {
      if (controller.signal.aborted) return messages; // stopped by the test
      throw error;
    }
  })();
  return { messages, done, stop: () => controller.abort() };
}

async function playCompleteGame(transport) {
  const { created, gameId, seats } = await createTable(transport);
  const watcher = await watch(seats[0], gameId);
  try {
    assert.equal(watcher.messages[0].snapshot, true);
    assert.equal(watcher.messages[0].version, 0n);

    let view = (await seats[0].getView({ gameId }, CALL)).view;
    assert.equal(view.seat, 0);
    assert.equal(gang(view).pocket.length, 2, "a seat sees its own two pocket cards");
    let moves = 0;
    while (!view.outcome) {
      assert.ok(view.toAct.length > 0, "someone may act until the game is over");
      const before = view.version;
      for (const seat of view.toAct) {
        const legal = await seats[seat].listLegalMoves({ gameId }, CALL);
        assert.equal(legal.version, view.version);
        assert.ok(legal.moves.length > 0, `seat ${seat} is in toAct but has no legal move`);
        if (holds(view, seat)) continue;
        const move = progressMove(view, legal.moves);
        assert.ok(move, `seat ${seat} holds no chip but cannot take one from the centre`);
        const reply = await seats[seat].submitMove(
          { gameId, move, clientMoveId: randomUUID(), expectedVersion: view.version },
          CALL,
        );
        assert.equal(reply.version, view.version + 1n);
        assert.equal(reply.duplicate, false);
        assert.equal(reply.view.seat, seat);
        view = reply.view;
        moves += 1;
        assert.ok(moves <= MAX_MOVES, "the game does not end");
        break; // the view changed: look at toAct afresh
      }
      assert.ok(view.version > before, "a pass over toAct made no move");
    }
    assert.equal(view.toAct.length, 0);
    const { vaults, alarms, vaultsToWin, alarmsToLose } = gang(view);
    assert.ok(vaults === vaultsToWin || alarms === alarmsToLose, `${vaults} vaults, ${alarms} alarms`);
    assert.equal(view.outcome.winners.length, vaults === vaultsToWin ? SEATS : 0);

    const watched = await within(watcher.done, 10_000, "the watch stalled before the outcome");
    const versions = watched.map((m) => m.version);
    assert.deepEqual(
      versions,
      Array.from({ length: Number(view.version) + 1 }, (_, i) => BigInt(i)),
      "WatchGame brings every version once, in order",
    );
    assert.ok(watched.slice(1).every((m) => !m.snapshot && m.events.length > 0));
    assert.ok(watched.at(-1).view.outcome);

    const history = await seats[1].getHistory({ gameId }, CALL);
    assert.equal(history.version, view.version);
    assert.equal(history.entries.length, Number(view.version));
    assert.equal(history.seedSha256, created.seedSha256);
    assert.ok(history.seed.length > 0, "the seed is revealed once the game is over");
    assert.equal(createHash("sha256").update(history.seed).digest("hex"), created.seedSha256);
    assert.deepEqual(history.outcome?.winners, view.outcome.winners);
    return view;
  } finally {
    watcher.stop();
  }
}

async function expectRejection(call, code, reason) {
  let thrown;
  try {
    await call;
  } catch (error) {
    thrown = error;
  }
  assert.ok(thrown, `expected ${Code[code]} ${reason ?? ""}, but the call succeeded`);
  const rejected = refereeError(thrown);
  assert.equal(rejected.code, code, `${Code[rejected.code]} ${rejected.reason}: ${rejected.message}`);
  assert.match(rejected.reason ?? "", /^[A-Z][A-Z0-9_]*$/, "an ErrorInfo reason (domain referee.v1)");
  if (reason) assert.equal(rejected.reason, reason);
  assert.ok(rejected.message.length > 0);
  return rejected;
}

async function typedErrors(transport) {
  const { created, gameId, seats } = await createTable(transport);
  const white = ChipColour.WHITE;
  const submit = (client, move, extra = {}) =>
    client.submitMove({ gameId, move, clientMoveId: randomUUID(), ...extra }, CALL);

  // Against the rules now: returning a chip nobody holds, taking a later round's chip.
  await expectRejection(submit(seats[0], returnChip(white, 1)), Code.FailedPrecondition, "CHIP_NOT_HELD");
  await expectRejection(submit(seats[0], takeChip(COLOURS[1], 1)), Code.FailedPrecondition, "CHIP_NOT_IN_PLAY");
  // Malformed: a chip that does not exist at a table of three, and a move of no game.
  await expectRejection(submit(seats[0], takeChip(white, SEATS + 1)), Code.InvalidArgument, "CHIP_OUT_OF_RANGE");
  await expectRejection(submit(seats[0], {}), Code.InvalidArgument);
  // A stale expected_version: Aborted, with the current version in the ErrorInfo metadata.
  await submit(seats[0], takeChip(white, 1), { expectedVersion: 0n });
  const stale = await expectRejection(
    submit(seats[1], takeChip(white, 2), { expectedVersion: 0n }),
    Code.Aborted,
    "VERSION_MISMATCH",
  );
  assert.deepEqual(stale.metadata, { current_version: "1" });
  // Tokens: a forged one, none at all, and a seat token of another game.
  const forged = createRefereeClient(transport, `${created.seatTokens[0].token.slice(0, -4)}AAAA`);
  await expectRejection(forged.getView({ gameId }, CALL), Code.Unauthenticated);
  await expectRejection(
    createRefereeClient(transport, "not-a-token").listLegalMoves({ gameId }, CALL),
    Code.Unauthenticated,
  );
  await expectRejection(createRefereeClient(transport).listLegalMoves({ gameId }, CALL), Code.Unauthenticated, "TOKEN_MISSING");
  const other = await createTable(transport);
  await expectRejection(other.seats[0].getView({ gameId }, CALL), Code.PermissionDenied);
  // A rejected call changed nothing.
  assert.equal((await seats[2].getView({ gameId }, CALL)).view.version, 1n);
}

// An unknown game id: NOT_FOUND, unless the seat token (minted for another id) is refused
// first; either way the rejection carries a reason.
async function unknownGameRejected(transport) {
  const { seats } = await createTable(transport);
  const rejected = refereeError(await seats[0].getView({ gameId: "no-such-game" }, CALL).catch((e) => e));
  assert.ok([Code.NotFound, Code.PermissionDenied].includes(rejected.code), Code[rejected.code]);
  assert.ok(rejected.reason);
}

describe("grpc", () => {
  let transport;
  const get = () => (transport ??= createRefereeGrpcTransport(url("REFEREE_GRPC_URL")));

  test("grpc: a complete game of The Gang, watched and verified", async () => {
    await playCompleteGame(get());
  });

  test("grpc: rejections are typed (code, ErrorInfo reason, metadata)", async () => {
    await typedErrors(get());
    await unknownGameRejected(get());
  });

  test("grpc: bearerAuth as a transport interceptor acts for one seat", async () => {
    const { created, gameId } = await createTable(get());
    const seatTwo = createRefereeGrpcTransport(url("REFEREE_GRPC_URL"), {
      interceptors: [bearerAuth(created.seatTokens[2].token)],
    });
    const view = (await createRefereeClient(seatTwo).getView({ gameId }, CALL)).view;
    assert.equal(view.seat, 2);
  });
});

describe("connect-json", () => {
  let transport;
  const get = () => (transport ??= createRefereeWebTransport(url("REFEREE_HTTP_URL")));

  test("connect-json: a complete game of The Gang over the web (fetch) transport", async () => {
    await playCompleteGame(get());
  });

  test("connect-json: rejections are typed over the web transport", async () => {
    await typedErrors(get());
    await unknownGameRejected(get());
  });

  test("connect-json: the Node HTTP/1.1 JSON transport plays too", async () => {
    const node = createRefereeJsonTransport(url("REFEREE_HTTP_URL"));
    const { gameId, seats } = await createTable(node);
    const legal = await seats[1].listLegalMoves({ gameId }, CALL);
    const move = progressMove((await seats[1].getView({ gameId }, CALL)).view, legal.moves);
    const reply = await seats[1].submitMove({ gameId, move, clientMoveId: randomUUID() }, CALL);
    assert.equal(reply.version, 1n);
    await expectRejection(seats[1].submitMove({ gameId, move, clientMoveId: randomUUID() }, CALL), Code.FailedPrecondition);
  });
});
