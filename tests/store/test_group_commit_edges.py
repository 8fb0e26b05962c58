"""Group commit (service.storage.batching) at its edges: a store closed with commits still queued
answers them before it closes, and leaves no connection behind."""

from __future__ import annotations

import asyncio
import uuid

from service.storage.batching import Batcher
from service.storage.store import CommitStatus, RedisStore
from tests.store.test_store_commit import commit


async def test_closing_answers_the_commits_still_queued(redis_url: str) -> None:
    store = RedisStore.from_url(redis_url)
    games = [f"test-{uuid.uuid4().hex}" for _ in range(3)]
    for game_id in games:
        assert await store.create(game_id, b"s", b"m")
    batcher = store.batcher
    assert isinstance(batcher, Batcher)
    commits = [asyncio.create_task(commit(store, game_id, 0)) for game_id in games]
    while len(batcher._queue) < len(games):  # each commit queued, none sent yet
        await asyncio.sleep(0)
    await store.aclose()
    # Closed: every queued commit has its answer, and nothing is left to send on a
    # client that is gone (it would open a connection nobody closes).
    assert all(task.done() for task in commits)
    assert [task.result().status for task in commits] == [CommitStatus.OK] * len(games)
    assert (batcher._queue, batcher._tasks, batcher._sending) == ([], set(), 0)
