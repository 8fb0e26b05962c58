"""The checks every engine shares: the seat preamble of ``check``, ``legal_moves``, ``view``
and ``default_move``, the table options of ``make_config``, and legal-move listing through
``check`` (the contract they serve is :mod:`engines.base`). They run on every move and
listing, so they are a module of their own, which the compiled build compiles: engines.base
stays Python for its Structs and generic dataclasses (service/compiled.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeGuard, TypeVar

from engines.base import Seat, Viewer
from engines.errors import IllegalMoveError, InvalidConfigError, InvalidMoveError, MoveError

S = TypeVar("S")
M = TypeVar("M")


def check_seat(seat: object, players: int, *, over: bool = False) -> Seat:
    """The preamble of every engine's ``check``, ``legal_moves`` and ``view``; returns the
    seat, now known to be one.

    ``seat`` must be a seat of this table (a plain int, not a bool), else
    SEAT_OUT_OF_RANGE; a move (``over`` given) needs a game still running, else GAME_OVER.
    The seat comes first: a seat that is not at the table learns nothing, not even that
    the game has ended. An engine's entry points take the seat as ``object`` and keep what
    this returns: in the compiled build (mypyc) a parameter typed ``int`` would refuse a
    ``str`` with a TypeError, and take ``True`` for seat 1, before this check could run.
    """
    if type(seat) is not int or not 0 <= seat < players:
        raise InvalidMoveError("SEAT_OUT_OF_RANGE", f"no seat {seat} at this table")
    if over:
        raise IllegalMoveError("GAME_OVER", "the game is over")
    return seat


def unchecked(value: object) -> Any:
    """``value`` (a move, a card) for a check to read a field it has yet to check.

    A Struct's fields hold whatever it was built or decoded with (it does not check types
    when it is made), so a check reads the value itself: through ``Any``. In the compiled
    build (mypyc) reading a field declared ``int`` checks the type on the spot, so a ``str``
    there would raise a TypeError (and ``True`` would pass for 1) before the check could
    refuse it with its reason."""
    return value


def check_to_act(seat: Seat, acting: frozenset[Seat]) -> None:
    """The preamble of every ``default_move`` after :func:`check_seat`: a clock plays only
    for a seat that has something to do, else NOT_TO_ACT."""
    if seat not in acting:
        raise IllegalMoveError("NOT_TO_ACT", f"seat {seat} has nothing to do now")


def may_move(seat: object, players: int, *, over: bool) -> TypeGuard[Seat]:
    """Whether :func:`check_seat` lets ``seat`` move at all: the guard of ``legal_moves``,
    which lists nothing for a seat that is not at the table or a game that is over."""
    try:
        check_seat(seat, players, over=over)
    except MoveError:
        return False
    return True


def check_viewer(viewer: object, players: int) -> Viewer:
    """The preamble of every ``view``: a spectator (None) or a seat of this table; returns
    the viewer, now known to be one (taken as ``object``, as :func:`check_seat` says why)."""
    return None if viewer is None else check_seat(viewer, players)


def check_table(
    game: str,
    players: object,
    seats: range,
    options: dict[str, object],
    flags: tuple[str, ...],
) -> dict[str, bool]:
    """The seat count and on/off table options every game's ``make_config`` checks.

    Returns every flag in ``flags`` (False when not given); refuses other seat counts,
    unknown options and non-boolean values with their reasons.
    """
    if type(players) is not int or players not in seats:
        raise InvalidConfigError(
            "SEAT_COUNT_UNSUPPORTED",
            f"{game} is for {seats.start} to {seats.stop - 1} players, not {players}",
        )
    unknown = set(options) - set(flags)
    if unknown:
        raise InvalidConfigError("UNKNOWN_OPTION", f"unknown table options: {sorted(unknown)}")
    values = {flag: options.get(flag, False) for flag in flags}
    for flag, value in values.items():
        if not isinstance(value, bool):
            raise InvalidConfigError("BAD_OPTION", f"{flag} must be true or false")
    return {flag: bool(value) for flag, value in values.items()}


def accepted(
    check: Callable[[S, Seat, M], None], state: S, seat: Seat, candidates: Sequence[M]
) -> list[M]:
    """The candidates ``check`` accepts, in order: legal-move listing through the same
    checks as validation, so the two can never disagree."""
    legal: list[M] = []
    for move in candidates:
        try:
            check(state, seat, move)
        except MoveError:
            continue
        legal.append(move)
    return legal
