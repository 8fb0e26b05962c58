"""Create, load and the compare-and-set commit, checked against a real Redis."""

from __future__ import annotations

import time

import pytest
from redis.asyncio import Redis
from redis.crc import key_slot

from service.domain import records
from service.storage.redis_kit import as_bytes
from service.storage.store import CommitResult, CommitStatus, GameRecord, RedisStore


async def commit(
    store: RedisStore,
    game_id: str,
    expected: int,
    *,
    key: str | None = None,
    state: bytes | None = None,
    finished: bool = False,
) -> CommitResult:
    """Commit a move whose state, log entry and record are derived from the new version."""
    new = expected + 1
    return await store.commit(
        game_id,
        expected_version=expected,
        state=state if state is not None else f"state-{new}".encode(),
        log_entry=f"entry-{new}".encode(),
        head=f"head-{new}",
        move_key=key if key is not None else f"move-{new}",
        move_record=f"record-{new}".encode(),
        finished=finished,
    )


async def snapshot(raw: Redis, store: RedisStore, game_id: str) -> dict[str, object]:
    """Everything stored for a game, to prove a rejected commit changed nothing."""
    keys = store.keys(game_id)
    return {
        "game": await raw.hgetall(keys.game),
        "log": await raw.lrange(keys.log, 0, -1),
        "events": await raw.xrange(keys.events),
        "events_len": await raw.xlen(keys.events),
        "moves": await raw.hgetall(keys.moves),
        "ttls": [await raw.ttl(key) for key in keys.all],
    }


async def test_create_then_load(store: RedisStore, game_id: str) -> None:
    assert await store.load(game_id) is None
    assert not await store.exists(game_id)

    assert await store.create(game_id, b"\x00state", b"\xffmeta")

    assert await store.exists(game_id)
    assert await store.load(game_id) == GameRecord(version=0, state=b"\x00state", meta=b"\xffmeta")
    assert await store.log(game_id) == []
    assert await store.first_event_version(game_id) is None


async def test_create_twice_keeps_the_first(store: RedisStore, game_id: str) -> None:
    assert await store.create(game_id, b"first", b"m1")
    assert not await store.create(game_id, b"second", b"m2")
    assert await store.load(game_id) == GameRecord(version=0, state=b"first", meta=b"m1")


async def test_create_drops_leftovers_of_an_expired_game(
    store: RedisStore, raw: Redis, game_id: str
) -> None:
    assert await store.create(game_id, b"s", b"m")
    assert (await commit(store, game_id, 0)).status is CommitStatus.OK
    await raw.delete(store.keys(game_id).game)  # the hash expired first

    assert await store.create(game_id, b"again", b"m")
    assert await store.log(game_id) == []
    assert await store.move_record(game_id, "move-1") is None
    assert (await commit(store, game_id, 0)).status is CommitStatus.OK
    assert await store.read_events(game_id, 0, block_ms=None) == [(1, b"entry-1")]


async def test_commit_bumps_version_and_writes_everything(store: RedisStore, game_id: str) -> None:
    await store.create(game_id, b"s0", b"meta")

    first = await commit(store, game_id, 0)
    second = await commit(store, game_id, 1)

    assert first == CommitResult(CommitStatus.OK, 1)
    assert second == CommitResult(CommitStatus.OK, 2)
    assert await store.load(game_id) == GameRecord(
        version=2, state=b"state-2", meta=b"meta", head="head-2"
    )
    assert await store.log(game_id) == [b"entry-1", b"entry-2"]
    assert await store.log(game_id, 1, 1) == [b"entry-2"]
    assert await store.move_record(game_id, "move-1") == b"record-1"
    assert await store.move_record(game_id, "unknown") is None
    assert await store.read_events(game_id, 0, block_ms=None) == [
        (1, b"entry-1"),
        (2, b"entry-2"),
    ]


async def test_commit_runs_by_evalsha(store: RedisStore, raw: Redis, game_id: str) -> None:
    await store.create(game_id, b"s", b"m")
    await raw.script_flush()  # the script cache is gone, e.g. after a server restart

    assert (await commit(store, game_id, 0)).status is CommitStatus.OK
    before = (await raw.info("commandstats")).get("cmdstat_evalsha", {}).get("calls", 0)
    assert (await commit(store, game_id, 1)).status is CommitStatus.OK
    after = (await raw.info("commandstats"))["cmdstat_evalsha"]["calls"]
    assert after == before + 1


async def test_conflict_changes_nothing(store: RedisStore, raw: Redis, game_id: str) -> None:
    await store.create(game_id, b"s0", b"m")
    await commit(store, game_id, 0)
    await commit(store, game_id, 1)
    before = await snapshot(raw, store, game_id)

    stale = await commit(store, game_id, 1, key="late", state=b"lost")
    ahead = await commit(store, game_id, 7, key="early", state=b"lost")

    assert stale == CommitResult(CommitStatus.CONFLICT, 2)
    assert ahead == CommitResult(CommitStatus.CONFLICT, 2)
    assert await snapshot(raw, store, game_id) == before


async def test_duplicate_move_key_returns_the_stored_record(
    store: RedisStore, raw: Redis, game_id: str
) -> None:
    await store.create(game_id, b"s0", b"m")
    await commit(store, game_id, 0, key="client-move-1")
    await commit(store, game_id, 1)
    before = await snapshot(raw, store, game_id)

    # A retry after a lost reply: same key, whatever version the client thinks is current.
    for expected in (0, 2, 5):
        again = await commit(store, game_id, expected, key="client-move-1", state=b"lost")
        assert again == CommitResult(CommitStatus.DUPLICATE, 2, b"record-1")
    assert await snapshot(raw, store, game_id) == before


async def test_a_record_under_its_text_key_still_answers(
    store: RedisStore, raw: Redis, game_id: str
) -> None:
    """A game stored before short keys holds its records under the move key itself."""
    await store.create(game_id, b"s0", b"m")
    await commit(store, game_id, 0, key="0:old-move")
    moves = store.keys(game_id).moves
    assert await raw.hkeys(moves) == [records.short_key("0:old-move")]
    await raw.delete(moves)
    await raw.hset(moves, "0:old-move", b"old-record")
    before = await snapshot(raw, store, game_id)

    again = await commit(store, game_id, 1, key="0:old-move")
    assert again == CommitResult(CommitStatus.DUPLICATE, 1, b"old-record")
    assert await store.move_record(game_id, "0:old-move") == b"old-record"
    assert await store.move_record(game_id, "0:other") is None
    assert await snapshot(raw, store, game_id) == before


async def test_a_finished_games_state_is_stored_compressed(
    store: RedisStore, raw: Redis, game_id: str
) -> None:
    final = b"\x82\xa5chips" + bytes(range(64)) * 8  # MessagePack-like, compressible
    await store.create(game_id, b"s0", b"m")
    await commit(store, game_id, 0, state=final[:40])
    assert await raw.hget(store.keys(game_id).game, "state") == final[:40]  # live: as is

    await commit(store, game_id, 1, state=final, finished=True)

    stored = as_bytes(await raw.hget(store.keys(game_id).game, "state"))
    assert stored.startswith(records.PACKED) and len(stored) < len(final) // 4
    loaded = await store.load(game_id)
    assert loaded is not None and loaded.state == final
    record, _ = await store.load_with_presence(game_id)
    assert record == loaded


async def test_a_finished_games_log_is_packed_and_reads_as_committed(
    store: RedisStore, raw: Redis, game_id: str
) -> None:
    await store.create(game_id, b"s0", b"m")
    for version in range(4):
        await commit(store, game_id, version, finished=version == 3)
    entries = [f"entry-{n}".encode() for n in range(1, 5)]
    log_key = store.keys(game_id).log
    (element,) = [as_bytes(raw_element) for raw_element in await raw.lrange(log_key, 0, -1)]
    assert element.startswith(records.PACKED)
    assert records.log_entries([element]) == entries
    assert await raw.ttl(log_key) == await raw.ttl(store.keys(game_id).game) > 0
    assert await store.log(game_id) == entries
    # LRANGE's indexes, now inside the packed element: inclusive, negative from the end.
    for (start, stop), wanted in {
        (1, 2): entries[1:3],
        (3, 3): entries[3:],
        (-2, -1): entries[2:],
        (2, 100): entries[2:],
        (-100, 1): entries[:2],
        (5, 9): [],
        (3, 1): [],
    }.items():
        assert await store.log(game_id, start, stop) == wanted, (start, stop)
    # A plain entry after the packed ones (never written by the referee) reads in order.
    await raw.rpush(log_key, b"entry-5")
    assert await store.log(game_id, 3, -1) == [b"entry-4", b"entry-5"]


async def test_a_log_is_packed_only_while_it_is_the_one_read(
    store: RedisStore, raw: Redis, game_id: str
) -> None:
    """pack_log.lua's compare-and-set: the game's version, the log's length and its last
    entry must still be those the packed element was made of."""
    await store.create(game_id, b"s0", b"m")
    await commit(store, game_id, 0)
    await commit(store, game_id, 1)
    keys = store.keys(game_id)
    plain = await raw.lrange(keys.log, 0, -1)
    packed = records.packed_log([b"entry-1", b"entry-2"])
    pack = store._pack  # the script _pack_log runs after a finishing commit
    for version, last in ((1, b"entry-2"), (3, b"entry-2"), (2, b"entry-1")):
        assert await pack(keys=[keys.game, keys.log], args=[version, packed, last]) == 0
    assert await raw.lrange(keys.log, 0, -1) == plain
    assert await pack(keys=[keys.game, keys.log], args=[2, packed, b"entry-2"]) == 1
    assert await raw.lrange(keys.log, 0, -1) == [packed]
    assert await pack(keys=[keys.game, keys.log], args=[2, packed, packed]) == 0  # not that log now
    assert await store.log(game_id) == plain


async def test_commit_on_a_missing_game(store: RedisStore, raw: Redis, game_id: str) -> None:
    result = await commit(store, game_id, 0)

    assert result == CommitResult(CommitStatus.MISSING, -1)
    assert await raw.exists(*store.keys(game_id).all) == 0


async def test_finished_game_expires_as_a_whole(redis_url: str, raw: Redis, game_id: str) -> None:
    async with RedisStore.from_url(
        redis_url, finished_ttl_seconds=100, idle_ttl_seconds=0
    ) as store:
        await store.create(game_id, b"s0", b"m")
        await commit(store, game_id, 0)
        assert [await raw.ttl(key) for key in store.keys(game_id).all] == [-1] * 4

        assert (await commit(store, game_id, 1, finished=True)).status is CommitStatus.OK

        keys = store.keys(game_id)
        ttls = [await raw.ttl(key) for key in (keys.game, keys.log, keys.events)]
        assert all(90 <= ttl <= 100 for ttl in ttls), ttls
        # Its idempotency records went with the finishing move (the log answers for them).
        assert await raw.exists(keys.moves) == 0


@pytest.mark.parametrize("prefix", ["", "referee:test:"])
def test_all_keys_of_a_game_share_one_cluster_slot(redis_url: str, prefix: str) -> None:
    store = RedisStore(Redis.from_url(redis_url), key_prefix=prefix)
    for game_id in ("a", "game-42", "01J9Z3K6Q0W8", "x:y"):
        keys = store.keys(game_id)
        assert all(key.startswith(f"{prefix}game:{{{game_id}}}") for key in keys.all)
        assert len({key_slot(key.encode()) for key in keys.all}) == 1


@pytest.mark.parametrize("bad", ["", "a{b", "a}b"])
def test_ids_that_would_break_the_hash_tag_are_refused(redis_url: str, bad: str) -> None:
    store = RedisStore(Redis.from_url(redis_url))
    with pytest.raises(ValueError, match="invalid game id"):
        store.keys(bad)


def test_constructor_refuses_unusable_options(redis_url: str) -> None:
    with pytest.raises(ValueError, match="decode_responses"):
        RedisStore(Redis.from_url(redis_url, decode_responses=True))
    with pytest.raises(ValueError, match="braces"):
        RedisStore(Redis.from_url(redis_url), key_prefix="{x}")
    with pytest.raises(ValueError, match="stream_maxlen"):
        RedisStore(Redis.from_url(redis_url), stream_maxlen=0)


async def test_ping_measures_a_round_trip(store: RedisStore) -> None:
    assert 0 < await store.ping() < 1


async def test_delete_removes_every_key(store: RedisStore, raw: Redis, game_id: str) -> None:
    await store.create(game_id, b"s", b"m")
    await commit(store, game_id, 0)

    await store.delete(game_id)

    assert await raw.exists(*store.keys(game_id).all) == 0
    assert not await store.exists(game_id)


async def test_live_games_expire_when_idle_and_each_move_pushes_it_back(
    redis_url: str, raw: Redis, game_id: str
) -> None:
    async with RedisStore.from_url(
        redis_url, idle_ttl_seconds=600, finished_ttl_seconds=60
    ) as store:
        assert await store.create(game_id, b"s0", b"m")
        keys = store.keys(game_id)
        assert 590 < await raw.ttl(keys.game) <= 600
        await raw.expire(keys.game, 100)
        result = await store.commit(
            game_id,
            expected_version=0,
            state=b"s1",
            log_entry=b"e1",
            head="head",
            move_key="0:a",
            move_record=b"r",
            finished=False,
        )
        assert result.status is CommitStatus.OK
        for key in keys.all:
            assert 590 < await raw.ttl(key) <= 600


async def test_a_shorter_presence_lease_never_shortens_the_hash(
    store: RedisStore, raw: Redis, game_id: str
) -> None:
    """The presence hash lives as long as its longest lease: a lease that runs out sooner,
    set later (a replica's last renewal before it crashed), must not take the other seats'
    leases with it when it lapses."""
    key = store.keys(game_id).presence
    now = int(time.time() * 1000)
    await store.hold_presence(game_id, "0:long", now + 60_000)
    await store.hold_presence(game_id, "3:short", now + 1_000)
    assert await raw.pttl(key) > 50_000  # still the long lease's life
    await store.hold_presences([(game_id, "1:longer")], now + 120_000)
    assert await raw.pttl(key) > 110_000  # a longer lease extends it
    assert await store.present_seats(game_id) == {0, 1, 3}
