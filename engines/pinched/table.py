"""Setting the table: "Schud de kostbaarheden [...] Leg één kaart open op elk kaartveld van
de locatietableaus en op de drie velden van de rivier. Geef iedere speler 3 kostbaarheden.
Die gaan meteen naar de voorraad [...] Kies wie het eerste brein is. [...] Stel het horloge
in op het aantal weken". Each location's own preparation is quoted where it is done; the
first mastermind is drawn at random from the seed.
"""

from __future__ import annotations

import msgspec.structs

from engines.pinched import stash, supply
from engines.pinched.components import kinds_of
from engines.pinched.events import CardsDrawn, DrawReason, Event
from engines.pinched.model import (
    DIAMONDS,
    RIVER,
    SLOTS,
    START_VALUABLES,
    WEEKS,
    Curse,
    Location,
    Phase,
    PinchedConfig,
    PinchedState,
    Side,
    Slot,
    TheLetter,
)
from engines.rng import Rng


def set_table(config: PinchedConfig, seed: bytes, events: list[Event]) -> PinchedState:
    players = config.players
    deck, rng = Rng(seed).shuffled(range(len(kinds_of(config.components))))
    first, rng = rng.below(players)
    state = PinchedState(
        config=config,
        rng=rng,
        deck=deck,
        discard=(),
        fields=tuple(
            () if p.location is Location.BANK else (None,) * config.components.fields
            for p in config.locations
        ),
        river=(None,) * RIVER,
        stashes=((Slot(),) * SLOTS,) * players,
        hands=((),) * players,
        sold=((),) * players,
        first_mastermind=first,
        mastermind=first,
        watch=WEEKS[players],
        phase=Phase.PLAN,
        diamonds=(0,) * players,
        clues=(0,) * players,
        curses=((),) * players,
        dogs=(None, None),
    )
    for placement, row in zip(config.locations, state.fields, strict=True):
        for field in range(len(row)):
            state = supply.refill_field(state, placement.location, field, events)
    for field in range(RIVER):
        state = supply.refill_field(state, None, field, events)
    for seat in range(players):
        state, drawn = supply.draw(state, START_VALUABLES, events)
        events.append(CardsDrawn(seat, len(drawn), tuple(drawn), DrawReason.START))
        state = stash.gain(state, seat, drawn, events)
    return _locations(state)


def _locations(state: PinchedState) -> PinchedState:
    changes: dict[str, object] = {}
    diamonds = state.side(Location.DIAMONDS)
    if diamonds is Side.STANDARD:
        # "leg de Lisa Mona en de 2 diamanten naast het tableau"
        changes["diamonds_left"] = DIAMONDS
    elif diamonds is Side.CROWN:
        # "Haal de verzegelde brieven van locaties die niet meedoen weg, schud de rest en leg
        # er 1 gedekt op het tableau. [...] Leg evenveel aanwijzingen naast het tableau als
        # er spelers zijn."
        others = [p.location for p in state.config.locations if p.location is not Location.DIAMONDS]
        index, rng = state.rng.below(len(others))
        changes.update(letter=TheLetter(others[index]), clues_left=state.config.players, rng=rng)
    state = msgspec.structs.replace(state, **changes)
    if state.side(Location.HEARTS) is Side.CROWN:
        # "Schud de 6 vloeken en leg ze gedekt op het tableau."
        points = state.config.components.curses
        pile, rng = state.rng.shuffled([Curse(i, p) for i, p in enumerate(points)])
        state = msgspec.structs.replace(state, curse_pile=pile, rng=rng)
    return state
