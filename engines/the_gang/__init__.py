"""The Gang (Kosmos): cooperative poker for 3 to 6 players, base game."""

from __future__ import annotations

from engines.base import GameDefinition
from engines.the_gang import defaults, rules
from engines.the_gang.events import Event
from engines.the_gang.model import Colour, TheGangConfig, TheGangState
from engines.the_gang.moves import ConfirmRoundEnd, Move, ReturnChip, TakeChip
from engines.the_gang.view import TheGangView, revealed_view, view, view_event, view_move

GAME: GameDefinition[TheGangConfig, TheGangState, Move, Event, TheGangView] = GameDefinition(
    name="the_gang",
    config_type=TheGangConfig,
    state_type=TheGangState,
    move_type=Move,
    event_type=Event,
    view_type=TheGangView,
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
    forfeitable=False,  # nobody loses alone: a seat that goes is handed to a bot
    cooperative=True,
    # 4x the longest game of bench.move_limits, rounded up: 601 moves (random bots,
    # confirm_round_end; the heuristic bots' longest is 204). Chip swaps never end a round by
    # themselves, so this limit is what stops a seat inflating a game.
    default_move_limit=3_000,
    awaited=defaults.awaited,
)

__all__ = [
    "GAME",
    "Colour",
    "ConfirmRoundEnd",
    "Event",
    "Move",
    "ReturnChip",
    "TakeChip",
    "TheGangConfig",
    "TheGangState",
    "TheGangView",
]
