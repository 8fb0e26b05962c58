"""The end-of-run check is real: it passes on an honest game and catches planted faults.

One whole game is played by the load test's own driver (bots through the measured client)
against a referee in this process; then Redis is tampered with behind the referee's back,
or the drivers' ledger is, one fault at a time, and the check must name each.
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator
from pathlib import Path
from typing import cast

import pytest
from redis.asyncio import Redis

from bench.loadtest.check import GameCheck, check_games
from bench.loadtest.config import LoadConfig
from bench.loadtest.metrics import GameLedger, Metrics
from bench.loadtest.runner import Clients, Load
from engines.registry import GAMES
from service.domain import records
from service.process.server import running
from service.storage.store import RedisStore
from service.storage.tables import formats
from tests.servers import settings_for


class Played:
    def __init__(self, address: str, store: RedisStore, raw: Redis, ledger: GameLedger) -> None:
        self.address = address
        self.store = store
        self.raw = raw
        self.ledger = ledger
        self.keys = store.keys(ledger.game_id)

    async def check(self, ledger: GameLedger | None = None) -> GameCheck:
        (result,) = await check_games(self.store, [self.address], [ledger or self.ledger])
        return result

    async def check_with_log(self, entries: list[bytes]) -> GameCheck:
        """:meth:`check` with the stored log replaced by ``entries``, then put back (the
        game is finished: its log is one packed element, see RedisStore.log)."""
        stored = cast(list[bytes], await self.raw.lrange(self.keys.log, 0, -1))
        await self.raw.delete(self.keys.log)
        await self.raw.rpush(self.keys.log, *entries)
        try:
            return await self.check()
        finally:
            await self.raw.delete(self.keys.log)
            await self.raw.rpush(self.keys.log, *stored)


@pytest.fixture
async def played(loadtest_redis_url: str, tmp_path: Path) -> AsyncIterator[Played]:
    """One finished game of The Gang, played by the load test's unary driver."""
    async with running(settings_for(loadtest_redis_url, tmp_path)) as referee:
        metrics = Metrics(measuring=True)
        clients = Clients([referee.address], 2, metrics, timeout=10)
        config = LoadConfig(
            concurrency=1, games=1, seconds=30, redis_url=loadtest_redis_url, progress=False
        )
        load = Load(config, clients, metrics)
        try:
            await load.worker()
        finally:
            await clients.close()
        (ledger,) = metrics.ledgers.values()
        assert ledger.finished_seen and not load.driver_errors
        store = RedisStore.from_url(loadtest_redis_url)
        raw = Redis.from_url(loadtest_redis_url, protocol=2)
        try:
            yield Played(referee.address, store, raw, ledger)
        finally:
            await raw.aclose()
            await store.aclose()


async def test_an_honest_game_passes_every_step(played: Played) -> None:
    result = await played.check()
    assert result.ok, result.problems
    assert result.finished and result.verified
    assert result.version == len(played.ledger.acked) > 0


async def test_a_tampered_stored_state_is_a_replay_mismatch(played: Played) -> None:
    stored = cast(bytes, await played.raw.hget(played.keys.game, "state"))
    assert stored.startswith(records.PACKED)  # the game is over: stored compressed
    meta = records.meta_decoder.decode(cast(bytes, await played.raw.hget(played.keys.game, "meta")))
    game, fmt = GAMES[meta.game], formats(meta.game)
    # A real state of this very game, only not the one its log leads to: the deal, in the
    # form a finished game stores (compressed), then in a live game's (plain MessagePack).
    initial = records.encode(game.new_game(fmt.config.decode(meta.config), meta.seed))
    for compressed in (True, False):
        await played.raw.hset(
            played.keys.game, "state", records.stored_state(initial, finished=compressed)
        )
        try:
            result = await played.check()
        finally:
            await played.raw.hset(played.keys.game, "state", stored)
        assert not result.ok, compressed
        assert "the stored state differs from the replay of the log" in result.problems
        assert not result.verified
    assert (await played.check()).ok  # restored


async def test_an_acknowledged_move_missing_from_the_log_is_lost(played: Played) -> None:
    log = await played.store.log(played.ledger.game_id)
    entry = records.log_decoder.decode(log[-1])
    result = await played.check_with_log(log[:-1])
    assert result.lost == [(entry.seat, entry.client_move_id)]
    assert not result.ok and not result.verified


async def test_a_move_logged_twice_is_doubled(played: Played) -> None:
    log = await played.store.log(played.ledger.game_id)
    entry = records.log_decoder.decode(log[0])
    result = await played.check_with_log([*log, log[0]])
    assert result.doubled == [(entry.seat, entry.client_move_id)]
    assert "the log's versions are not 1..n without a gap" in result.problems
    assert not result.ok


async def test_a_logged_move_nobody_was_told_of_is_a_phantom(played: Played) -> None:
    ledger = copy.deepcopy(played.ledger)
    key = min(ledger.acked, key=ledger.acked.__getitem__)
    del ledger.acked[key]
    result = await played.check(ledger)
    assert result.phantom == [key]
    assert not result.ok
    # Had its answer been lost (cancelled, UNAVAILABLE), the move applied once is fine.
    ledger.in_doubt.add(key)
    result = await played.check(ledger)
    assert result.ok and result.in_doubt_applied == 1


async def test_an_acknowledgment_at_another_version_is_lost(played: Played) -> None:
    ledger = copy.deepcopy(played.ledger)
    key = max(ledger.acked, key=ledger.acked.__getitem__)
    ledger.acked[key] -= 1  # the driver was told one version, the log says another
    result = await played.check(ledger)
    assert key in result.lost
    assert any("two moves acknowledged with one version" in p for p in result.problems)


async def test_a_vanished_game_loses_every_acknowledged_move(played: Played) -> None:
    ledger = copy.deepcopy(played.ledger)
    ledger.game_id = "no-such-game"
    result = await played.check(ledger)
    assert "the game is not in Redis" in result.problems
    assert sorted(result.lost) == sorted(ledger.acked)
