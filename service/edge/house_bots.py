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
priority, like VerifyHistory's replays: service.edge.verifying): only the seat's view and
legal moves cross, as bytes, and the chosen move comes back. The pool is bounded: while
``workers * BACKLOG`` decisions are in it, a search seat is played by the heuristic bot at
once, so a burst of bot seats slows none of them past their clocks.
"""

from __future__ import annotations

import asyncio
import inspect
import multiprocessing
import os
import random
import threading
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final

import structlog

from referee.bots import Bot, ThinkingBot
from referee.search.core import Budget
from referee.search.registry import SEARCH, SEARCH_BOTS, bot_for
from referee.v1 import game_pb2
from service.app.views import project
from service.edge import translate
from service.edge.verifying import lowered
from service.storage.tables import Table

log = structlog.get_logger("referee.bots")

# The BotStrategy numbers (tournament.proto) of the bots a seat may be handed to; a seat
# handed over without one (BOT_STRATEGY_UNSPECIFIED) gets the search bot.
STRATEGIES: Final = {0: SEARCH, 1: "random", 2: "heuristic", 3: SEARCH}
FALLBACK: Final = "heuristic"
BACKLOG = 4


def think(
    game: str, strategy: str, seconds: float, view: bytes, legal: Sequence[bytes], seed: int
) -> bytes | None:
    """One decision, in a worker: the bot's move for the seat's ``view`` among ``legal``
    (serialized ``referee.v1`` messages), serialized; None when it chose nothing."""
    bot = bot_for(game, strategy, Budget(seconds=seconds))
    moves = [game_pb2.Move.FromString(move) for move in legal]
    choice = bot.choose(game_pb2.View.FromString(view), moves, random.Random(seed))
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

    async def choose(
        self, table: Table, seat: int, strategy: int, rng: random.Random
    ) -> Any | None:
        game = table.game.name
        view = translate.view_to_proto(project(table, table.state, table.version, seat, table.head))
        legal = translate.moves_to_proto(game, table.game.legal_moves(table.state, seat))
        bot = self.seat_bot(game, STRATEGIES.get(strategy, SEARCH))
        decided = bot.choose(view, legal, rng)
        choice = await decided if inspect.isawaitable(decided) else decided
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
        self.thinking += 1
        try:
            if self._pool is None:
                await asyncio.to_thread(self._start)
            assert self._pool is not None
            future = self._pool.submit(
                think,
                game,
                SEARCH,
                self.search_seconds,
                view.SerializeToString(),
                [move.SerializeToString() for move in legal],
                rng.getrandbits(64),
            )
            answer = await asyncio.wrap_future(future)
        except BrokenProcessPool:  # a worker died: the heuristic plays, a fresh pool next
            log.error("a bot worker died; starting a new pool at the next move")
            self._pool = None
            return bot_for(game, FALLBACK).choose(view, legal, rng)
        finally:
            self.thinking -= 1
        return None if answer is None else game_pb2.Move.FromString(answer)

    def _start(self) -> None:
        """Start the pool (in a thread: it waits on the fork server)."""
        with self._starting:
            if self._pool is not None:
                return
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload([__name__])
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=lowered, initargs=(os.getpid(),)
            )

    def close(self) -> None:
        """Stop the pool's workers (the referee is stopping)."""
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
