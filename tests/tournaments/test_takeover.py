"""The running index and the takeover pass, on real Redis (a database of their own, so no
other test's running tournament is due here) with directors that only stand in."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import cast

import msgspec
import pytest
from redis.asyncio import Redis

from referee.client import AsyncRefereeClient
from service.app.referee import Referee
from service.tournaments import rounds
from service.tournaments.director import Director
from service.tournaments.host import ParticipantSpec, TournamentHost, TournamentSpec
from service.tournaments.model import Format, Participant, Status, Tournament
from service.tournaments.store import RUNNING, START_GRACE_SECONDS, TournamentStore
from service.tournaments.takeover import Takeovers

TTL = {"finished_ttl_seconds": 3600, "idle_ttl_seconds": 3600}


@pytest.fixture
async def own_db(redis_url: str) -> AsyncIterator[str]:
    url = redis_url.rsplit("/", 1)[0] + "/9"
    client = Redis.from_url(url)
    await client.flushdb()
    yield url
    await client.flushdb()
    await client.aclose()


@pytest.fixture
async def store(own_db: str) -> AsyncIterator[TournamentStore]:
    opened = TournamentStore.from_url(own_db, cluster=False, **TTL)
    yield opened
    await opened.aclose()


def _record(tournament_id: str) -> Tournament:
    return Tournament(
        tournament_id=tournament_id,
        game="pinched",
        seats_per_table=2,
        options=b"",
        format=Format.ROUND_ROBIN,
        rounds=1,
        seed=b"s",
        seed_sha256="",
        admin_sha256="",
        participants=tuple(Participant(f"p{i}", "random") for i in range(4)),
        created_at=0.0,
        seat_counts=(2, 3, 4, 5),
    )


def _finish(tournament: Tournament) -> Tournament:
    return msgspec.structs.replace(tournament, status=Status.FINISHED)


async def _running(store: TournamentStore, tournament_id: str, due: float) -> None:
    assert await store.create(_record(tournament_id))
    await store.update(tournament_id, rounds.start)
    await store.due(tournament_id, due)


class Standing:
    """Directors that never direct: a takeover's director stands in, running until closed."""

    def __init__(self, host: TournamentHost) -> None:
        self.host = host
        self.started: list[tuple[str, bool]] = []

    def direct(self, tournament_id: str, *, standby: bool = True) -> Director:
        director = Director(
            tournament_id,
            self.host.store,
            cast(Referee, None),
            cast(AsyncRefereeClient, None),
            bots=self.host.bots,
            standby=standby,
        )
        director.task = asyncio.create_task(self._forever())
        self.host.directors[tournament_id] = director
        self.started.append((tournament_id, standby))
        return director

    @staticmethod
    async def _forever() -> None:
        await asyncio.Event().wait()

    async def close(self) -> None:
        tasks = [d.task for d in self.host.directors.values() if d.task is not None]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks)


@pytest.fixture
async def standing(
    store: TournamentStore, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Standing]:
    host = TournamentHost(
        cast(Referee, None), store, code_ttl_seconds=60, code_attempts_per_minute=0
    )
    stand_in = Standing(host)
    monkeypatch.setattr(host, "direct", stand_in.direct)
    yield stand_in
    await stand_in.close()


async def test_a_tournament_enters_the_running_index_on_start_and_leaves_it_finished(
    store: TournamentStore,
) -> None:
    assert await store.create(_record("index"))
    client = store.client
    assert await client.zscore(RUNNING, "index") is None  # created, not started
    before = time.time()
    await store.update("index", rounds.start)
    due = await client.zscore(RUNNING, "index")
    assert due is not None
    assert before + START_GRACE_SECONDS <= due <= time.time() + START_GRACE_SECONDS
    assert await store.lapsed(time.time(), 10) == []  # its starter's grace: not yet due
    assert await store.lapsed(due, 10) == ["index"]
    await store.update("index", _finish)
    assert await client.zscore(RUNNING, "index") is None


async def test_a_pass_takes_over_lapsed_tournaments_and_tidies_the_rest(
    store: TournamentStore, standing: Standing
) -> None:
    past = time.time() - 1
    await _running(store, "lapsed", past)
    await _running(store, "held", past)
    assert await store.claim("held", "another process", 60_000)
    assert await store.create(_record("never-started"))
    await store.due("never-started", past)
    await store.due("gone", past)
    await _running(store, "finished", past)
    await store.update("finished", _finish)
    await store.due("finished", past)  # a director's last renewal raced the finish
    await _running(store, "later", time.time() + 60)

    takeovers = Takeovers(standing.host, every_seconds=1, per_pass=10)
    assert await takeovers.take_over() == ["lapsed"]
    assert standing.started == [("lapsed", False)]  # no standby: the lease decides
    client = store.client
    held = await client.zscore(RUNNING, "held")
    assert held is not None and held > time.time() + 50  # moved to the lease's end
    for tidied in ("never-started", "gone", "finished"):
        assert await client.zscore(RUNNING, tidied) is None
    assert await client.zscore(RUNNING, "later") is not None
    assert await takeovers.take_over() == []  # directed here already
    assert takeovers.taken == 1


async def test_a_process_takes_over_at_most_its_room_and_its_share_per_pass(
    store: TournamentStore, standing: Standing
) -> None:
    past = time.time() - 1
    for number in range(5):
        await _running(store, f"t{number}", past - number)
    standing.host.max_directed = 3
    takeovers = Takeovers(standing.host, every_seconds=1, per_pass=2)
    first = await takeovers.take_over()
    assert first == ["t4", "t3"]  # the longest due first, two a pass
    assert await takeovers.take_over() == ["t2"]  # then its room is full
    assert await takeovers.take_over() == []
    assert standing.host.room() == 0
    await standing.close()  # its directors stop: room again
    assert standing.host.room() == 3
    assert await takeovers.take_over() == ["t4", "t3"]


async def test_a_start_beyond_the_cap_is_left_to_a_takeover_pass(
    store: TournamentStore, standing: Standing
) -> None:
    """StartTournament on a process with no room starts the tournament but directs it
    nowhere; once its start grace is over any process's pass takes it over."""
    host = standing.host
    host.max_directed = 0
    spec = TournamentSpec(
        game="pinched",
        seats_per_table=2,
        options={},
        options_proto=b"",
        participants=[ParticipantSpec(f"bot {i}", "random") for i in range(2)],
        format=Format.ROUND_ROBIN,
        rounds=1,
        seed=None,
    )
    created = await host.create(spec)
    tournament_id = created.stored.tournament.tournament_id
    started = await host.start(tournament_id, created.admin_token)
    assert started.tournament.status is Status.RUNNING
    assert standing.started == []
    assert await store.lapsed(time.time() + START_GRACE_SECONDS + 1, 10) == [tournament_id]
    host.max_directed = 1
    await store.due(tournament_id, time.time() - 1)  # its grace is over
    assert await Takeovers(host, every_seconds=1, per_pass=1).take_over() == [tournament_id]
