"""Playing a seat: follow its watch stream and let a bot move whenever the seat may act."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import random
from collections.abc import AsyncGenerator, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from referee.bots.base import Bot, ThinkingBot
from referee.client import (
    AsyncSeat,
    Backoff,
    DeadlineExceeded,
    IllegalMove,
    RefereeError,
    Unavailable,
    VersionConflict,
)
from referee.client.calls import new_move_id
from referee.v1 import game_pb2, referee_pb2

LOG = logging.getLogger(__name__)
CONFLICT_ATTEMPTS = 3
"""Re-decisions on a fresh view after a conflict, before waiting for the next update."""
RECONNECT = Backoff(initial=0.2, maximum=5.0)
"""Pauses before a seat follows its game again once the referee stayed away longer than
its watch resumes and its client's retries (a move is resent under its one
``client_move_id`` by the client's retry policy, so it never lands twice). There is no
last pause: a cut connection never ends a seat, only the game's end or ``stop`` does."""


@dataclass
class _Following:
    """What a seat knows across reconnects: the last view, and the newest version seen."""

    view: game_pb2.View | None = None
    latest: int = -1
    updates: int = 0


async def play_seat(
    seat: AsyncSeat,
    bot: Bot | ThinkingBot,
    *,
    rng: random.Random,
    stop: asyncio.Event | None = None,
    on_move: Callable[[str, int], None] | None = None,
    think: float = 0.0,
) -> game_pb2.View:
    """Play one seat until the game has an outcome (returns the final view) or ``stop``
    is set (returns the last view seen).

    Follows the seat's watch stream (which resumes after drops); whenever the seat is in
    ``view.to_act`` it lists the legal moves, asks the bot and submits its move with a
    fresh ``client_move_id``, pinned to the version it decided on. A move refused because
    the game moved on is decided again on a fresh view (a few times) or on the next update.
    When the referee stays unreachable (UNAVAILABLE or DEADLINE_EXCEEDED after the client's
    own retries), the seat waits (:data:`RECONNECT`, cut short by ``stop``) and follows the
    game again from a fresh snapshot, for as long as it takes.
    ``on_move(client_move_id, version)`` is called for every acknowledged move. ``think``
    seconds pass before each decision (for games shown to people; 0 plays at once).
    """
    stopped = asyncio.ensure_future(stop.wait()) if stop is not None else None
    following = _Following()
    delays = RECONNECT.delays()
    try:
        while True:
            seen = following.updates
            try:
                return await _follow(seat, bot, following, rng, stopped, on_move, think)
            except (Unavailable, DeadlineExceeded) as failure:
                if following.updates > seen:  # it got through for a while: short pauses again
                    delays = RECONNECT.delays()
                if await _paused(stopped, next(delays)):
                    return following.view if following.view is not None else await seat.view()
                _log_reconnect(seat, failure)
    finally:
        if stopped is not None:
            stopped.cancel()


async def _paused(stopped: asyncio.Future[Literal[True]] | None, seconds: float) -> bool:
    """Wait ``seconds``; True when ``stop`` was set meanwhile (or before)."""
    if stopped is None:
        await asyncio.sleep(seconds)
        return False
    await asyncio.wait({stopped}, timeout=seconds)
    return stopped.done()


def _log_reconnect(seat: AsyncSeat, failure: RefereeError) -> None:
    LOG.info("seat of %s follows its game again after %s", seat.game_id, failure.reason)


async def _follow(
    seat: AsyncSeat,
    bot: Bot | ThinkingBot,
    following: _Following,
    rng: random.Random,
    stopped: asyncio.Future[Literal[True]] | None,
    on_move: Callable[[str, int], None] | None,
    think: float,
) -> game_pb2.View:
    """One watch stream of the seat, played until the outcome or ``stop``."""
    updates = seat.watch()
    step: asyncio.Future[referee_pb2.WatchGameResponse | None] | None = None
    try:
        while True:
            step = asyncio.ensure_future(_next(updates))
            waiting: set[asyncio.Future[Any]] = {step} if stopped is None else {step, stopped}
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if not step.done():
                step.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await step
                return following.view if following.view is not None else await seat.view()
            update = step.result()
            if update is None:  # the stream ended without an outcome: look once more
                return await seat.view()
            following.updates += 1
            view = following.view = update.view
            if view.HasField("outcome"):
                return view
            if not _to_act(view, following.latest):
                continue
            if think > 0 and await _paused(stopped, think):  # a pause that ``stop`` cuts short
                return view
            following.latest = max(following.latest, await _act(seat, bot, view, rng, on_move))
    finally:
        if step is not None and not step.done():
            # The stream's generator must be idle before it can be closed.
            step.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await step
        await updates.aclose()


def _to_act(view: game_pb2.View, latest: int) -> bool:
    """Whether the seat should decide on ``view``: its turn, and not older than its last."""
    return view.version >= latest and view.HasField("seat") and view.seat in view.to_act


async def _next(
    updates: AsyncGenerator[referee_pb2.WatchGameResponse, None],
) -> referee_pb2.WatchGameResponse | None:
    return await anext(updates, None)


async def decided(
    bot: Bot | ThinkingBot,
    view: game_pb2.View,
    legal: Sequence[game_pb2.Move],
    rng: random.Random,
) -> game_pb2.Move | None:
    """The bot's move, awaited if it thinks elsewhere (:class:`ThinkingBot`)."""
    decided = bot.choose(view, legal, rng)
    if inspect.isawaitable(decided):
        return await decided
    return decided


async def _act(
    seat: AsyncSeat,
    bot: Bot | ThinkingBot,
    view: game_pb2.View,
    rng: random.Random,
    on_move: Callable[[str, int], None] | None,
) -> int:
    """Decide and submit on ``view``; returns the newest version known afterwards."""
    legal = await seat.legal_moves()
    for attempt in range(CONFLICT_ATTEMPTS + 1):
        if legal.version != view.version:
            return legal.version  # a newer update is on its way: decide on that one
        move = await decided(bot, view, legal.moves, rng) if legal.moves else None
        if move is None:
            return legal.version
        move_id = new_move_id()
        try:
            reply = await seat.submit(move, client_move_id=move_id, expected_version=legal.version)
        except VersionConflict:
            if attempt == CONFLICT_ATTEMPTS:
                return legal.version
            view, legal = await seat.view(), await seat.legal_moves()
            if view.HasField("outcome") or view.seat not in view.to_act:
                return view.version
            continue
        except IllegalMove:
            return legal.version  # the game moved on: the next update decides again
        if on_move is not None:
            on_move(move_id, reply.version)
        return reply.version
    return legal.version
