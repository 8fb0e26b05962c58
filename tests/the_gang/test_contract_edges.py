"""Edges of the engine contract: viewers that are no seat, moves built outside msgspec."""

from __future__ import annotations

from typing import Any

import pytest

from engines.errors import MoveError
from engines.the_gang import GAME, ReturnChip, TakeChip
from engines.the_gang.model import Colour
from tests.the_gang.support import new


@pytest.mark.parametrize("viewer", [-1, -3])
def test_a_viewer_who_is_not_a_seat_sees_no_pocket(viewer: int) -> None:
    """engines/base.py: "``view(state, seat)`` is the only way state leaves the engine";
    view.py: "Nobody sees another seat's pocket cards before its showdown". A viewer that is
    no seat of the table must get an error or a view without pocket cards, never a seat's."""
    state = new(3)
    try:
        seen = GAME.view(state, viewer)
    except (ValueError, IndexError):
        return
    assert seen.pocket not in state.pockets


@pytest.mark.parametrize(
    "move",
    [TakeChip(9, 1), ReturnChip(-1, 1), TakeChip(Colour.WHITE, 2.0)],  # type: ignore[arg-type]
    ids=["take-colour-9", "return-colour-minus-1", "take-float-stars"],
)
def test_malformed_moves_raise_only_move_errors(move: Any) -> None:
    """engines/errors.py: "An engine never raises anything else for bad input." Moves built
    in Python skip msgspec's decoding checks, so the engine must reject these itself."""
    with pytest.raises(MoveError):
        GAME.check(new(3), 0, move)
