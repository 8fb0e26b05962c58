"""Bad input to Pinched!: every reason the engine gives, typed, with nothing changed; and
``legal_moves`` listing exactly the moves ``check`` accepts.

engines/errors.py: "Every error carries a stable, machine-readable ``reason`` [...] An engine
never raises anything else for bad input." engines/base.py: "``check`` is the single source
of legality: ``legal_moves`` lists exactly the moves ``check`` accepts, and ``apply`` calls
``check`` before it changes anything." Issue 4: "bad input gets a typed reason and changes
nothing".
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engines.errors import IllegalMoveError, InvalidConfigError, InvalidMoveError, MoveError
from engines.pinched import GAME
from engines.pinched.components import DEFAULT, JOKER, Components, Sale, ValuableKind, kinds_of
from engines.pinched.model import (
    Curse,
    Dog,
    Location,
    Phase,
    PinchedConfig,
    PinchedState,
    Placement,
    Slot,
)
from engines.pinched.moves import (
    ChooseLocation,
    EndSelling,
    FieldRef,
    KeepCurses,
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
from tests.pinched.support import (
    COIN,
    CROWN,
    EMPTY,
    GOLD,
    SEED,
    STD,
    B,
    C,
    Cards,
    D,
    H,
    S,
    after_heist,
    all_cards,
    alone,
    choose,
    last_move_of_day,
    new,
    reason_of,
    rejects,
    rig,
    setups,
    slot,
    store_all,
    table,
)

SPADES_CROWN = [(D, STD), (C, STD), (S, CROWN), (H, STD), (B, CROWN)]
ILLEGAL, INVALID = IllegalMoveError, InvalidMoveError


def play_out(state: PinchedState, rng: random.Random) -> Iterator[PinchedState]:
    """Every state of a random legal game from ``state`` to its end."""
    yield state
    while not state.finished:
        seat = rng.choice(sorted(GAME.to_act(state)))
        state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        yield state


def finished() -> PinchedState:
    *_, last = play_out(new(3), random.Random(3))
    return last


# --- the move reasons -------------------------------------------------------------------


def test_not_now() -> None:
    """A move of another part of the day: NOT_NOW."""
    plan = table(3, mastermind=0)
    for move in (
        TakeCard(0),
        UsePassage((FieldRef(D, 0),)),
        SkipPassage(),
        TakeDog(Dog.RUFUS),
        KeepCurses(),
        TakeWithGordie(FieldRef(D, 0)),
        TakeFromRiver(0),
    ):
        rejects(plan, 1, move, ILLEGAL, "NOT_NOW")
    night, _ = choose(plan, {0: D, 1: D, 2: C})
    rejects(night, 0, ChooseLocation(D), ILLEGAL, "NOT_NOW")
    rejects(night, 0, TakeFromRiver(0), ILLEGAL, "NOT_NOW")
    rejects(night, 0, SkipPassage(), ILLEGAL, "NOT_NOW")


def test_not_your_turn() -> None:
    """Seed: "met de klok mee, te beginnen bij het brein" and the river "De inbreker links van
    het brein begint"."""
    night, _ = choose(table(3, mastermind=0), {0: D, 1: D, 2: D})
    rejects(night, 1, TakeCard(0), ILLEGAL, "NOT_YOUR_TURN")
    after = table(3, mastermind=0, **after_heist(3, 0))
    rejects(after, 2, TakeFromRiver(0), ILLEGAL, "NOT_YOUR_TURN")
    rejects(after, 0, TakeFromRiver(0), ILLEGAL, "NOT_YOUR_TURN")


def test_not_to_act() -> None:
    """engines/base.py: ``default_move`` is defined for the seats in ``to_act``; a turn clock
    asking it for a seat with nothing to do gets NOT_TO_ACT, and nothing changes."""
    after = table(3, mastermind=0, **after_heist(3, 0))
    before = msgspec.msgpack.encode(after)
    with pytest.raises(ILLEGAL) as info:
        GAME.default_move(after, 2)
    assert info.value.reason == "NOT_TO_ACT"
    assert msgspec.msgpack.encode(after) == before


def test_field_out_of_range() -> None:
    """Seed: "Leg één kaart open op elk kaartveld van de locatietableaus en op de drie velden
    van de rivier" and "Je voorraadtableau heeft drie velden" — no field or slot beyond."""
    night, _ = choose(table(3, mastermind=0), {0: H, 1: H, 2: C})
    for field in (-1, 3, 99, "0", None):
        rejects(night, 0, TakeCard(field), INVALID, "FIELD_OUT_OF_RANGE")  # type: ignore[arg-type]
    rejects(night, 0, UsePassage((FieldRef(D, 3),)), INVALID, "FIELD_OUT_OF_RANGE")
    after = table(3, mastermind=0, **after_heist(3, 0))
    rejects(after, 1, TakeFromRiver(3), INVALID, "FIELD_OUT_OF_RANGE")
    rejects(after, 1, TakeFromRiver(-1), INVALID, "FIELD_OUT_OF_RANGE")
    rejects(after, 0, Sell(3), INVALID, "FIELD_OUT_OF_RANGE")
    rejects(after, 0, Sell(-1), INVALID, "FIELD_OUT_OF_RANGE")
    rejects(after, 0, Store(0, 3), INVALID, "FIELD_OUT_OF_RANGE")
    gordie = _gordie_morning()
    rejects(gordie, 0, TakeWithGordie(FieldRef(D, 7)), INVALID, "FIELD_OUT_OF_RANGE")


def test_field_empty() -> None:
    """Seed: "Ligt er niets meer" — a bare field has no card to take (a location, the river,
    the passage, Gordie)."""
    gold = Cards()(GOLD, 2)
    state = table(3, mastermind=0, open_cards={D: (gold[0], None, gold[1])})
    night, _ = choose(state, {0: D, 1: D, 2: C})
    rejects(night, 0, TakeCard(1), ILLEGAL, "FIELD_EMPTY")
    state = table(3, mastermind=0, open_cards={D: (gold[0], None, gold[1])})
    night, _ = choose(state, {0: H, 1: H, 2: C})
    rejects(night, 0, UsePassage((FieldRef(D, 1),)), ILLEGAL, "FIELD_EMPTY")
    after = table(3, mastermind=0, river=(None, 20, 21), **after_heist(3, 0))
    rejects(after, 1, TakeFromRiver(0), ILLEGAL, "FIELD_EMPTY")
    gordie = _gordie_morning()
    fields = list(gordie.fields)
    fields[gordie.index(D)] = (None, *fields[gordie.index(D)][1:])
    gordie = rig(gordie, fields=tuple(fields))
    rejects(gordie, 0, TakeWithGordie(FieldRef(D, 0)), ILLEGAL, "FIELD_EMPTY")


def test_location_not_in_play_and_unknown_location() -> None:
    """Seed: "Haal de locatiekaarten van locaties die niet meedoen uit ieders set." """
    two = table(2, mastermind=0)
    rejects(two, 0, ChooseLocation(S), ILLEGAL, "LOCATION_NOT_IN_PLAY")
    rejects(two, 1, ChooseLocation(B), ILLEGAL, "LOCATION_NOT_IN_PLAY")
    for junk in ("atlantis", "river", 3, None):
        rejects(two, 0, ChooseLocation(junk), INVALID, "UNKNOWN_LOCATION")  # type: ignore[arg-type]
    night, _ = choose(two, {0: H, 1: H})
    rejects(night, 0, UsePassage((FieldRef(S, 0),)), ILLEGAL, "LOCATION_NOT_IN_PLAY")
    rejects(night, 0, UsePassage((FieldRef("x", 0),)), INVALID, "UNKNOWN_LOCATION")  # type: ignore[arg-type]
    rejects(night, 0, UsePassage(((D, 0),)), INVALID, "UNKNOWN_FIELD")  # type: ignore[arg-type]


def test_already_chosen() -> None:
    """Seed: "Het brein kiest een locatiekaart en legt die gedekt voor zich neer" — one card a
    morning, not taken back."""
    state, _ = choose(table(3, mastermind=0), {1: C})
    rejects(state, 1, ChooseLocation(C), ILLEGAL, "ALREADY_CHOSEN")
    rejects(state, 1, ChooseLocation(D), ILLEGAL, "ALREADY_CHOSEN")


def test_passage_closed_cards_other_mansion_same_card() -> None:
    """Seed: "in plaats daarvan 1 open kaart uit een ander landhuis nemen" (standard), "2 open
    kaarten uit andere landhuizen" (crown); "Per overval kan maar één inbreker de doorgang
    gebruiken." """
    state = table(3, mastermind=0)
    elsewhere, _ = choose(state, {0: D, 1: D, 2: C})
    rejects(elsewhere, 0, UsePassage((FieldRef(C, 0),)), ILLEGAL, "PASSAGE_CLOSED")
    night, _ = choose(state, {0: H, 1: H, 2: C})
    rejects(night, 0, UsePassage((FieldRef(H, 0),)), ILLEGAL, "NOT_ANOTHER_MANSION")
    rejects(night, 0, UsePassage(()), ILLEGAL, "PASSAGE_CARDS")
    rejects(night, 0, UsePassage((FieldRef(D, 0), FieldRef(C, 0))), ILLEGAL, "PASSAGE_CARDS")
    closed = rig(night, passage_open=False)
    rejects(closed, 0, UsePassage((FieldRef(D, 0),)), ILLEGAL, "PASSAGE_CLOSED")
    crown = table(4, "cursed_secrets", mastermind=0)
    cnight, _ = choose(crown, {0: H, 1: H, 2: D, 3: D})
    rejects(cnight, 0, UsePassage((FieldRef(B, 0), FieldRef(D, 0))), ILLEGAL, "NOT_ANOTHER_MANSION")
    twice = (FieldRef(S, 1), FieldRef(S, 1))
    rejects(cnight, 0, UsePassage(twice), INVALID, "SAME_CARD_TWICE")


def test_dogs_unknown_and_not_available() -> None:
    """Seed: "neemt het de hond die nog door niemand genomen is"."""
    state = table(4, locations=SPADES_CROWN, mastermind=0)
    night, _ = choose(state, alone(state, S, D))
    assert night.dog_due
    rejects(night, 0, TakeDog(2), INVALID, "UNKNOWN_DOG")  # type: ignore[arg-type]
    rejects(night, 1, TakeDog(Dog.RUFUS), ILLEGAL, "NOT_NOW")
    held = rig(night, dogs=(0, None))  # the mastermind's own dog is not on offer
    rejects(held, 0, TakeDog(Dog.RUFUS), ILLEGAL, "DOG_NOT_AVAILABLE")
    gordie = _gordie_morning()
    rejects(gordie, 0, TakeWithGordie(FieldRef(B, 0)), ILLEGAL, "NOT_ANOTHER_MANSION")
    rejects(gordie, 0, TakeWithGordie((D, 0)), INVALID, "UNKNOWN_FIELD")  # type: ignore[arg-type]
    rejects(gordie, 1, TakeWithGordie(FieldRef(D, 0)), ILLEGAL, "NOT_NOW")


def _gordie_morning(**changes: Any) -> PinchedState:
    river = Cards()(COIN, 3)
    state = last_move_of_day(4, 3, locations=SPADES_CROWN, dogs=(None, 0), river=river, **changes)
    morning, _ = GAME.apply(state, 3, EndSelling())
    assert morning.gordie_due == (0,)
    return morning


def test_curses_not_passable_not_present_seat_out_of_range() -> None:
    """Seed: "1 van zijn vloeken geven aan een andere inbreker die daar ook is [...] Een vloek
    die je tijdens de huidige overval kreeg, mag je niet meteen doorgeven." """
    curses = ((Curse(0, 1),), (Curse(1, 2),), (), ())
    pile = tuple(Curse(i, 3) for i in range(2, 6))
    state = table(4, "cursed_secrets", mastermind=0, curses=curses, curse_pile=pile)
    night, _ = choose(state, {0: B, 1: B, 2: B, 3: D})
    night = store_all(night)
    assert night.curse_turns == (0, 1)
    rejects(night, 0, PassCurse(1, 1), ILLEGAL, "CURSE_NOT_PASSABLE")
    rejects(night, 0, PassCurse(9, 1), ILLEGAL, "CURSE_NOT_PASSABLE")
    rejects(night, 0, PassCurse(0, 0), ILLEGAL, "NOT_PRESENT")
    rejects(night, 0, PassCurse(0, 3), ILLEGAL, "NOT_PRESENT")
    for seat in (4, -1, "1"):
        rejects(night, 0, PassCurse(0, seat), INVALID, "SEAT_OUT_OF_RANGE")  # type: ignore[arg-type]
    rejects(night, 3, KeepCurses(), ILLEGAL, "NOT_NOW")
    fresh = rig(night, fresh_curses=(0,))
    rejects(fresh, 0, PassCurse(0, 1), ILLEGAL, "CURSE_NOT_PASSABLE")


def test_not_selling_nothing_to_sell() -> None:
    """Seed: "Alleen het brein mag verkopen." and "Kies een van de drie sets op je
    voorraadtableau" — a slot with no set (or only jokers) has none."""
    cards = Cards()
    jokers = cards(JOKER, 2)
    stash = (slot(None, *jokers), Slot(), slot(GOLD, *cards(GOLD, 1)))
    other = (slot(GOLD, *cards(GOLD, 2)), Slot(), Slot())
    state = table(3, mastermind=0, stashes=(stash, other, EMPTY), **after_heist(3, 0))
    rejects(state, 0, Sell(0), ILLEGAL, "NOTHING_TO_SELL")
    rejects(state, 0, Sell(1), ILLEGAL, "NOTHING_TO_SELL")
    rejects(state, 1, Sell(0), ILLEGAL, "NOT_SELLING")
    rejects(state, 1, EndSelling(), ILLEGAL, "NOT_SELLING")
    plan = table(3, mastermind=0)
    rejects(plan, 0, Sell(0), ILLEGAL, "NOT_SELLING")
    rejects(plan, 0, EndSelling(), ILLEGAL, "NOT_SELLING")


def test_cannot_store_and_store_first() -> None:
    """Seed, "Kostbaarheden opslaan": a card of a kind on the stash goes on its slot, a new
    kind on an empty slot; what cannot be stored stays in hand."""
    cards = Cards()
    joker, coin, gold = cards.one(JOKER), cards.one(COIN), cards.one(GOLD)
    other = cards.one(COIN)
    stash = (slot(COIN, coin), Slot(), slot(GOLD, gold))
    owing = table(
        3,
        mastermind=0,
        stashes=(EMPTY, stash, EMPTY),
        hands=((), (joker,), ()),
        **after_heist(3, 0),
    )
    rejects(owing, 1, Store(other, 0), ILLEGAL, "CANNOT_STORE")
    rejects(owing, 1, Store("x", 0), ILLEGAL, "CANNOT_STORE")  # type: ignore[arg-type]
    rejects(owing, 1, Store(joker, -1), INVALID, "FIELD_OUT_OF_RANGE")
    rejects(owing, 1, TakeFromRiver(0), ILLEGAL, "STORE_FIRST")
    rejects(owing, 0, Store(joker, 0), ILLEGAL, "CANNOT_STORE")
    assert GAME.legal_moves(owing, 1) == [Store(joker, 0), Store(joker, 1), Store(joker, 2)]


def test_game_over() -> None:
    """Seed: "Stond het horloge deze week al op 1, dan is het spel voorbij." """
    over = finished()
    assert over.phase is Phase.OVER
    for seat in range(3):
        assert GAME.legal_moves(over, seat) == []
        for move in (ChooseLocation(D), EndSelling(), Sell(0), TakeFromRiver(0), KeepCurses()):
            rejects(over, seat, move, ILLEGAL, "GAME_OVER")
    assert GAME.to_act(over) == frozenset()


@pytest.mark.parametrize("seat", [-1, 3, 7, "0", None, 1.0])
def test_seat_out_of_range(seat: Any) -> None:
    """Seed: "Gekraakt! is een blufspel voor 2 tot 5 spelers" — only the table's seats move."""
    state = table(3, mastermind=0)
    rejects(state, seat, ChooseLocation(D), INVALID, "SEAT_OUT_OF_RANGE")


@pytest.mark.parametrize("viewer", [-1, 3, 9])
def test_a_viewer_who_is_not_a_seat_gets_no_view(viewer: int) -> None:
    """engines/base.py: "``view(state, seat)`` is the only way state leaves the engine" — a
    viewer that is no seat gets an error, never some seat's hand."""
    state = table(3, mastermind=0, hands=((), (40,), ()))
    with pytest.raises(ValueError, match="no seat"):
        GAME.view(state, viewer)


def test_unknown_move() -> None:
    """engines/errors.py: "An engine never raises anything else for bad input." """
    state = table(3, mastermind=0)
    for junk in (object(), "choose_location", None, Slot()):
        rejects(state, 0, junk, INVALID, "UNKNOWN_MOVE")


def test_errors_do_not_depend_on_sealed_choices() -> None:
    """Issue 4: "a sealed choice that no other seat, spectator, event or error can see before
    the reveal" — every other seat's answer to every move is the same before and after."""
    state = table(4, mastermind=1)
    chosen, _ = choose(state, {1: B})
    for seat in (0, 2, 3):
        for move in candidates(state):
            assert reason_of(state, seat, move) == reason_of(chosen, seat, move)
        assert GAME.legal_moves(state, seat) == GAME.legal_moves(chosen, seat)


JUNK: list[Any] = [
    UsePassage(None),  # type: ignore[arg-type]
    UsePassage(5),  # type: ignore[arg-type]
    UsePassage("ab"),  # type: ignore[arg-type]
    UsePassage((None,)),  # type: ignore[arg-type]
    UsePassage(((1, 2),)),  # type: ignore[arg-type]
    UsePassage((FieldRef(D, None),)),  # type: ignore[arg-type]
    UsePassage((FieldRef(None, 0),)),  # type: ignore[arg-type]
    UsePassage((FieldRef(D, True),)),
    TakeCard(True),
    TakeCard(None),  # type: ignore[arg-type]
    TakeWithGordie(None),  # type: ignore[arg-type]
    TakeWithGordie(FieldRef(H, "0")),  # type: ignore[arg-type]
    Store(None, None),  # type: ignore[arg-type]
    Store(0.5, 0),  # type: ignore[arg-type]
    Sell(None),  # type: ignore[arg-type]
    Sell("0"),  # type: ignore[arg-type]
    PassCurse(None, None),  # type: ignore[arg-type]
    TakeDog(None),  # type: ignore[arg-type]
    TakeDog("rufus"),  # type: ignore[arg-type]
    TakeFromRiver(None),  # type: ignore[arg-type]
    TakeFromRiver(1.5),  # type: ignore[arg-type]
    ChooseLocation(None),  # type: ignore[arg-type]
]


def _junk_positions() -> dict[str, PinchedState]:
    plan = table(3, mastermind=0)
    passage, _ = choose(plan, {0: H, 1: H, 2: C})
    return {
        "plan": plan,
        "passage": passage,
        "after": table(3, mastermind=0, **after_heist(3, 0)),
        "gordie": _gordie_morning(),
        "curses": _curse_passing(),
    }


@pytest.mark.parametrize("where", ["plan", "passage", "after", "gordie", "curses"])
def test_malformed_moves_raise_only_move_errors(where: str) -> None:
    """engines/errors.py: "An engine never raises anything else for bad input." Moves built in
    Python skip msgspec's decoding checks (a passage whose cards are no tuple, a field that is
    no int), so the engine must refuse them itself, at every point of the day."""
    state = _junk_positions()[where]
    before = msgspec.msgpack.encode(state)
    wrong: list[str] = []
    for seat in range(state.config.players):
        for move in JUNK:
            try:
                GAME.check(state, seat, move)
            except MoveError:
                continue
            except Exception as error:
                wrong.append(f"seat {seat} {move!r}: {type(error).__name__}: {error}")
                continue
            wrong.append(f"seat {seat} {move!r}: accepted")
    assert msgspec.msgpack.encode(state) == before
    assert not wrong, "\n".join(wrong)


def test_every_reason_of_the_engine_is_tested_here() -> None:
    """Issue 4: "bad input gets a typed reason" — every reason the engine can give appears in
    this file's tests."""
    root = Path(__file__).resolve().parents[2]
    source = "".join(p.read_text() for p in (root / "engines" / "pinched").glob("*.py"))
    source += "".join((root / "engines" / name).read_text() for name in ("base.py", "checks.py"))
    reasons = set(re.findall(r'Error\(\s*"([A-Z_]+)"', source))
    assert {"NOT_NOW", "STORE_FIRST", "BANK_REQUIRED", "UNKNOWN_OPTION"} <= reasons
    text = Path(__file__).read_text()
    missing = sorted(reason for reason in reasons if f'"{reason}"' not in text)
    assert not missing


# --- bad configs ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "options", "reason"),
    [
        (1, {}, "SEAT_COUNT_UNSUPPORTED"),
        (6, {}, "SEAT_COUNT_UNSUPPORTED"),
        (0, {}, "SEAT_COUNT_UNSUPPORTED"),
        ("3", {}, "SEAT_COUNT_UNSUPPORTED"),
        (3, {"weeks": 2}, "UNKNOWN_OPTION"),
        (3, {"setup": "basic", "locations": [(D, STD), (C, STD)]}, "BAD_OPTION"),
        (3, {"setup": "the_big_one"}, "BAD_OPTION"),
        (3, {"locations": "diamonds"}, "BAD_OPTION"),
        (3, {"locations": [("diamonds", "standard"), ("clubs",)]}, "BAD_OPTION"),
        (3, {"locations": [("diamonds", "standard"), ("clubs", "upside")]}, "BAD_OPTION"),
        (3, {"locations": [("moon", "standard"), ("clubs", "standard")]}, "BAD_OPTION"),
        (3, {"setup": "paranoid_owner"}, "SETUP_NOT_FOR_PLAYERS"),
        (5, {"setup": "cursed_secrets"}, "SETUP_NOT_FOR_PLAYERS"),
        (3, {"locations": [(D, STD)]}, "BAD_LOCATIONS"),
        (3, {"locations": []}, "BAD_LOCATIONS"),
        (3, {"locations": [(D, STD), (D, CROWN)]}, "BAD_LOCATIONS"),
        (4, {"locations": [(D, STD), (B, STD)]}, "BAD_LOCATIONS"),
        (2, {"locations": [(D, CROWN), (C, STD)]}, "SIDE_NOT_FOR_PLAYERS"),
        (3, {"locations": [(H, CROWN), (C, STD)]}, "SIDE_NOT_FOR_PLAYERS"),
        (3, {"locations": [(B, CROWN), (C, STD)]}, "SIDE_NOT_FOR_PLAYERS"),
        (2, {"locations": [(S, STD), (C, STD)]}, "SIDE_NOT_FOR_PLAYERS"),
        (5, {"locations": [(D, STD), (C, STD), (S, STD), (H, STD)]}, "BANK_REQUIRED"),
        (3, {"components": {"kinds": []}}, "BAD_COMPONENTS"),
    ],
)
def test_bad_configs(players: Any, options: dict[str, Any], reason: str) -> None:
    """Seed: "voor 2 tot 5 spelers", "Let op het spelersaantal dat op elk tableau staat",
    "bij 5 spelers speel je er altijd mee" (the bank); RULES-NOTES: the component table is
    replaceable and a bad one refused."""
    with pytest.raises(InvalidConfigError) as info:
        GAME.make_config(players, options)
    assert info.value.reason == reason


def _kind(name: str = "coins", copies: int = 5, sales: Any = ((2, 1),)) -> ValuableKind:
    return ValuableKind(name, copies, tuple(Sale(*sale) for sale in sales))


BAD_TABLES = {
    "no-kinds": msgspec.structs.replace(DEFAULT, kinds=()),
    "same-names": msgspec.structs.replace(DEFAULT, kinds=(_kind(), _kind(), _kind("gold_bars"))),
    "empty-name": msgspec.structs.replace(DEFAULT, kinds=(*DEFAULT.kinds, _kind(""))),
    "no-copies": msgspec.structs.replace(DEFAULT, kinds=(*DEFAULT.kinds, _kind("x", 0))),
    "no-sales": msgspec.structs.replace(DEFAULT, kinds=(*DEFAULT.kinds, _kind("x", 3, ()))),
    "threshold-0": msgspec.structs.replace(
        DEFAULT, kinds=(*DEFAULT.kinds, _kind("x", 3, ((0, 0),)))
    ),
    "falling-thresholds": msgspec.structs.replace(
        DEFAULT, kinds=(*DEFAULT.kinds, _kind("x", 3, ((3, 1), (2, 2))))
    ),
    "value-above-threshold": msgspec.structs.replace(
        DEFAULT, kinds=(*DEFAULT.kinds, _kind("x", 3, ((2, 3),)))
    ),
    "falling-values": msgspec.structs.replace(
        DEFAULT, kinds=(*DEFAULT.kinds, _kind("x", 3, ((2, 2), (3, 1))))
    ),
    "no-tiebreak-kind": msgspec.structs.replace(DEFAULT, tiebreak_kind="rubies"),
    "negative-jokers": msgspec.structs.replace(DEFAULT, jokers=-1),
    "too-many-cards": msgspec.structs.replace(DEFAULT, jokers=1000 - 49),
    "five-curses": msgspec.structs.replace(DEFAULT, curses=(1, 1, 2, 2, 3)),
    "curse-of-four": msgspec.structs.replace(DEFAULT, curses=(1, 1, 2, 2, 3, 4)),
    "vault-not-at-0": msgspec.structs.replace(DEFAULT, vault_standard=(1, 2)),
    "vault-falling": msgspec.structs.replace(DEFAULT, vault_crown=(1, 4, 2)),
    "vault-empty": msgspec.structs.replace(DEFAULT, vault_crown=()),
    "no-fields": msgspec.structs.replace(DEFAULT, fields=0),
    "seven-fields": msgspec.structs.replace(DEFAULT, fields=7),
}


@pytest.mark.parametrize("name", list(BAD_TABLES))
def test_a_bad_component_table_is_refused(name: str) -> None:
    """RULES-NOTES: "keep the component table as data in the engine [...] and let a game's
    config replace it"; issue 4: "a bad table is INVALID_ARGUMENT". The seed's "Bij
    goudstaven levert een set van 2 [...] 1 punt op" and "Leg zoveel kaarten uit die set
    gedekt [...] als de verkoopwaarde aangeeft" bound the table."""
    with pytest.raises(InvalidConfigError) as info:
        GAME.make_config(3, {"components": BAD_TABLES[name]})
    assert info.value.reason == "BAD_COMPONENTS"
    config = PinchedConfig(3, GAME.make_config(3, {}).locations, BAD_TABLES[name])
    with pytest.raises(InvalidConfigError) as info:
        GAME.new_game(config, SEED)
    assert info.value.reason == "BAD_COMPONENTS"


def test_new_game_checks_a_hand_built_config() -> None:
    """A config built without ``make_config`` is checked by ``new_game`` too."""
    cases = [
        (PinchedConfig(6, GAME.make_config(5, {}).locations, DEFAULT), "SEAT_COUNT_UNSUPPORTED"),
        (PinchedConfig(2, (Placement(D, STD), Placement(S, STD)), DEFAULT), "SIDE_NOT_FOR_PLAYERS"),
        (PinchedConfig(5, (Placement(D, STD), Placement(C, STD)), DEFAULT), "BANK_REQUIRED"),
        (PinchedConfig(3, (Placement(D, STD),), DEFAULT), "BAD_LOCATIONS"),
    ]
    for config, reason in cases:
        with pytest.raises(InvalidConfigError) as info:
            GAME.new_game(config, SEED)
        assert info.value.reason == reason


def test_a_replacement_component_table_is_used() -> None:
    """RULES-NOTES: "let a game's config replace it"."""
    small = Components(
        kinds=(
            ValuableKind("gold_bars", 12, (Sale(2, 1), Sale(3, 2), Sale(4, 4))),
            ValuableKind("coins", 20, (Sale(3, 2),)),
        ),
        jokers=2,
        curses=(1, 2, 3, 1, 2, 3),
        vault_standard=(0, 2, 5),
        vault_crown=(1, 2, 4, 6),
        fields=2,
    )
    state = GAME.new_game(GAME.make_config(2, {"components": small}), SEED)
    assert sorted(all_cards(state)) == list(range(34))
    assert all(len(row) == 2 for row in state.fields)
    copies = sum(kind.copies for kind in DEFAULT.kinds)
    largest = msgspec.structs.replace(DEFAULT, jokers=1000 - copies)
    assert GAME.make_config(3, {"components": largest}).components == largest


# --- legal_moves is exactly what check accepts ---------------------------------------------


def candidates(state: PinchedState) -> list[Any]:
    """A move space wider than the table's: every location (and junk), fields and slots out
    of range, every card id, every curse id and seat, passages of zero to three cards."""
    fields = state.config.components.fields
    players = state.config.players
    cards = len(kinds_of(state.config.components))
    refs = [FieldRef(loc, f) for loc in Location for f in range(-1, fields + 1)]
    moves: list[Any] = [ChooseLocation(loc) for loc in Location]
    moves += [ChooseLocation("atlantis")]  # type: ignore[arg-type]
    moves += [TakeCard(f) for f in range(-1, fields + 2)]
    moves += [UsePassage(()), *(UsePassage((r,)) for r in refs)]
    moves += [UsePassage((a, b)) for a in refs for b in refs]
    open_refs = [r for r in refs if 0 <= r.field < fields]
    moves += [UsePassage(tuple(open_refs[i : i + 3])) for i in range(0, len(open_refs), 3)]
    moves += [SkipPassage(), TakeDog(Dog.RUFUS), TakeDog(Dog.GORDIE), KeepCurses()]
    moves += [PassCurse(c, to) for c in range(-1, 8) for to in range(-1, players + 1)]
    moves += [TakeWithGordie(r) for r in refs]
    moves += [Store(card, s) for card in range(-1, cards + 1) for s in range(-1, 4)]
    moves += [Sell(s) for s in range(-1, 4)] + [EndSelling()]
    moves += [TakeFromRiver(f) for f in range(-1, 4)]
    return moves


def _situation(state: PinchedState) -> tuple[Any, ...]:
    return (
        state.phase,
        bool(state.takes),
        state.passage_due,
        state.passage_open,
        state.dog_due,
        bool(state.curse_turns),
        bool(state.gordie_due),
        bool(state.river_turns),
        any(state.hands),
    )


def positions() -> list[PinchedState]:
    """Two states of each situation met in random games of every setup, and rigged ones."""
    seen: dict[tuple[Any, ...], int] = {}
    out: list[PinchedState] = []
    for index, (players, name) in enumerate(setups()):
        for state in play_out(new(players, name, seed=bytes([index]) * 8), random.Random(index)):
            key = (players, *_situation(state))
            if seen.get(key, 0) < 2:
                seen[key] = seen.get(key, 0) + 1
                out.append(state)
    return out


RIGGED = {
    "gordie": lambda: _gordie_morning(),
    "dog-choice": lambda: _dog_choice(),
    "curse-passing": lambda: _curse_passing(),
    "store-owed": lambda: _store_owed(),
}


def _dog_choice() -> PinchedState:
    state = table(4, locations=SPADES_CROWN, mastermind=2, dogs=(0, 1))
    return choose(state, alone(state, S, D))[0]


def _curse_passing() -> PinchedState:
    curses = ((Curse(0, 1), Curse(1, 2)), (Curse(2, 3),), (), ())
    pile = tuple(Curse(i, 1) for i in range(3, 6))
    state = table(4, "cursed_secrets", mastermind=0, curses=curses, curse_pile=pile)
    night, _ = choose(state, {0: H, 1: H, 2: H, 3: D})
    night, _ = GAME.apply(night, 0, UsePassage((FieldRef(D, 0), FieldRef(S, 0))))
    while night.takes:
        seat = night.takes[0].seat
        night, _ = GAME.apply(night, seat, GAME.legal_moves(night, seat)[0])
    assert night.curse_turns
    return night


def _store_owed() -> PinchedState:
    cards = Cards()
    joker = cards.one(JOKER)
    return table(
        3,
        mastermind=0,
        stashes=((slot(COIN, *cards(COIN, 1)), Slot(), Slot()), EMPTY, EMPTY),
        hands=((joker,), (), ()),
        **after_heist(3, 0),
    )


def mismatches(state: PinchedState) -> list[str]:
    """Where ``legal_moves`` and ``check`` disagree at ``state``, one line each."""
    out: list[str] = []
    moves = candidates(state)
    players = state.config.players
    for seat in range(players):
        legal = {msgspec.json.encode(m).decode() for m in GAME.legal_moves(state, seat)}
        assert len(legal) == len(GAME.legal_moves(state, seat)), "no duplicates"
        accepted = {
            msgspec.json.encode(m).decode() for m in moves if reason_of(state, seat, m) is None
        }
        where = f"{state.phase} seat {seat}"
        out += [f"{where}: accepted, not listed: {m}" for m in sorted(accepted - legal)]
        out += [f"{where}: listed, refused: {m}" for m in sorted(legal - accepted)]
        assert (seat in GAME.to_act(state)) == bool(legal)
    for seat in (-1, players):
        assert GAME.legal_moves(state, seat) == []
    return out


def test_legal_moves_are_exactly_the_accepted_moves_in_play() -> None:
    """engines/base.py: "``legal_moves`` lists exactly the moves ``check`` accepts" — over
    every situation met in random games of the eight named setups."""
    states = positions()
    assert {s.phase for s in states} >= {Phase.PLAN, Phase.NIGHT, Phase.AFTER, Phase.OVER}
    found = [line for state in states for line in mismatches(state)]
    assert not found, f"{len(found)} disagreements, e.g.\n" + "\n".join(found[:6])


@pytest.mark.parametrize("name", list(RIGGED))
def test_legal_moves_are_exactly_the_accepted_moves_rigged(name: str) -> None:
    """engines/base.py: "``legal_moves`` lists exactly the moves ``check`` accepts" — in the
    rarer situations: Gordie's morning, a dog choice, curse passing, an owed store."""
    found = mismatches(RIGGED[name]())
    assert not found, f"{len(found)} disagreements, e.g.\n" + "\n".join(found[:6])


def test_a_passage_pair_is_listed_in_every_order_check_accepts() -> None:
    """engines/base.py: "``legal_moves`` lists exactly the moves ``check`` accepts". The crown
    passage's two cards may be named in either order: ``check`` accepts both orders, so both
    must be listed (or ``check`` must refuse the order it does not list)."""
    state = table(4, "cursed_secrets", mastermind=0)
    night, _ = choose(state, {0: H, 1: H, 2: D, 3: D})
    forward = UsePassage((FieldRef(D, 0), FieldRef(S, 0)))
    backward = UsePassage((FieldRef(S, 0), FieldRef(D, 0)))
    listed = GAME.legal_moves(night, 0)
    for move in (forward, backward):
        assert (move in listed) == GAME.is_legal(night, 0, move), move


def test_every_legal_move_applies() -> None:
    """A listed move is never refused by ``apply``; a move raises only MoveError."""
    for state in positions()[::5]:
        for seat in range(state.config.players):
            for move in GAME.legal_moves(state, seat):
                GAME.apply(state, seat, move)
        for move in candidates(state)[::37]:
            with contextlib.suppress(MoveError):
                GAME.apply(state, 0, move)
