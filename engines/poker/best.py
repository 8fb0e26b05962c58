"""Which five cards make a hand, given its category and tie-break ranks.

Several choices can be equally good (two sevens out of three, either of two equal kickers);
the choice is made deterministically from the set of cards, whatever their order: among
cards of one rank, deck order (clubs, diamonds, hearts, spades) and a suitless card last.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engines.cards import Card
from engines.poker.hands import Category
from engines.poker.tables import SUIT_ORDER

_ACE = 14

# How many cards each tie-break rank stands for, in order.
_SHAPES: dict[Category, tuple[int, ...]] = {
    Category.HIGH_CARD: (1, 1, 1, 1, 1),
    Category.PAIR: (2, 1, 1, 1),
    Category.TWO_PAIR: (2, 2, 1),
    Category.THREE_OF_A_KIND: (3, 1, 1),
    Category.FLUSH: (1, 1, 1, 1, 1),
    Category.FULL_HOUSE: (3, 2),
    Category.FOUR_OF_A_KIND: (4, 1),
}
_SUITED = (Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH)
_RUNS = (Category.STRAIGHT, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH)


def _suit_order(card: Card) -> int:
    return SUIT_ORDER[card.suit]


def _wanted(category: Category, ranks: tuple[int, ...]) -> list[tuple[int, int]]:
    """(rank, how many) pairs, strongest part of the hand first."""
    if category in _RUNS:
        top = ranks[0]
        return [(_ACE if rank == 1 else rank, 1) for rank in range(top, top - 5, -1)]
    return list(zip(ranks, _SHAPES[category], strict=True))


def choose_best(
    hand: Sequence[Card], category: Category, ranks: tuple[int, ...]
) -> tuple[Card, ...]:
    """The five cards of ``hand`` that make ``(category, ranks)``."""
    if category in _SUITED:
        suit, _ = Counter(card.suit for card in hand if card.suit is not None).most_common(1)[0]
        hand = [card for card in hand if card.suit == suit]
    by_rank: dict[int, list[Card]] = {}
    for card in hand:
        by_rank.setdefault(card.rank, []).append(card)
    chosen: list[Card] = []
    for rank, number in _wanted(category, ranks):
        group = by_rank.get(rank, [])
        if len(group) > 1:
            group.sort(key=_suit_order)
        chosen.extend(group[:number])
        del group[:number]
    if len(chosen) != 5:
        raise AssertionError(f"{category.label} {ranks} is not in {[str(c) for c in hand]}")
    return tuple(chosen)
