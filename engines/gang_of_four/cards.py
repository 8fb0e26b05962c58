"""Gang of Four's 64 cards and their single-card order.

Seed: "sechzig Karten in den Farben Grün, Gelb und Rot, mit jeweils zwei von 1 bis 10
durchnummerierten Kartensätzen / eine mehrfarbige Eins / ein gruner und ein gelber Phonix /
ein roter Drache".

A card is ``(value, colour)``: values 1..10, the Phoenixes 11 and the Dragon 12, colours
green < yellow < red < multicoloured. The natural order of :class:`GofCard` (value first,
then colour) *is* the single-card order of the rules: "GRUN < GELB < ROT"; the
multicoloured 1 is "die höchste Eins" (above the red 1, below the green 2); the yellow
Phoenix beats the green one; the Dragon is "die stärkste Einzelkarte".

The two copies of, say, the green 5 are equal values: a hand is a sorted tuple (a
multiset) and two ``g5`` are the same card for play purposes.

Codes (``str(card)`` / :meth:`GofCard.parse`): ``"g1"`` .. ``"r10"``, ``"m1"`` (the
multicoloured 1), ``"gP"`` and ``"yP"`` (Phoenixes), ``"rD"`` (the Dragon).
"""

from __future__ import annotations

from enum import IntEnum

import msgspec

from engines.errors import InvalidMoveError

HAND_SIZE = 16
PHOENIX = 11
DRAGON = 12


class Colour(IntEnum):
    """Card colours in their tie-break order; MULTICOLOURED is only ever the multicoloured 1."""

    GREEN = 0
    YELLOW = 1
    RED = 2
    MULTICOLOURED = 3


COLOUR_CODES = "gyrm"


class GofCard(msgspec.Struct, frozen=True, order=True, array_like=True, gc=False):
    """One card. Ordering two cards compares them as single cards.

    ``gc=False``: a card holds two ints and can never be part of a reference cycle, so the
    garbage collector need not track the many tuples of cards the move listing builds.
    """

    value: int
    colour: Colour

    @property
    def is_phoenix(self) -> bool:
        return self.value == PHOENIX

    @property
    def is_dragon(self) -> bool:
        return self.value == DRAGON

    @property
    def is_multicoloured_one(self) -> bool:
        return self.colour == Colour.MULTICOLOURED

    @property
    def rank(self) -> int:
        """A dense integer of the single-card order (``value * 4 + colour``)."""
        return self.value * 4 + self.colour

    def __str__(self) -> str:
        letter = COLOUR_CODES[self.colour]
        if self.value == PHOENIX:
            return letter + "P"
        if self.value == DRAGON:
            return letter + "D"
        return f"{letter}{self.value}"

    @classmethod
    def parse(cls, code: str) -> GofCard:
        """``"g5"`` -> the green 5, ``"m1"``, ``"yP"``, ``"rD"``; anything else is refused."""
        card = BY_CODE.get(code) if isinstance(code, str) else None
        if card is None:
            raise InvalidMoveError("UNKNOWN_CARD", f"not a Gang of Four card: {code!r}")
        return card


MULTICOLOURED_ONE = GofCard(1, Colour.MULTICOLOURED)
GREEN_PHOENIX = GofCard(PHOENIX, Colour.GREEN)
YELLOW_PHOENIX = GofCard(PHOENIX, Colour.YELLOW)
THE_DRAGON = GofCard(DRAGON, Colour.RED)

DECK: tuple[GofCard, ...] = tuple(
    sorted(
        [
            *(
                GofCard(value, colour)
                for value in range(1, 11)
                for colour in (Colour.GREEN, Colour.YELLOW, Colour.RED)
                for _copy in range(2)
            ),
            MULTICOLOURED_ONE,
            GREEN_PHOENIX,
            YELLOW_PHOENIX,
            THE_DRAGON,
        ]
    )
)
"""All 64 cards, in single-card order (each ordinary card twice)."""

COPIES: dict[GofCard, int] = {card: DECK.count(card) for card in DECK}
"""How many copies of each distinct card the deck holds (2 for ordinary cards, else 1)."""

BY_CODE: dict[str, GofCard] = {str(card): card for card in COPIES}
BY_RANK: dict[int, GofCard] = {card.rank: card for card in COPIES}


def cards(text: str) -> tuple[GofCard, ...]:
    """``cards("g5 g5 m1")`` -> those three cards, in the order written (tests, transcripts)."""
    return tuple(GofCard.parse(code) for code in text.split())
