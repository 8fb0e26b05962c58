// The ratings through the built package against a running referee, over both faces (see
// the_gang.test.mjs for the URLs): a leaderboard page is ranked from 1 and ordered by
// ordinal; a player never rated is NOT_FOUND RATING_NOT_FOUND, an unknown game
// INVALID_ARGUMENT GAME_UNKNOWN; the reads are tried again after a transport failure.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Code, ConnectError, createRatingClient, refereeError, retryingTransport } from "@referee/client";
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

async function thrownBy(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("expected the call to fail");
}

/** Refuses the first `count` tries of every call before they are sent; counts tries. */
function refusing(count) {
  let tries = 0;
  const interceptor = (next) => async (request) => {
    tries += 1;
    if (tries <= count) throw new ConnectError("refused before it was sent", Code.Unavailable);
    return next(request);
  };
  return { interceptor, tries: () => tries };
}

function ratingTests(face, transportFor) {
  const address = () => url(face === "grpc" ? "REFEREE_GRPC_URL" : "REFEREE_HTTP_URL");

  test(`${face}: a leaderboard page is ranked from 1 by ordinal, highest first`, async () => {
    const ratings = createRatingClient(transportFor(address()));
    const page = await ratings.listLeaderboard({ game: "pinched", pageSize: 5 }, CALL);
    assert.ok(page.entries.length <= 5);
    page.entries.forEach((entry, position) => {
      assert.equal(entry.rank, position + 1);
      assert.equal(entry.rating.game, "pinched");
    });
    const ordinals = page.entries.map((entry) => entry.rating.skill.ordinal);
    assert.deepEqual(ordinals, [...ordinals].sort((a, b) => b - a));
  });

  test(`${face}: a player never rated is not found, an unknown game refused`, async () => {
    const ratings = createRatingClient(transportFor(address()));
    const never = { game: "the_gang", playerId: `never-rated-${Date.now()}` };
    const missing = refereeError(await thrownBy(ratings.getRating(never, CALL)));
    assert.equal(missing.code, Code.NotFound);
    assert.equal(missing.reason, "RATING_NOT_FOUND");
    const history = refereeError(await thrownBy(ratings.listRatingHistory(never, CALL)));
    assert.equal(history.reason, "RATING_NOT_FOUND");
    const unknown = refereeError(await thrownBy(ratings.listLeaderboard({ game: "chess" }, CALL)));
    assert.equal(unknown.code, Code.InvalidArgument);
    assert.equal(unknown.reason, "GAME_UNKNOWN");
  });

  test(`${face}: ListLeaderboard is tried again after a transport failure`, async () => {
    const faults = refusing(2);
    const inner = transportFor(address(), { interceptors: [faults.interceptor] });
    const ratings = createRatingClient(retryingTransport(inner, { backoff: QUICK }));
    const page = await ratings.listLeaderboard({ game: "gang_of_four", pageSize: 1 }, CALL);
    assert.ok(page.entries.length <= 1);
    assert.equal(faults.tries(), 3);
  });
}

describe("grpc ratings", () => {
  ratingTests("grpc", (baseUrl, options) => createRefereeGrpcTransport(baseUrl, options));
});

describe("connect-json ratings", () => {
  ratingTests("connect-json", (baseUrl, options) => createRefereeWebTransport(baseUrl, options));
});
