"""The night: the heist at the mastermind's location, and every location's special rule.

Seed, "Nacht: de overval": "Staat het brein alleen op de locatie, dan neemt het alle
kostbaarheden die daar open liggen. Daarnaast activeert het brein vaak nog een speciale
regel van die locatie." Shared: "1. Het brein neemt 1 kostbaarheid van de locatie. 2. Daarna
neemt iedere andere inbreker die goed gokte 1 kostbaarheid, met de klok mee vanaf het
brein. 3. Tot slot neemt het brein nog 1 kostbaarheid. Ligt er niets meer, dan trekt het
brein de bovenste kaart van de trekstapel." A thief whose turn finds the location bare (and
no passage to use) gets nothing.

The locations' rules are quoted where they are applied. Choices (which card, the passage,
which dog, a curse to pass) wait for the seat's move; a step with one possible outcome is
taken at once.
"""

from __future__ import annotations

import msgspec.structs

from engines.pinched import stash, supply
from engines.pinched.events import (
    BankFailed,
    CardsDrawn,
    CardTaken,
    CurseDrawn,
    DogTaken,
    DrawReason,
    Event,
    LetterOpened,
    LetterRead,
    PassageUsed,
    Treasure,
    TreasureTaken,
    VaultMoved,
)
from engines.pinched.model import (
    BANK_ALONE,
    BANK_SHARED,
    LISA_MONA_CROWN,
    LISA_MONA_STANDARD,
    Dog,
    Location,
    PinchedState,
    Side,
    Take,
)
from engines.pinched.moves import FieldRef


def vault_track(state: PinchedState) -> tuple[int, ...]:
    table = state.config.components
    side = state.side(Location.CLUBS)
    return table.vault_crown if side is Side.CROWN else table.vault_standard


def passage_refs(state: PinchedState) -> list[FieldRef]:
    """Open cards the secret passage reaches: "open kaart uit een ander landhuis"."""
    refs: list[FieldRef] = []
    for placement, row in zip(state.config.locations, state.fields, strict=True):
        if placement.location in (Location.HEARTS, Location.BANK):
            continue
        refs += [FieldRef(placement.location, f) for f, card in enumerate(row) if card is not None]
    return refs


def passage_size(state: PinchedState) -> int:
    """Standard side: one card; crown side: two (fewer only if fewer are open)."""
    wanted = 2 if state.side(Location.HEARTS) is Side.CROWN else 1
    return min(wanted, len(passage_refs(state)))


def passage_usable(state: PinchedState) -> bool:
    return state.heist is Location.HEARTS and state.passage_open and passage_size(state) > 0


def resolve(state: PinchedState, events: list[Event]) -> PinchedState:
    """Right after the reveal: the whole heist as far as it runs without a choice."""
    heist = state.heist
    assert heist is not None
    m = state.mastermind
    alone = state.present == (m,)
    if heist is Location.BANK:
        state = _bank(state, events)
        return _letter_location(state, heist, events) if alone else state
    if alone:
        index = state.index(heist)
        taken = []
        for field, card in enumerate(state.fields[index]):
            if card is not None:
                state, card = supply.take_open(state, heist, field)
                events.append(CardTaken(m, heist, field, card))
                taken.append(card)
        state = stash.gain(state, m, taken, events)
        state = _alone_special(state, heist, events)
        return advance(state, events)
    if heist is Location.CLUBS:
        track = vault_track(state)
        position = min(state.vault + 1, len(track) - 1)
        events.append(VaultMoved(position, track[position]))
        state = _replace(state, vault=position)
    takes = [Take(m)] + [Take(seat) for seat in state.present[1:]] + [Take(m, last=True)]
    return advance(_replace(state, takes=tuple(takes)), events)


def _bank(state: PinchedState, events: list[Event]) -> PinchedState:
    """ "Is alleen het brein bij de bank, dan trekt het 2 kostbaarheden van de trekstapel.
    Zijn er meer inbrekers bij de bank, maar niet allemaal, dan trekt ieder van hen 4
    kostbaarheden. Zijn alle inbrekers bij de bank, dan mislukt de overval"."""
    if len(state.present) == state.config.players:
        events.append(BankFailed())
        return state
    count = BANK_ALONE if len(state.present) == 1 else BANK_SHARED
    for seat in state.present:
        state = _draw_into(state, seat, count, DrawReason.BANK, events)
    return state


def _draw_into(
    state: PinchedState, seat: int, count: int, reason: DrawReason, events: list[Event]
) -> PinchedState:
    state, drawn = supply.draw(state, count, events)
    events.append(CardsDrawn(seat, len(drawn), tuple(drawn), reason))
    return stash.gain(state, seat, drawn, events)


def _alone_special(state: PinchedState, heist: Location, events: list[Event]) -> PinchedState:
    m = state.mastermind
    side = state.side(heist)
    if heist is Location.DIAMONDS and side is Side.STANDARD:
        # "Het eerste brein dat hier alleen inbreekt, neemt de Lisa Mona [...] Elk volgend
        # brein dat hier alleen inbreekt, neemt een diamant zolang er nog een is."
        if state.lisa_mona is None:
            events.append(TreasureTaken(m, Treasure.LISA_MONA, LISA_MONA_STANDARD))
            return _replace(state, lisa_mona=m, lisa_mona_points=LISA_MONA_STANDARD)
        if state.diamonds_left:
            events.append(TreasureTaken(m, Treasure.DIAMOND, 1))
            return _replace(
                state, diamonds_left=state.diamonds_left - 1, diamonds=_plus(state.diamonds, m)
            )
        return state
    if heist is Location.DIAMONDS:
        # "bekijkt het in het geheim de verzegelde brief en neemt het een aanwijzing"
        letter = state.letter
        assert letter is not None
        events.append(LetterRead(m, letter.location))
        seen = tuple(sorted({*letter.seen_by, m}))
        state = _replace(state, letter=msgspec.structs.replace(letter, seen_by=seen))
        if state.clues_left:
            events.append(TreasureTaken(m, Treasure.CLUE, 2))
            state = _replace(state, clues_left=state.clues_left - 1, clues=_plus(state.clues, m))
        return state
    state = _letter_location(state, heist, events)
    if heist is Location.CLUBS:
        # "kraakt het de kluis en trekt het zoveel kostbaarheden van de trekstapel als het
        # getal waarop de kluis staat. Zet de kluis daarna terug op het meest linkse veld."
        value = vault_track(state)[state.vault]
        state = _draw_into(state, m, value, DrawReason.VAULT, events)
        events.append(VaultMoved(0, vault_track(state)[0]))
        return _replace(state, vault=0)
    if heist is Location.SPADES:
        return _spades(state, side, events)
    if heist is Location.HEARTS and passage_usable(state):
        return _replace(state, passage_due=True)
    return state


def _letter_location(state: PinchedState, heist: Location, events: list[Event]) -> PinchedState:
    """Diamonds crown: "Heeft een brein al een aanwijzing en breekt het later alleen in op de
    locatie uit de brief, dan neemt het de Lisa Mona. Het brein draait de brief om"."""
    m, letter = state.mastermind, state.letter
    if letter is None or letter.opened or letter.location is not heist:
        return state
    if state.lisa_mona is not None or not state.clues[m]:
        return state
    events += [TreasureTaken(m, Treasure.LISA_MONA, LISA_MONA_CROWN), LetterOpened(heist)]
    return _replace(
        state,
        lisa_mona=m,
        lisa_mona_points=LISA_MONA_CROWN,
        letter=msgspec.structs.replace(letter, opened=True),
    )


def dog_options(state: PinchedState) -> list[Dog]:
    """Spades crown: "neemt het de hond die nog door niemand genomen is. Hebben andere
    spelers beide honden al, dan neemt het brein een hond naar keuze van een andere speler
    af." (With one dog its own and the other elsewhere, it takes the other.)"""
    m = state.mastermind
    free = [dog for dog in Dog if state.dogs[dog] is None]
    if free:
        return free
    return [dog for dog in Dog if state.dogs[dog] != m]


def _spades(state: PinchedState, side: Side | None, events: list[Event]) -> PinchedState:
    if side is Side.STANDARD:
        # "neemt het Rufus [...] Heeft een andere speler Rufus al, dan neem je hem van die
        # speler af."
        return take_dog(state, Dog.RUFUS, events)
    options = dog_options(state)
    if len(options) == 1:
        return take_dog(state, options[0], events)
    return _replace(state, dog_due=bool(options))


def take_dog(state: PinchedState, dog: Dog, events: list[Event]) -> PinchedState:
    m = state.mastermind
    holder = state.dogs[dog]
    if holder == m:
        return state
    events.append(DogTaken(m, dog, holder))
    dogs = list(state.dogs)
    dogs[dog] = m
    return _replace(state, dogs=(dogs[0], dogs[1]), dog_due=False)


def take_at_heist(state: PinchedState, field: int, events: list[Event]) -> PinchedState:
    """The current taker takes the open card on ``field`` of the heist's location."""
    heist = state.heist
    assert heist is not None
    seat = state.takes[0].seat
    state, card = supply.take_open(state, heist, field)
    events.append(CardTaken(seat, heist, field, card))
    state = stash.gain(state, seat, [card], events)
    return _replace(state, takes=state.takes[1:])


def use_passage(
    state: PinchedState, seat: int, refs: tuple[FieldRef, ...], events: list[Event]
) -> PinchedState:
    """ "in plaats daarvan 1 open kaart uit een ander landhuis nemen. Daarna schuif je de
    doorgang dicht." Crown: two cards, "De inbreker die de doorgang gebruikt, trekt een
    vloek" ("Zijn de vloeken op, dan kun je de doorgang nog steeds gebruiken")."""
    events.append(PassageUsed(seat))
    taken = []
    for ref in refs:
        state, card = supply.take_open(state, ref.location, ref.field)
        events.append(CardTaken(seat, ref.location, ref.field, card))
        taken.append(card)
    state = stash.gain(state, seat, taken, events)
    state = _replace(state, passage_open=False, passage_due=False)
    if state.side(Location.HEARTS) is Side.CROWN and state.curse_pile:
        curse, pile = state.curse_pile[0], state.curse_pile[1:]
        events.append(CurseDrawn(seat, curse))
        curses = list(state.curses)
        curses[seat] = (*curses[seat], curse)
        state = _replace(
            state,
            curse_pile=pile,
            curses=tuple(curses),
            fresh_curses=(*state.fresh_curses, curse.id),
        )
    return state


def skip_passage(state: PinchedState, events: list[Event]) -> PinchedState:
    """Not using the passage: alone, the heist is done; on a bare take, the thief gets
    nothing and the mastermind's last take draws from the deck."""
    if state.passage_due:
        return _replace(state, passage_due=False)
    take, rest = state.takes[0], state.takes[1:]
    if take.last:
        state = _draw_into(state, take.seat, 1, DrawReason.LAST_TAKE, events)
    return advance(_replace(state, takes=rest), events)


def take_options(state: PinchedState) -> list[int]:
    heist = state.heist
    if heist is None or heist is Location.BANK:
        return []
    return supply.open_cards(state, heist)


def advance(state: PinchedState, events: list[Event]) -> PinchedState:
    """Run the heist on until a seat must choose, then open the curse passing."""
    while state.takes:
        take = state.takes[0]
        options = take_options(state)
        if passage_usable(state) or len(options) > 1:
            return state
        if len(options) == 1:
            state = take_at_heist(state, options[0], events)
        elif take.last:
            # "Ligt er niets meer, dan trekt het brein de bovenste kaart van de trekstapel."
            state = _draw_into(state, take.seat, 1, DrawReason.LAST_TAKE, events)
            state = _replace(state, takes=state.takes[1:])
        else:
            state = _replace(state, takes=state.takes[1:])
    return state


def night_over(state: PinchedState) -> bool:
    return not (state.takes or state.passage_due or state.dog_due)


def curse_turns(state: PinchedState) -> tuple[int, ...]:
    """ "Bij elke volgende overval [...] mag iedere inbreker die bij die overval aanwezig is
    1 van zijn vloeken geven aan een andere inbreker die daar ook is. [...] Een vloek die je
    tijdens de huidige overval kreeg, mag je niet meteen doorgeven." """
    if len(state.present) < 2:
        return ()
    return tuple(seat for seat in state.present if passable_curses(state, seat))


def passable_curses(state: PinchedState, seat: int) -> list[int]:
    return [c.id for c in state.curses[seat] if c.id not in state.fresh_curses]


def _plus(row: tuple[int, ...], seat: int) -> tuple[int, ...]:
    out = list(row)
    out[seat] += 1
    return tuple(out)


def _replace(state: PinchedState, **changes: object) -> PinchedState:
    return msgspec.structs.replace(state, **changes)
