"""What a poker hand is worth: its category, its tie-break ranks, and their integer form.

The integer form ("strength") is the key every comparison in the package rests on. Its
layout is eval7's, so eval7's results are used unchanged:

* bits 24 and up: the category code, 0 (high card) .. 8 (straight flush). A royal flush is
  the ace-high straight flush, so it shares code 8 and is told apart by its top rank;
* then up to five 4-bit fields from bit 16 downward: the tie-break ranks in comparison
  order, each stored as ``rank - 2``; fields a category does not use are zero.

Reading the fields in order gives exactly the (category, ranks) order, so comparing two
strengths as integers is comparing the hands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum
from functools import lru_cache

from engines.cards import Card


class Category(IntEnum):
    """The ten poker hands, weakest first (the seed's list "Van zwak naar sterk")."""

    HIGH_CARD = 1
    PAIR = 2
    TWO_PAIR = 3
    THREE_OF_A_KIND = 4
    STRAIGHT = 5
    FLUSH = 6
    FULL_HOUSE = 7
    FOUR_OF_A_KIND = 8
    STRAIGHT_FLUSH = 9
    ROYAL_FLUSH = 10

    @property
    def label(self) -> str:
        """The English name players guess with: ``"two pair"``, ``"royal flush"``."""
        return self.name.replace("_", " ").lower()


# How many tie-break ranks each category carries.
RANK_COUNT: dict[Category, int] = {
    Category.HIGH_CARD: 5,
    Category.PAIR: 4,
    Category.TWO_PAIR: 3,
    Category.THREE_OF_A_KIND: 3,
    Category.STRAIGHT: 1,
    Category.FLUSH: 5,
    Category.FULL_HOUSE: 2,
    Category.FOUR_OF_A_KIND: 2,
    Category.STRAIGHT_FLUSH: 1,
    Category.ROYAL_FLUSH: 1,
}

_CATEGORY_SHIFT = 24
_FIRST_RANK_SHIFT = 16
_ACE = 14


def _code(category: Category) -> int:
    return min(category, Category.STRAIGHT_FLUSH) - 1


def encode(category: Category, ranks: tuple[int, ...]) -> int:
    """The strength of a hand given by its category and tie-break ranks."""
    value = _code(category) << _CATEGORY_SHIFT
    shift = _FIRST_RANK_SHIFT
    for rank in ranks:
        value |= (rank - 2) << shift
        shift -= 4
    return value


@lru_cache(maxsize=16384)
def decode(strength: int) -> tuple[Category, tuple[int, ...]]:
    """The category and tie-break ranks of a strength (the inverse of :func:`encode`).

    Cached: there are only 7,462 distinct ordinary strengths, plus a handful that need a
    suitless card (four of a kind with a kicker of its own rank).
    """
    category = Category((strength >> _CATEGORY_SHIFT) + 1)
    count = RANK_COUNT[category]
    ranks = tuple(((strength >> (_FIRST_RANK_SHIFT - 4 * i)) & 0xF) + 2 for i in range(count))
    if category is Category.STRAIGHT_FLUSH and ranks[0] == _ACE:
        category = Category.ROYAL_FLUSH
    return category, ranks


def category_of(strength: int) -> Category:
    """The category alone (what the Muscle specialist compares by)."""
    return decode(strength)[0]


_NAMES = {
    2: ("two", "twos"),
    3: ("three", "threes"),
    4: ("four", "fours"),
    5: ("five", "fives"),
    6: ("six", "sixes"),
    7: ("seven", "sevens"),
    8: ("eight", "eights"),
    9: ("nine", "nines"),
    10: ("ten", "tens"),
    11: ("jack", "jacks"),
    12: ("queen", "queens"),
    13: ("king", "kings"),
    14: ("ace", "aces"),
}


def _one(rank: int) -> str:
    return _NAMES[rank][0]


def _many(rank: int) -> str:
    return _NAMES[rank][1]


@dataclass(frozen=True, order=True, slots=True)
class HandValue:
    """The value of the best five cards: ordered by ``(category, ranks)``.

    Two values are equal exactly when the hands tie (kickers included). ``best`` is the
    five cards that make the hand, strongest part first (the pair before its kickers, a
    straight from its top card down); it is left out of equality, ordering and hashing
    because equal hands may be made of different cards.
    """

    category: Category
    ranks: tuple[int, ...]
    best: tuple[Card, ...] = field(default=(), compare=False)

    @property
    def strength(self) -> int:
        """The integer key: ``a.strength < b.strength`` iff ``a < b``."""
        return encode(self.category, self.ranks)

    def describe(self) -> str:
        """Short English text: ``"pair of sevens"``, ``"straight to the five"``."""
        c, r = self.category, self.ranks
        if c is Category.HIGH_CARD:
            return f"high card {_one(r[0])}"
        if c is Category.PAIR:
            return f"pair of {_many(r[0])}"
        if c is Category.TWO_PAIR:
            return f"two pair, {_many(r[0])} and {_many(r[1])}"
        if c is Category.THREE_OF_A_KIND:
            return f"three of a kind, {_many(r[0])}"
        if c is Category.STRAIGHT:
            return f"straight to the {_one(r[0])}"
        if c is Category.FLUSH:
            return f"flush to the {_one(r[0])}"
        if c is Category.FULL_HOUSE:
            return f"full house, {_many(r[0])} over {_many(r[1])}"
        if c is Category.FOUR_OF_A_KIND:
            return f"four of a kind, {_many(r[0])}"
        if c is Category.STRAIGHT_FLUSH:
            return f"straight flush to the {_one(r[0])}"
        return "royal flush"

    def __str__(self) -> str:
        return self.describe()
