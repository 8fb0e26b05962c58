"""The referee's own bots, for the seats it plays (a no-show's, a seat handed to a bot).

They are the client package's bots (:func:`referee.search.registry.bot_for`), which read a
seat's view and legal moves as protobuf, as any bot client would: this adapter gives them
the engine's projection of the table for the seat, translated as an RPC would translate
it, and translates their choice back to the engine's move. The firer
(service.app.firer) awaits it as its :class:`~service.app.firer.BotMoves`, before the
table's write.

The search bot thinks for ``search_seconds`` of pure Python a move, which on the event
loop would stall every call of the process, and in a thread would still hold the GIL. It
thinks in a pool of ``workers`` processes instead (from a fork server, at the lowest CPU
priority, like VerifyHistory's replays: service.edge.verifying), started with all their
workers in a thread: only the seat's view and legal moves cross, as bytes, and the chosen
move comes back. A worker keeps each seat's bot between decisions (its memory of the
game). The pool is bounded: while ``workers * BACKLOG`` decisions are in it, a search seat
is played by the heuristic bot at once, and so it is when a decision fails (a worker died
or raised) or takes :data:`GRACE_SECONDS` longer than its budget: no seat waits on the
pool past its clock, and no failure of it reaches the firer.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final

import structlog

from referee.bots import Bot, ThinkingBot, decided
from referee.search.core import Budget
from referee.search.registry import SEARCH, SEARCH_BOTS, bot_for
from referee.v1 import game_pb2
from service.app.views import project
from service.domain import hosting
from service.edge import translate
from service.edge.verifying import lowered
from service.storage.tables import Table

log = structlog.get_logger("referee.bots")

FALLBACK: Final = "heuristic"
BACKLOG = 4
# How much longer than its budget a decision may take (the pool's queue, a slow start)
# before the heuristic plays instead.
GRACE_SECONDS = 5.0


# Each worker keeps the bots of the seats it decided for last, so a seat's search bot keeps
# its memory from decision to decision (Gang of Four's cards seen played, The Gang's own
# earlier chips), as the bot bench.bots measures does; a seat is (game id, seat).
SEATS_REMEMBERED = 512
_seat_bots: OrderedDict[tuple[str, int], Bot] = OrderedDict()


def _seat_bot(game: str, view: game_pb2.View, seconds: float) -> Bot:
    key = (view.game_id, view.seat)
    bot = _seat_bots.pop(key, None)
    if bot is None:
        bot = bot_for(game, SEARCH, Budget(seconds=seconds))
    _seat_bots[key] = bot
    while len(_seat_bots) > SEATS_REMEMBERED:
        _seat_bots.popitem(last=False)
    return bot


def think(
    game: str, seconds: float, view: bytes, legal: Sequence[bytes], seed: int
) -> bytes | None:
    """One decision, in a worker: the seat's search bot's move for its ``view`` among
    ``legal`` (serialized ``referee.v1`` messages), serialized; None when it chose nothing."""
    seen = game_pb2.View.FromString(view)
    moves = [game_pb2.Move.FromString(move) for move in legal]
    choice = _seat_bot(game, seen, seconds).choose(seen, moves, random.Random(seed))
    return None if choice is None else choice.SerializeToString()


class HouseBots:
    """:class:`~service.app.firer.BotMoves` by the client package's bots (see the module)."""

    def __init__(self, search_seconds: float = 1.0, workers: int = 1) -> None:
        if workers < 1 or search_seconds <= 0:
            raise ValueError("the search bot needs a worker and a positive time per move")
        self.search_seconds = search_seconds
        self.workers = workers
        self.thinking = 0  # decisions in the pool now
        self._pool: ProcessPoolExecutor | None = None
        self._starting = threading.Lock()
        self._closed = False

    async def choose(
        self, table: Table, seat: int, strategy: int, rng: random.Random
    ) -> Any | None:
        game = table.game.name
        view = translate.view_to_proto(project(table, table.state, table.version, seat, table.head))
        legal = translate.moves_to_proto(game, table.game.legal_moves(table.state, seat))
        bot = self.seat_bot(game, hosting.BOT_STRATEGIES.get(strategy, SEARCH))
        choice = await decided(bot, view, legal, rng)
        return None if choice is None else translate.move_from_proto(choice)[1]

    def seat_bot(self, game: str, strategy: str) -> Bot | ThinkingBot:
        """The bot of ``strategy`` for one seat of ``game``: the search bot thinks in this
        pool (the heuristic plays a game that has no search bot yet)."""
        if strategy != SEARCH:
            return bot_for(game, strategy)
        if game not in SEARCH_BOTS:
            return bot_for(game, FALLBACK)
        return PooledSearch(self, game)

    @property
    def saturated(self) -> bool:
        """As many decisions wait in the pool as it may hold (see the module)."""
        return self.thinking >= self.workers * BACKLOG

    async def decide(
        self, game: str, view: game_pb2.View, legal: Sequence[game_pb2.Move], rng: random.Random
    ) -> game_pb2.Move | None:
        """The search bot's move, thought in the pool; the heuristic's when the pool
        cannot answer within ``search_seconds`` and :data:`GRACE_SECONDS`, or failed
        (a worker died or raised: logged, and a dead pool is replaced at the next move)."""
        self.thinking += 1
        pool = None
        try:
            pool = await self._ready()
            future = pool.submit(
                think,
                game,
                self.search_seconds,
                view.SerializeToString(),
                [move.SerializeToString() for move in legal],
                rng.getrandbits(64),
            )
            async with asyncio.timeout(self.search_seconds + GRACE_SECONDS):
                answer = await asyncio.wrap_future(future)
        except Exception as error:  # never a stuck or failed seat: the heuristic plays
            log.error("the search bot failed; the heuristic plays", error=repr(error))
            if isinstance(error, BrokenProcessPool) and pool is not None:
                self._replace(pool)
            return bot_for(game, FALLBACK).choose(view, legal, rng)
        finally:
            self.thinking -= 1
        return None if answer is None else game_pb2.Move.FromString(answer)

    async def _ready(self) -> ProcessPoolExecutor:
        pool = self._pool
        if pool is None:
            pool = await asyncio.shield(asyncio.to_thread(self._start))
        return pool

    def _start(self) -> ProcessPoolExecutor:
        """Start the pool and every worker of it (in a thread: a worker is spawned by the
        fork server, which the first one starts, a second or more the loop must not wait)."""
        with self._starting:
            if self._closed:
                raise RuntimeError("the bots' pool is closed")
            if self._pool is not None:
                return self._pool
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload([__name__])
            pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=lowered, initargs=(os.getpid(),)
            )
            for started in [pool.submit(int) for _ in range(self.workers)]:
                started.result()
            self._pool = pool
            return pool

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """Drop ``broken`` (only if it is still the pool: a fresh one stays)."""
        if self._pool is broken:
            self._pool = None
        broken.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the pool's workers (the referee is stopping); no pool starts after it."""
        with self._starting:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


class PooledSearch:
    """The search bot of one seat, thinking in a :class:`HouseBots` pool (a
    :class:`~referee.bots.base.ThinkingBot`); the heuristic decides while the pool is
    saturated."""

    def __init__(self, pool: HouseBots, game: str) -> None:
        self.pool, self.game = pool, game
        self.name = f"{game}/{SEARCH}"

    async def choose(
        self, view: game_pb2.View, legal: Sequence[game_pb2.Move], rng: random.Random
    ) -> game_pb2.Move | None:
        if self.pool.saturated:
            return bot_for(self.game, FALLBACK).choose(view, legal, rng)
        return await self.pool.decide(self.game, view, legal, rng)
