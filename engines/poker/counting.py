"""A pure-Python evaluator that works from rank counts: the exact slow path.

It is used whenever a hand holds a suitless card (The Gang's Jack specialist), which eval7
cannot represent: such a card counts for its rank in pairs, trips, straights and full
houses, never for a flush or a straight flush. With the four ordinary cards of its rank it
makes five of a rank, which is four of a kind whose kicker may be that same rank. It
handles ordinary cards too, and the tests hold it to eval7 and phevaluator on those.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.cards import Card, Suit
from engines.poker.hands import Category

_ACE = 14
_FIVE_IN_A_ROW = 0b11111


def straight_top(rank_bits: int) -> int:
    """The top rank of the best straight in a set of ranks (bit r = rank r), or 0.

    The ace also plays low (A-2-3-4-5, top five) but never in the middle: K-A-2-3-4 is not a
    straight.
    """
    if rank_bits >> _ACE & 1:
        rank_bits |= 1 << 1
    for top in range(_ACE, 4, -1):
        if rank_bits >> (top - 4) & _FIVE_IN_A_ROW == _FIVE_IN_A_ROW:
            return top
    return 0


def _ranks_of(rank_bits: int) -> list[int]:
    """The ranks in a rank set, highest first."""
    return [rank for rank in range(_ACE, 1, -1) if rank_bits >> rank & 1]


def count_value(hand: Sequence[Card]) -> tuple[Category, tuple[int, ...]]:
    """Category and tie-break ranks of the best five of ``hand`` (already validated)."""
    counts: dict[int, int] = {}
    suit_bits: dict[Suit, int] = {}
    for card in hand:
        counts[card.rank] = counts.get(card.rank, 0) + 1
        if card.suit is not None:
            suit_bits[card.suit] = suit_bits.get(card.suit, 0) | 1 << card.rank
    flush = next((bits for bits in suit_bits.values() if bits.bit_count() >= 5), 0)
    if flush:
        top = straight_top(flush)
        if top == _ACE:
            return Category.ROYAL_FLUSH, (_ACE,)
        if top:
            return Category.STRAIGHT_FLUSH, (top,)
    present = sorted(counts, reverse=True)
    quads = [rank for rank in present if counts[rank] >= 4]
    if quads:
        quad = quads[0]
        kickers = [rank for rank in present if rank != quad or counts[rank] > 4]
        return Category.FOUR_OF_A_KIND, (quad, kickers[0])
    trips = [rank for rank in present if counts[rank] >= 3]
    pairs = [rank for rank in present if counts[rank] >= 2]
    if trips and len(pairs) >= 2:
        pair = next(rank for rank in pairs if rank != trips[0])
        return Category.FULL_HOUSE, (trips[0], pair)
    if flush:
        return Category.FLUSH, tuple(_ranks_of(flush)[:5])
    top = straight_top(sum(1 << rank for rank in present))
    if top:
        return Category.STRAIGHT, (top,)
    if trips:
        kickers = [rank for rank in present if rank != trips[0]]
        return Category.THREE_OF_A_KIND, (trips[0], *kickers[:2])
    if len(pairs) >= 2:
        high, low = pairs[:2]
        kickers = [rank for rank in present if rank not in (high, low)]
        return Category.TWO_PAIR, (high, low, kickers[0])
    if pairs:
        kickers = [rank for rank in present if rank != pairs[0]]
        return Category.PAIR, (pairs[0], *kickers[:3])
    return Category.HIGH_CARD, tuple(present[:5])
