"""The lobby's bounds hammered against `referee serve` (its own process, loopback only).

- Guessing join codes: past the wrong codes per address and minute every JoinGame by code
  is RESOURCE_EXHAUSTED JOIN_CODE_ATTEMPTS_EXCEEDED without a look at the code (a real one
  included); another address (127.0.0.2, still loopback) joins with its real code.
- The joins quota: past the joins per address and minute every JoinGame is
  RESOURCE_EXHAUSTED JOIN_RATE_EXCEEDED; exactly the table's open seats were taken.
- ListGames: past its rate per caller (bursts of twice that) RESOURCE_EXHAUSTED
  LIST_RATE_EXCEEDED; another address lists meanwhile.

All three floods at once, from an attacker process, leave a victim's table unhurt
(:func:`check_unhurt`). Each test is bounded in calls, the flood in time.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import time
from collections.abc import Iterator
from typing import Any

import grpc
import httpx
import pytest
import redis

from referee.v1 import lobby_pb2, lobby_pb2_grpc, referee_pb2, referee_pb2_grpc
from service.storage.seat_codes import new_code
from tests.abuse.harness import Pace, Stop, Victim, attacking, check_unhurt, compare, merged
from tests.servers import Served, referee_process
from tests.service.table import reason_of

L = lobby_pb2
ABUSE_DB = 13  # a database of the session's Redis of its own: the counters start at zero
ATTEMPTS_PER_MINUTE = 10
JOINS_PER_MINUTE = 60
LIST_PER_SECOND = 5
LOBBY = "/referee.v1.LobbyService"
EXHAUSTED = grpc.StatusCode.RESOURCE_EXHAUSTED


@pytest.fixture(scope="module")
def served(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    url = _abuse_url(redis_url)
    client = redis.Redis.from_url(url)
    client.flushdb()
    try:
        env = {
            "REFEREE_SEAT_CODE_ATTEMPTS_PER_MINUTE": str(ATTEMPTS_PER_MINUTE),
            "REFEREE_JOINS_PER_MINUTE": str(JOINS_PER_MINUTE),
            "REFEREE_LIST_GAMES_PER_SECOND": str(LIST_PER_SECOND),
        }
        with referee_process(url, tmp_path_factory.mktemp("abuse-lobby"), env) as process:
            yield process
    finally:
        client.flushdb()
        client.close()


@pytest.fixture(autouse=True)
def fresh_counters(redis_url: str) -> None:
    """Each test starts with no joins or wrong codes counted against loopback."""
    client = redis.Redis.from_url(_abuse_url(redis_url))
    try:
        if stale := [*client.keys("seatcode:attempts:*"), *client.keys("lobby:joins:*")]:
            client.delete(*stale)
    finally:
        client.close()


def _abuse_url(redis_url: str) -> str:
    return f"{redis_url.rstrip('/').rsplit('/', 1)[0]}/{ABUSE_DB}"


async def create(served: Served, **fields: Any) -> referee_pb2.CreateGameResponse:
    async with grpc.aio.insecure_channel(served.grpc) as channel:
        reply: referee_pb2.CreateGameResponse = await referee_pb2_grpc.RefereeServiceStub(
            channel
        ).CreateGame(referee_pb2.CreateGameRequest(game="gang_of_four", seats=4, **fields))
        return reply


async def flood(
    served: Served, requests: Iterator[Any], calls: int, concurrency: int = 8
) -> collections.Counter[str]:
    """``calls`` lobby calls from 127.0.0.1 (each request a JoinGame or ListGames request),
    ``concurrency`` at a time: the answers by reason ("OK" for an answer)."""
    seen: collections.Counter[str] = collections.Counter()
    bounded = itertools.islice(requests, calls)  # shared: each request is sent once
    async with grpc.aio.insecure_channel(served.grpc) as channel:
        lobby = lobby_pb2_grpc.LobbyServiceStub(channel)

        async def send() -> None:
            for request in bounded:
                method = (
                    lobby.ListGames if isinstance(request, L.ListGamesRequest) else lobby.JoinGame
                )
                try:
                    await method(request, timeout=10)
                    seen["OK"] += 1
                except grpc.aio.AioRpcError as error:
                    code, reason, metadata = reason_of(error)
                    if reason == "LIST_RATE_EXCEEDED":  # its wait in a RetryInfo detail
                        assert metadata["quota"] == "list_games_per_second"
                    elif code == EXHAUSTED:
                        assert 1 <= int(metadata["retry_after_seconds"]) <= 60
                    seen[reason] += 1

        await asyncio.gather(*(send() for _ in range(concurrency)))
    return seen


async def from_elsewhere(served: Served, method: str, body: dict[str, Any]) -> httpx.Response:
    """One lobby call over HTTP/JSON from another loopback address (127.0.0.2)."""
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with httpx.AsyncClient(base_url=served.http, transport=transport, timeout=10) as http:
        return await http.post(f"{LOBBY}/{method}", json=body)


async def test_guessing_join_codes_is_bounded_per_address(served: Served) -> None:
    table = await create(served, open_seats=2)
    guesses = (L.JoinGameRequest(join_code=new_code(), display_name="x") for _ in itertools.count())
    seen = await flood(served, guesses, 50)
    assert seen == {
        "JOIN_CODE_INVALID": ATTEMPTS_PER_MINUTE,
        "JOIN_CODE_ATTEMPTS_EXCEEDED": 50 - ATTEMPTS_PER_MINUTE,
    }
    real = L.JoinGameRequest(join_code=table.join_code, display_name="Cy")
    assert await flood(served, iter([real]), 1, 1) == {"JOIN_CODE_ATTEMPTS_EXCEEDED": 1}
    joined = await from_elsewhere(
        served, "JoinGame", {"joinCode": table.join_code, "displayName": "Di"}
    )
    assert joined.status_code == 200, joined.text
    assert joined.json()["seat"] == 2  # the flood took no seat


async def test_the_joins_quota_refuses_past_its_rate(served: Served) -> None:
    table = await create(served, open_seats=4, listed=True)
    joins = (
        L.JoinGameRequest(game_id=table.game_id, display_name=f"p{n}") for n in itertools.count()
    )
    seen = await flood(served, joins, JOINS_PER_MINUTE + 10)
    assert seen == {
        "OK": 4,  # exactly the open seats
        "GAME_ALREADY_STARTED": JOINS_PER_MINUTE - 4,
        "JOIN_RATE_EXCEEDED": 10,
    }
    other = await create(served, open_seats=1, listed=True)
    joined = await from_elsewhere(
        served, "JoinGame", {"gameId": other.game_id, "displayName": "Di"}
    )
    assert joined.status_code == 200, joined.text


async def test_listing_is_rate_limited_per_caller(served: Served) -> None:
    began = time.monotonic()
    pages = (L.ListGamesRequest(page_size=1) for _ in itertools.count())
    seen = await flood(served, pages, 200)
    elapsed = time.monotonic() - began
    assert set(seen) == {"OK", "LIST_RATE_EXCEEDED"}
    assert 2 * LIST_PER_SECOND <= seen["OK"] <= 2 * LIST_PER_SECOND + LIST_PER_SECOND * elapsed + 1
    listed = await from_elsewhere(served, "ListGames", {"pageSize": 1})
    assert listed.status_code == 200, listed.text


def attack_the_lobby(served: Served, stop: Stop) -> dict[str, Any]:
    """Join-code guesses, joins of a full table and listings, in turn, until ``stop``."""
    return asyncio.run(_attack(served, stop))


async def _attack(served: Served, stop: Stop) -> dict[str, Any]:
    refusals: collections.Counter[str] = collections.Counter()
    tally = {"attempts": 0, "joined": 0}
    full = await create(served, listed=True)
    pace = Pace()
    kinds = itertools.cycle(["guess", "join", "list"])
    async with grpc.aio.insecure_channel(served.grpc) as channel:
        lobby = lobby_pb2_grpc.LobbyServiceStub(channel)

        async def one(kind: str) -> None:
            if kind == "list":
                await lobby.ListGames(L.ListGamesRequest(page_size=50), timeout=10)
                return
            code, game_id = (new_code(), "") if kind == "guess" else ("", full.game_id)
            request = L.JoinGameRequest(join_code=code, game_id=game_id, display_name="x")
            await lobby.JoinGame(request, timeout=10)
            tally["joined"] += 1

        async def hammer() -> None:
            while not stop.is_set():
                await asyncio.sleep(pace.delay())
                tally["attempts"] += 1
                try:
                    await one(next(kinds))
                except grpc.aio.AioRpcError as error:
                    refusals[reason_of(error)[1]] += 1

        await asyncio.gather(*(hammer() for _ in range(8)))
    return {**tally, "refusals": dict(refusals)}


def test_the_lobby_floods_leave_another_table_unhurt(served: Served) -> None:
    with Victim(served.grpc) as victim, attacking(attack_the_lobby, served) as attack:
        before, during = compare(victim, attack)
    seen = merged(attack.results)
    assert seen["joined"] == 0 and seen["attempts"] > 0
    assert set(seen["refusals"]) <= {
        "JOIN_CODE_INVALID",
        "JOIN_CODE_ATTEMPTS_EXCEEDED",
        "JOIN_RATE_EXCEEDED",
        "GAME_ALREADY_STARTED",
        "LIST_RATE_EXCEEDED",
    }
    assert "LIST_RATE_EXCEEDED" in seen["refusals"] and "JOIN_RATE_EXCEEDED" in seen["refusals"]
    check_unhurt("lobby floods (join codes, joins, listings)", before, during, seen)
