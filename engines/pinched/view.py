"""The single projection of a Pinched! table for a seat or a spectator.

Public: the locations' open cards, the river, the face-up discard pile, every stash (the
stashes lie open), how many cards each hand, sold pile and curse stack holds, dogs, vault,
treasures, the passage, who has chosen a location this morning, and everything revealed.
Private to a seat: its hand, its own sold cards, its curses, its sealed location card until
the reveal, and the sealed letter once it has read it (until the letter is turned over for
everyone). Nobody sees the draw pile, the curse pile or the seed.

After the end everything is public (the seed is revealed, so every deal can be derived): a
finished view, for every seat and spectator alike, shows what was hidden in its
``revealed_*`` fields (empty, or None, one version earlier and before).

:func:`hidden` is the one place that says what a state hides from every seat. The finished
view shows the part of it the final state still hides (:data:`FINISHED_REVEALS`); the
post-game reveal (:func:`revealed_view`, each state of a finished game shown whole) shows
all of it, the sealed location cards of a morning too.

The state names cards by id; the view names each card's kind too (a :class:`Valuable`), so
that a frontend need not work kinds out from the component table (events and moves name
cards by id only).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import msgspec

from engines.base import Viewer, rules_revision
from engines.checks import check_viewer
from engines.pinched import night, scoring
from engines.pinched.components import DOCUMENT, JOKER, Components, kinds_of
from engines.pinched.events import (
    CardsDrawn,
    CurseDrawn,
    CursePassed,
    Event,
    LetterRead,
    LocationChosen,
)
from engines.pinched.model import (
    Location,
    Phase,
    PinchedState,
    Slot,
)
from engines.pinched.moves import ChooseLocation, Move, PassCurse
from engines.pinched.seen import (
    LocationFields,
    OpenField,
    PinchedView,
    SeatCards,
    SeatCurses,
    Stash,
    StashSlot,
    Valuable,
)

# The hidden parts a finished view shows (rules revision 2 on): no location card is sealed
# at the end, so these views never carried the choices (a kept view must equal its replay).
FINISHED_REVEALS = (
    "revealed_hands",
    "revealed_sold",
    "revealed_curses",
    "revealed_letter",
    "revealed_deck",
    "revealed_curse_pile",
)


def view(state: PinchedState, viewer: object) -> PinchedView:
    viewer = check_viewer(viewer, state.config.players)
    own = viewer is not None
    letter = state.letter
    knows_letter = letter is not None and (letter.opened or (own and viewer in letter.seen_by))
    revealed = state.phase not in (Phase.DOGS, Phase.PLAN)
    over = state.phase is Phase.OVER
    clubs = state.side(Location.CLUBS) is not None
    cards = _Cards.of(state.config.components)
    rufus, gordie = state.dogs
    shown = PinchedView(
        viewer=viewer,
        players=state.config.players,
        locations=state.config.locations,
        components=state.config.components,
        day=state.day,
        watch=state.watch,
        first_mastermind=state.first_mastermind,
        mastermind=state.mastermind,
        phase=state.phase,
        fields=tuple(
            LocationFields(p.location, cards.fields(row))
            for p, row in zip(state.config.locations, state.fields, strict=True)
        ),
        river=cards.fields(state.river),
        deck_size=len(state.deck),
        discard=cards.cards(state.discard),
        stashes=cards.stashes(state.stashes),
        hand=cards.cards(state.hands[viewer]) if viewer is not None else (),
        hand_sizes=tuple(len(hand) for hand in state.hands),
        sold=cards.cards(state.sold[viewer]) if viewer is not None else (),
        sold_counts=tuple(len(sold) for sold in state.sold),
        chosen_seats=tuple(s for s, c in enumerate(state.choices) if c is not None),
        my_choice=state.choices[viewer] if viewer is not None and state.choices else None,
        choices=state.choices if revealed else (),
        heist=state.heist,
        present=state.present,
        takes=state.takes,
        passage_open=state.passage_open,
        passage_due=state.passage_due,
        dog_due=state.dog_due,
        curse_turns=state.curse_turns,
        river_turns=state.river_turns,
        selling=state.selling,
        gordie_due=state.gordie_due,
        vault=state.vault,
        vault_value=night.vault_track(state)[state.vault] if clubs else 0,
        rufus_holder=rufus,
        gordie_holder=gordie,
        lisa_mona_holder=state.lisa_mona,
        lisa_mona_points=state.lisa_mona_points,
        diamonds_left=state.diamonds_left,
        diamonds=state.diamonds,
        clues_left=state.clues_left,
        clues=state.clues,
        letter=letter.location if knows_letter and letter is not None else None,
        letter_opened=letter is not None and letter.opened,
        letter_read_by=letter.seen_by if letter is not None else (),
        curses=state.curses[viewer] if viewer is not None else (),
        curse_counts=tuple(len(curses) for curses in state.curses),
        curse_pile=len(state.curse_pile),
        result=scoring.final(state) if over else None,
    )
    if over and rules_revision(state.config.rules_revision) >= 2:
        hid = hidden(state)
        return msgspec.structs.replace(shown, **{name: hid[name] for name in FINISHED_REVEALS})
    # A revision-1 game's finished views stay as they were, so views kept from it verify.
    return shown


def revealed_view(state: PinchedState) -> PinchedView:
    """The post-game reveal of ``state``: the spectator's view with everything it hides
    shown. Only for a finished game's states (the service refuses it before the end)."""
    return msgspec.structs.replace(view(state, None), **hidden(state))


def hidden(state: PinchedState) -> dict[str, object]:
    """What ``state`` hides from every seat, as the ``revealed_*`` fields that show it:
    every hand, sold pile and curse stack, the sealed letter, the draw pile, the curse pile
    and the location cards chosen this morning."""
    letter = state.letter
    cards = _Cards.of(state.config.components)
    return {
        "revealed_choices": state.choices,
        "revealed_hands": tuple(SeatCards(cards.cards(hand)) for hand in state.hands),
        "revealed_sold": tuple(SeatCards(cards.cards(sold)) for sold in state.sold),
        "revealed_curses": tuple(SeatCurses(curses) for curses in state.curses),
        "revealed_letter": letter.location if letter is not None else None,
        "revealed_deck": cards.cards(state.deck),
        "revealed_curse_pile": state.curse_pile,
    }


class _Cards:
    """Card ids -> :class:`Valuable` through one component table (fixed for a game)."""

    def __init__(self, table: Components) -> None:
        names = [kind.name for kind in table.kinds]
        self.names = names
        self.valuables = tuple(
            Valuable(card, DOCUMENT if kind == JOKER else names[kind])
            for card, kind in enumerate(kinds_of(table))
        )
        # Every seat's view of a table shows the same open cards and stashes (and most of
        # them stay from one move to the next): each is built once (views are hot).
        self.fields: Callable[[tuple[int | None, ...]], tuple[OpenField, ...]] = lru_cache(
            maxsize=256
        )(self._fields)
        self.stashes: Callable[[tuple[tuple[Slot, ...], ...]], tuple[Stash, ...]] = lru_cache(
            maxsize=64
        )(self._stashes)

    @staticmethod
    @lru_cache(maxsize=64)
    def of(table: Components) -> _Cards:
        return _Cards(table)

    def cards(self, cards: tuple[int, ...]) -> tuple[Valuable, ...]:
        return tuple(self.valuables[card] for card in cards)

    def _fields(self, row: tuple[int | None, ...]) -> tuple[OpenField, ...]:
        return tuple(
            OpenField(field, self.valuables[card] if card is not None else None)
            for field, card in enumerate(row)
        )

    def _stashes(self, stashes: tuple[tuple[Slot, ...], ...]) -> tuple[Stash, ...]:
        return tuple(Stash(tuple(self.slot(slot) for slot in stash)) for stash in stashes)

    def slot(self, slot: Slot) -> StashSlot:
        kind = self.names[slot.kind] if slot.kind is not None else ""
        return StashSlot(kind, self.cards(slot.cards))


def view_event(event: Event, viewer: Viewer) -> Event | None:
    """The event as ``viewer`` may see it: others' draws, sealed cards and curses hidden."""
    match event:
        case CardsDrawn(seat=seat) if seat != viewer:
            return msgspec.structs.replace(event, cards=())
        case LocationChosen(seat=seat) | LetterRead(seat=seat) | CurseDrawn(seat=seat) if (
            seat != viewer
        ):
            field = {"location": None} if not isinstance(event, CurseDrawn) else {"curse": None}
            return msgspec.structs.replace(event, **field)
        case CursePassed(from_seat=giver, to_seat=taker) if viewer not in (giver, taker):
            return msgspec.structs.replace(event, curse=None)
    return event


def view_move(move: Move, seat: int, viewer: Viewer) -> Move | None:
    """A sealed location card and a curse passed (its id names its points) are seen only by
    the seat that moved; the others learn what they may from the events."""
    if isinstance(move, ChooseLocation | PassCurse) and viewer != seat:
        return None
    return move


# The view's Structs are engines.pinched.seen's, and importable from here too.
__all__ = [
    "FINISHED_REVEALS",
    "LocationFields",
    "OpenField",
    "PinchedView",
    "SeatCards",
    "SeatCurses",
    "Stash",
    "StashSlot",
    "Valuable",
    "hidden",
    "revealed_view",
    "view",
    "view_event",
    "view_move",
]
