"""The tournament store on real Redis: versions, compare-and-set, a real race."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import grpc
import pytest
from redis.asyncio import Redis

from service.errors import GameNotFound, TournamentNotFound
from service.tournaments import rounds
from service.tournaments.model import Format, Participant, Status, Tournament
from service.tournaments.store import INDEX, PRUNE_GRACE_SECONDS, Conflict, TournamentStore

TTL = {"finished_ttl_seconds": 3600, "idle_ttl_seconds": 3600}


@pytest.fixture
async def stores(redis_url: str) -> AsyncIterator[tuple[TournamentStore, TournamentStore]]:
    """Two stores with their own connections: two referee processes."""
    one = TournamentStore.from_url(redis_url, cluster=False, **TTL)
    two = TournamentStore.from_url(redis_url, cluster=False, **TTL)
    yield one, two
    await one.aclose()
    await two.aclose()


def _record(tournament_id: str) -> Tournament:
    return Tournament(
        tournament_id=tournament_id,
        game="pinched",
        seats_per_table=2,
        options=b"",
        format=Format.ROUND_ROBIN,
        rounds=3,
        seed=b"s",
        seed_sha256="",
        admin_sha256="",
        participants=tuple(Participant(f"p{i}", "random") for i in range(4)),
        created_at=0.0,
        seat_counts=(2, 3, 4, 5),
    )


async def test_versions_start_at_zero_and_rise_by_one(
    stores: tuple[TournamentStore, TournamentStore],
) -> None:
    one, two = stores
    record = _record("versions")
    await one.delete("versions")
    assert await one.create(record)
    assert not await two.create(record)  # the id is taken
    assert (await two.load("versions")).version == 0
    started = await one.update("versions", rounds.start)
    assert started.version == 1
    assert started.tournament.status is Status.RUNNING
    again = await two.update("versions", rounds.start)  # already started: nothing written
    assert again.version == 1
    assert again.tournament == started.tournament
    with pytest.raises(Conflict):
        await two.write(0, record)
    assert (await one.load("versions")).tournament == started.tournament
    with pytest.raises(TournamentNotFound):
        await one.load("missing")


async def test_a_missing_tournament_is_its_own_error(
    stores: tuple[TournamentStore, TournamentStore],
) -> None:
    """NOT_FOUND with reason TOURNAMENT_NOT_FOUND, from a read and from a write alike, and
    not a GameNotFound: a client tells a gone tournament from a gone game by the error."""
    one, _ = stores
    await one.delete("gone")
    with pytest.raises(TournamentNotFound) as loaded:
        await one.load("gone")
    with pytest.raises(TournamentNotFound) as written:
        await one.write(0, _record("gone"))
    with pytest.raises(TournamentNotFound):
        await one.update("gone", rounds.start)
    for caught in (loaded.value, written.value):
        assert not isinstance(caught, GameNotFound)
        assert (caught.code, caught.reason) == (grpc.StatusCode.NOT_FOUND, "TOURNAMENT_NOT_FOUND")
        assert caught.message == "no tournament 'gone'"
    assert one.conflicts == 0  # a missing record is no lost race


async def test_the_directing_lease_goes_to_one_holder_at_a_time(
    stores: tuple[TournamentStore, TournamentStore],
) -> None:
    """``lease_claim.lua``: taken when free, renewed by its holder, refused to others;
    ``lease_release.lua``: only the holder gives it up."""
    one, two = stores
    await one.delete("leased")
    assert await one.claim("leased", "first", 60_000)
    assert not await two.claim("leased", "second", 60_000)
    assert await one.claim("leased", "first", 60_000)  # renewed
    await two.release("leased", "second")  # not its lease: nothing happens
    assert not await two.claim("leased", "second", 60_000)
    await one.release("leased", "first")
    assert await two.claim("leased", "second", 60_000)
    await one.delete("leased")


async def test_two_processes_racing_one_change_write_it_once(
    stores: tuple[TournamentStore, TournamentStore],
) -> None:
    """Both record a game for the same table at the same time: exactly one wins, the other
    reloads, finds the table taken and writes nothing."""
    one, two = stores
    for attempt in range(20):
        tournament_id = f"race-{attempt}"
        await one.delete(tournament_id)
        started = rounds.start(_record(tournament_id))
        assert started is not None
        assert await one.create(started)
        results = await asyncio.gather(
            one.update(tournament_id, lambda t: rounds.set_game(t, 1, 1, "from-one")),
            two.update(tournament_id, lambda t: rounds.set_game(t, 1, 1, "from-two")),
        )
        stored = await one.load(tournament_id)
        assert stored.version == 1
        assert [r.version for r in results] == [1, 1]
        assert stored.tournament.played[0].tables[0].game_id in ("from-one", "from-two")
        assert all(r.tournament == stored.tournament for r in results)


async def test_listing_pages_through_the_index_newest_first(
    stores: tuple[TournamentStore, TournamentStore], raw_redis: Redis
) -> None:
    """70 tournaments, every other one wanted: the listing pages through the index (pages
    of 35 ids), newest first, each once; a record gone long ago leaves the index."""
    one, _ = stores
    ids = [f"paged-{i:02d}" for i in range(70)]
    for tournament_id in ids:
        await one.delete(tournament_id)
        assert await one.create(_record(tournament_id))
    wanted = ids[1::2]

    listed = await one.newest(35, lambda t: t.tournament_id in wanted)
    assert [stored.tournament.tournament_id for stored in listed] == wanted[::-1]

    await raw_redis.delete(TournamentStore.keys(ids[69])[0])
    await raw_redis.zadd(INDEX, {ids[69]: time.time() - PRUNE_GRACE_SECONDS - 1})
    again = await one.newest(35, lambda t: t.tournament_id in wanted)
    assert [stored.tournament.tournament_id for stored in again] == wanted[-2::-1]
    assert await raw_redis.zscore(INDEX, ids[69]) is None
    for tournament_id in ids:
        await one.delete(tournament_id)
