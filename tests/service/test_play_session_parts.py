"""The Play session's parts: its order guarantee at its core (an answer waits until the
update of the version it speaks of is queued for the seat, or the game is over, and no
longer) and its outbox (what both tasks put leaves in the order put).

``asyncio.sleep(0)`` below only lets the waiting task run up to its next suspension point
(deterministic in asyncio), it waits for no time."""

from __future__ import annotations

import asyncio

import pytest

from service.edge.play import _Delivered, _Outbox


async def _started(delivered: _Delivered, version: int) -> asyncio.Task[None]:
    task = asyncio.create_task(delivered.reach(version))
    await asyncio.sleep(0)
    return task


async def test_an_answer_waits_for_its_version_and_not_for_a_lower_one() -> None:
    delivered = _Delivered(2)
    await delivered.reach(2)  # delivered already: no wait at all
    waiting = await _started(delivered, 5)
    delivered.advance(4)
    await asyncio.sleep(0)
    assert not waiting.done()
    delivered.advance(5)
    await waiting
    assert delivered.version == 5
    later = await _started(delivered, 6)  # the next answer waits afresh
    delivered.advance(7)
    await later


async def test_the_game_over_releases_a_waiting_answer_and_every_later_one() -> None:
    delivered = _Delivered(-1)
    waiting = await _started(delivered, 3)
    delivered.finish()
    await waiting
    await delivered.reach(10)
    assert delivered.finished


async def test_a_cancelled_wait_leaves_the_next_answer_free_to_wait() -> None:
    delivered = _Delivered(0)
    waiting = await _started(delivered, 1)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    again = await _started(delivered, 1)
    delivered.advance(1)
    await again


async def test_the_outbox_hands_out_in_the_order_put_and_wakes_a_waiting_taker() -> None:
    outbox = _Outbox()
    outbox.put("update 1")
    outbox.put("result 1")
    assert [await outbox.get(), await outbox.get()] == ["update 1", "result 1"]
    taking = asyncio.create_task(outbox.get())
    await asyncio.sleep(0)
    assert not taking.done()
    outbox.put("update 2")
    outbox.put("update 3")
    assert await taking == "update 2"
    assert await outbox.get() == "update 3"
