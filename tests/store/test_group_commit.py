"""Group commit (service.storage.batching): commits made together go out in one pipeline, and
each caller still gets its own answer, against a real Redis."""

from __future__ import annotations

import asyncio
import socket
import uuid

import pytest
from redis.asyncio import Redis

from service.errors import Unavailable
from service.storage.batching import Batcher
from service.storage.store import CommitStatus, RedisStore
from tests.store.test_store_commit import commit


def pipelines(store: RedisStore, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The size of every pipeline the store's batcher sends from now on."""
    batcher = store._batcher
    assert isinstance(batcher, Batcher)
    sizes: list[int] = []
    send = batcher._pipeline

    async def counted(calls: list[object]) -> list[object]:
        sizes.append(len(calls))
        return await send(calls)  # type: ignore[arg-type]

    monkeypatch.setattr(batcher, "_pipeline", counted)
    return sizes


async def test_commits_made_together_share_a_pipeline_and_keep_their_answers(
    store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = [f"test-{uuid.uuid4().hex}" for _ in range(12)]
    for game_id in games:
        assert await store.create(game_id, b"s", b"m")
    warm = f"test-{uuid.uuid4().hex}"  # loads the commit script: no NOSCRIPT round below
    assert await store.create(warm, b"s", b"m")
    assert (await commit(store, warm, 0)).status is CommitStatus.OK
    sizes = pipelines(store, monkeypatch)
    # Every game moves once, and the first game twice from version 0: one of those two
    # commits must be refused (the compare-and-set decides, batch or not).
    results = await asyncio.gather(
        *(commit(store, game_id, 0) for game_id in games),
        commit(store, games[0], 0, key="rival"),
    )
    assert [r.status for r in results[:-1]][1:] == [CommitStatus.OK] * 11
    first, rival = results[0].status, results[-1].status
    assert sorted([first.value, rival.value]) == ["CONFLICT", "OK"]
    assert sum(sizes) == 13
    assert len(sizes) < 13, sizes  # batched: fewer round trips than commits
    for game_id in games:
        record = await store.load(game_id)
        assert record is not None and record.version == 1


async def test_a_batch_reloads_the_scripts_redis_forgot(
    store: RedisStore, raw: Redis, game_id: str
) -> None:
    assert await store.create(game_id, b"s", b"m")
    await raw.script_flush()  # as after a restart of Redis without its scripts
    results = await asyncio.gather(*(commit(store, game_id, v) for v in range(3)))
    # The three commits (from versions 0, 1 and 2) go out together, in the order made,
    # and Redis runs a pipeline's commands in order: each finds the version it expects.
    assert [r.status for r in results] == [CommitStatus.OK, CommitStatus.OK, CommitStatus.OK]
    record = await store.load(game_id)
    assert record is not None and record.version == 3


async def test_a_caller_that_gives_up_does_not_hurt_the_others(
    store: RedisStore, game_id: str
) -> None:
    other = f"test-{uuid.uuid4().hex}"
    for gid in (game_id, other):
        assert await store.create(gid, b"s", b"m")
    given_up = asyncio.create_task(commit(store, game_id, 0))
    kept = asyncio.create_task(commit(store, other, 0))
    await asyncio.sleep(0)
    given_up.cancel()
    assert (await kept).status is CommitStatus.OK
    with pytest.raises(asyncio.CancelledError):
        await given_up
    # Whether the cancelled commit reached Redis is unknown to its caller, as for any
    # lost reply: its retry with the same move key answers either way.
    retried = await commit(store, game_id, 0)
    assert retried.status in (CommitStatus.OK, CommitStatus.DUPLICATE)


async def test_an_unreachable_redis_fails_every_caller_of_the_batch() -> None:
    with socket_nobody_listens_on() as url:
        async with RedisStore.from_url(url, socket_connect_timeout=1) as store:
            results = await asyncio.gather(
                *(commit(store, f"g{n}", 0) for n in range(3)), return_exceptions=True
            )
    assert all(isinstance(r, Unavailable) for r in results), results
    assert {r.reason for r in results if isinstance(r, Unavailable)} == {"STORE_UNAVAILABLE"}


class socket_nobody_listens_on:  # noqa: N801
    """A redis:// URL of a loopback port that was free a moment ago (bound, then closed)."""

    def __enter__(self) -> str:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        return f"redis://127.0.0.1:{port}/0"

    def __exit__(self, *exc: object) -> None:
        return None


def test_a_batcher_needs_room() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        Batcher(Redis(), in_flight=0)


async def test_more_than_a_batch_queued_uses_every_slot(
    store: RedisStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    batcher = store._batcher
    assert isinstance(batcher, Batcher)
    monkeypatch.setattr(batcher, "max_batch", 2)
    warm = f"test-{uuid.uuid4().hex}"
    assert await store.create(warm, b"s", b"m")
    assert (await commit(store, warm, 0)).status is CommitStatus.OK  # the script is loaded
    games = [f"test-{uuid.uuid4().hex}" for _ in range(5)]
    for game_id in games:
        assert await store.create(game_id, b"s", b"m")
    sizes = pipelines(store, monkeypatch)
    in_flight: list[int] = []
    send = batcher._pipeline

    async def watched(calls: list[object]) -> list[object]:
        in_flight.append(batcher._sending)
        return await send(calls)  # type: ignore[arg-type]

    monkeypatch.setattr(batcher, "_pipeline", watched)
    results = await asyncio.gather(*(commit(store, game_id, 0) for game_id in games))
    assert [r.status for r in results] == [CommitStatus.OK] * 5
    assert max(in_flight) == batcher.in_flight  # the second slot did not wait for the first
    assert sum(sizes) == 5 and max(sizes) == 2, sizes
