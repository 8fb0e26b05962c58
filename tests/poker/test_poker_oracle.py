"""Our evaluator against an independent one (phevaluator) on many random hands.

"Exactly equal" means: the same category for every hand, and the same order and the same
ties between hands (sorted by our strength, phevaluator's rank must fall strictly when ours
rises and stay put when ours does). phevaluator takes 5 to 7 cards, so an 8-card hand is
the best of its eight 7-card subsets there: the best five of eight are in one of them.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

import pytest
from phevaluator.card import Card as PheCard
from phevaluator.evaluator import evaluate_7cards

from engines.cards import DECK, Card, Suit
from engines.poker import Category, evaluate, hand_mask, rank_masks, rank_value, rank_values
from engines.poker.counting import count_value
from engines.poker.hands import decode, encode
from engines.poker.native import USES_C_API, eval7_strength, native_strength

SEED = 20240601
UNIFORM_HANDS = 200_000
SKEWED_HANDS = 50_000

Hand = tuple[Card, ...]

PHE_ID = {card: PheCard(str(card)).id_ for card in DECK}

# phevaluator ranks 1 (royal flush) .. 7462 (seven high); the last rank of each category.
PHE_CATEGORY_ENDS = (
    (1, Category.ROYAL_FLUSH),
    (10, Category.STRAIGHT_FLUSH),
    (166, Category.FOUR_OF_A_KIND),
    (322, Category.FULL_HOUSE),
    (1599, Category.FLUSH),
    (1609, Category.STRAIGHT),
    (2467, Category.THREE_OF_A_KIND),
    (3325, Category.TWO_PAIR),
    (6185, Category.PAIR),
    (7462, Category.HIGH_CARD),
)


def phe_category(rank: int) -> Category:
    return next(category for end, category in PHE_CATEGORY_ENDS if rank <= end)


def phe_rank(hand: Hand) -> int:
    """phevaluator's rank of the best five (smaller is stronger)."""
    ids = [PHE_ID[card] for card in hand]
    if len(ids) == 7:
        return int(evaluate_7cards(*ids))
    return min(int(evaluate_7cards(*seven)) for seven in itertools.combinations(ids, 7))


def uniform(rng: random.Random, count: int, size: int) -> list[Hand]:
    return [tuple(rng.sample(DECK, size)) for _ in range(count)]


def skewed(rng: random.Random, count: int, size: int) -> list[Hand]:
    """Hands from small decks, so rare categories (straight and royal flushes, quads,
    full houses, wheels) turn up by the thousand: either a run of 7 ranks (the ace counted
    low or high) in 2 suits, or 3 to 4 ranks in all suits."""
    suits = list(Suit)
    hands: list[Hand] = []
    for _ in range(count):
        if rng.random() < 0.6:
            low = rng.randint(1, 8)
            ranks = [14 if rank == 1 else rank for rank in range(low, low + 7)]
            deck = [Card(rank, suit) for rank in ranks for suit in rng.sample(suits, 2)]
        else:
            ranks = rng.sample(range(2, 15), rng.choice((3, 4)))
            deck = [Card(rank, suit) for rank in ranks for suit in suits]
        hands.append(tuple(rng.sample(deck, size)))
    return hands


def assert_same_order(ours: Sequence[int], theirs: Sequence[int], hands: Sequence[Hand]) -> None:
    """Sorted by ours, theirs (smaller = stronger) falls strictly, with identical ties."""
    order = sorted(range(len(ours)), key=ours.__getitem__)
    wrong = []
    for i, j in itertools.pairwise(order):
        same_ours, same_theirs = ours[i] == ours[j], theirs[i] == theirs[j]
        if same_ours != same_theirs or (not same_ours and theirs[j] > theirs[i]):
            wrong.append((" ".join(map(str, hands[i])), " ".join(map(str, hands[j]))))
    assert not wrong, f"{len(wrong)} disagreements, first: {wrong[:3]}"


@pytest.fixture(scope="module", params=[7, 8], ids=["7 cards", "8 cards"])
def sample(request: pytest.FixtureRequest) -> tuple[list[Hand], list[int], list[int]]:
    """Hands of one size (uniform, then skewed), our strengths, phevaluator's ranks."""
    size: int = request.param
    rng = random.Random(SEED + size)
    hands = uniform(rng, UNIFORM_HANDS, size) + skewed(rng, SKEWED_HANDS, size)
    return hands, rank_values(hands), [phe_rank(hand) for hand in hands]


def test_same_category_for_every_hand(sample: tuple[list[Hand], list[int], list[int]]) -> None:
    hands, ours, theirs = sample
    wrong = [
        (" ".join(map(str, hand)), decode(mine)[0].name, phe_category(other).name)
        for hand, mine, other in zip(hands, ours, theirs, strict=True)
        if decode(mine)[0] is not phe_category(other)
    ]
    assert not wrong, f"{len(wrong)} category disagreements, first: {wrong[:3]}"
    assert {decode(mine)[0] for mine in ours} == set(Category)


def test_same_order_and_ties(sample: tuple[list[Hand], list[int], list[int]]) -> None:
    hands, ours, theirs = sample
    assert_same_order(ours, theirs, hands)


def test_all_entry_points_agree(sample: tuple[list[Hand], list[int], list[int]]) -> None:
    """evaluate, rank_value, rank_values and rank_masks give the same strength, and
    HandValue orders like it; ``best`` is five of the hand's cards worth the whole hand."""
    hands, ours, _ = sample
    assert rank_masks([hand_mask(hand) for hand in hands]) == ours
    for hand, strength in zip(hands, ours, strict=True):
        value = evaluate(hand)
        assert value.strength == strength == rank_value(hand)
        assert (value.category, value.ranks) == decode(strength)
        assert encode(value.category, value.ranks) == strength
        assert len(set(value.best)) == 5
        assert set(value.best) <= set(hand)
        assert rank_value(value.best) == strength


def test_slow_path_agrees(sample: tuple[list[Hand], list[int], list[int]]) -> None:
    """The pure-Python path (used for suitless cards) matches on ordinary cards too."""
    hands, ours, _ = sample
    assert [encode(*count_value(hand)) for hand in hands] == ours


def test_public_eval7_fallback_agrees(sample: tuple[list[Hand], list[int], list[int]]) -> None:
    hands, ours, _ = sample
    masks = [hand_mask(hand) for hand in hands[:20_000]]
    assert [eval7_strength(mask, mask.bit_count()) for mask in masks] == ours[:20_000]


def test_fast_path_is_the_c_function() -> None:
    assert USES_C_API, "eval7's C API was not usable: evaluation fell back to eval7.evaluate"
    assert native_strength is not eval7_strength
