"""The public API's contract: errors, HandValue as a value, the mask entry points."""

from __future__ import annotations

import ast
import dataclasses
import doctest
import pickle
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

import msgspec
import pytest

import engines.poker
import engines.poker.evaluator
from engines.cards import DECK, Card, Suit, cards
from engines.poker import (
    Category,
    HandValue,
    card_mask,
    category_of,
    evaluate,
    hand_mask,
    rank_mask,
    rank_masks,
    rank_value,
    rank_values,
)

ROOT = Path(__file__).resolve().parents[2]
EntryPoint = Callable[[Sequence[Card]], object]
ENTRY_POINTS: list[EntryPoint] = [evaluate, rank_value, lambda hand: rank_values([hand])]
ENTRY_IDS = ["evaluate", "rank_value", "rank_values"]


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=ENTRY_IDS)
@pytest.mark.parametrize("size", [0, 1, 4, 9, 10])
def test_wrong_number_of_cards(entry: EntryPoint, size: int) -> None:
    with pytest.raises(ValueError, match="5 to 8 cards"):
        entry(DECK[:size])


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=ENTRY_IDS)
@pytest.mark.parametrize("size", [5, 6, 7, 8])
def test_five_to_eight_cards_are_accepted(entry: EntryPoint, size: int) -> None:
    entry(DECK[:size])


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=ENTRY_IDS)
@pytest.mark.parametrize(
    "text", ["As As Kd 7c 2h", "As Kd 7c 2h 3h 4h 5h As", "J* J* Kd 7c 2h", "As Ks Kd 7c As Ks"]
)
def test_duplicate_cards(entry: EntryPoint, text: str) -> None:
    with pytest.raises(ValueError, match="duplicate"):
        entry(cards(text))


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=ENTRY_IDS)
@pytest.mark.parametrize("bad", [Card(1, Suit.SPADES), Card(15, None), Card(7, "x")])  # type: ignore[arg-type]
def test_cards_that_do_not_exist(entry: EntryPoint, bad: Card) -> None:
    with pytest.raises(ValueError, match="not a card"):
        entry((bad, *cards("As Kd 7c 2h")))


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=ENTRY_IDS)
def test_things_that_are_not_cards(entry: EntryPoint) -> None:
    with pytest.raises(TypeError, match="not a Card"):
        entry(["As", *cards("Kd 7c 2h 3h")])  # type: ignore[list-item]


def test_masks() -> None:
    hand = cards("As Kd 7c 2h 3h 4h 5h")
    mask = hand_mask(hand)
    assert mask == sum(card_mask(card) for card in hand)
    assert rank_mask(mask) == rank_value(hand) == rank_masks([mask])[0]
    assert len({card_mask(card) for card in DECK}) == 52
    with pytest.raises(ValueError, match="no mask"):
        card_mask(Card(11, None))
    with pytest.raises(ValueError, match="duplicate"):
        hand_mask(cards("As Kd As"))


@pytest.mark.parametrize("mask", [0, 0b1111, 0b111111111, -0b11111, 0b1111 | 1 << 52, 1 << 60])
def test_bad_masks(mask: int) -> None:
    with pytest.raises(ValueError, match="5 to 8 of the 52"):
        rank_mask(mask)
    with pytest.raises(ValueError, match="5 to 8 of the 52"):
        rank_masks([hand_mask(DECK[:7]), mask])


def test_batch_with_suitless_and_ordinary_hands() -> None:
    hands = [cards("Jc Jd Jh Js J* 2c 3d"), cards("Jc Jd Jh Js 2c 3d 4h")]
    assert rank_values(hands) == [rank_value(hand) for hand in hands]
    assert rank_values(iter(hands)) == rank_values(hands)


def test_hand_value_is_a_frozen_ordered_value() -> None:
    a = evaluate(cards("7c 7d Ah 9s 4d 3c 2h"))
    b = evaluate(cards("7h 7s Ad 9c 4c 3d 2s"))
    c = evaluate(cards("7h 7s Ad 9c 5c"))
    assert a == b and hash(a) == hash(b) and a.best != b.best
    assert a < c and c > a and a <= b and a >= b and a != c
    assert {a, b, c} == {a, c}
    assert max([c, a]) is c
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.category = Category.FLUSH  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(a)) == a
    assert str(a) == a.describe() == "pair of sevens"


def test_hand_value_round_trips_through_msgspec() -> None:
    value = evaluate(cards("Jc Jd Jh Js J* Ac 2d"))
    decoded = msgspec.msgpack.decode(msgspec.msgpack.encode(value), type=HandValue)
    assert decoded == value and decoded.best == value.best


def test_category_is_at_hand_for_the_muscle_specialist() -> None:
    """Muscle compares by category only: it must be cheap to get from either form."""
    weak, strong = cards("2c 2d 3h 5s 7c 9d Jh"), cards("Ac Ad Kh Qs 7c 9d Jh")
    assert evaluate(weak).category is evaluate(strong).category is Category.PAIR
    assert category_of(rank_value(weak)) is category_of(rank_value(strong)) is Category.PAIR
    assert category_of(rank_value(cards("Tc Jc Qc Kc Ac"))) is Category.ROYAL_FLUSH


@pytest.mark.parametrize(
    ("text", "description"),
    [
        ("Kd Jh 9c 7s 3h", "high card king"),
        ("6c 6d 9h Ks 2c", "pair of sixes"),
        ("Ac Ad 2h 2s 9c", "two pair, aces and twos"),
        ("Tc Td Th 9s 2c", "three of a kind, tens"),
        ("8c 9d Th Js Qc", "straight to the queen"),
        ("2h 5h 9h Kh 7h", "flush to the king"),
        ("Qc Qd Qh 8s 8c", "full house, queens over eights"),
        ("3c 3d 3h 3s Qc", "four of a kind, threes"),
        ("5d 6d 7d 8d 9d", "straight flush to the nine"),
        ("Ts Js Qs Ks As", "royal flush"),
    ],
)
def test_describe(text: str, description: str) -> None:
    assert evaluate(cards(text)).describe() == description


@pytest.mark.parametrize("module", [engines.poker, engines.poker.evaluator])
def test_doctests(module: ModuleType) -> None:
    """The examples in the module's docstrings, read from its source and run on the module
    as loaded: a compiled module (mypyc) keeps no docstrings for ``doctest.testmod``."""
    path = ROOT / Path(*module.__name__.split("."))
    source = (path / "__init__.py" if path.is_dir() else path.with_suffix(".py")).read_text()
    runner = doctest.DocTestRunner()
    for text in _docstrings(ast.parse(source)):
        parsed = doctest.DocTestParser().get_doctest(text, vars(module).copy(), "", None, 0)
        runner.run(parsed)
    results = runner.summarize(verbose=False)
    assert results.attempted > 0
    assert results.failed == 0


def _docstrings(tree: ast.Module) -> list[str]:
    """The module's docstring and those of its functions and classes (and their methods)."""
    nodes = [tree, *(node for node in ast.walk(tree) if isinstance(node, _DOCUMENTED))]
    return [text for node in nodes if (text := ast.get_docstring(node)) is not None]


_DOCUMENTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
