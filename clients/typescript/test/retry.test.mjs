// retryingTransport against a running referee, over both faces (see the_gang.test.mjs for
// the URLs). Faults come from an interceptor on the real transport, below the retries: it
// counts every try, refuses some before they are sent (Unavailable), or lets the referee
// answer and then loses the answer (Unavailable) or holds it past the deadline
// (DeadlineExceeded), so a lost move has really been applied.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  ChipColour,
  Code,
  ConnectError,
  NO_RETRY,
  createContextValues,
  createRefereeClient,
  refereeError,
  retryPolicy,
  retryingTransport,
} from "@referee/client";
import { createRefereeGrpcTransport } from "@referee/client/node";
import { createRefereeWebTransport } from "@referee/client/web";

const CALL = { timeoutMs: 10_000 };
const QUICK = { initialMs: 5, multiplier: 2, maximumMs: 20, jitter: false };
const LOST = "the answer was lost on the way back";
const UNREACHABLE = "http://127.0.0.1:1"; // nothing listens on port 1

function url(name) {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set: run tests/clients/test_typescript_client.py, or set it`);
  }
  return value;
}

function takeChip(colour, stars) {
  return { game: { case: "theGang", value: { action: { case: "takeChip", value: { colour, stars } } } } };
}

function untilAborted(signal) {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** The fault interceptor: per method name, tries counted and faults to come. */
function faults() {
  const counts = { tries: new Map(), refuse: new Map(), lose: new Map(), late: new Map() };
  const requests = new Map();
  const take = (map, name) => {
    const left = map.get(name) ?? 0;
    if (left > 0) map.set(name, left - 1);
    return left > 0;
  };
  const interceptor = (next) => async (request) => {
    const name = request.method.name;
    counts.tries.set(name, (counts.tries.get(name) ?? 0) + 1);
    requests.set(name, [...(requests.get(name) ?? []), request.message]);
    if (take(counts.refuse, name)) throw new ConnectError("refused before it was sent", Code.Unavailable);
    const response = await next(request);
    if (take(counts.lose, name)) throw new ConnectError(LOST, Code.Unavailable);
    if (take(counts.late, name)) {
      await untilAborted(request.signal); // the answer is in, but comes after the deadline
      throw request.signal.reason;
    }
    return response;
  };
  const tries = (name) => counts.tries.get(name) ?? 0;
  return { ...counts, requests, interceptor, tries };
}

async function thrownBy(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("expected the call to fail");
}

/** A table of The Gang through `base`, and seat clients through `retrying`. */
async function table(base, retrying) {
  const created = await createRefereeClient(base).createGame({ game: "the_gang", seats: 3 }, CALL);
  const seats = created.seatTokens.map((t) => createRefereeClient(retrying, t.token));
  return { gameId: created.gameId, seats };
}

function retryTests(face, transportFor) {
  const base = () => transportFor(url(face === "grpc" ? "REFEREE_GRPC_URL" : "REFEREE_HTTP_URL"));
  const faulty = (options = {}) => {
    const fault = faults();
    const inner = transportFor(url(face === "grpc" ? "REFEREE_GRPC_URL" : "REFEREE_HTTP_URL"), {
      interceptors: [fault.interceptor],
    });
    return { fault, transport: retryingTransport(inner, { backoff: QUICK, ...options }) };
  };

  test(`${face}: a read refused twice is tried again and answered`, async () => {
    const { fault, transport } = faulty();
    const { gameId, seats } = await table(base(), transport);
    fault.refuse.set("ListLegalMoves", 2);
    const legal = await seats[0].listLegalMoves({ gameId }, CALL);
    assert.equal(legal.version, 0n);
    assert.ok(legal.moves.length > 0);
    assert.equal(fault.tries("ListLegalMoves"), 3);
  });

  test(`${face}: a move whose answer is lost is resent under its one id: duplicate, one version`, async () => {
    const { fault, transport } = faulty();
    const { gameId, seats } = await table(base(), transport);
    fault.lose.set("SubmitMove", 1);
    const reply = await seats[1].submitMove({ gameId, move: takeChip(ChipColour.WHITE, 1) }, CALL);
    assert.equal(reply.version, 1n);
    assert.equal(reply.duplicate, true);
    const sent = fault.requests.get("SubmitMove").map((m) => m.clientMoveId);
    assert.equal(sent.length, 2);
    assert.match(sent[0], /^[0-9a-f]{32}$/, "an id made once, before the first try");
    assert.equal(sent[1], sent[0]);
    const history = await seats[0].getHistory({ gameId }, CALL);
    assert.equal(history.version, 1n);
    assert.equal(history.entries.length, 1);
  });

  test(`${face}: a move answered after its deadline is resent with its own id and deadline`, async () => {
    const { fault, transport } = faulty();
    const { gameId, seats } = await table(base(), transport);
    fault.late.set("SubmitMove", 1);
    const clientMoveId = "mine-late-1";
    const reply = await seats[2].submitMove(
      { gameId, move: takeChip(ChipColour.WHITE, 3), clientMoveId, expectedVersion: 0n },
      { timeoutMs: 500 },
    );
    assert.equal(reply.duplicate, true);
    assert.equal(reply.version, 1n);
    assert.deepEqual(fault.requests.get("SubmitMove").map((m) => m.clientMoveId), [clientMoveId, clientMoveId]);
    assert.equal((await seats[0].getView({ gameId }, CALL)).view.version, 1n);
  });

  test(`${face}: an unreachable referee is given up on with the typed Unavailable`, async () => {
    const fault = faults();
    const inner = transportFor(UNREACHABLE, { interceptors: [fault.interceptor] });
    const client = createRefereeClient(retryingTransport(inner, { attempts: 2, backoff: QUICK }), "t");
    const error = refereeError(await thrownBy(client.getView({ gameId: "g" }, CALL)));
    assert.equal(error.code, Code.Unavailable);
    assert.match(error.message, /gave up after 3 tries/);
    assert.equal(fault.tries("GetView"), 3);
  });

  test(`${face}: answers, creates and calls with NO_RETRY are tried once`, async () => {
    const { fault, transport } = faulty();
    const { gameId, seats } = await table(base(), transport);
    const illegal = seats[0].submitMove({ gameId, move: takeChip(ChipColour.YELLOW, 1) }, CALL);
    const refused = refereeError(await thrownBy(illegal));
    assert.equal(refused.code, Code.FailedPrecondition);
    assert.equal(refused.reason, "CHIP_NOT_IN_PLAY");
    assert.equal(fault.tries("SubmitMove"), 1);

    fault.lose.set("CreateGame", 1); // a game now exists that its creator never heard of
    const create = createRefereeClient(transport).createGame({ game: "the_gang", seats: 3 }, CALL);
    assert.equal(refereeError(await thrownBy(create)).code, Code.Unavailable);
    assert.equal(fault.tries("CreateGame"), 1);

    fault.refuse.set("GetView", 1);
    const once = { ...CALL, contextValues: createContextValues().set(retryPolicy, NO_RETRY) };
    assert.equal(refereeError(await thrownBy(seats[0].getView({ gameId }, once))).code, Code.Unavailable);
    assert.equal(fault.tries("GetView"), 1);
    assert.equal((await seats[0].getView({ gameId }, CALL)).view.version, 0n);
  });

  test(`${face}: a cancel ends the pause before the next try`, async () => {
    const { fault, transport } = faulty({ backoff: { ...QUICK, initialMs: 60_000, maximumMs: 60_000 } });
    const { gameId, seats } = await table(base(), transport);
    fault.refuse.set("GetView", 1);
    const controller = new AbortController();
    const reading = seats[0].getView({ gameId }, { signal: controller.signal });
    while (fault.tries("GetView") < 1) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    assert.equal(refereeError(await thrownBy(reading)).code, Code.Canceled);
    assert.equal(fault.tries("GetView"), 1);
  });
}

describe("grpc retries", () => {
  retryTests("grpc", (baseUrl, options) => createRefereeGrpcTransport(baseUrl, options));
});

describe("connect-json retries", () => {
  retryTests("connect-json", (baseUrl, options) => createRefereeWebTransport(baseUrl, options));
});
