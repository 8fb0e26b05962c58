"""The watcher stream: IDs are versions, resumable reads, blocking reads, trimming."""

from __future__ import annotations

import asyncio
import time

import pytest
from redis.asyncio import Redis

from service.storage.store import CommitStatus, RedisStore
from service.storage.store_replies import events as _events
from service.storage.store_replies import xread_entries as _xread_entries


async def play(store: RedisStore, game_id: str, moves: int, *, start: int = 0) -> None:
    for version in range(start, start + moves):
        result = await store.commit(
            game_id,
            expected_version=version,
            state=b"s",
            log_entry=f"entry-{version + 1}".encode(),
            head="head",
            move_key=f"move-{version + 1}",
            move_record=b"r",
            finished=False,
        )
        assert result.status is CommitStatus.OK


async def test_stream_ids_are_versions(store: RedisStore, raw: Redis, game_id: str) -> None:
    await store.create(game_id, b"s", b"m")
    await play(store, game_id, 3)

    entries = await raw.xrange(store.keys(game_id).events)

    assert entries is not None
    assert [entry_id for entry_id, _ in entries] == [b"1-0", b"2-0", b"3-0"]


async def test_read_events_resumes_after_a_version(store: RedisStore, game_id: str) -> None:
    await store.create(game_id, b"s", b"m")
    await play(store, game_id, 5)

    assert [v for v, _ in await store.read_events(game_id, 0, block_ms=None)] == [1, 2, 3, 4, 5]
    assert await store.read_events(game_id, 3, block_ms=None) == [
        (4, b"entry-4"),
        (5, b"entry-5"),
    ]
    assert await store.read_events(game_id, 1, block_ms=None, count=2) == [
        (2, b"entry-2"),
        (3, b"entry-3"),
    ]
    assert await store.read_events(game_id, 5, block_ms=None) == []


async def test_log_entry_i_produced_version_i_plus_one(store: RedisStore, game_id: str) -> None:
    await store.create(game_id, b"s", b"m")
    await play(store, game_id, 4)

    log = await store.log(game_id)
    for version, entry in await store.read_events(game_id, 0, block_ms=None):
        assert log[version - 1] == entry


async def test_blocking_read_is_woken_by_a_commit(store: RedisStore, game_id: str) -> None:
    await store.create(game_id, b"s", b"m")
    await play(store, game_id, 1)
    started = time.monotonic()

    watcher = asyncio.create_task(store.read_events(game_id, 1, block_ms=10_000))
    await asyncio.sleep(0.2)
    assert not watcher.done()
    await play(store, game_id, 1, start=1)
    events = await asyncio.wait_for(watcher, 5)

    assert events == [(2, b"entry-2")]
    assert time.monotonic() - started < 5


async def test_blocking_read_times_out_empty(store: RedisStore, game_id: str) -> None:
    await store.create(game_id, b"s", b"m")
    started = time.monotonic()

    assert await store.read_events(game_id, 0, block_ms=150) == []
    assert time.monotonic() - started >= 0.1


async def test_trimmed_stream_reports_its_oldest_version(
    redis_url: str, raw: Redis, game_id: str
) -> None:
    async with RedisStore.from_url(redis_url, stream_maxlen=5) as store:
        await store.create(game_id, b"s", b"m")
        await play(store, game_id, 300)

        first = await store.first_event_version(game_id)
        events = await store.read_events(game_id, 0, block_ms=None, count=1000)

        assert first is not None
        assert first > 1  # approximate trimming removed whole stream nodes
        assert 5 <= await raw.xlen(store.keys(game_id).events) < 300
        assert [v for v, _ in events] == list(range(first, 301))
        assert len(await store.log(game_id)) == 300  # the log is never trimmed


@pytest.mark.parametrize(
    "reply",
    [
        [[b"k", [(b"1-0", {b"entry": b"x"})]]],
        {b"k": [(b"1-0", {b"entry": b"x"})]},
        {b"k": [[(b"1-0", {b"entry": b"x"})]]},
        {b"k": [[b"1-0", [b"other", b"y", b"entry", b"x"]]]},
    ],
    ids=["resp2", "unified", "resp3-legacy", "flat-fields"],
)
def test_xread_reply_shapes_of_redis_py(reply: object) -> None:
    assert _events(_xread_entries(reply)) == [(1, b"x")]


@pytest.mark.parametrize("reply", [None, [], {}])
def test_empty_xread_replies(reply: object) -> None:
    assert _xread_entries(reply) == []


async def test_read_events_refuses_unbounded_or_negative_arguments(
    store: RedisStore, game_id: str
) -> None:
    with pytest.raises(ValueError, match="block_ms"):
        await store.read_events(game_id, 0, block_ms=0)
    with pytest.raises(ValueError, match="after_version"):
        await store.read_events(game_id, -1, block_ms=None)
