"""The hosting record beside a game: compare-and-set on version and host version, and a
move's commit refused once the record it was decided on changed (tables.proto, hosting)."""

from __future__ import annotations

from redis.asyncio import Redis

from service.storage.store import CommitResult, CommitStatus, GameRecord, RedisStore
from tests.store.test_store_commit import snapshot


async def test_create_stores_the_host_record_and_clock_at_host_version_0(
    store: RedisStore, game_id: str
) -> None:
    assert await store.create(game_id, b"s", b"m", host=b"h", clock=b"c")
    assert await store.load(game_id) == GameRecord(
        version=0, state=b"s", meta=b"m", host=b"h", host_version=0, clock=b"c"
    )


async def test_change_host_raises_the_host_version(store: RedisStore, game_id: str) -> None:
    await store.create(game_id, b"s", b"m", host=b"h0")
    changed = await store.change_host(
        game_id, expected_version=0, expected_host_version=0, host=b"h1", clock=b"c1"
    )
    assert (changed.status, changed.version) == (CommitStatus.OK, 1)
    loaded = await store.load(game_id)
    assert loaded is not None
    assert (loaded.host, loaded.host_version, loaded.clock, loaded.version) == (
        b"h1",
        1,
        b"c1",
        0,
    )


async def test_a_stale_host_change_is_a_conflict_and_changes_nothing(
    store: RedisStore, raw: Redis, game_id: str
) -> None:
    await store.create(game_id, b"s", b"m", host=b"h0")
    await store.change_host(game_id, expected_version=0, expected_host_version=0, host=b"h1")
    before = await snapshot(raw, store, game_id)
    for version, host_version in ((0, 0), (1, 1)):
        stale = await store.change_host(
            game_id, expected_version=version, expected_host_version=host_version, host=b"x"
        )
        assert stale.status is CommitStatus.CONFLICT
    assert await snapshot(raw, store, game_id) == before
    missing = await store.change_host(
        game_id + "-no", expected_version=0, expected_host_version=0, host=b"x"
    )
    assert missing.status is CommitStatus.MISSING


async def test_a_move_decided_on_an_old_host_record_is_a_conflict(
    store: RedisStore, raw: Redis, game_id: str
) -> None:
    """A reissued token (or a bot, or an abort) between deciding and committing a move."""
    await store.create(game_id, b"s", b"m", host=b"h0")
    await store.change_host(game_id, expected_version=0, expected_host_version=0, host=b"h1")
    before = await snapshot(raw, store, game_id)

    async def move(host_version: int, clock: bytes | None = None) -> CommitResult:
        return await store.commit(
            game_id,
            expected_version=0,
            state=b"s1",
            log_entry=b"e1",
            head="h",
            move_key="k",
            move_record=b"r",
            finished=False,
            host_version=host_version,
            clock=clock,
        )

    stale = await move(0)
    assert (stale.status, stale.version) == (CommitStatus.CONFLICT, 0)
    assert await snapshot(raw, store, game_id) == before
    fresh = await move(1, b"c1")
    assert fresh.status is CommitStatus.OK
    loaded = await store.load(game_id)
    assert loaded is not None and (loaded.version, loaded.clock) == (1, b"c1")
