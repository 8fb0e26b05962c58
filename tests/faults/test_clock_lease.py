"""A firer that dies after claiming a deadline: its lease runs out and the member comes
back, so another firer plays the move, once. (Time is the fake of
tests.service.clocking: the lease is waited for without waiting.)"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from service.app.firer import Firer
from service.domain import records
from service.domain.records import ClockSpec
from service.storage.tables import load_table
from tests.service.clocking import Clocked, clocked_referee, create

LEASE_MS = 5_000


@pytest.fixture
async def clocked(redis_url: str) -> AsyncIterator[Clocked]:
    async for made in clocked_referee(redis_url):
        yield made


async def test_a_claim_whose_firer_died_comes_back_after_its_lease(clocked: Clocked) -> None:
    game_id, _ = await create(clocked, "gang_of_four", 3, ClockSpec(move_seconds=1))
    clocked.time.advance(1000)
    # The first firer claims the deadline and dies before doing anything with it.
    (claimed,) = await clocked.index.claim(clocked.time.now, LEASE_MS, 4)
    assert claimed.game_id == game_id
    survivor = Firer(clocked.twin(), clocked.index, lease_ms=LEASE_MS)
    assert await survivor.fire_once() == 0  # leased: nobody else takes it yet
    assert (await load_table(clocked.referee.store, game_id)).version == 0
    clocked.time.advance(LEASE_MS)
    assert await survivor.fire_once() == 1
    table = await load_table(clocked.referee.store, game_id)
    assert table.version == 1
    (entry,) = [records.log_decoder.decode(raw) for raw in await clocked.referee.store.log(game_id)]
    assert entry.client_move_id == f"~clock:0:{entry.seat}"
    # The dead firer's member is gone, and the next deadline is indexed once.
    assert await clocked.index.score(game_id, 0, 0) is None
    assert await clocked.index.score(game_id, 1, 0) == clocked.time.now + 1000


async def test_a_firer_that_died_after_its_commit_leaves_nothing_to_apply_twice(
    clocked: Clocked,
) -> None:
    """The commit landed, the member was never dropped: when it comes back it is stale
    (the game is at a newer version) and is dropped without a move."""
    game_id, _ = await create(clocked, "pinched", 2, ClockSpec(move_seconds=1))
    clocked.time.advance(1000)
    (claimed,) = await clocked.index.claim(clocked.time.now, LEASE_MS, 4)
    dying = Firer(clocked.writer, clocked.index, lease_ms=LEASE_MS)
    await dying.play(game_id, (claimed.version, claimed.host_version))  # no drop: it died
    version = (await load_table(clocked.referee.store, game_id)).version
    assert version >= 1
    clocked.time.advance(LEASE_MS)
    await Firer(clocked.twin(), clocked.index, lease_ms=LEASE_MS).fire(claimed)
    assert (await load_table(clocked.referee.store, game_id)).version == version
    assert await clocked.index.score(game_id, 0, 0) is None
