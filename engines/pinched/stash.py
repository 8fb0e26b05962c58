"""The stash: storing valuables and selling sets.

Seed, "Kostbaarheden opslaan":

1. "Heb je een kaart van een soort die al op je voorraadtableau ligt, dan leg je die op dat
   veld. Er is geen limiet aan het aantal kaarten op een veld."
2. "Heb je een leeg veld, dan moet je daar een nieuwe soort uit je hand op leggen."
3. "Kostbaarheden die je daarna niet kwijt kunt, houd je in je hand tot je weer het brein
   bent."

Jokers: "Krijg je een joker, dan leg je die meteen op een van je drie velden. [...] Een veld
met alleen jokers geldt nog steeds als leeg". And "Verkopen en dumpen": a set's count with
its jokers reaches a threshold; "Leg zoveel kaarten uit die set gedekt [...] als de
verkoopwaarde aangeeft", the rest face up on the discards; "Is er door de verkoop een veld
vrijgekomen, dan mag je meteen een set uit je hand op dat veld leggen."

Storing happens at once: a card of a kind on a slot goes there by itself, and so does any
placement without a real choice. Where there is one (where a joker goes, which empty slot a
new kind takes, which of several new kinds when slots are short), the seat owes a
:class:`Store` move and can do nothing else until it has made it. A sale puts the kind's
own cards face down before jokers (what the tie-break by gold bars favours).
"""

from __future__ import annotations

import msgspec.structs

from engines.pinched.components import JOKER, kinds_of, sale_value
from engines.pinched.events import Discarded, Event, Sold, Stored
from engines.pinched.model import SLOTS, PinchedState, Slot


def kind(state: PinchedState, card: int) -> int:
    return kinds_of(state.config.components)[card]


def is_empty(slot: Slot) -> bool:
    return slot.kind is None


def store_options(state: PinchedState, seat: int) -> list[tuple[int, int]]:
    """Every (card, slot) the storage rules allow for the cards in ``seat``'s hand."""
    stash = state.stashes[seat]
    kinds_held = {slot.kind for slot in stash if slot.kind is not None}
    options: list[tuple[int, int]] = []
    for card in state.hands[seat]:
        k = kind(state, card)
        if k == JOKER:
            options += [(card, slot) for slot in range(SLOTS)]
        elif k in kinds_held:
            options.append((card, next(i for i, s in enumerate(stash) if s.kind == k)))
        else:
            options += [(card, i) for i, slot in enumerate(stash) if is_empty(slot)]
    return options


def owes_storing(state: PinchedState, seat: int) -> bool:
    return bool(store_options(state, seat))


def place(
    state: PinchedState, seat: int, card: int, slot: int, events: list[Event]
) -> PinchedState:
    """Put ``card`` from the hand on ``slot`` (already checked)."""
    k = kind(state, card)
    stash = list(state.stashes[seat])
    target = stash[slot]
    stash[slot] = Slot(target.kind if k == JOKER else k, (*target.cards, card))
    hand = list(state.hands[seat])
    hand.remove(card)
    events.append(Stored(seat, card, slot))
    return _with(state, seat, stashes=tuple(stash), hands=tuple(hand))


def _without_choice(state: PinchedState, seat: int) -> tuple[int, int] | None:
    """A placement the rules leave no real choice about, if there is one.

    A card of a kind on a slot goes there. New kinds go on empty slots by themselves when
    the empty slots are alike (nothing on them, or the same jokers) and there are enough of
    them for every new kind; a joker goes by itself when all three slots are alike. Anything
    else is the seat's choice.
    """
    stash = state.stashes[seat]
    hand = state.hands[seat]
    held = {slot.kind: i for i, slot in enumerate(stash) if slot.kind is not None}
    for card in hand:
        if kind(state, card) in held:
            return card, held[kind(state, card)]
    empties = [i for i, slot in enumerate(stash) if is_empty(slot)]
    new: dict[int, int] = {}  # each new kind's first card in the hand
    for card in hand:
        if kind(state, card) != JOKER:
            new.setdefault(kind(state, card), card)
    if new and empties:
        alike = len({stash[i] for i in empties}) == 1
        if alike and len(new) <= len(empties):
            return next(iter(new.values())), empties[0]
        return None
    jokers = [card for card in hand if kind(state, card) == JOKER]
    if jokers and len(set(stash)) == 1:
        return jokers[0], 0
    return None


def settle(state: PinchedState, seat: int, events: list[Event]) -> PinchedState:
    """Store everything that has only one way to go; stop at a real choice."""
    while (placement := _without_choice(state, seat)) is not None:
        state = place(state, seat, *placement, events)
    return state


def settle_all(state: PinchedState, events: list[Event]) -> PinchedState:
    for seat in range(state.config.players):
        state = settle(state, seat, events)
    return state


def gain(state: PinchedState, seat: int, cards: list[int], events: list[Event]) -> PinchedState:
    """``cards`` come into ``seat``'s hand and are stored at once where they must go."""
    state = _with(state, seat, hands=(*state.hands[seat], *cards))
    return settle(state, seat, events)


def sell(state: PinchedState, seat: int, slot: int, events: list[Event]) -> PinchedState:
    """Sell the set on ``slot`` (already checked to have a kind)."""
    target = state.stashes[seat][slot]
    assert target.kind is not None
    table = state.config.components.kinds[target.kind]
    points = sale_value(table, len(target.cards))
    own = [card for card in target.cards if kind(state, card) != JOKER]
    jokers = [card for card in target.cards if kind(state, card) == JOKER]
    ordered = own + jokers
    face_down, face_up = ordered[:points], ordered[points:]
    stash = list(state.stashes[seat])
    stash[slot] = Slot()
    events.append(Sold(seat, slot, target.kind, len(target.cards), points))
    if face_up:
        events.append(Discarded(seat, tuple(face_up)))
    state = _with(state, seat, stashes=tuple(stash), sold=(*state.sold[seat], *face_down))
    state = msgspec.structs.replace(state, discard=(*state.discard, *face_up))
    return settle(state, seat, events)


def dump_hand(state: PinchedState, seat: int, events: list[Event]) -> PinchedState:
    """ "Als brein houd je dus nooit kaarten in je hand over." """
    hand = state.hands[seat]
    if not hand:
        return state
    events.append(Discarded(seat, hand))
    state = _with(state, seat, hands=())
    return msgspec.structs.replace(state, discard=(*state.discard, *hand))


def _with(state: PinchedState, seat: int, **rows: tuple[object, ...]) -> PinchedState:
    """``state`` with ``seat``'s entry of each named per-seat tuple replaced."""
    changes: dict[str, object] = {}
    for name, value in rows.items():
        current = list(getattr(state, name))
        current[seat] = value
        changes[name] = tuple(current)
    return msgspec.structs.replace(state, **changes)
