"""Real races: many clients, each on its own connection, against one game."""

from __future__ import annotations

import asyncio

from service.storage.store import CommitStatus, GameRecord, RedisStore

WORKERS = 32
INCREMENTS = 10


async def test_concurrent_creates_have_one_winner(redis_url: str, game_id: str) -> None:
    stores = [RedisStore.from_url(redis_url) for _ in range(WORKERS)]
    try:
        created = await asyncio.gather(
            *(store.create(game_id, str(i).encode(), b"m") for i, store in enumerate(stores))
        )
    finally:
        await asyncio.gather(*(store.aclose() for store in stores))

    assert sorted(created) == [False] * (WORKERS - 1) + [True]


async def test_counter_race_loses_no_increment(redis_url: str, game_id: str) -> None:
    async with RedisStore.from_url(redis_url) as setup:
        await setup.create(game_id, b"0", b"m")
    start = asyncio.Barrier(WORKERS)
    first_attempts: list[CommitStatus] = []
    conflicts = 0

    async def loaded(store: RedisStore) -> GameRecord:
        record = await store.load(game_id)
        assert record is not None
        return record

    async def bump(store: RedisStore, record: GameRecord, label: str) -> CommitStatus:
        result = await store.commit(
            game_id,
            expected_version=record.version,
            state=str(int(record.state) + 1).encode(),
            log_entry=label.encode(),
            head="head",
            move_key=label,
            move_record=b"",
            finished=False,
        )
        return result.status

    async def worker(index: int) -> None:
        nonlocal conflicts
        async with RedisStore.from_url(redis_url, single_connection_client=True) as store:
            record = await loaded(store)
            await start.wait()  # everyone holds version 0 before anyone writes
            for increment in range(INCREMENTS):
                label = f"{index}:{increment}"
                status = await bump(store, record, label)
                if increment == 0:
                    first_attempts.append(status)
                while status is not CommitStatus.OK:
                    assert status is CommitStatus.CONFLICT
                    conflicts += 1
                    status = await bump(store, await loaded(store), label)
                record = await loaded(store)

    await asyncio.gather(*(worker(i) for i in range(WORKERS)))

    total = WORKERS * INCREMENTS
    async with RedisStore.from_url(redis_url) as store:
        record = await store.load(game_id)
        log = await store.log(game_id)
        events = await store.read_events(game_id, 0, block_ms=None, count=total + 1)
    assert record is not None
    assert (record.version, int(record.state)) == (total, total)
    assert len(first_attempts) == WORKERS
    assert first_attempts.count(CommitStatus.OK) == 1  # one winner from version 0
    assert conflicts >= WORKERS - 1
    assert len(log) == total
    assert set(log) == {f"{i}:{n}".encode() for i in range(WORKERS) for n in range(INCREMENTS)}
    assert events == [(version, log[version - 1]) for version in range(1, total + 1)]
