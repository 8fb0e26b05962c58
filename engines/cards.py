"""The standard 52-card French deck.

A card is written the way poker tools write it: rank then suit, ``"As"``, ``"Td"``,
``"7c"``. Ranks run 2..14 (ace high; the evaluator also lets it play low in A-2-3-4-5).
``suit`` is ``None`` only for special cards without a suit (The Gang's Jack specialist).
"""

from __future__ import annotations

from enum import StrEnum

import msgspec

RANK_CHARS = "23456789TJQKA"


class Suit(StrEnum):
    CLUBS = "c"
    DIAMONDS = "d"
    HEARTS = "h"
    SPADES = "s"


class Card(msgspec.Struct, frozen=True, order=True, array_like=True):
    rank: int
    suit: Suit | None

    def __str__(self) -> str:
        return RANK_CHARS[self.rank - 2] + (self.suit.value if self.suit else "*")

    @classmethod
    def parse(cls, text: str) -> Card:
        """``"As"`` -> ace of spades; ``"J*"`` -> a suitless jack."""
        if len(text) != 2 or text[0] not in RANK_CHARS:
            raise ValueError(f"not a card: {text!r}")
        rank = RANK_CHARS.index(text[0]) + 2
        suit = None if text[1] == "*" else Suit(text[1])
        return cls(rank, suit)


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in range(2, 15))


def cards(text: str) -> tuple[Card, ...]:
    """``cards("As Kd 7c")`` -> a tuple of three cards (for tests and transcripts)."""
    return tuple(Card.parse(part) for part in text.split())
