"""Gang of Four (Days of Wonder): climbing card game for 3 or 4 players."""

from __future__ import annotations

from engines.base import GameDefinition
from engines.gang_of_four import defaults, rules
from engines.gang_of_four.events import Event
from engines.gang_of_four.model import GangOfFourConfig, GangOfFourState
from engines.gang_of_four.moves import GiveBack, Move, Pass, Play
from engines.gang_of_four.view import (
    GangOfFourView,
    revealed_view,
    view,
    view_event,
    view_move,
)

GAME: GameDefinition[GangOfFourConfig, GangOfFourState, Move, Event, GangOfFourView] = (
    GameDefinition(
        name="gang_of_four",
        config_type=GangOfFourConfig,
        state_type=GangOfFourState,
        move_type=Move,
        event_type=Event,
        view_type=GangOfFourView,
        make_config=rules.make_config,
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
        # 4x the longest game of bench.move_limits, rounded up: 3,953 moves (random bots pass
        # a lot; the heuristic bots' longest is 1,092). The most any table may ask for.
        default_move_limit=16_000,
    )
)

__all__ = [
    "GAME",
    "Event",
    "GangOfFourConfig",
    "GangOfFourState",
    "GangOfFourView",
    "GiveBack",
    "Move",
    "Pass",
    "Play",
]
