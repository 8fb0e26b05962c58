"""The value a legal play is: its :class:`Kind`, sorted cards, size and comparison key.

Everything here works on card *ranks*, the dense integers of the single-card order
(``value * 4 + colour``, :attr:`GofCard.rank`), which is what makes classifying and listing
cheap. Every :class:`Combination`, whether classified or listed, is built by :func:`make` or
:func:`make_full_house`, so the two always produce equal values for the same cards.

The ``key`` is ``(kind, size, *ranks)`` with ``ranks`` highest first (a full house's trio
before its pair). Two combinations that the rules allow to be compared compare exactly as
their keys do; :func:`engines.gang_of_four.combos.beats` adds only which pairs are comparable.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import cast

import msgspec

from engines.errors import InvalidMoveError
from engines.gang_of_four.cards import BY_RANK, COPIES, DRAGON, PHOENIX, Colour, GofCard


class Kind(IntEnum):
    """Combination kinds; among the five-card kinds a higher kind beats a lower one."""

    SINGLE = 0
    PAIR = 1
    THREE_OF_A_KIND = 2
    STRAIGHT = 3
    FLUSH = 4
    FULL_HOUSE = 5
    STRAIGHT_FLUSH = 6
    GANG = 7


class Combination(msgspec.Struct, frozen=True, gc=False):
    """A legal play: its kind, its cards (ascending, a multiset), its size and its key.

    ``gc=False``: a combination holds only tuples of ints and cards, never a cycle, and the
    listing builds thousands of them.
    """

    kind: Kind
    cards: tuple[GofCard, ...]
    size: int
    key: tuple[int, ...]

    def __str__(self) -> str:
        return f"{self.kind.name.lower()} " + " ".join(map(str, self.cards))


# Cards by rank as a list (the cheapest lookup there is). The holes, ranks of no card, are
# None; only ranks that ``ranks_of`` produced are ever looked up.
CARD_AT = cast("list[GofCard]", [BY_RANK.get(rank) for rank in range(DRAGON * 4 + 4)])
RANK_OF: dict[GofCard, int] = {card: card.rank for card in COPIES}
MULTI_ONE_RANK = 4 + Colour.MULTICOLOURED
PHOENIX_PAIR = (PHOENIX * 4 + Colour.GREEN, PHOENIX * 4 + Colour.YELLOW)
FIRST_PHOENIX_RANK = PHOENIX * 4
DRAGON_RANK = DRAGON * 4 + Colour.RED


def make(kind: Kind, ranks: Sequence[int]) -> Combination:
    """The combination of ``kind`` made of the cards of ``ranks`` (ascending); trusted input."""
    cards = tuple([CARD_AT[rank] for rank in ranks])
    return Combination(kind, cards, len(ranks), (int(kind), len(ranks), *ranks[::-1]))


def make_full_house(trio: Sequence[int], pair: Sequence[int]) -> Combination:
    """A full house from its trio and pair ranks (each ascending): the trio decides first."""
    cards = tuple([CARD_AT[rank] for rank in sorted([*trio, *pair])])
    return Combination(
        Kind.FULL_HOUSE, cards, 5, (int(Kind.FULL_HOUSE), 5, *trio[::-1], *pair[::-1])
    )


def _is_card(card: object) -> bool:
    """Whether ``card`` is a card of this deck: False, not a TypeError, for a value that
    does not even hash (a card built with a list for its value, say)."""
    try:
        return isinstance(card, GofCard) and card in RANK_OF
    except TypeError:
        return False


def _unknown(cards: object) -> str:
    """What of ``cards`` is no card, for the message: those items, or the whole value when
    it is not a sequence of items at all (a number where the cards should be)."""
    if not isinstance(cards, tuple | list):
        return repr(cards)[:64]
    return repr([card for card in cards if not _is_card(card)])[:64]


def ranks_of(cards: Sequence[GofCard]) -> list[int]:
    """The sorted ranks of ``cards``; refuses things that are no card and impossible copies.

    Reasons: ``UNKNOWN_CARD`` (not a card of this deck), ``TOO_MANY_COPIES`` (say three
    green 5s, or two Dragons: more than the deck holds).
    """
    try:
        ranks = sorted([RANK_OF[card] for card in cards])
    except (KeyError, TypeError):
        raise InvalidMoveError(
            "UNKNOWN_CARD", f"not Gang of Four cards: {_unknown(cards)}"
        ) from None
    if len(set(ranks)) != len(ranks):
        for at in range(len(ranks) - 1):
            rank = ranks[at]
            if rank == ranks[at + 1] and (
                COPIES[CARD_AT[rank]] == 1 or (at + 2 < len(ranks) and ranks[at + 2] == rank)
            ):
                raise InvalidMoveError(
                    "TOO_MANY_COPIES", f"the deck has fewer copies of {CARD_AT[rank]}"
                )
    return ranks
