"""What follows a write follows every write (service.app.writer): a listed table that ends
by the clock's or a bot's move leaves the lobby listing at once, as one ended by a
player's move always did (before the one writer, the firer's moves left it listed under
"playing" until its keys expired)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import pytest

from service.app.writer import HostChange
from service.domain import clocks, hosting, records
from service.domain.records import ClockSpec
from service.storage.lobby_listing import Listing
from service.storage.tables import Table, load_table
from tests.service.clocking import Clocked, clocked_referee

LISTED = (records.TABLE_OPEN, records.TABLE_LIVE)


@pytest.fixture
async def clocked(redis_url: str) -> AsyncIterator[Clocked]:
    async for made in clocked_referee(redis_url, listed=True):
        yield made


def listing_of(clocked: Clocked) -> Listing:
    listing = clocked.writer.following.listing
    assert listing is not None
    return listing


async def listed_ids(clocked: Clocked, game: str) -> set[str]:
    summaries, _ = await listing_of(clocked).page([game], LISTED, 200, "")
    return {summary.game_id for summary in summaries}


async def fire_to_the_end(clocked: Clocked, game_id: str, step_ms: int) -> Table:
    """Let time pass ``step_ms`` at a time and fire what is due, until the game is over;
    every move is the referee's (nobody else moves)."""
    firer = clocked.firer()
    for _ in range(2_000):
        table = await load_table(clocked.writer.store, game_id)
        if table.finished:
            return table
        clocked.time.advance(step_ms)
        await firer.fire_once()
    raise AssertionError("the game did not end")


async def last_move_by(clocked: Clocked, table: Table) -> int:
    (entry,) = await clocked.writer.store.log(table.game_id, -1, -1)
    return clocks.move_by(records.log_decoder.decode(entry).client_move_id)


async def test_a_listed_table_ended_by_the_clock_leaves_the_listing(clocked: Clocked) -> None:
    created = await clocked.referee.create_game(
        "pinched",
        2,
        {"clock": ClockSpec(move_seconds=1)},
        allow_spectators=True,
        seed=b"listed clock",
        listed=True,
    )
    assert created.game_id in await listed_ids(clocked, "pinched")  # live, listed
    table = await fire_to_the_end(clocked, created.game_id, 1_000)
    assert await last_move_by(clocked, table) == clocks.BY_CLOCK
    assert created.game_id not in await listed_ids(clocked, "pinched")


async def test_a_listed_table_ended_by_bots_leaves_the_listing(clocked: Clocked) -> None:
    clocked.time.now = int(time.time() * 1000)  # a bot's first deadline: from the creation
    created = await clocked.referee.create_game(
        "pinched", 2, {}, allow_spectators=True, seed=b"listed bots", listed=True
    )

    def to_bots(table: Table) -> HostChange:
        """Every seat handed to the referee's heuristic bot (an admin's ReplaceByBot)."""
        host = table.hosting
        for seat in range(table.meta.seats):
            when = hosting.When(table.version, 0.0)
            host = hosting.replace_by_bot(host, seat, 2, table.finished, when)
        return HostChange(host)

    written = await clocked.writer.write(created.game_id, to_bots)
    assert written.change is not None
    assert written.table.hosting.seats[0].holder == records.BOT
    assert created.game_id in await listed_ids(clocked, "pinched")
    table = await fire_to_the_end(clocked, created.game_id, clocked.writer.bot_delay_ms)
    assert await last_move_by(clocked, table) == clocks.BY_BOT
    assert created.game_id not in await listed_ids(clocked, "pinched")
