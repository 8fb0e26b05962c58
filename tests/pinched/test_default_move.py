"""Pinched!'s default move, what a turn clock plays for a seat whose time ran out.

Issue 17: "the referee applies that game's default move — a pure, documented engine
function (`default_move(state, seat)`; [...] in Pinched! a choice drawn from the game's
seeded RNG)", so that "replay and `referee verify` reproduce it". The choices, step by step,
are documented in engines/pinched/defaults.py and docs/rules/pinched.md.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import msgspec
import pytest

from engines.errors import IllegalMoveError, InvalidMoveError
from engines.pinched import GAME, PinchedState, defaults
from engines.pinched.components import JOKER
from engines.pinched.model import Curse, Dog, Phase
from engines.pinched.moves import (
    ChooseLocation,
    EndSelling,
    FieldRef,
    KeepCurses,
    Sell,
    SkipPassage,
    Store,
    TakeCard,
    TakeDog,
    TakeFromRiver,
    TakeWithGordie,
)
from engines.rng import Rng
from tests.clock_driver import by_clock, check_defaults, random_prefix
from tests.pinched.playout_cases import CASES
from tests.pinched.support import (
    CROWN,
    EMPTY,
    GOLD,
    STD,
    B,
    C,
    Cards,
    D,
    H,
    S,
    after_heist,
    alone,
    apply_all,
    choose,
    last_move_of_day,
    slot,
    table,
)

LIMIT = GAME.default_move_limit
SPADES_CROWN = [(D, STD), (C, STD), (S, CROWN), (H, STD), (B, CROWN)]


def drawn(state: PinchedState, seat: int) -> ChooseLocation:
    """The clock's location card as engines/rng.py documents a child stream, computed here
    from the formula (not the engine's code)."""
    label = b"default_move"
    material = state.rng.seed + state.rng.counter.to_bytes(8, "big") + bytes([len(label)])
    material += label + state.day.to_bytes(8, "big") + seat.to_bytes(8, "big")
    index, _ = Rng(hashlib.sha256(material).digest()).below(len(state.config.locations))
    return ChooseLocation(state.config.locations[index].location)


def test_the_sealed_location_card_is_drawn_from_the_seeded_rng() -> None:
    """Issue 17: "in Pinched! a choice drawn from the game's seeded RNG" — a child stream of
    the state's RNG keyed by the day and the seat; the game's own stream is not advanced."""
    state = table(4, mastermind=1)
    before = state.rng
    for seat in range(4):
        assert GAME.default_move(state, seat) == drawn(state, seat)
    assert state.rng == before
    seen = set()
    for seed in range(40):
        other = msgspec.structs.replace(state, rng=Rng(bytes([seed]) * 8))
        seen.add(defaults.location_draw(other, 0).location)
        assert GAME.default_move(other, 0) == defaults.location_draw(other, 0)
    assert seen == {p.location for p in state.config.locations}, "every location can come"


def test_owed_storing_takes_the_lowest_card_to_the_lowest_slot() -> None:
    """Seed: "Krijg je [...] kostbaarheden, dan sla je die direct op" — storing comes first;
    a joker with slots that are not alike is stored by the clock on the lowest slot."""
    cards = Cards()
    joker = cards.one(JOKER)
    stash = (slot(GOLD, *cards(GOLD, 1)), EMPTY[1], EMPTY[2])
    state = table(3, mastermind=0, stashes=(EMPTY, stash, EMPTY), hands=((), (joker,), ()))
    assert GAME.to_act(state) >= {1}
    assert GAME.default_move(state, 1) == Store(joker, 0)


def test_a_take_at_the_heist_takes_the_lowest_open_field() -> None:
    """Seed: "Het brein neemt 1 kostbaarheid van de locatie. Daarna neemt iedere andere
    inbreker die goed gokte 1 kostbaarheid" — the clock takes the lowest field."""
    state = table(3, mastermind=0)
    night, _ = choose(state, {0: C, 1: C, 2: D})
    assert night.takes[0].seat == 0
    assert GAME.default_move(night, 0) == TakeCard(0)
    night, _ = GAME.apply(night, 0, TakeCard(0))
    assert GAME.default_move(night, 1) == TakeCard(1)


def test_alone_at_the_hearts_mansion_the_passage_is_declined() -> None:
    """Seed: alone, the mastermind "mag ook de geheime doorgang gebruiken" — may: the clock
    declines it."""
    state = table(3, mastermind=2)
    night, _ = choose(state, alone(state, H, C))
    assert night.passage_due
    assert GAME.default_move(night, 2) == SkipPassage()


def test_at_the_spades_crown_the_first_dog_offered_is_taken() -> None:
    """Seed, Schoppen kroonkant: the lone mastermind "neemt het de hond die nog door niemand
    genomen is" — with both free the clock takes Rufus, the first the rules list."""
    state = table(4, locations=SPADES_CROWN, mastermind=1)
    night, _ = choose(state, alone(state, S, C))
    assert night.dog_due
    assert GAME.default_move(night, 1) == TakeDog(Dog.RUFUS)


def test_curses_are_kept() -> None:
    """Seed: "mag iedere inbreker die bij die overval aanwezig is 1 van zijn vloeken geven" —
    may: the clock passes none (KeepCurses)."""
    curses = ((Curse(0, 2),), (), (), ())
    pile = tuple(Curse(i, 1) for i in range(1, 6))
    state = table(4, "cursed_secrets", mastermind=0, curses=curses, curse_pile=pile)
    night, _ = choose(state, {0: B, 1: B, 2: D, 3: D})
    while night.phase is Phase.NIGHT and not night.curse_turns:  # the bank's cards stored
        (seat,) = GAME.to_act(night)
        night, _ = GAME.apply(night, seat, GAME.default_move(night, seat))
    assert night.curse_turns == (0,)
    assert GAME.default_move(night, 0) == KeepCurses()


def test_gordie_takes_the_first_open_card() -> None:
    """Seed: "Heb je Gordie, dan neem je 1 open kaart van een landhuis naar keuze" — the clock
    takes the first, in the table's order of the locations, then by field."""
    state = last_move_of_day(4, 3, locations=SPADES_CROWN, dogs=(None, 0))
    morning, _ = GAME.apply(state, 3, EndSelling())
    assert morning.gordie_due == (0,)
    assert GAME.default_move(morning, 0) == TakeWithGordie(FieldRef(D, 0))


def test_after_the_heist_no_sale_and_the_lowest_river_field() -> None:
    """Seed: "Daarna voert het brein de stap 'Verkopen en dumpen' uit, terwijl de andere
    inbrekers tegelijk een kaart uit de rivier nemen" — the clock sells nothing mid-game (a
    set keeps growing) and picks the lowest river field that holds a card."""
    cards = Cards()
    stash = (slot(GOLD, *cards(GOLD, 4)), EMPTY[1], EMPTY[2])
    river = (None, *cards(GOLD, 2))
    state = table(3, mastermind=0, stashes=(stash, EMPTY, EMPTY), river=river, **after_heist(3, 0))
    assert GAME.to_act(state) == {0, 1}
    assert GAME.default_move(state, 0) == EndSelling()
    assert GAME.default_move(state, 1) == TakeFromRiver(1)


def test_the_final_sale_sells_every_set_that_fetches_a_point() -> None:
    """Seed: "Alle inbrekers mogen de kostbaarheden op hun voorraadtableau verkopen" and only
    sold cards score: the clock sells each set worth a point, lowest slot first, and then
    ends; a set below its first threshold is not sold."""
    cards = Cards()
    stashes = (
        (slot(GOLD, *cards(GOLD, 1)), slot(GOLD + 1, *cards(GOLD + 1, 4)), EMPTY[2]),
        (slot(GOLD, *cards(GOLD, 3)), EMPTY[1], EMPTY[2]),
        EMPTY,
    )
    state = last_move_of_day(3, 0, first=1, watch=1, stashes=stashes)
    final, _ = GAME.apply(state, 0, EndSelling())
    assert final.phase is Phase.FINAL_SALE
    assert GAME.default_move(final, 0) == Sell(1), "one gold bar fetches nothing"
    assert GAME.default_move(final, 1) == Sell(0)
    assert GAME.default_move(final, 2) == EndSelling()
    sold, _ = apply_all(final, [(0, Sell(1))])
    assert GAME.default_move(sold, 0) == EndSelling()


def test_no_default_move_for_a_seat_with_nothing_to_do_or_after_the_end() -> None:
    """engines/base.py: defined "for every seat in ``to_act`` of a game that is not over"
    (else NOT_TO_ACT, SEAT_OUT_OF_RANGE, GAME_OVER)."""
    state = table(3, mastermind=0, **after_heist(3, 0))
    assert 2 not in GAME.to_act(state)
    with pytest.raises(IllegalMoveError) as info:
        GAME.default_move(state, 2)
    assert info.value.reason == "NOT_TO_ACT"
    with pytest.raises(InvalidMoveError) as off:
        GAME.default_move(state, 5)
    assert off.value.reason == "SEAT_OUT_OF_RANGE"
    over, _ = by_clock(GAME, state, LIMIT)
    with pytest.raises(IllegalMoveError) as stopped:
        GAME.default_move(over, 0)
    assert stopped.value.reason == "GAME_OVER"


def test_the_default_move_is_pure_and_replays() -> None:
    """Issue 17: "so replay and `referee verify` reproduce it" — the same state (also decoded
    from its bytes) gives the same move, asking changes nothing, and a game played by the
    clock replays from its seed to the same end."""
    config = GAME.make_config(3, {})
    state = random_prefix(GAME, GAME.new_game(config, b"pure"), random.Random(1), 25)
    encoded = msgspec.msgpack.encode(state)
    again = msgspec.msgpack.decode(encoded, type=PinchedState)
    for seat in sorted(GAME.to_act(state)):
        assert GAME.default_move(state, seat) == GAME.default_move(again, seat)
    assert msgspec.msgpack.encode(state) == encoded
    first, _ = by_clock(GAME, GAME.new_game(config, b"pure"), LIMIT)
    second, _ = by_clock(GAME, GAME.new_game(config, b"pure"), LIMIT)
    assert msgspec.msgpack.encode(first) == msgspec.msgpack.encode(second)


REVISION_1 = ("basic_3p_revision1", 3, {"setup": "basic", "rules_revision": 1})
TABLES = [*CASES, REVISION_1]


@pytest.mark.parametrize(("name", "players", "options"), TABLES, ids=[case[0] for case in TABLES])
def test_the_clock_alone_ends_the_game_from_random_positions(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """Issue 17 (progress): from states reached by random play, the seats to act playing
    nothing but default moves end the game within the move limit (2,000), on every setup;
    every default on the way is legal and repeatable."""
    config = GAME.make_config(players, options)
    for seed in range(2):
        rnd = random.Random(seed)
        state = GAME.new_game(config, bytes([seed, players]) + name.encode()[:6])
        state = random_prefix(GAME, state, rnd, rnd.randrange(0, 150))
        check_defaults(GAME, state)
        assert GAME.waiting_for(state) == GAME.to_act(state)
        final, played = by_clock(GAME, state, LIMIT)
        assert GAME.outcome(final) is not None and played < LIMIT


def test_every_seat_to_act_has_a_legal_default_along_random_playouts() -> None:
    """engines/base.py: the default move is "always one of ``legal_moves``", at every state
    of random playouts of the setup with every location's special rule."""
    for seed, (_, players, options) in enumerate(CASES[4:8]):
        rnd = random.Random(seed)
        state = GAME.new_game(GAME.make_config(players, options), bytes([seed]))
        for _ in range(80):
            if GAME.outcome(state) is not None:
                break
            check_defaults(GAME, state)
            state = random_prefix(GAME, state, rnd, 1)


def test_a_child_stream_leaves_its_parent_alone() -> None:
    """engines/rng.py: a child stream "never moves the parent": its draws depend on the label
    and the keys, and the same state, label and keys always give the same child."""
    parent = Rng(b"seed", counter=5)
    child = parent.child("default_move", 1, 2)
    assert child == parent.child("default_move", 1, 2) and child.counter == 0
    assert parent == Rng(b"seed", counter=5)
    others = {parent.child("other", 1, 2), parent.child("default_move", 2, 1)}
    others |= {Rng(b"seed", counter=6).child("default_move", 1, 2)}
    assert child not in others and len(others) == 3
    with pytest.raises(ValueError, match="keys >= 0"):
        parent.child("default_move", -1)
