"""Playing a seat: follow its watch stream and let a bot move whenever the seat may act."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncGenerator, Callable

from referee.bots.base import Bot
from referee.client import AsyncSeat, IllegalMove, Unavailable, VersionConflict
from referee.client.calls import new_move_id
from referee.v1 import game_pb2, referee_pb2

CONFLICT_ATTEMPTS = 3
"""Re-decisions on a fresh view after a conflict, before waiting for the next update."""
UNAVAILABLE_ATTEMPTS = 4
"""Resends of one move (same client_move_id, so it never lands twice) while the referee
is unreachable."""


async def play_seat(
    seat: AsyncSeat,
    bot: Bot,
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
    ``on_move(client_move_id, version)`` is called for every acknowledged move. ``think``
    seconds pass before each decision (for games shown to people; 0 plays at once).
    """
    updates = seat.watch()
    stopped = asyncio.ensure_future(stop.wait()) if stop is not None else None
    view: game_pb2.View | None = None
    latest = -1
    following: asyncio.Future[referee_pb2.WatchGameResponse | None] | None = None
    try:
        while True:
            following = asyncio.ensure_future(_next(updates))
            waiting = {following} if stopped is None else {following, stopped}
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
            if not following.done():
                following.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await following
                return view if view is not None else await seat.view()
            update = following.result()
            if update is None:  # the stream ended without an outcome: look once more
                return await seat.view()
            view = update.view
            if view.HasField("outcome"):
                return view
            if view.version < latest or not view.HasField("seat") or view.seat not in view.to_act:
                continue
            if think > 0:  # a pause that ``stop`` cuts short
                if stopped is None:
                    await asyncio.sleep(think)
                else:
                    await asyncio.wait({stopped}, timeout=think)
                    if stopped.done():
                        return view
            latest = max(latest, await _act(seat, bot, view, rng, on_move))
    finally:
        if stopped is not None:
            stopped.cancel()
        if following is not None and not following.done():
            # The stream's generator must be idle before it can be closed.
            following.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await following
        await updates.aclose()


async def _next(
    updates: AsyncGenerator[referee_pb2.WatchGameResponse, None],
) -> referee_pb2.WatchGameResponse | None:
    return await anext(updates, None)


async def _act(
    seat: AsyncSeat,
    bot: Bot,
    view: game_pb2.View,
    rng: random.Random,
    on_move: Callable[[str, int], None] | None,
) -> int:
    """Decide and submit on ``view``; returns the newest version known afterwards."""
    legal = await seat.legal_moves()
    for attempt in range(CONFLICT_ATTEMPTS + 1):
        if legal.version != view.version:
            return legal.version  # a newer update is on its way: decide on that one
        move = bot.choose(view, legal.moves, rng) if legal.moves else None
        if move is None:
            return legal.version
        move_id = new_move_id()
        try:
            reply = await _submit(seat, move, move_id, legal.version)
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


async def _submit(
    seat: AsyncSeat, move: game_pb2.Move, move_id: str, version: int
) -> referee_pb2.SubmitMoveResponse:
    for attempt in range(UNAVAILABLE_ATTEMPTS + 1):
        try:
            return await seat.submit(move, client_move_id=move_id, expected_version=version)
        except Unavailable:
            if attempt == UNAVAILABLE_ATTEMPTS:
                raise
            await asyncio.sleep(0.1 * 2**attempt)
    raise AssertionError("unreachable: the last attempt returns or raises")
