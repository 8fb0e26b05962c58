"""Tables built once at import: each ordinary card as a bit of a 52-bit mask.

The bit of a card is ``13 * suit + rank - 2`` with suits in the order clubs, diamonds,
hearts, spades: eval7's layout. A set of cards is the OR (or, for distinct cards, the sum)
of their bits.
"""

from __future__ import annotations

from engines.cards import DECK, Card, Suit

SUIT_ORDER: dict[Suit | None, int] = {
    Suit.CLUBS: 0,
    Suit.DIAMONDS: 1,
    Suit.HEARTS: 2,
    Suit.SPADES: 3,
    None: 4,
}
"""eval7's suit order; also which of two equal-rank cards ``best`` takes first (suitless last)."""


def _bit_index(card: Card) -> int:
    return 13 * SUIT_ORDER[card.suit] + card.rank - 2


CARD_BITS: dict[Card, int] = {card: 1 << _bit_index(card) for card in DECK}
"""Ordinary card -> its mask bit. Suitless cards are absent: they have no bit."""

CARD_AT_BIT: tuple[Card, ...] = tuple(sorted(DECK, key=_bit_index))
"""Bit index -> card (the inverse of ``CARD_BITS``)."""

ALL_CARDS_MASK = (1 << len(DECK)) - 1
