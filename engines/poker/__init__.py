"""Poker hands for The Gang: the best five of 5 to 8 cards, ranked.

Ace high or low (A-2-3-4-5 is the lowest straight, never K-A-2-3-4); suits never rank; a
royal flush is named as its own category. A suitless card (the Jack specialist) counts for
its rank but never for a flush.

>>> from engines.cards import cards
>>> evaluate(cards("7c 7d Ah 9s 4d 3c 2h")).describe()
'pair of sevens'
>>> evaluate(cards("As 2d 3c 4h 5s 9c Kd")) < evaluate(cards("2s 3d 4c 5h 6s 9c Kd"))
True
"""

from engines.poker.evaluator import (
    MAX_CARDS,
    MIN_CARDS,
    card_mask,
    evaluate,
    hand_mask,
    rank_mask,
    rank_masks,
    rank_value,
    rank_values,
)
from engines.poker.hands import Category, HandValue, category_of
from engines.poker.muscle import ShowdownKey, showdown_key

__all__ = [
    "MAX_CARDS",
    "MIN_CARDS",
    "Category",
    "HandValue",
    "ShowdownKey",
    "card_mask",
    "category_of",
    "evaluate",
    "hand_mask",
    "rank_mask",
    "rank_masks",
    "rank_value",
    "rank_values",
    "showdown_key",
]
