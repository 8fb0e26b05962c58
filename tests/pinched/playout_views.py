"""What each viewer sees in the Pinched! playouts: a view and the events shown to a viewer
hold nothing hidden from it (checked against a twin with every secret dealt anew), and the
cards left in the draw pile change nothing in what a move does."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import msgspec.structs

from engines.base import Viewer
from engines.pinched import GAME, Event, PinchedState
from engines.pinched.components import DOCUMENT, JOKER, kinds_of
from engines.pinched.events import (
    CardsDrawn,
    CardTaken,
    CurseDrawn,
    CursePassed,
    DeckReshuffled,
    Discarded,
    FieldRefilled,
    LetterRead,
    LocationChosen,
    Stored,
)
from engines.pinched.model import Location, Phase, Slot
from engines.pinched.moves import ChooseLocation, PassCurse
from engines.pinched.view import OpenField, PinchedView, Valuable
from engines.rng import Rng
from tests.pinched.bots import Play


def public_cards(state: PinchedState) -> set[int]:
    """Cards lying face up: open fields, the river, the stashes, the discard pile."""
    out = {card for row in state.fields for card in row if card is not None}
    out |= {card for card in state.river if card is not None}
    out |= {card for stash in state.stashes for slot in stash for card in slot.cards}
    return out | set(state.discard)


def own_cards(state: PinchedState, viewer: Viewer) -> set[int]:
    if viewer is None:
        return set()
    return set(state.hands[viewer]) | set(state.sold[viewer])


def card_ids(event: Event) -> list[int]:
    """The card ids an event names (the events that name cards)."""
    match event:
        case CardsDrawn(cards=cards) | Discarded(cards=cards):
            return list(cards)
        case CardTaken(card=card) | FieldRefilled(card=card) | Stored(card=card):
            return [card]
    return []


def hidden_twin(state: PinchedState, viewer: Viewer, rnd: random.Random) -> PinchedState:
    """``state`` with everything ``viewer`` may not know dealt anew: the draw pile's order,
    the other seats' hands and sold piles (sizes kept), the curses they hold and the curse
    pile (counts kept), their sealed location cards, an unread letter, the random source."""
    players = state.config.players
    others = [seat for seat in range(players) if seat != viewer]
    pool = [*state.deck]
    for seat in others:
        pool += [*state.hands[seat], *state.sold[seat]]
    rnd.shuffle(pool)
    deal = iter(pool)
    deck = tuple(next(deal) for _ in state.deck)
    hands, sold = list(state.hands), list(state.sold)
    for seat in others:
        hands[seat] = tuple(next(deal) for _ in state.hands[seat])
        sold[seat] = tuple(next(deal) for _ in state.sold[seat])
    secret = [*state.curse_pile, *(curse for seat in others for curse in state.curses[seat])]
    rnd.shuffle(secret)
    dealt = iter(secret)
    pile = tuple(next(dealt) for _ in state.curse_pile)
    curses = list(state.curses)
    for seat in others:
        curses[seat] = tuple(next(dealt) for _ in state.curses[seat])
    changes: dict[str, Any] = {
        "deck": deck,
        "hands": tuple(hands),
        "sold": tuple(sold),
        "curse_pile": pile,
        "curses": tuple(curses),
        "rng": Rng(bytes([rnd.randrange(256) for _ in range(8)]), rnd.randrange(99)),
    }
    in_play = [placement.location for placement in state.config.locations]
    if state.phase in (Phase.DOGS, Phase.PLAN):
        changes["choices"] = tuple(
            rnd.choice(in_play) if seat != viewer and choice is not None else choice
            for seat, choice in enumerate(state.choices)
        )
    letter = state.letter
    if letter is not None and not letter.opened and viewer not in letter.seen_by:
        where = [location for location in in_play if location is not Location.DIAMONDS]
        changes["letter"] = msgspec.structs.replace(letter, location=rnd.choice(where))
    return msgspec.structs.replace(state, **changes)


def _ids(view: PinchedView, cards: tuple[Valuable, ...]) -> tuple[int, ...]:
    """The cards' ids, each card checked to name its own kind."""
    table = view.components
    names = [kind.name for kind in table.kinds]
    for card in cards:
        kind = kinds_of(table)[card.id]
        assert card.kind == (DOCUMENT if kind == JOKER else names[kind]), card
    return tuple(card.id for card in cards)


def _row(view: PinchedView, row: tuple[OpenField, ...]) -> tuple[int | None, ...]:
    assert [field.field for field in row] == list(range(len(row)))
    return tuple(_ids(view, (field.card,))[0] if field.card is not None else None for field in row)


def as_state_cards(view: PinchedView) -> tuple[Any, ...]:
    """The view's open fields, river, stashes and discard pile as the state holds them."""
    names = [kind.name for kind in view.components.kinds]
    assert [f.location for f in view.fields] == [p.location for p in view.locations]
    return (
        tuple(_row(view, where.fields) for where in view.fields),
        _row(view, view.river),
        tuple(
            tuple(
                Slot(names.index(slot.kind) if slot.kind else None, _ids(view, slot.cards))
                for slot in stash.slots
            )
            for stash in view.stashes
        ),
        _ids(view, view.discard),
    )


def check_view(state: PinchedState, viewer: Viewer, rnd: random.Random) -> None:
    seen = GAME.view(state, viewer)
    own = viewer is not None
    assert seen.viewer == viewer
    assert _ids(seen, seen.hand) == (state.hands[viewer] if viewer is not None else ())
    assert _ids(seen, seen.sold) == (state.sold[viewer] if viewer is not None else ())
    assert seen.curses == (state.curses[viewer] if viewer is not None else ())
    assert seen.hand_sizes == tuple(len(hand) for hand in state.hands)
    assert seen.sold_counts == tuple(len(sold) for sold in state.sold)
    assert seen.curse_counts == tuple(len(curses) for curses in state.curses)
    assert seen.deck_size == len(state.deck)
    assert as_state_cards(seen) == (
        state.fields,
        state.river,
        state.stashes,
        state.discard,
    )
    letter = state.letter
    knows = letter is not None and (letter.opened or (own and viewer in letter.seen_by))
    assert seen.letter == (letter.location if knows and letter is not None else None)
    if state.phase in (Phase.DOGS, Phase.PLAN):
        assert seen.choices == ()
        assert seen.my_choice == (state.choices[viewer] if viewer is not None else None)
        assert seen.chosen_seats == tuple(s for s, c in enumerate(state.choices) if c is not None)
    check_revealed(state, seen)
    twin = GAME.view(hidden_twin(state, viewer, rnd), viewer)
    if state.finished:  # the final scores count gold bars among the sold cards
        twin = msgspec.structs.replace(twin, result=None, **UNREVEALED)
        seen = msgspec.structs.replace(seen, result=None, **UNREVEALED)
    assert twin == seen, f"the view of {viewer} shows something hidden from it"


UNREVEALED: dict[str, Any] = {
    "revealed_hands": (),
    "revealed_sold": (),
    "revealed_curses": (),
    "revealed_letter": None,
    "revealed_deck": (),
    "revealed_curse_pile": (),
}
"""The ``revealed_*`` fields of a view before the end: nothing revealed."""


def check_revealed(state: PinchedState, seen: PinchedView) -> None:
    """ "After the end, everything is public" (RULES-NOTES): a finished view shows every
    hidden part of the state to everyone; any earlier view reveals nothing."""
    shown = {name: getattr(seen, name) for name in UNREVEALED}
    if not state.finished:
        assert shown == UNREVEALED, "revealed before the end"
        return
    letter = state.letter
    assert tuple(_ids(seen, hand.cards) for hand in seen.revealed_hands) == state.hands
    assert tuple(_ids(seen, sold.cards) for sold in seen.revealed_sold) == state.sold
    assert tuple(row.curses for row in seen.revealed_curses) == state.curses
    assert seen.revealed_letter == (letter.location if letter is not None else None)
    assert _ids(seen, seen.revealed_deck) == state.deck
    assert seen.revealed_curse_pile == state.curse_pile


def check_shown_events(
    prev: PinchedState, state: PinchedState, play: Play, events: list[Event], viewer: Viewer
) -> None:
    seat, move = play
    shown_move = GAME.view_move(move, seat, viewer)
    if isinstance(move, ChooseLocation | PassCurse) and viewer != seat:
        assert shown_move is None
    else:
        assert shown_move == move
    face_up = {card for e in events if isinstance(e, FieldRefilled) for card in card_ids(e)}
    face_up |= {card for e in events if isinstance(e, Discarded) for card in e.cards}
    seen = public_cards(prev) | public_cards(state) | face_up
    seen |= own_cards(prev, viewer) | own_cards(state, viewer)
    for event in events:
        shown = GAME.view_event(event, viewer)
        match event:
            case CardsDrawn(seat=drawer) if drawer != viewer:
                assert shown == msgspec.structs.replace(event, cards=())
            case LocationChosen(seat=chooser) if chooser != viewer:
                assert shown == LocationChosen(chooser, None)
            case LetterRead(seat=reader) if reader != viewer:
                assert shown == LetterRead(reader, None)
            case CurseDrawn(seat=drawer) if drawer != viewer:
                assert shown == CurseDrawn(drawer, None)
            case CursePassed(from_seat=giver, to_seat=taker) if viewer not in (giver, taker):
                assert shown == CursePassed(giver, taker, None)
            case _:
                assert shown == event
        if shown is not None:
            leaked = set(card_ids(shown)) - seen
            assert not leaked, f"{shown} shows {viewer} the hidden cards {leaked}"


def check_deck_order_unused(
    prev: PinchedState, state: PinchedState, play: Play, events: list[Event]
) -> None:
    """The cards left in the draw pile, and the random source, change nothing in what a
    move does (unless the move reshuffled, when the new pile comes from the source)."""
    if any(isinstance(event, DeckReshuffled) for event in events):
        return
    drawn = len(prev.deck) - len(state.deck)
    assert state.deck == prev.deck[drawn:]
    rest = prev.deck[drawn:][::-1]
    twin = msgspec.structs.replace(prev, deck=prev.deck[:drawn] + rest, rng=Rng(b"other"))
    after, again = GAME.apply(twin, *play)
    assert again == events
    assert after == msgspec.structs.replace(state, deck=rest, rng=Rng(b"other"))
