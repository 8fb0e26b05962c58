"""Guessing seat codes against `referee serve` (its own process, loopback only).

The attacker floods ClaimSeat with random codes from one address; past the bound on wrong
codes per address and minute, every try is RESOURCE_EXHAUSTED SEAT_CODE_ATTEMPTS_EXCEEDED
without a look at the code. A participant on another address (127.0.0.2, still loopback)
claims its real code meanwhile, and the attacker's address still plays games.
"""

from __future__ import annotations

import asyncio
import collections
import threading
from collections.abc import Iterator
from typing import Any

import grpc
import httpx
import pytest
import redis

from referee.v1 import referee_pb2, referee_pb2_grpc, tournament_pb2, tournament_pb2_grpc
from service.storage.seat_codes import new_code
from tests.abuse.harness import Pace, Stop, Victim, attacking, check_unhurt, compare, merged
from tests.servers import Served, referee_process
from tests.service.table import reason_of

T = tournament_pb2
ABUSE_DB = 11  # a database of the session's Redis of its own: the counters start at zero
ATTEMPTS_PER_MINUTE = 10
SERVICE = "/referee.v1.TournamentService"


@pytest.fixture(scope="module")
def served(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    url = _abuse_url(redis_url)
    client = redis.Redis.from_url(url)
    client.flushdb()
    try:
        env = {"REFEREE_SEAT_CODE_ATTEMPTS_PER_MINUTE": str(ATTEMPTS_PER_MINUTE)}
        with referee_process(url, tmp_path_factory.mktemp("abuse-codes"), env) as process:
            yield process
    finally:
        client.flushdb()
        client.close()


@pytest.fixture(autouse=True)
def fresh_counters(redis_url: str) -> None:
    """Each test starts with no wrong codes counted against loopback."""
    client = redis.Redis.from_url(_abuse_url(redis_url))
    try:
        if stale := client.keys("seatcode:attempts:*"):
            client.delete(*stale)
    finally:
        client.close()


def _abuse_url(redis_url: str) -> str:
    return f"{redis_url.rstrip('/').rsplit('/', 1)[0]}/{ABUSE_DB}"


async def guessing(
    served: Served,
    stop: Stop,
    *,
    concurrency: int = 8,
    max_attempts: int = 20_000,
    pace: Pace | None = None,
) -> dict[str, Any]:
    """Random codes at ClaimSeat over gRPC from one address, ``concurrency`` calls at a time,
    until ``stop`` is set (at most ``max_attempts``): attempts, codes claimed, refusals by
    reason, and the attacker's rate (attempts per second)."""
    loop = asyncio.get_running_loop()
    refusals: collections.Counter[str] = collections.Counter()
    tally = {"attempts": 0, "claimed": 0}
    async with grpc.aio.insecure_channel(served.grpc) as channel:
        stub = tournament_pb2_grpc.TournamentServiceStub(channel)

        async def guess() -> None:
            while not stop.is_set() and tally["attempts"] < max_attempts:
                if pace is not None:
                    await asyncio.sleep(pace.delay())
                tally["attempts"] += 1
                try:
                    await stub.ClaimSeat(T.ClaimSeatRequest(code=new_code()), timeout=10)
                    tally["claimed"] += 1
                except grpc.aio.AioRpcError as error:
                    refusals[reason_of(error)[1]] += 1

        started = loop.time()
        await asyncio.gather(*(guess() for _ in range(concurrency)))
        elapsed = loop.time() - started
    return {
        **tally,
        "refusals": dict(refusals),
        "rate": tally["attempts"] / elapsed,
    }


def attack_seat_code_guessing(served: Served, stop: Stop) -> dict[str, Any]:
    """:func:`guessing` in an attacker process of the victim harness."""
    return asyncio.run(guessing(served, stop, pace=Pace()))


def test_the_guessing_flood_leaves_another_table_unhurt(served: Served) -> None:
    with Victim(served.grpc) as victim, attacking(attack_seat_code_guessing, served) as attack:
        before, during = compare(victim, attack)
    seen = merged(attack.results)
    assert seen["claimed"] == 0
    assert set(seen["refusals"]) <= {"SEAT_CODE_INVALID", "SEAT_CODE_ATTEMPTS_EXCEEDED"}
    check_unhurt("seat code guessing", before, during, seen)


async def test_guessing_seat_codes_is_bounded_per_address(served: Served) -> None:
    async with httpx.AsyncClient(base_url=served.http, timeout=10) as admin_http:
        created = (
            await admin_http.post(
                f"{SERVICE}/CreateTournament",
                json={
                    "game": "pinched",
                    "seatsPerTable": 3,
                    "participants": [
                        {"name": "ada"},
                        {"name": "bob"},
                        {"name": "bot", "bot": "BOT_STRATEGY_RANDOM"},
                    ],
                    "format": "TOURNAMENT_FORMAT_SWISS",
                },
            )
        ).json()
    stop = threading.Event()
    asyncio.get_running_loop().call_later(3.0, stop.set)
    result = await guessing(served, stop)
    assert result["claimed"] == 0
    assert result["refusals"] == {
        "SEAT_CODE_INVALID": ATTEMPTS_PER_MINUTE,
        "SEAT_CODE_ATTEMPTS_EXCEEDED": result["attempts"] - ATTEMPTS_PER_MINUTE,
    }
    assert result["attempts"] > 10 * ATTEMPTS_PER_MINUTE
    async with grpc.aio.insecure_channel(served.grpc) as channel:
        tournaments = tournament_pb2_grpc.TournamentServiceStub(channel)
        real = created["seatCodes"][1]["code"]
        with pytest.raises(grpc.aio.AioRpcError) as bounded:
            await tournaments.ClaimSeat(T.ClaimSeatRequest(code=real))  # not even a good code
        code, reason, metadata = reason_of(bounded.value)
        assert (code, reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "SEAT_CODE_ATTEMPTS_EXCEEDED")
        assert 1 <= int(metadata["retry_after_seconds"]) <= 60
        # The attacker's address still plays: the bound is on codes only.
        games = referee_pb2_grpc.RefereeServiceStub(channel)
        game = await games.CreateGame(referee_pb2.CreateGameRequest(game="the_gang", seats=3))
        auth = (("authorization", f"Bearer {game.seat_tokens[0].token}"),)
        await games.GetView(referee_pb2.GetViewRequest(game_id=game.game_id), metadata=auth)
    # Another address claims its code, unspent by the flood; the admin sees just that claim.
    victim = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with httpx.AsyncClient(base_url=served.http, transport=victim, timeout=10) as http:
        claimed = await http.post(
            f"{SERVICE}/ClaimSeat", json={"code": created["seatCodes"][0]["code"]}
        )
        assert claimed.status_code == 200, claimed.text
        seen = await http.post(
            f"{SERVICE}/GetTournament",
            json={"tournamentId": created["tournamentId"]},
            headers={"Authorization": f"Bearer {created['adminToken']}"},
        )
    people = seen.json()["tournament"]["participants"]
    assert [p.get("claimed", False) for p in people] == [True, False, False]
