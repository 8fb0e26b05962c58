"""Helpers of the Gang of Four rule tests (``test_rules_*.py``): refusals and acceptances
checked through ``check``, ``apply`` and ``legal_moves`` alike, the plays a seat may make,
and tables at the end of hand 1."""

from __future__ import annotations

from typing import Any

import msgspec
import msgspec.structs
import pytest

from engines.errors import MoveError
from engines.gang_of_four import GAME, GangOfFourState, Play
from engines.gang_of_four.cards import MULTICOLOURED_ONE, GofCard
from engines.gang_of_four.events import Event
from tests.gang_of_four.support import SEED, finish_hand, new, reason_of

PLAYERS = [3, 4]


def rejects(
    state: GangOfFourState, seat: int, move: Any, kind: type[MoveError], reason: str
) -> None:
    """``check`` and ``apply`` both refuse ``move`` with this error kind and reason, the
    state is untouched, and ``legal_moves`` does not list it."""
    before = msgspec.msgpack.encode(state)
    assert reason_of(state, seat, move) == (kind, reason)
    with pytest.raises(kind) as info:
        GAME.apply(state, seat, move)
    assert info.value.reason == reason
    assert msgspec.msgpack.encode(state) == before
    assert move not in GAME.legal_moves(state, seat)


def accepts(state: GangOfFourState, seat: int, move: Any) -> list[Event]:
    """``move`` is legal, listed, and applies; its events."""
    assert reason_of(state, seat, move) is None
    assert move in GAME.legal_moves(state, seat)
    return GAME.apply(state, seat, move)[1]


def plays(state: GangOfFourState, seat: int) -> set[tuple[GofCard, ...]]:
    """The card groups ``seat`` may play now, as ``legal_moves`` lists them."""
    return {move.cards for move in GAME.legal_moves(state, seat) if isinstance(move, Play)}


def three_without_m1() -> GangOfFourState:
    """A 3-player table whose multicoloured 1 was set aside (the shared seed does that)."""
    state = new(3)
    assert MULTICOLOURED_ONE in state.set_aside
    return state


def ended_hand_one(
    players: int,
    winner: int,
    left: dict[int, int],
    *,
    totals: tuple[int, ...] | None = None,
    seed: bytes = SEED,
) -> tuple[GangOfFourState, list[Event]]:
    """Hand 1 ends: ``winner`` plays his last card, seat ``s`` keeps ``left[s]`` of its
    dealt cards (the lowest ones); ``totals`` are the scores before the hand."""
    state = new(players, seed=seed)
    hands = list(state.hands)
    for seat, count in left.items():
        hands[seat] = hands[seat][:count]
    changes: dict[str, Any] = {"hands": tuple(hands)}
    if totals is not None:
        changes["totals"] = totals
    return finish_hand(msgspec.structs.replace(state, **changes), winner)
