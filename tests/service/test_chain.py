"""The hash-chained move log: heads in the store, in every view and history entry.

head_0 is the seed commitment; head_v = sha256(bytes.fromhex(head_{v-1}) + log_entry_v).
These tests recompute it by hand from what the referee answers and from what Redis holds.
"""

from __future__ import annotations

import asyncio
import hashlib

from redis.asyncio import Redis

from referee.v1 import referee_pb2
from service.domain import chain, records
from service.edge.verify import verify_history
from service.storage.redis_kit import as_bytes
from tests.service.players import play_to_end
from tests.service.table import COLOURS, Stub, Table, take

R = referee_pb2


def by_hand(seed_sha256: str, entries: list[bytes]) -> list[str]:
    """The chain as a frontend author would compute it from the proto comments."""
    heads = [seed_sha256]
    for entry in entries:
        heads.append(hashlib.sha256(bytes.fromhex(heads[-1]) + entry).hexdigest())
    return heads


async def stored_log(redis: Redis, game_id: str) -> list[bytes]:
    raw = await redis.lrange(f"game:{{{game_id}}}:log", 0, -1)
    return records.log_entries(as_bytes(entry) for entry in raw)


async def stored_head(redis: Redis, game_id: str) -> str:
    return as_bytes(await redis.hget(f"game:{{{game_id}}}", "head")).decode()


async def stream_entries(redis: Redis, game_id: str) -> list[dict[bytes, bytes]]:
    entries = await redis.xrange(f"game:{{{game_id}}}:events")
    return [
        {as_bytes(key): as_bytes(value) for key, value in dict(fields or {}).items()}
        for _, fields in entries or []
    ]


def test_the_chain_starts_at_the_commitment_and_links_each_entry() -> None:
    commitment = hashlib.sha256(b"seed").hexdigest()
    entries = [b"first", b"second", b""]
    assert chain.heads(commitment, []) == [commitment]
    assert chain.heads(commitment, entries) == by_hand(commitment, entries)
    assert chain.link(commitment, b"first") == by_hand(commitment, [b"first"])[1]
    # Order matters, and so does every byte.
    assert chain.heads(commitment, entries[::-1])[-1] != chain.heads(commitment, entries)[-1]
    assert chain.link(commitment, b"firsT") != chain.link(commitment, b"first")


async def test_views_and_the_store_carry_the_head_of_the_stored_log(
    stub: Stub, raw_redis: Redis
) -> None:
    table = await Table.create(stub, 3, seed=b"chain-heads")
    assert (await table.view(None)).head == table.seed_sha256  # version 0: the commitment
    replies = [await table.submit(seat, take(COLOURS[0], seat + 1)) for seat in range(3)]
    stored = await stored_log(raw_redis, table.game_id)
    heads = by_hand(table.seed_sha256, stored)
    assert [reply.view.head for reply in replies] == heads[1:]
    assert (await table.view(1)).head == heads[-1]
    assert await stored_head(raw_redis, table.game_id) == heads[-1]
    # The stream carries each entry alone: watchers extend the chain from it (the live
    # watch test checks the heads they send).
    assert await stream_entries(raw_redis, table.game_id) == [{b"entry": e} for e in stored]
    history = await table.history(0)
    assert [entry.head for entry in history.entries] == heads[1:]
    # Before the end the stored entries stay secret (they hold every move and move id).
    assert not any(entry.log_entry for entry in history.entries)


async def test_a_finished_history_shows_the_stored_entries_that_make_its_chain(
    stub: Stub, raw_redis: Redis
) -> None:
    table = await Table.create(stub, 3, seed=b"chain-finished")
    await play_to_end(table, 3, win=True)
    history = await table.history(None)
    stored = await stored_log(raw_redis, table.game_id)
    assert [entry.log_entry for entry in history.entries] == stored
    assert [entry.head for entry in history.entries] == by_hand(table.seed_sha256, stored)[1:]
    watch = stub.WatchGame(R.WatchGameRequest(game_id=table.game_id, after_version=0))
    updates = [update async for update in watch]
    assert [u.view.head for u in updates] == [entry.head for entry in history.entries]
    report = verify_history(history, [u.view for u in updates])
    assert report.ok and report.chained, str(report)
    assert "hash chain checked" in str(report)


async def test_a_game_stored_without_a_head_gets_it_from_its_log_once_loaded(
    stub: Stub, raw_redis: Redis
) -> None:
    """As a game stored before the chain existed: no head field in its hash."""
    table = await Table.create(stub, 3, seed=b"chain-old")
    for seat in range(2):
        await table.submit(seat, take(COLOURS[0], seat + 1))
    key = f"game:{{{table.game_id}}}"
    assert await raw_redis.hdel(key, "head") == 1
    stored = await stored_log(raw_redis, table.game_id)
    expected = by_hand(table.seed_sha256, stored)
    assert (await table.view(2)).head == expected[-1]
    # Moves go on from the recomputed head (a fresh load: another referee's cache is cold).
    reply = await table.submit(2, take(COLOURS[0], 3))
    stored = await stored_log(raw_redis, table.game_id)
    assert reply.view.head == by_hand(table.seed_sha256, stored)[-1]
    assert await stored_head(raw_redis, table.game_id) == reply.view.head


async def test_a_live_watch_learns_each_head_with_its_change(stub: Stub) -> None:
    table = await Table.create(stub, 3, seed=b"chain-watch")
    stream = stub.WatchGame(R.WatchGameRequest(game_id=table.game_id), metadata=table.md(0))
    snapshot = await asyncio.wait_for(stream.read(), 10)
    assert isinstance(snapshot, R.WatchGameResponse) and snapshot.view.head == table.seed_sha256
    replies = [await table.submit(seat, take(COLOURS[0], seat + 1)) for seat in range(3)]
    live = [await asyncio.wait_for(stream.read(), 10) for _ in replies]
    stream.cancel()
    assert [m.view.head for m in live if isinstance(m, R.WatchGameResponse)] == [
        reply.view.head for reply in replies
    ]
