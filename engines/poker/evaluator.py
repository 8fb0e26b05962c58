"""Best five of 5 to 8 cards: the checked entry points.

Three ways in, fastest last:

* :func:`evaluate` -> :class:`HandValue` (category, tie-break ranks, the five cards);
* :func:`rank_value` / :func:`rank_values` -> the strength integer, from cards;
* :func:`rank_mask` / :func:`rank_masks` -> the strength integer, from masks made once
  with :func:`card_mask` / :func:`hand_mask` (for simulations that reuse cards).

Ordinary cards go to eval7 (see ``native``). A hand with a suitless card takes the
pure-Python path in ``counting``; its strength has the same layout, so every path
compares with every other.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from engines.cards import Card, Suit
from engines.checks import unchecked
from engines.poker.best import choose_best
from engines.poker.counting import count_value
from engines.poker.hands import HandValue, decode, encode
from engines.poker.native import native_strength
from engines.poker.tables import ALL_CARDS_MASK, CARD_BITS

MIN_CARDS = 5
MAX_CARDS = 8

_BIT_OF = CARD_BITS.__getitem__
_SUITS: frozenset[Suit | None] = frozenset([*Suit, None])


def check_hand(hand: Sequence[Card]) -> None:
    """Raise unless ``hand`` is 5 to 8 distinct cards (TypeError for a non-card)."""
    if not MIN_CARDS <= len(hand) <= MAX_CARDS:
        raise ValueError(f"a hand has {MIN_CARDS} to {MAX_CARDS} cards, not {len(hand)}")
    for card in hand:
        if not isinstance(card, Card):
            raise TypeError(f"not a Card: {card!r}")
        rank = unchecked(card).rank
        if not (type(rank) is int and 2 <= rank <= 14 and card.suit in _SUITS):
            raise ValueError(f"not a card: {card!r}")
    if len(set(hand)) != len(hand):
        twice = sorted(str(card) for card, times in Counter(hand).items() if times > 1)
        raise ValueError(f"duplicate card(s) in hand: {' '.join(twice)}")


def _checked_strength(hand: Sequence[Card]) -> int:
    """The slow, fully checked path: every error, and every hand with a suitless card."""
    check_hand(hand)
    mask = sum(CARD_BITS.get(card, 0) for card in hand)
    if mask.bit_count() == len(hand):
        return native_strength(mask, len(hand))
    return encode(*count_value(hand))


def rank_value(hand: Sequence[Card]) -> int:
    """The strength of the best five of ``hand``: compare hands by comparing these.

    ``rank_value(a) < rank_value(b)`` iff ``evaluate(a) < evaluate(b)``, equal iff equal.
    Raises ValueError unless ``hand`` is 5 to 8 distinct cards.
    """
    try:
        mask = sum(map(_BIT_OF, hand))
    except (KeyError, TypeError):
        return _checked_strength(hand)
    count = len(hand)
    if MIN_CARDS <= count <= MAX_CARDS and mask.bit_count() == count:
        return native_strength(mask, count)
    return _checked_strength(hand)


def rank_values(hands: Iterable[Sequence[Card]]) -> list[int]:
    """:func:`rank_value` of each hand (the same function, with the loop kept in here)."""
    native = native_strength
    bit_of = _BIT_OF
    out: list[int] = []
    append = out.append
    for hand in hands:
        try:
            mask = sum(map(bit_of, hand))
        except (KeyError, TypeError):
            append(_checked_strength(hand))
            continue
        count = len(hand)
        if MIN_CARDS <= count <= MAX_CARDS and mask.bit_count() == count:
            append(native(mask, count))
        else:
            append(_checked_strength(hand))
    return out


def evaluate(hand: Sequence[Card]) -> HandValue:
    """The value of the best five of ``hand`` (5 to 8 distinct cards), with those five.

    Raises ValueError for fewer than 5 or more than 8 cards, or a card given twice.

    >>> from engines.cards import cards
    >>> value = evaluate(cards("Kc Kd 4h 4s 9c 2d 3h"))
    >>> value.category.name, value.ranks, value.describe()
    ('TWO_PAIR', (13, 4, 9), 'two pair, kings and fours')
    >>> " ".join(map(str, value.best))
    'Kc Kd 4h 4s 9c'
    """
    category, ranks = decode(rank_value(hand))
    return HandValue(category, ranks, choose_best(hand, category, ranks))


def card_mask(card: Card) -> int:
    """The mask bit of an ordinary card. A suitless card has none: use :func:`rank_value`."""
    try:
        return CARD_BITS[card]
    except KeyError:
        raise ValueError(f"no mask for {card!r}: only the 52 ordinary cards have one") from None


def hand_mask(hand: Iterable[Card]) -> int:
    """The mask of distinct ordinary cards (OR masks yourself to combine hole and board)."""
    mask = 0
    for card in hand:
        bit = card_mask(card)
        if mask & bit:
            raise ValueError(f"duplicate card in hand: {card}")
        mask |= bit
    return mask


def _bad_mask(mask: int) -> ValueError:
    return ValueError(f"a hand mask has 5 to 8 of the 52 card bits, not {mask:#x}")


def rank_mask(mask: int) -> int:
    """The strength of the cards in ``mask`` (5 to 8 bits of :func:`card_mask`).

    >>> from engines.cards import cards
    >>> board = hand_mask(cards("Qc 7c 7d 2s 3h"))
    >>> rank_mask(board | hand_mask(cards("Qs Qd"))) > rank_mask(board | hand_mask(cards("Ah Kh")))
    True
    """
    count = mask.bit_count()
    if not (MIN_CARDS <= count <= MAX_CARDS and 0 < mask <= ALL_CARDS_MASK):
        raise _bad_mask(mask)
    return native_strength(mask, count)


def rank_masks(masks: Iterable[int]) -> list[int]:
    """:func:`rank_mask` of each mask: the fastest way in."""
    native = native_strength
    out: list[int] = []
    append = out.append
    for mask in masks:
        count = mask.bit_count()
        if not (MIN_CARDS <= count <= MAX_CARDS and 0 < mask <= ALL_CARDS_MASK):
            raise _bad_mask(mask)
        append(native(mask, count))
    return out
