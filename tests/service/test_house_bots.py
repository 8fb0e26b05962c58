"""The referee's own search bot thinks in worker processes, bounded, and survives them.

A search decision takes its time (1 s in service) in pure Python, so it must never run on
the referee's event loop (service.edge.house_bots): these tests check it is answered by
a worker process, that a saturated pool lets the heuristic bot play at once instead, and
that a killed worker costs one heuristic move and a fresh pool, never a stuck seat.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
from collections.abc import AsyncIterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

import pytest

from engines.registry import GAMES
from referee.bots import bot_for
from referee.codecs import CODECS
from referee.v1 import game_pb2
from service.app.views import seat_view
from service.edge import house_bots, translate
from service.edge.house_bots import BACKLOG, HouseBots, PooledSearch, think
from tests.servers import BOT_SEARCH_SECONDS

GAME = "gang_of_four"


def position(seed: bytes) -> tuple[game_pb2.View, list[game_pb2.Move]]:
    """Seat 0's view and legal moves at the start of a 4-seat game, as protobuf."""
    game = GAMES[GAME]
    state = game.new_game(game.make_config(4, {}), seed)
    seat = min(game.waiting_for(state))
    view = translate.view_to_proto(seat_view(game, "g", 4, state, 0, seat, ""))
    return view, [CODECS[GAME].move_to_proto(move) for move in game.legal_moves(state, seat)]


@pytest.fixture
async def bots() -> AsyncIterator[HouseBots]:
    pool = HouseBots(BOT_SEARCH_SECONDS)
    yield pool
    pool.close()


def pooled(bots: HouseBots) -> PooledSearch:
    seat_bot = bots.seat_bot(GAME, "search")
    assert isinstance(seat_bot, PooledSearch)
    return seat_bot


def _worker_pids(bots: HouseBots) -> list[int]:
    assert bots._pool is not None
    return list(bots._pool._processes)


async def test_the_search_bot_thinks_in_a_worker_process(bots: HouseBots) -> None:
    view, legal = position(b"house-1")
    seat_bot = pooled(bots)
    move = await seat_bot.choose(view, legal, random.Random(1))
    assert move in legal
    assert bots.thinking == 0
    (worker,) = _worker_pids(bots)
    assert worker != os.getpid()


async def test_a_saturated_pool_lets_the_heuristic_play_at_once(bots: HouseBots) -> None:
    view, legal = position(b"house-2")
    bots.thinking = bots.workers * BACKLOG
    move = await pooled(bots).choose(view, legal, random.Random(2))
    assert move == bot_for(GAME, "heuristic").choose(view, legal, random.Random(2))
    assert bots._pool is None  # nothing was sent to a worker


async def test_a_killed_worker_costs_one_heuristic_move_and_a_fresh_pool(
    bots: HouseBots,
) -> None:
    view, legal = position(b"house-3")
    seat_bot = pooled(bots)
    await seat_bot.choose(view, legal, random.Random(3))
    (worker,) = _worker_pids(bots)
    os.kill(worker, signal.SIGKILL)
    fallback = await asyncio.wait_for(seat_bot.choose(view, legal, random.Random(4)), 30)
    assert fallback in legal  # the heuristic's, at once
    assert bots._pool is None
    assert await seat_bot.choose(view, legal, random.Random(5)) in legal
    (fresh,) = _worker_pids(bots)
    assert fresh != worker


def test_games_without_a_search_bot_get_the_heuristic_and_named_bots_are_kept() -> None:
    bots = HouseBots()
    assert bots.seat_bot(GAME, "random").name == f"{GAME}/random"
    for game in GAMES:
        name = bots.seat_bot(game, "search").name
        assert name in (f"{game}/search", f"{game}/heuristic")


async def test_the_pool_starts_every_worker_before_the_first_decision(bots: HouseBots) -> None:
    """The fork server and the workers start in a thread (HouseBots._start), so the first
    decision's submit spawns nothing on the event loop."""
    pool = await bots._ready()
    assert len(pool._processes) == bots.workers


class _Failing(ProcessPoolExecutor):
    def submit(self, *args: Any, **kwargs: Any) -> Future[Any]:
        failed: Future[Any] = Future()
        failed.set_exception(ValueError("a sampler's bug"))
        return failed


async def test_a_decision_that_raises_costs_one_heuristic_move(
    bots: HouseBots, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever a worker raises, the seat gets the heuristic's move: no failure of the
    pool reaches the firer (whose loop would end) or a tournament's bot seat."""
    failing = _Failing(1)
    monkeypatch.setattr(bots, "_pool", failing)
    view, legal = position(b"house-4")
    move = await pooled(bots).choose(view, legal, random.Random(6))
    assert move == bot_for(GAME, "heuristic").choose(view, legal, random.Random(6))
    assert bots.thinking == 0
    failing.shutdown()


async def test_a_seats_bot_keeps_its_memory_between_decisions_in_a_worker() -> None:
    """think() keeps one bot per (game id, seat): the same object decides again."""
    view, legal = position(b"house-5")
    raw = [move.SerializeToString() for move in legal]
    first = think(GAME, BOT_SEARCH_SECONDS, view.SerializeToString(), raw, 1)
    assert first is not None and game_pb2.Move.FromString(first) in legal
    remembered = house_bots._seat_bots[(view.game_id, view.seat)]
    think(GAME, BOT_SEARCH_SECONDS, view.SerializeToString(), raw, 2)
    assert house_bots._seat_bots[(view.game_id, view.seat)] is remembered
