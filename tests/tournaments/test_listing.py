"""ListTournaments (what the console's front page shows) and the bots' move delay."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
from redis.asyncio import Redis

from referee.v1 import tournament_pb2, tournament_pb2_grpc
from service.process.server import Running, running
from service.tournaments.store import INDEX, PRUNE_GRACE_SECONDS
from tests.servers import settings_for
from tests.service.table import reason_of

T = tournament_pb2


@pytest.fixture
async def tournaments(
    referee_server: Running,
) -> AsyncIterator[tournament_pb2_grpc.TournamentServiceAsyncStub]:
    async with grpc.aio.insecure_channel(referee_server.address) as channel:
        yield tournament_pb2_grpc.TournamentServiceStub(channel)


def _request(name: str, delay_ms: int = 0) -> T.CreateTournamentRequest:
    return T.CreateTournamentRequest(
        game="gang_of_four",
        seats_per_table=4,
        participants=[
            T.ParticipantSpec(name=f"{name} {i}", bot=T.BOT_STRATEGY_RANDOM) for i in range(3)
        ]
        + [T.ParticipantSpec(name=f"{name} (external)")],
        format=T.TOURNAMENT_FORMAT_SWISS,
        rounds=1,
        bot_move_delay_ms=delay_ms,
    )


async def test_tournaments_are_listed_most_recently_changed_first_without_tokens(
    tournaments: tournament_pb2_grpc.TournamentServiceAsyncStub,
) -> None:
    created = [await tournaments.CreateTournament(_request(f"t{i}")) for i in range(3)]
    ids = [c.tournament_id for c in created]
    listed = await tournaments.ListTournaments(T.ListTournamentsRequest(limit=100))
    mine = [t.tournament_id for t in listed.tournaments if t.tournament_id in ids]
    assert mine == ids[::-1]
    # Starting the first one changes it: it moves to the top, and is the only running one.
    await tournaments.StartTournament(
        T.StartTournamentRequest(tournament_id=ids[0]),
        metadata=(("authorization", f"Bearer {created[0].admin_token}"),),
    )
    listed = await tournaments.ListTournaments(T.ListTournamentsRequest(limit=100))
    assert next(t.tournament_id for t in listed.tournaments if t.tournament_id in ids) == ids[0]
    running = await tournaments.ListTournaments(
        T.ListTournamentsRequest(status=T.TOURNAMENT_STATUS_RUNNING, limit=100)
    )
    assert ids[0] in [t.tournament_id for t in running.tournaments]
    assert all(t.status == T.TOURNAMENT_STATUS_RUNNING for t in running.tournaments)
    # What a spectator sees: the tables, but no seat token, not even the external seat's.
    first = next(t for t in listed.tournaments if t.tournament_id == ids[0])
    tables = [table for played in first.round_results for table in played.tables]
    assert tables and all(not table.seat_tokens for table in tables)
    assert (
        len((await tournaments.ListTournaments(T.ListTournamentsRequest(limit=2))).tournaments) == 2
    )


async def test_expired_tournaments_leave_the_list(
    tournaments: tournament_pb2_grpc.TournamentServiceAsyncStub, raw_redis: Redis
) -> None:
    expired, creating = [
        (await tournaments.CreateTournament(_request(name))).tournament_id
        for name in ("short-lived", "being created")
    ]
    for tournament_id in (expired, creating):
        await raw_redis.delete(f"tournament:{{{tournament_id}}}")  # as if it expired
    # The first was indexed long ago; the second a moment ago (its record may be on its way).
    await raw_redis.zadd(INDEX, {expired: time.time() - PRUNE_GRACE_SECONDS - 1})
    listed = await tournaments.ListTournaments(T.ListTournamentsRequest(limit=100))
    assert not {expired, creating} & {t.tournament_id for t in listed.tournaments}
    assert await raw_redis.zscore(INDEX, expired) is None
    assert await raw_redis.zscore(INDEX, creating) is not None
    # Ids older than the longest TTL are pruned at the next create without being listed.
    await raw_redis.zadd(INDEX, {"ancient": time.time() - 40 * 24 * 3600})
    await tournaments.CreateTournament(_request("next"))
    assert await raw_redis.zscore(INDEX, "ancient") is None


@pytest.mark.parametrize(
    ("request_", "reason"),
    [
        (T.ListTournamentsRequest(limit=101), "LIMIT_INVALID"),
        (T.ListTournamentsRequest(limit=-1), "LIMIT_INVALID"),
        (T.ListTournamentsRequest(status=7), "STATUS_UNKNOWN"),  # type: ignore[arg-type]
    ],
)
async def test_bad_listings_are_refused(
    tournaments: tournament_pb2_grpc.TournamentServiceAsyncStub,
    request_: T.ListTournamentsRequest,
    reason: str,
) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await tournaments.ListTournaments(request_)
    assert reason_of(refused.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, reason)


async def test_the_bot_move_delay_is_kept_and_bounded(
    tournaments: tournament_pb2_grpc.TournamentServiceAsyncStub,
) -> None:
    created = await tournaments.CreateTournament(_request("slow", delay_ms=250))
    assert created.tournament.bot_move_delay_ms == 250
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await tournaments.CreateTournament(_request("too slow", delay_ms=10_001))
    assert reason_of(refused.value)[:2] == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "BOT_DELAY_INVALID",
    )


async def test_shutdown_ends_tournament_watches_as_game_watches(
    redis_url: str, tmp_path: Path
) -> None:
    """A stopping referee ends WatchTournament with REFEREE_SHUTTING_DOWN (resume elsewhere),
    like WatchGame, not with the error of its closing store."""
    settings = dataclasses.replace(settings_for(redis_url, tmp_path), shutdown_grace_seconds=2)
    async with running(settings) as server:
        channel = grpc.aio.insecure_channel(server.address)
        stub = tournament_pb2_grpc.TournamentServiceStub(channel)
        created = await stub.CreateTournament(_request("watched"))
        stream = stub.WatchTournament(T.WatchTournamentRequest(tournament_id=created.tournament_id))
        first = await stream.read()
        assert isinstance(first, T.WatchTournamentResponse) and first.tournament.version == 0
        ending = asyncio.create_task(stream.read())
        await asyncio.sleep(0.05)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await asyncio.wait_for(ending, 5)
    assert reason_of(caught.value)[:2] == (grpc.StatusCode.UNAVAILABLE, "REFEREE_SHUTTING_DOWN")
    await channel.close(None)
