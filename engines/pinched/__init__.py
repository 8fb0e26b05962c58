"""Pinched! (Gekraakt!): 2 to 5 burglars, sealed location choices, set collection."""

from __future__ import annotations

from engines.base import GameDefinition
from engines.pinched import defaults, rules, setup
from engines.pinched.events import Event
from engines.pinched.model import PinchedConfig, PinchedState
from engines.pinched.moves import Move
from engines.pinched.view import PinchedView, revealed_view, view, view_event, view_move

GAME: GameDefinition[PinchedConfig, PinchedState, Move, Event, PinchedView] = GameDefinition(
    name="pinched",
    config_type=PinchedConfig,
    state_type=PinchedState,
    move_type=Move,
    event_type=Event,
    view_type=PinchedView,
    make_config=setup.make_config,
    new_game=rules.new_game,
    seat_count=rules.seat_count,
    to_act=rules.to_act,
    legal_moves=rules.legal_moves,
    check=rules.check,
    apply=rules.apply,
    view=view,
    view_event=view_event,
    view_move=view_move,
    outcome=rules.outcome,
    default_move=defaults.default_move,
    revealed_view=revealed_view,
    forfeitable=True,
    cooperative=False,
    # 4x the longest game of bench.move_limits, rounded up: 255 moves.
    default_move_limit=2_000,
)

__all__ = ["GAME", "Event", "Move", "PinchedConfig", "PinchedState", "PinchedView"]
