// The lobby through the built package against a running referee, over both faces (see
// the_gang.test.mjs for the URLs): an open table created with a join code, joined by code,
// found in ListGames, and the Table of a view read through the generated client; ListGames
// retried after a transport failure by retryingTransport, JoinGame never.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  Code,
  ConnectError,
  SeatHolder,
  TableStatus,
  createLobbyClient,
  createRefereeClient,
  refereeError,
  retryingTransport,
} from "@referee/client";
import { createRefereeGrpcTransport } from "@referee/client/node";
import { createRefereeWebTransport } from "@referee/client/web";

const CALL = { timeoutMs: 10_000 };
const QUICK = { initialMs: 5, multiplier: 2, maximumMs: 20, jitter: false };

function url(name) {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set: run tests/clients/test_typescript_client.py, or set it`);
  }
  return value;
}

/** Refuses the next `refuse.get(name)` tries of a method before they are sent; counts tries. */
function refusals() {
  const refuse = new Map();
  const tries = new Map();
  const interceptor = (next) => async (request) => {
    const name = request.method.name;
    tries.set(name, (tries.get(name) ?? 0) + 1);
    const left = refuse.get(name) ?? 0;
    if (left > 0) {
      refuse.set(name, left - 1);
      throw new ConnectError("refused before it was sent", Code.Unavailable);
    }
    return next(request);
  };
  return { refuse, interceptor, tries: (name) => tries.get(name) ?? 0 };
}

async function thrownBy(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("expected the call to fail");
}

function lobbyTests(face, transportFor) {
  const address = () => url(face === "grpc" ? "REFEREE_GRPC_URL" : "REFEREE_HTTP_URL");

  test(`${face}: an open table is joined by code, listed, and its Table read in a view`, async () => {
    const transport = transportFor(address());
    const created = await createRefereeClient(transport).createGame(
      { game: "pinched", seats: 4, openSeats: 2, names: ["Ada", "Bo"], listed: true },
      CALL,
    );
    assert.ok(created.adminToken && created.joinCode);
    assert.equal(created.table.status, TableStatus.OPEN);
    const lobby = createLobbyClient(transport);
    const joined = await lobby.joinGame({ joinCode: created.joinCode, displayName: "Cy" }, CALL);
    assert.equal(joined.gameId, created.gameId);
    assert.equal(joined.seat, 2);
    const page = await lobby.listGames({ game: "pinched", status: TableStatus.OPEN, pageSize: 20 }, CALL);
    const mine = page.games.find((g) => g.gameId === created.gameId);
    assert.ok(mine, "the new table is on the first page (newest first)");
    assert.equal(mine.seatsTaken, 3);
    assert.deepEqual(mine.names, ["Ada", "Bo", "Cy", ""]);
    const seat = createRefereeClient(transport, joined.seatToken);
    const { view } = await seat.getView({ gameId: created.gameId }, CALL);
    assert.equal(view.seat, 2);
    assert.equal(view.table.status, TableStatus.OPEN);
    assert.deepEqual(view.table.seats.map((s) => s.name), ["Ada", "Bo", "Cy", ""]);
    assert.equal(view.table.seats[2].holder, SeatHolder.PLAYER);
    const admin = createLobbyClient(transport, created.adminToken);
    const started = await admin.startGame({ gameId: created.gameId }, CALL);
    assert.equal(started.table.status, TableStatus.LIVE);
    assert.equal(started.table.seats[3].holder, SeatHolder.BOT);
    const spent = refereeError(
      await thrownBy(lobby.joinGame({ joinCode: created.joinCode, displayName: "Di" }, CALL)),
    );
    assert.equal(spent.code, Code.NotFound);
    assert.equal(spent.reason, "JOIN_CODE_INVALID");
  });

  test(`${face}: ListGames is tried again after a transport failure, JoinGame is not`, async () => {
    const faults = refusals();
    const inner = transportFor(address(), { interceptors: [faults.interceptor] });
    const transport = retryingTransport(inner, { backoff: QUICK });
    const lobby = createLobbyClient(transport);
    faults.refuse.set("ListGames", 2);
    const page = await lobby.listGames({ pageSize: 1 }, CALL);
    assert.ok(page.games.length <= 1);
    assert.equal(faults.tries("ListGames"), 3);
    faults.refuse.set("JoinGame", 1);
    const join = lobby.joinGame({ joinCode: "ZZZZ-ZZZZ", displayName: "Cy" }, CALL);
    assert.equal(refereeError(await thrownBy(join)).code, Code.Unavailable);
    assert.equal(faults.tries("JoinGame"), 1);
  });
}

describe("grpc lobby", () => {
  lobbyTests("grpc", (baseUrl, options) => createRefereeGrpcTransport(baseUrl, options));
});

describe("connect-json lobby", () => {
  lobbyTests("connect-json", (baseUrl, options) => createRefereeWebTransport(baseUrl, options));
});
