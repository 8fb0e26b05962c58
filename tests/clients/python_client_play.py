"""The Gang through referee.client: a seat that always makes progress, and whole games.

Each step asks the seats in ``view.to_act`` in turn for their legal moves and plays the
first one that takes a free chip of the current round for a seat without one, so every
round fills up and the game ends. Moves come only from ListLegalMoves.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.client import AsyncSeat, Seat
from referee.v1 import game_pb2

STEP_LIMIT = 400


def free_chips(view: game_pb2.View) -> dict[int, int | None]:
    """Stars -> holder of the current round's chips (None: in the centre)."""
    gang = view.the_gang
    for row in gang.chips:
        if row.colour == gang.round:
            return {
                chip.stars: chip.holder if chip.HasField("holder") else None for chip in row.chips
            }
    return {}


def progress_move(view: game_pb2.View, moves: Sequence[game_pb2.Move]) -> game_pb2.Move | None:
    """A legal move taking a chip from the centre, for a seat that holds none this round."""
    holders = free_chips(view)
    if view.seat in holders.values():
        return None
    for move in moves:
        if move.the_gang.WhichOneof("action") != "take_chip":
            continue
        chip = move.the_gang.take_chip
        free = chip.stars in holders and holders[chip.stars] is None
        if chip.colour == view.the_gang.round and free:
            return move
    return None


def step(seats: Sequence[Seat]) -> game_pb2.View:
    """One accepted move of some seat that can progress; the view after it."""
    for number in seats[0].view().to_act:
        seat = seats[number]
        legal = seat.legal_moves()
        move = progress_move(seat.view(), legal.moves)
        if move is not None:
            reply = seat.submit(move, expected_version=legal.version)
            assert reply.version == legal.version + 1 and not reply.duplicate
            return reply.view
    raise AssertionError("no seat could make progress")


def play_to_end(seats: Sequence[Seat]) -> game_pb2.View:
    view = seats[0].view()
    for _ in range(STEP_LIMIT):
        if view.HasField("outcome"):
            return view
        view = step(seats)
    raise AssertionError(f"no end after {STEP_LIMIT} moves")


async def astep(seats: Sequence[AsyncSeat]) -> game_pb2.View:
    """As :func:`step`, through the asyncio client."""
    for number in (await seats[0].view()).to_act:
        seat = seats[number]
        legal = await seat.legal_moves()
        move = progress_move(await seat.view(), legal.moves)
        if move is not None:
            reply = await seat.submit(move, expected_version=legal.version)
            assert reply.version == legal.version + 1 and not reply.duplicate
            return reply.view
    raise AssertionError("no seat could make progress")


async def aplay_to_end(seats: Sequence[AsyncSeat]) -> game_pb2.View:
    view = await seats[0].view()
    for _ in range(STEP_LIMIT):
        if view.HasField("outcome"):
            return view
        view = await astep(seats)
    raise AssertionError(f"no end after {STEP_LIMIT} moves")
