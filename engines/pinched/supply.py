"""The draw pile, the discard pile, the open fields and the river.

Seed: "Is de trekstapel op, schud dan de aflegstapel en vorm een nieuwe trekstapel." A
draw from an empty pile (and an empty discard pile) gets nothing: the field stays bare.
From rules revision 2 on, a river refill draws from the deck only (``reshuffle=False``):
the mastermind sells "terwijl de andere inbrekers tegelijk een kaart uit de rivier nemen",
so a sale's discards must not reach the river before the end of the day, whichever of the
two arrives first.
"""

from __future__ import annotations

import msgspec.structs

from engines.pinched.events import DeckReshuffled, Event, FieldRefilled
from engines.pinched.model import Location, PinchedState


def draw(
    state: PinchedState, count: int, events: list[Event], reshuffle: bool = True
) -> tuple[PinchedState, list[int]]:
    """The top ``count`` cards (fewer if the deck, and the discards if ``reshuffle`` may
    turn them into a new deck, run out)."""
    drawn: list[int] = []
    while len(drawn) < count:
        if not state.deck:
            if not (reshuffle and state.discard):
                break
            deck, rng = state.rng.shuffled(state.discard)
            events.append(DeckReshuffled(len(deck)))
            state = _replace(state, deck=deck, discard=(), rng=rng)
        take = min(count - len(drawn), len(state.deck))
        drawn += state.deck[:take]
        state = _replace(state, deck=state.deck[take:])
    return state, drawn


def refill_field(
    state: PinchedState,
    location: Location | None,
    field: int,
    events: list[Event],
    reshuffle: bool = True,
) -> PinchedState:
    """Fill one bare field of a location (``None``: the river) from the deck."""
    state, drawn = draw(state, 1, events, reshuffle)
    if not drawn:
        return state
    card = drawn[0]
    events.append(FieldRefilled(location, field, card))
    if location is None:
        return _replace(state, river=_put(state.river, field, card))
    index = state.index(location)
    fields = list(state.fields)
    fields[index] = _put(fields[index], field, card)
    return _replace(state, fields=tuple(fields))


def take_open(
    state: PinchedState, location: Location | None, field: int
) -> tuple[PinchedState, int]:
    """Lift the open card off a field (the caller checked there is one)."""
    if location is None:
        card = state.river[field]
        assert card is not None
        return _replace(state, river=_put(state.river, field, None)), card
    index = state.index(location)
    card = state.fields[index][field]
    assert card is not None
    fields = list(state.fields)
    fields[index] = _put(fields[index], field, None)
    return _replace(state, fields=tuple(fields)), card


def open_cards(state: PinchedState, location: Location) -> list[int]:
    """The fields of ``location`` that hold a card."""
    return [f for f, card in enumerate(state.fields[state.index(location)]) if card is not None]


def _put(row: tuple[int | None, ...], field: int, card: int | None) -> tuple[int | None, ...]:
    out = list(row)
    out[field] = card
    return tuple(out)


def _replace(state: PinchedState, **changes: object) -> PinchedState:
    return msgspec.structs.replace(state, **changes)
