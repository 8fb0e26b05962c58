"""The firer's loop ends when its block ends, even when a pass swallows the cancellation
(as a Redis client library can, cancelled at the wrong instant in a socket read: redis-py
issues 2028 and 2551); before, the loop went on and a SIGTERMed `referee serve` never
exited."""

from __future__ import annotations

import asyncio
from typing import cast

from service.app.firer import Firer, firing
from service.app.writer import TableWriter
from service.storage.deadlines import DeadlineIndex, Due
from service.storage.memory import MemoryStore


class SwallowingIndex:
    """A deadline index whose claim swallows a cancellation, as a library might."""

    shards = 1

    def __init__(self) -> None:
        self.claims = 0
        self.swallowed = 0

    async def claim(self, now_ms: int, lease_ms: int, per_shard: int) -> list[Due]:
        self.claims += 1
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            self.swallowed += 1  # and carries on, as if the read had finished
        return []


async def test_a_firer_whose_pass_swallows_its_cancellation_still_stops() -> None:
    index = SwallowingIndex()
    firer = Firer(TableWriter(MemoryStore()), cast(DeadlineIndex, index), poll_seconds=0.01)
    stopped = asyncio.Event()

    async def serve() -> None:
        async with firing(firer):
            while not index.claims:  # the loop is inside its first claim
                await asyncio.sleep(0)
        stopped.set()

    task = asyncio.create_task(serve())
    # A bound on a hang, not a timing: the stop takes one poll (10 ms) after the cancel.
    await asyncio.wait_for(stopped.wait(), 30)
    await task
    assert index.swallowed == 1
    assert index.claims == 1  # no pass after the stop


async def test_a_firing_that_raises_is_logged_and_the_firer_goes_on() -> None:
    """An unexpected error while firing one game (a bot's or a game's bug) leaves that
    game's member leased (it comes back) and never ends the loop: every other clock and
    bot seat of the process would stop with it."""
    firer = Firer(TableWriter(MemoryStore()), cast(DeadlineIndex, SwallowingIndex()))

    async def failing(due: Due) -> None:
        raise ValueError("a bot's bug")

    firer.fire = failing  # type: ignore[method-assign]
    await firer._guarded(Due("g", 1, 0, "1:0:g", 0))
    assert firer.busy == 0
