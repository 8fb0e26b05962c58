"""Floods against `referee serve` (its own process, loopback only, bounded in time): the
attacker gets its typed refusal, a well-behaved operator's calls keep working.

Each attack is a function ``attack_<name>(served, stop) -> dict`` (attempts, accepted,
refusals by reason, the attacker's rate): run alone until a deadline, or in the victim
harness's attacker processes (tests/abuse/harness.py), which compares a well-behaved
client's latency before and during it.
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import grpc
import pytest
import redis

from referee.v1 import referee_pb2, referee_pb2_grpc, tournament_pb2, tournament_pb2_grpc
from tests.abuse.harness import (
    Attack,
    Deadline,
    Pace,
    Stop,
    Victim,
    attacking,
    check_unhurt,
    compare,
    merged,
)
from tests.servers import Served, referee_process
from tests.service.table import reason_of

ABUSE_DB = 12
ATTACKER_KEY = "attacker-0123456789abcdef"
VICTIM_KEY = "victim-0123456789abcdef01"
# The attacker holds a key of its own, with small quotas; the victim's key has the defaults.
KEYS = (
    f"attacker {ATTACKER_KEY} creates_per_minute=200 live_games=150 live_tournaments=2 "
    f"live_bots=8 watch_streams=40 requests_per_second=2000; victim {VICTIM_KEY}"
)
# Anonymous callers (all of them loopback here): a request rate, a watch cap.
LOOPBACK_QUOTAS = "watch_streams=40 requests_per_second=100"
ENV = {"REFEREE_OPERATOR_KEYS": KEYS, "REFEREE_LOOPBACK_QUOTAS": LOOPBACK_QUOTAS}
CONCURRENCY = 16
MAX_ATTEMPTS = 30_000  # the flood, bounded by time as well
T = tournament_pb2


def _key(secret: str | None) -> tuple[tuple[str, str], ...]:
    return (("x-referee-key", secret),) if secret else ()


@pytest.fixture(scope="module")
def served(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    url = f"{redis_url.rstrip('/').rsplit('/', 1)[0]}/{ABUSE_DB}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    try:
        with referee_process(url, tmp_path_factory.mktemp("floods"), ENV) as process:
            yield process
    finally:
        client.flushdb()
        client.close()


async def _flood(
    call: Callable[[], Awaitable[Any]],
    stop: Stop,
    concurrency: int = CONCURRENCY,
    pace: Pace | None = None,
) -> dict[str, Any]:
    """``call`` from ``concurrency`` workers until ``stop`` (at most MAX_ATTEMPTS calls),
    as fast as they go or at ``pace``."""
    outcomes: collections.Counter[str] = collections.Counter()
    started = time.monotonic()

    async def worker() -> None:
        while not stop.is_set() and sum(outcomes.values()) < MAX_ATTEMPTS:
            if pace is not None:
                await asyncio.sleep(pace.delay())
            try:
                await call()
                outcomes["OK"] += 1
            except grpc.aio.AioRpcError as error:
                code, reason, _ = reason_of(error)
                outcomes[f"{code.name} {reason}"] += 1

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    elapsed = time.monotonic() - started
    attempts = sum(outcomes.values())
    return {
        "attempts": attempts,
        "accepted": outcomes.pop("OK", 0),
        "refusals": dict(outcomes),
        "attacker_rate": attempts / elapsed,
    }


async def create_game_flood(
    served: Served, stop: Stop, key: str | None = ATTACKER_KEY, pace: Pace | None = None
) -> dict[str, Any]:
    """CreateGame as fast as it goes (with the attacker's key; None: without any)."""
    async with grpc.aio.insecure_channel(served.grpc) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        request = referee_pb2.CreateGameRequest(game="the_gang", seats=3)
        return await _flood(lambda: stub.CreateGame(request, metadata=_key(key)), stop, pace=pace)


async def create_tournament_flood(
    served: Served, stop: Stop, pace: Pace | None = None
) -> dict[str, Any]:
    """CreateTournament of bot tournaments (four bots each) with the attacker's key."""
    request = T.CreateTournamentRequest(
        game="pinched",
        seats_per_table=2,
        participants=[T.ParticipantSpec(name=f"b{i}", bot=T.BOT_STRATEGY_RANDOM) for i in range(4)],
        format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
    )
    async with grpc.aio.insecure_channel(served.grpc) as channel:
        stub = tournament_pb2_grpc.TournamentServiceStub(channel)
        return await _flood(
            lambda: stub.CreateTournament(request, metadata=_key(ATTACKER_KEY)), stop, pace=pace
        )


async def watch_flood(
    served: Served, stop: Stop, games: int = 50, pace: Pace | None = None
) -> dict[str, Any]:
    """Anonymous watch streams on ``games`` distinct games, held open until the end."""
    async with grpc.aio.insecure_channel(served.grpc) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        create = referee_pb2.CreateGameRequest(game="the_gang", seats=3, allow_spectators=True)
        ids = [
            (await stub.CreateGame(create, metadata=_key(VICTIM_KEY))).game_id for _ in range(games)
        ]
        held: list[Any] = []
        next_game = iter(range(10**9))

        async def watch() -> None:
            index = next(next_game) % len(ids)
            call = stub.WatchGame(referee_pb2.WatchGameRequest(game_id=ids[index]))
            await call.read()  # admitted: the snapshot came
            held.append(call)

        try:
            return await _flood(watch, stop, 4, pace)
        finally:
            for call in held:
                call.cancel()


async def request_flood(served: Served, stop: Stop, pace: Pace | None = None) -> dict[str, Any]:
    """Anonymous GetView calls as fast as they go."""
    async with grpc.aio.insecure_channel(served.grpc) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        create = referee_pb2.CreateGameRequest(game="the_gang", seats=3, allow_spectators=True)
        game_id = (await stub.CreateGame(create, metadata=_key(VICTIM_KEY))).game_id
        request = referee_pb2.GetViewRequest(game_id=game_id)
        return await _flood(lambda: stub.GetView(request), stop, pace=pace)


async def _victim_works(served: Served) -> None:
    """The operator with its own key still creates, views and watches."""
    async with grpc.aio.insecure_channel(served.grpc) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        create = referee_pb2.CreateGameRequest(game="the_gang", seats=3, allow_spectators=True)
        created = await stub.CreateGame(create, metadata=_key(VICTIM_KEY))
        viewed = await stub.GetView(
            referee_pb2.GetViewRequest(game_id=created.game_id),
            metadata=(
                ("authorization", f"Bearer {created.seat_tokens[0].token}"),
                *_key(VICTIM_KEY),
            ),
        )
        assert viewed.view.version == 0


def _report(name: str, result: dict[str, Any]) -> None:
    print(f"\n{name}: {result}")  # the figures for docs/security.md (pytest -s)


async def test_a_create_game_flood_gets_its_quota_refusal(served: Served) -> None:
    result = await create_game_flood(served, Deadline(3.0))
    _report("create game flood", result)
    assert result["accepted"] <= 150, "never more than the key's live games"
    assert set(result["refusals"]) <= {
        "RESOURCE_EXHAUSTED CREATE_RATE_EXCEEDED",
        "RESOURCE_EXHAUSTED LIVE_GAMES_EXCEEDED",
    }
    assert result["refusals"], result
    await _victim_works(served)


async def test_a_create_game_flood_without_a_key_creates_nothing(served: Served) -> None:
    result = await create_game_flood(served, Deadline(1.0), key=None)
    _report("keyless create game flood", result)
    assert result["accepted"] == 0
    assert "UNAUTHENTICATED OPERATOR_KEY_REQUIRED" in result["refusals"]
    assert set(result["refusals"]) <= {  # anonymous, so the request rate too
        "UNAUTHENTICATED OPERATOR_KEY_REQUIRED",
        "RESOURCE_EXHAUSTED REQUEST_RATE_EXCEEDED",
    }
    await _victim_works(served)


async def test_a_create_tournament_flood_gets_its_quota_refusal(served: Served) -> None:
    result = await create_tournament_flood(served, Deadline(2.0))
    _report("create tournament flood", result)
    assert result["accepted"] <= 2
    assert set(result["refusals"]) <= {
        "RESOURCE_EXHAUSTED CREATE_RATE_EXCEEDED",
        "RESOURCE_EXHAUSTED LIVE_TOURNAMENTS_EXCEEDED",
        "RESOURCE_EXHAUSTED LIVE_BOTS_EXCEEDED",
    }
    assert result["refusals"], result
    await _victim_works(served)


async def test_a_watch_flood_gets_its_quota_refusal(served: Served) -> None:
    result = await watch_flood(served, Deadline(2.0))
    _report("watch flood", result)
    assert result["accepted"] == 40, "exactly the anonymous watch quota"
    assert "RESOURCE_EXHAUSTED WATCH_STREAMS_EXCEEDED" in result["refusals"]
    # Refused watches come back at once, so the attacker also meets its request rate.
    assert set(result["refusals"]) <= {
        "RESOURCE_EXHAUSTED WATCH_STREAMS_EXCEEDED",
        "RESOURCE_EXHAUSTED REQUEST_RATE_EXCEEDED",
    }
    await _victim_works(served)


async def test_a_request_flood_gets_its_rate_refusal(served: Served) -> None:
    result = await request_flood(served, Deadline(2.0))
    _report("request flood", result)
    assert result["accepted"] <= 100 * 2.0 + 200 + 50, "rate x time + the burst (+ slack)"
    assert set(result["refusals"]) == {"RESOURCE_EXHAUSTED REQUEST_RATE_EXCEEDED"}
    await _victim_works(served)


def attack_create_game_flood(served: Served, stop: Stop) -> dict[str, Any]:
    return asyncio.run(create_game_flood(served, stop, pace=Pace()))


def attack_keyless_create_game_flood(served: Served, stop: Stop) -> dict[str, Any]:
    return asyncio.run(create_game_flood(served, stop, None, Pace()))


def attack_create_tournament_flood(served: Served, stop: Stop) -> dict[str, Any]:
    return asyncio.run(create_tournament_flood(served, stop, Pace()))


def attack_watch_flood(served: Served, stop: Stop) -> dict[str, Any]:
    return asyncio.run(watch_flood(served, stop, pace=Pace()))


def attack_request_flood(served: Served, stop: Stop) -> dict[str, Any]:
    return asyncio.run(request_flood(served, stop, Pace()))


# Each flood in an attacker process, and the refusals it may meet.
FLOODS: dict[str, tuple[Attack, set[str]]] = {
    "create game flood (attacker's key)": (
        attack_create_game_flood,
        {"RESOURCE_EXHAUSTED CREATE_RATE_EXCEEDED", "RESOURCE_EXHAUSTED LIVE_GAMES_EXCEEDED"},
    ),
    "create game flood (no key)": (
        attack_keyless_create_game_flood,
        {"UNAUTHENTICATED OPERATOR_KEY_REQUIRED", "RESOURCE_EXHAUSTED REQUEST_RATE_EXCEEDED"},
    ),
    "create tournament flood": (
        attack_create_tournament_flood,
        {
            "RESOURCE_EXHAUSTED CREATE_RATE_EXCEEDED",
            "RESOURCE_EXHAUSTED LIVE_TOURNAMENTS_EXCEEDED",
            "RESOURCE_EXHAUSTED LIVE_BOTS_EXCEEDED",
        },
    ),
    "watch flood": (
        attack_watch_flood,
        {"RESOURCE_EXHAUSTED WATCH_STREAMS_EXCEEDED", "RESOURCE_EXHAUSTED REQUEST_RATE_EXCEEDED"},
    ),
    "request flood": (attack_request_flood, {"RESOURCE_EXHAUSTED REQUEST_RATE_EXCEEDED"}),
}


@pytest.mark.parametrize("name", list(FLOODS))
def test_a_flood_leaves_another_operators_table_unhurt(served: Served, name: str) -> None:
    attack, refusals = FLOODS[name]
    with Victim(served.grpc, key=VICTIM_KEY) as victim, attacking(attack, served) as running:
        before, during = compare(victim, running)
    seen = merged(running.results)
    assert seen["refusals"], seen
    assert set(seen["refusals"]) <= refusals, seen
    check_unhurt(name, before, during, seen)
