"""The single projection of The Gang's state for a seat or a spectator.

A seat sees its own pocket cards, the board, the chips the rules leave on the table (earlier
rounds stay "op een rij voor je liggen", except under Blackout), every finished heist's
showdown, the active cards, the piles' order while it is public, every group decision in
progress and the announcements meant for it. Nobody sees another seat's pocket before its
showdown, a card shown by the Informant to someone else, a face-down discard, a
Coordinator pass before it lands, the deck or the seed. A spectator (``None``) sees only
what is public.

After the game everything is public (the seed is revealed, so it could all be derived):
a finished view, for every viewer, adds what the final state still hides in its
``revealed_*`` fields. Pockets need none: every one is shown at each heist's showdown. What
earlier heists hid (their discards, an Informant's card) is in the finished game's history,
whose events are then whole.

:func:`hidden` is the one place that says what a state hides from every seat. The finished
view shows the part of it the final state still hides (:data:`FINISHED_REVEALS`); the
post-game reveal (:func:`revealed_view`, each state of a finished game shown whole) shows
all of it, every seat's pocket and the Coordinator's sealed passes too.
"""

from __future__ import annotations

import msgspec

from engines.base import Viewer, rules_revision
from engines.checks import check_viewer
from engines.the_gang import flow, piles, showdown, tables
from engines.the_gang.events import (
    Announced,
    CardDiscarded,
    CardDrawn,
    CardPassed,
    Event,
    PassChosen,
    PocketDealt,
    PocketRedrawn,
)
from engines.the_gang.model import (
    VAULTS_TO_WIN,
    Announcement,
    ChipRow,
    Pile,
    TheGangState,
)
from engines.the_gang.moves import DiscardCard, Move, PassCard, ShowCard
from engines.the_gang.seen import PileView, SealedPass, SeatPocket, TheGangView

# The hidden parts a finished view shows (rules revision 2 on): what its final state still
# hides. Pockets are shown at every showdown and no pass is sealed at the end, so these
# views never carried them (a kept finished view must still equal its replay).
FINISHED_REVEALS = (
    "revealed_deck",
    "revealed_discards",
    "revealed_announcements",
    "revealed_challenge_pile",
    "revealed_specialist_pile",
)


def _pile(pile: Pile) -> PileView:
    return PileView(
        size=len(pile.cards),
        cards=pile.cards if pile.known else (),
        known=pile.known,
        card_one_turned=pile.card_one_turned,
    )


def _announcement(item: Announcement, viewer: Viewer) -> Announcement:
    if item.card is None or viewer in (item.seat, item.to_seat):
        return item
    return msgspec.structs.replace(item, card=None)


def view(state: TheGangState, viewer: object) -> TheGangView:
    viewer = check_viewer(viewer, state.config.players)
    visible = tables.visible_rounds(state)
    awaiting = state.awaiting_guesses
    challenge_pile, specialist_pile = (
        piles.continued(state) if state.finished else (state.challenge_pile, state.specialist_pile)
    )
    seen = TheGangView(
        viewer=viewer,
        players=state.config.players,
        confirm_round_end=state.config.confirm_round_end,
        heist=state.heist,
        round=state.round,
        vaults=state.vaults,
        alarms=state.alarms,
        vaults_to_win=VAULTS_TO_WIN,
        alarms_to_lose=state.alarms_to_lose,
        board=state.board,
        pocket=state.pockets[viewer] if viewer is not None and not state.finished else (),
        pocket_sizes=tuple(len(pocket) for pocket in state.pockets),
        chips=tuple(ChipRow.of(colour, state.chips[colour]) for colour in visible),
        confirmed_seats=state.confirmed_seats,
        deck_size=len(state.deck),
        heists=state.heists,
        finished=state.finished,
        mode=state.config.mode,
        challenges=state.challenges,
        standing_challenges=state.standing_challenges,
        specialist=state.specialist,
        specialist_use=state.specialist_use,
        challenge_pile=_pile(challenge_pile),
        specialist_pile=_pile(specialist_pile),
        skipped_colours=state.skipped_colours(),
        set_aside_colours=tuple(c for c in state.rounds_played() if c not in visible),
        dark_chips=tables.dark_chips(state),
        proposals=state.proposals,
        announcements=tuple(_announcement(a, viewer) for a in state.announcements),
        pending=state.pending,
        passed_seats=tuple(seat for seat, card in enumerate(state.passes) if card is not None),
        my_pass=state.passes[viewer] if viewer is not None and state.passes else None,
        awaiting_guesses=awaiting,
        guessed_seat=tables.top_red_seat(state) if awaiting else None,
        shown=showdown.shown_before_guessing(state) if awaiting else (),
        guesses=state.guesses,
        discard_count=len(state.discards),
        round_needs_confirmation=flow.needs_confirmation(state) and not state.finished,
    )
    if state.finished and rules_revision(state.config.rules_revision) >= 2:
        shown = hidden(state)
        return msgspec.structs.replace(seen, **{name: shown[name] for name in FINISHED_REVEALS})
    # A revision-1 game's finished views stay as they were, so views kept from it verify.
    return seen


def hidden(state: TheGangState) -> dict[str, object]:
    """What ``state`` hides from every seat, as the ``revealed_*`` fields that show it: the
    pockets, the deck, the face-down discards, the announcements' cards (the Informant's),
    the Coordinator's sealed passes and the piles' order (a finished game's as the next
    game would continue them, as its view shows; the base game has no piles in play)."""
    challenges, specialists = (
        piles.continued(state) if state.finished else (state.challenge_pile, state.specialist_pile)
    )
    if not tables.uses_piles(state):
        challenges = specialists = Pile((), known=True)
    return {
        "revealed_deck": state.deck,
        "revealed_discards": state.discards,
        "revealed_announcements": state.announcements,
        "revealed_challenge_pile": challenges.cards,
        "revealed_specialist_pile": specialists.cards,
        "revealed_pockets": tuple(SeatPocket(s, cards) for s, cards in enumerate(state.pockets)),
        "revealed_passes": tuple(
            SealedPass(seat, card) for seat, card in enumerate(state.passes) if card is not None
        ),
    }


def revealed_view(state: TheGangState) -> TheGangView:
    """The post-game reveal of ``state``: the spectator's view with everything it hides
    shown. Only for a finished game's states (the service refuses it before the end)."""
    return msgspec.structs.replace(view(state, None), **hidden(state))


def view_event(event: Event, viewer: Viewer) -> Event | None:
    """The event as ``viewer`` may see it: hidden cards left out, others' pockets dropped."""
    match event:
        case PocketDealt(seat=seat) if seat != viewer:
            return None
        case PocketRedrawn(seat=seat) if seat != viewer:
            return msgspec.structs.replace(event, cards=())
        case CardDrawn(seat=seat) | CardDiscarded(seat=seat) | PassChosen(seat=seat) if (
            seat != viewer
        ):
            return msgspec.structs.replace(event, card=None)
        case CardPassed(from_seat=giver, to_seat=taker) if viewer not in (giver, taker):
            return msgspec.structs.replace(event, card=None)
        case Announced(announcement=item):
            return Announced(_announcement(item, viewer))
    return event


def view_move(move: Move, seat: int, viewer: Viewer) -> Move | None:
    """Chip moves and proposals are made in the open; a card moved face down or in secret
    is seen only by the seat that moved it (the others learn of it from the events)."""
    if isinstance(move, ShowCard | DiscardCard | PassCard) and viewer != seat:
        return None
    return move


# The view's Structs are engines.the_gang.seen's, and importable from here too.
__all__ = [
    "FINISHED_REVEALS",
    "PileView",
    "SealedPass",
    "SeatPocket",
    "TheGangView",
    "hidden",
    "revealed_view",
    "view",
    "view_event",
    "view_move",
]
