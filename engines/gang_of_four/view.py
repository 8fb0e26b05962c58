"""The single projection of a Gang of Four table for a seat or a spectator.

A seat sees its own hand and, for everyone, what is public: card counts, the play to beat
and who made it, who passed, whose turn it is, the direction, scores, the exchanged cards
and the last-card announcements. Nobody sees another hand or the set-aside cards while
the game goes on; once it is over, everything is public (rules revision 2 on):
``revealed_hands`` shows the cards every seat still held and ``revealed_set_aside`` the
cards dealt to nobody (3 players), both empty until then.

:func:`hidden` is the one place that says what the game hides; the finished view and the
post-game reveal (:func:`revealed_view`, every earlier state of a finished game shown
whole) both take it from there.
"""

from __future__ import annotations

import msgspec

from engines.base import Viewer, rules_revision
from engines.checks import check_viewer
from engines.gang_of_four.events import Event, HandDealt
from engines.gang_of_four.model import GangOfFourState, Phase
from engines.gang_of_four.moves import Move
from engines.gang_of_four.seen import GangOfFourView, RevealedHand


def reveals(state: GangOfFourState) -> bool:
    """Whether the views show every hand: the game is over, under rules revision 2 on.

    Revision 1 games keep the views they were played with, so a view a player kept then
    still matches the replay (``referee verify`` compares them exactly).
    """
    return state.phase is Phase.OVER and rules_revision(state.config.rules_revision) >= 2


def hidden(state: GangOfFourState) -> dict[str, object]:
    """What ``state`` hides from every seat, as the ``revealed_*`` fields that show it:
    each seat's hand and the cards dealt to nobody (3 players)."""
    return {
        "revealed_hands": tuple(
            RevealedHand(seat, cards) for seat, cards in enumerate(state.hands)
        ),
        "revealed_set_aside": state.set_aside,
    }


def revealed_view(state: GangOfFourState) -> GangOfFourView:
    """The post-game reveal of ``state``: the spectator's view with everything it hides
    shown. Only for a finished game's states (the service refuses it before the end)."""
    return msgspec.structs.replace(view(state, None), **hidden(state))


def view(state: GangOfFourState, viewer: object) -> GangOfFourView:
    viewer = check_viewer(viewer, state.config.players)
    current = state.current
    shown = GangOfFourView(
        viewer=viewer,
        players=state.config.players,
        auto_announce_last_card=state.config.auto_announce_last_card,
        hand=state.hand,
        dealer=state.dealer,
        direction=state.direction,
        phase=state.phase,
        turn=state.turn,
        cards=state.hands[viewer] if viewer is not None else (),
        card_counts=tuple(len(hand) for hand in state.hands),
        set_aside_count=len(state.set_aside),
        current=current.cards if current is not None else (),
        current_kind=current.kind if current is not None else None,
        current_by=state.current_by,
        passed=state.passed,
        announced=state.announced,
        out=state.out,
        must_include=state.must_include,
        exchange=state.exchange,
        totals=state.totals,
        results=state.results,
    )
    return msgspec.structs.replace(shown, **hidden(state)) if reveals(state) else shown


def view_event(event: Event, viewer: Viewer) -> Event | None:
    if isinstance(event, HandDealt) and event.seat != viewer:
        return None
    return event


def view_move(move: Move, seat: int, viewer: Viewer) -> Move | None:
    """Plays, passes and the exchange are all made face up."""
    return move


# The view's Structs are engines.gang_of_four.seen's, and importable from here too.
__all__ = [
    "GangOfFourView",
    "RevealedHand",
    "hidden",
    "revealed_view",
    "reveals",
    "view",
    "view_event",
    "view_move",
]
