"""Pinched!: one check per rule, moves applied only through it, and the day's course.

Seed, "Spelverloop": a day is the morning (the plan), the night (the heist) and the time
after the heist; "Daarna sluit je de dag af en schuift het brein door." The morning:
"Het brein kiest een locatiekaart en legt die gedekt voor zich neer. [...] Tegelijk kiest
iedere andere inbreker een van zijn eigen locatiekaarten [...] Alle inbrekers draaien hun
kaart tegelijk om." After the heist: "Eerst slaat iedereen zijn nieuwe kostbaarheden op.
Daarna voert het brein de stap 'Verkopen en dumpen' uit, terwijl de andere inbrekers tegelijk
een kaart uit de rivier nemen. [...] De inbreker links van het brein begint en daarna gaat
het met de klok mee." Seats are numbered clockwise, so the left neighbour is the next seat.
"""

from __future__ import annotations

import itertools

import msgspec.structs

from engines.base import Outcome, Seat, places_of, rules_revision
from engines.checks import accepted, check_seat, may_move, unchecked
from engines.errors import IllegalMoveError, InvalidMoveError
from engines.pinched import night, scoring, stash, supply
from engines.pinched.components import kinds_of
from engines.pinched.events import (
    CardTaken,
    CursePassed,
    CursesKept,
    DayEnded,
    DayStarted,
    DogUsed,
    Event,
    LocationChosen,
    LocationsRevealed,
)
from engines.pinched.model import (
    DECK_ONLY_RIVER,
    RIVER,
    SLOTS,
    Dog,
    Location,
    Phase,
    PinchedConfig,
    PinchedState,
)
from engines.pinched.moves import (
    ChooseLocation,
    EndSelling,
    FieldRef,
    KeepCurses,
    Move,
    PassCurse,
    Sell,
    SkipPassage,
    Store,
    TakeCard,
    TakeDog,
    TakeFromRiver,
    TakeWithGordie,
    UsePassage,
)
from engines.pinched.setup import check_config
from engines.pinched.table import set_table


def new_game(config: PinchedConfig, seed: bytes) -> PinchedState:
    check_config(config)
    events: list[Event] = []
    state = set_table(config, seed, events)
    return _advance(_start_day(state, events), events)


def seat_count(state: PinchedState) -> int:
    return state.config.players


def to_act(state: PinchedState) -> frozenset[Seat]:
    return frozenset(s for s in range(state.config.players) if legal_moves(state, s))


# --- the checks -------------------------------------------------------------------------


def _not_now(what: str) -> IllegalMoveError:
    return IllegalMoveError("NOT_NOW", f"{what} is not possible at this point of the day")


def _index(value: object, size: int, what: str) -> int:
    if type(value) is not int or not 0 <= value < size:
        raise InvalidMoveError("FIELD_OUT_OF_RANGE", f"{what} is 0 to {size - 1}")
    return value


def _location(state: PinchedState, value: object) -> Location:
    if not isinstance(value, Location):
        raise InvalidMoveError("UNKNOWN_LOCATION", "not a location of Pinched!")
    if state.side(value) is None:
        raise IllegalMoveError("LOCATION_NOT_IN_PLAY", f"the {value} is not in this game")
    return value


def _check_mansion_card(state: PinchedState, ref: object, passage: bool) -> FieldRef:
    if not isinstance(ref, FieldRef):
        raise InvalidMoveError("UNKNOWN_FIELD", "name a card by its location and field")
    location = _location(state, ref.location)
    if location is Location.BANK or (passage and location is Location.HEARTS):
        raise IllegalMoveError(
            "NOT_ANOTHER_MANSION",
            "the passage reaches the other mansions" if passage else "the bank has no cards",
        )
    field = _index(unchecked(ref).field, state.config.components.fields, "a mansion field")
    if state.fields[state.index(location)][field] is None:
        raise IllegalMoveError("FIELD_EMPTY", "no card lies on that field")
    return ref


def _check_take(state: PinchedState, seat: Seat, field: object) -> None:
    if state.phase is not Phase.NIGHT or not state.takes:
        raise _not_now("taking a card")
    if state.takes[0].seat != seat:
        raise IllegalMoveError("NOT_YOUR_TURN", f"seat {state.takes[0].seat} takes now")
    index = _index(field, state.config.components.fields, "a mansion field")
    if index not in night.take_options(state):
        raise IllegalMoveError("FIELD_EMPTY", "no card lies on that field")


def _check_passage(state: PinchedState, seat: Seat, refs: object) -> None:
    turn = (state.takes and state.takes[0].seat == seat) or (
        state.passage_due and seat == state.mastermind
    )
    if state.phase is not Phase.NIGHT or not turn:
        raise _not_now("the passage")
    if not isinstance(refs, tuple):
        raise InvalidMoveError("UNKNOWN_FIELD", "name the passage's cards as a list")
    if not night.passage_usable(state):
        raise IllegalMoveError("PASSAGE_CLOSED", "the secret passage is not open to you")
    checked = [_check_mansion_card(state, ref, passage=True) for ref in refs]
    if len(set(checked)) != len(checked):
        raise InvalidMoveError("SAME_CARD_TWICE", "name each card once")
    size = night.passage_size(state)
    if len(checked) != size:
        raise IllegalMoveError("PASSAGE_CARDS", f"the passage takes {size} card(s) here")


def _check_curse(state: PinchedState, seat: Seat, move: PassCurse | KeepCurses) -> None:
    """ "De acties gaan met de klok mee, te beginnen bij het brein": the present seats with a
    curse to pass decide in turn, so nobody waits to see what he is given first."""
    if seat not in state.curse_turns:
        raise _not_now("passing a curse")
    if state.curse_turns[0] != seat:
        raise IllegalMoveError("NOT_YOUR_TURN", f"seat {state.curse_turns[0]} decides first")
    if isinstance(move, PassCurse):
        curse, to_seat = unchecked(move).curse, unchecked(move).to_seat
        if curse not in night.passable_curses(state, seat):
            raise IllegalMoveError(
                "CURSE_NOT_PASSABLE", "pass one of your curses from an earlier heist"
            )
        if type(to_seat) is not int or not 0 <= to_seat < state.config.players:
            raise InvalidMoveError("SEAT_OUT_OF_RANGE", "no such seat")
        if to_seat == seat or to_seat not in state.present:
            raise IllegalMoveError(
                "NOT_PRESENT", "a curse goes to another burglar present at this heist"
            )


def _check_selling(state: PinchedState, seat: Seat, move: Sell | EndSelling) -> None:
    if seat not in state.selling:
        raise IllegalMoveError("NOT_SELLING", "only the mastermind sells (everyone at the end)")
    if isinstance(move, Sell):
        slot = _index(unchecked(move).slot, SLOTS, "a stash slot")
        if state.stashes[seat][slot].kind is None:
            raise IllegalMoveError("NOTHING_TO_SELL", "that slot holds no set")


def check(state: PinchedState, seat: object, move: Move) -> None:
    """Raise :class:`InvalidMoveError` or :class:`IllegalMoveError` unless ``move`` is legal."""
    seat = check_seat(seat, state.config.players, over=state.finished)
    if stash.owes_storing(state, seat) and not isinstance(move, Store):
        raise IllegalMoveError("STORE_FIRST", "store your new valuables first")
    match move:
        case Store():
            card, slot = unchecked(move).card, unchecked(move).slot
            if (card, slot) not in stash.store_options(state, seat):
                _index(slot, SLOTS, "a stash slot")
                raise IllegalMoveError("CANNOT_STORE", "the storage rules do not allow that")
        case ChooseLocation(location=location):
            _location(state, location)
            if state.phase is not Phase.PLAN:
                raise _not_now("choosing a location")
            if state.choices[seat] is not None:
                raise IllegalMoveError("ALREADY_CHOSEN", "your location card lies face down")
        case TakeCard():
            _check_take(state, seat, unchecked(move).field)
        case UsePassage():
            _check_passage(state, seat, unchecked(move).cards)
        case SkipPassage():
            bare_turn = (
                state.phase is Phase.NIGHT
                and bool(state.takes)
                and state.takes[0].seat == seat
                and night.passage_usable(state)
                and not night.take_options(state)
            )
            if not (bare_turn or (state.passage_due and seat == state.mastermind)):
                raise _not_now("declining the passage")
        case TakeDog(dog=dog):
            if not isinstance(dog, Dog):
                raise InvalidMoveError("UNKNOWN_DOG", "Rufus or Gordie")
            if not (state.dog_due and seat == state.mastermind):
                raise _not_now("taking a dog")
            if dog not in night.dog_options(state):
                raise IllegalMoveError("DOG_NOT_AVAILABLE", "take the dog nobody has yet")
        case PassCurse() | KeepCurses():
            _check_curse(state, seat, move)
        case TakeWithGordie(card=ref):
            if seat not in state.gordie_due:
                raise _not_now("using Gordie")
            _check_mansion_card(state, ref, passage=False)
        case Sell() | EndSelling():
            _check_selling(state, seat, move)
        case TakeFromRiver():
            if state.phase is not Phase.AFTER or not state.river_turns:
                raise _not_now("taking from the river")
            if state.river_turns[0] != seat:
                raise IllegalMoveError("NOT_YOUR_TURN", f"seat {state.river_turns[0]} picks now")
            field = _index(unchecked(move).field, RIVER, "a river field")
            if state.river[field] is None:
                raise IllegalMoveError("FIELD_EMPTY", "no card lies on that field")
        case _:
            raise InvalidMoveError("UNKNOWN_MOVE", "not a move of Pinched!")


def _candidates(state: PinchedState, seat: Seat) -> list[Move]:
    """Every move ``check`` could accept for ``seat`` now: the whole move space of the
    current phase (``check`` decides; owed storing leaves nothing but :class:`Store`)."""
    stores: list[Move] = [Store(card, slot) for card, slot in stash.store_options(state, seat)]
    if stores:
        return stores
    phase = state.phase
    moves: list[Move] = []
    if phase is Phase.PLAN:
        moves += [ChooseLocation(p.location) for p in state.config.locations]
    elif phase in (Phase.DOGS, Phase.FINAL_DOGS):
        moves += [TakeWithGordie(ref) for ref in _mansion_refs(state)]
    elif phase is Phase.NIGHT:
        moves += [TakeCard(f) for f in range(state.config.components.fields)]
        refs = night.passage_refs(state)
        moves += [UsePassage((ref,)) for ref in refs]
        moves += [UsePassage(pair) for pair in itertools.permutations(refs, 2)]
        moves += [SkipPassage(), TakeDog(Dog.RUFUS), TakeDog(Dog.GORDIE), KeepCurses()]
        moves += [PassCurse(c.id, to) for c in state.curses[seat] for to in state.present]
    elif phase in (Phase.AFTER, Phase.FINAL_SALE):
        moves += [Sell(slot) for slot in range(SLOTS)] + [EndSelling()]
        moves += [TakeFromRiver(f) for f in range(RIVER)]
    return moves


def _mansion_refs(state: PinchedState) -> list[FieldRef]:
    refs: list[FieldRef] = []
    for placement, row in zip(state.config.locations, state.fields, strict=True):
        refs += [FieldRef(placement.location, f) for f, card in enumerate(row) if card is not None]
    return refs


def legal_moves(state: PinchedState, seat: object) -> list[Move]:
    """Every move ``check`` accepts, drawn from the whole move space of this table."""
    if not may_move(seat, state.config.players, over=state.finished):
        return []
    return accepted(check, state, seat, _candidates(state, seat))


# --- applying ---------------------------------------------------------------------------


def apply(state: PinchedState, seat: object, move: Move) -> tuple[PinchedState, list[Event]]:
    check(state, seat, move)
    seat = check_seat(seat, state.config.players)  # as ``check`` found it: a seat
    events: list[Event] = []
    match move:
        case Store(card=card, slot=slot):
            state = stash.settle(stash.place(state, seat, card, slot, events), seat, events)
        case ChooseLocation(location=location):
            choices = list(state.choices)
            choices[seat] = location
            events.append(LocationChosen(seat, location))
            state = _replace(state, choices=tuple(choices))
        case TakeCard(field=field):
            state = night.advance(night.take_at_heist(state, field, events), events)
        case UsePassage(cards=refs):
            state = night.use_passage(state, seat, refs, events)
            if state.takes:
                state = _replace(state, takes=state.takes[1:])
            state = night.advance(state, events)
        case SkipPassage():
            state = night.skip_passage(state, events)
        case TakeDog(dog=dog):
            state = night.take_dog(state, dog, events)
        case PassCurse(curse=curse_id, to_seat=to):
            state = _pass_curse(state, seat, curse_id, to, events)
        case KeepCurses():
            events.append(CursesKept(seat))
            state = _replace(state, curse_turns=tuple(s for s in state.curse_turns if s != seat))
        case TakeWithGordie(card=ref):
            state = _gordie(state, seat, ref, events)
        case Sell(slot=slot):
            state = stash.sell(state, seat, slot, events)
        case EndSelling():
            if state.phase is Phase.AFTER:
                state = stash.dump_hand(state, seat, events)
            state = _replace(state, selling=tuple(s for s in state.selling if s != seat))
        case TakeFromRiver(field=field):
            state, card = supply.take_open(state, None, field)
            events.append(CardTaken(seat, None, field, card))
            state = stash.gain(state, seat, [card], events)
            state = _refill_river(state, events)
            state = _replace(state, river_turns=state.river_turns[1:])
    return _advance(state, events), events


def _pass_curse(
    state: PinchedState, seat: Seat, curse_id: int, to: int, events: list[Event]
) -> PinchedState:
    curses = [list(row) for row in state.curses]
    curse = next(c for c in curses[seat] if c.id == curse_id)
    curses[seat].remove(curse)
    curses[to].append(curse)
    events.append(CursePassed(seat, to, curse))
    return _replace(
        state,
        curses=tuple(tuple(row) for row in curses),
        fresh_curses=(*state.fresh_curses, curse_id),  # not passed on again this heist
        curse_turns=tuple(s for s in state.curse_turns if s != seat),
    )


def _gordie(state: PinchedState, seat: Seat, ref: FieldRef, events: list[Event]) -> PinchedState:
    """ "Heb je Gordie, dan neem je 1 open kaart van een landhuis naar keuze en vul je dat
    veld direct aan." """
    events.append(DogUsed(seat, Dog.GORDIE))
    state, card = supply.take_open(state, ref.location, ref.field)
    events.append(CardTaken(seat, ref.location, ref.field, card))
    state = stash.gain(state, seat, [card], events)
    state = supply.refill_field(state, ref.location, ref.field, events)
    return _replace(state, gordie_due=tuple(s for s in state.gordie_due if s != seat))


# --- the day ----------------------------------------------------------------------------


def _refill_river(state: PinchedState, events: list[Event], day_end: bool = False) -> PinchedState:
    """ "vul je de rivier aan met een kaart van de trekstapel, zodat de volgende inbreker
    weer uit drie kaarten kan kiezen": every bare river field (one left bare while the deck
    was out is filled as soon as there are cards again).

    Revision 1 turned the discards into a new deck for any refill, so a sale's discards
    reached the river or not as the sale came before or after a pick. From revision 2 the
    river is refilled from the deck only until the end of the day ("Is de trekstapel op,
    schud dan de aflegstapel" is the day's closing step), as the sale and the picks are
    "tegelijk" (RULES-NOTES)."""
    reshuffle = day_end or rules_revision(state.config.rules_revision) < DECK_ONLY_RIVER
    for field, card in enumerate(state.river):
        if card is None:
            state = supply.refill_field(state, None, field, events, reshuffle)
    return state


def _use_rufus(state: PinchedState, seat: int, events: list[Event]) -> PinchedState:
    """ "Heb je Rufus [...] dan neem je [...] alle 3 kaarten uit de rivier. Vul de rivier
    daarna aan." """
    events.append(DogUsed(seat, Dog.RUFUS))
    taken: list[int] = []
    for field, card in enumerate(state.river):
        if card is not None:
            state, card = supply.take_open(state, None, field)
            events.append(CardTaken(seat, None, field, card))
            taken.append(card)
    state = stash.gain(state, seat, taken, events)
    return _refill_river(state, events)


def _dogs(state: PinchedState, seats: list[int], events: list[Event]) -> PinchedState:
    """Rufus first, then Gordie (a choice, when an open card is left to take)."""
    rufus, gordie = state.dogs
    if rufus is not None and rufus in seats:
        state = _use_rufus(state, rufus, events)
    if gordie is not None and gordie in seats and _mansion_refs(state):
        state = _replace(state, gordie_due=(gordie,))
    return state


def _start_day(state: PinchedState, events: list[Event]) -> PinchedState:
    m = state.mastermind
    events.append(DayStarted(state.day, state.watch, m))
    state = _replace(
        state,
        phase=Phase.DOGS,
        choices=(None,) * state.config.players,
        heist=None,
        present=(),
        takes=(),
        passage_open=True,
        curses_done=False,
        fresh_curses=(),
    )
    # "Speel je met het schoppen landhuis, dan voert het brein eerst de stap met Rufus of
    # Gordie uit, als het een van die honden bezit"
    return _dogs(state, [m], events)


def _reveal(state: PinchedState, events: list[Event]) -> PinchedState:
    m = state.mastermind
    heist = state.choices[m]
    assert heist is not None
    players = state.config.players
    clockwise = [(m + step) % players for step in range(players)]
    present = tuple(s for s in clockwise if state.choices[s] is heist)
    choices = tuple(c for c in state.choices if c is not None)
    events.append(LocationsRevealed(choices, heist, present))
    state = _replace(state, phase=Phase.NIGHT, heist=heist, present=present)
    return night.resolve(state, events)


def _after(state: PinchedState) -> PinchedState:
    m, players = state.mastermind, state.config.players
    others = tuple((m + step) % players for step in range(1, players))
    return _replace(state, phase=Phase.AFTER, selling=(m,), river_turns=others)


def _end_day(state: PinchedState, events: list[Event]) -> PinchedState:
    """ "1. Vul alle lege kaartvelden op de locatietableaus aan [...] 2. Geef de breinpion door
    aan de speler links van je. 3. [...] schuif de geheime doorgang dan weer open. 4. Komt de
    breinpion terug bij het eerste brein [...] draai je het horloge 1 week terug. Stond het
    horloge deze week al op 1, dan is het spel voorbij." """
    for placement, row in zip(state.config.locations, state.fields, strict=True):
        for field, card in enumerate(row):
            if card is None:
                state = supply.refill_field(state, placement.location, field, events)
    state = _refill_river(state, events, day_end=True)
    mastermind = (state.mastermind + 1) % state.config.players
    watch, over = state.watch, False
    if mastermind == state.first_mastermind:
        over = watch == 1
        watch = max(1, watch - 1)
    events.append(DayEnded(state.day, mastermind, watch))
    state = _replace(state, mastermind=mastermind, watch=watch, passage_open=True)
    if over:
        state = _replace(state, phase=Phase.FINAL_DOGS, heist=None, present=())
        # "Heb je Rufus of Gordie, dan gebruik je die hond nog een laatste keer."
        return _dogs(state, list(range(state.config.players)), events)
    return _start_day(_replace(state, day=state.day + 1), events)


def _owing(state: PinchedState) -> bool:
    return any(stash.owes_storing(state, s) for s in range(state.config.players))


def _advance(state: PinchedState, events: list[Event]) -> PinchedState:
    """Move the day on as far as it goes without anyone's choice."""
    while True:
        phase = state.phase
        if phase is Phase.DOGS and not state.gordie_due:
            state = _replace(state, phase=Phase.PLAN)
        elif phase is Phase.PLAN and None not in state.choices:
            state = _reveal(state, events)
        elif phase is Phase.NIGHT and night.night_over(state) and not state.curse_turns:
            if state.curses_done:
                state = _after(state)
            else:
                state = _replace(state, curses_done=True, curse_turns=night.curse_turns(state))
        elif phase is Phase.AFTER and state.river_turns and all(c is None for c in state.river):
            state = _replace(state, river_turns=())
        elif (
            phase is Phase.AFTER
            and not state.selling
            and not state.river_turns
            and not _owing(state)
        ):
            state = _end_day(state, events)
        elif phase is Phase.FINAL_DOGS and not state.gordie_due:
            everyone = tuple(range(state.config.players))
            state = _replace(state, phase=Phase.FINAL_SALE, selling=everyone)
        elif phase is Phase.FINAL_SALE and not state.selling and not _owing(state):
            events.append(scoring.final(state))
            state = _replace(state, phase=Phase.OVER)
        else:
            return state


def outcome(state: PinchedState) -> Outcome | None:
    if not state.finished:
        return None
    result = scoring.final(state)
    scores = sorted(result.scores, key=lambda score: score.seat)
    best = max(score.total for score in scores)
    return Outcome(
        result.winners,
        f"Richest: {', '.join(f'seat {s}' for s in result.winners)} with {best} points.",
        scores=tuple(score.total for score in scores),
        placings=places_of([(score.total, score.tiebreak) for score in scores]),
        tiebreaks=tuple(score.tiebreak for score in scores),
    )


def card_kind(state: PinchedState, card: int) -> int:
    return kinds_of(state.config.components)[card]


def _replace(state: PinchedState, **changes: object) -> PinchedState:
    return msgspec.structs.replace(state, **changes)
