"""Gang of Four's combinations: which cards may be played together, and what beats what.

Seed (``shared/seeds/003_*.txt``, German, OCR-damaged) and ``shared/RULES-NOTES.md``:

* "EINZELKARTE (z. B. eine gelbe 3 oder der Drache) / PARCHEN (z.B. zwei rote Einser oder die
  beiden Phönixe) / DRILLING" and the five-card combinations "StraBe (5 aufeinander folgende
  Karten mit beliebigen Farben)", "Flush (5 Karten derselben Farbe mit beliebigen Zahlen)",
  "Full House (ein Drilling und ein Pärchen)", straight flush ("fünfaufeinander folgende Karten
  derselben Farbe"); Gangs of 4, 5, 6 and 7 cards of one value.
* "Straight Flush > Full House > Flush > Straße"; a Gang "kann auf jeder andere Kombination
  gespielt werden - unabhängig von deren Kartenzahl"; otherwise "eine hoherwertige Kombination
  mit derselben Anzahl Karten".
* Same kind: the highest card's value decides, then its colour ("GRUN < GELB < ROT"), then
  the second-highest card, and so on; "Ausnahme: Full House. Hier entscheidet der Drilling".

Decisions where the text leaves room (documented in the tests too):

* "The highest card" means the highest in single-card order, value first and then colour. In a
  straight the 1 (the multicoloured 1 included) is only ever the *lowest* card: there is no
  wrap ("Eine Folge wie 8, 9, 10, 1, 2 ist also nicht möglich").
* "In einer Kombination kann sie als Eins einer beliebigen Farbe verwendet werden": the
  multicoloured 1 completes a flush or straight flush of any colour, but when combinations are
  *compared* it keeps its own single-card rank, the highest 1 (so a green flush with the
  multicoloured 1 beats the same green flush with a green 1).
* Five cards that form several kinds count as the highest one (a straight of one colour is a
  straight flush; ``g1 g1 m1 g4 g4`` is a full house, not a flush). Five cards of one value
  are a Gang of Five, never a full house ("kein Gang of Five" is meant by five-card
  combination).

The comparison key and the card ranks are described in :mod:`engines.gang_of_four.kinds`;
the listing of every combination of a hand is :mod:`engines.gang_of_four.listing`. All public
names are importable from here.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.errors import InvalidMoveError
from engines.gang_of_four.cards import PHOENIX, GofCard
from engines.gang_of_four.kinds import (
    DRAGON_RANK,
    FIRST_PHOENIX_RANK,
    MULTI_ONE_RANK,
    PHOENIX_PAIR,
    Combination,
    Kind,
    make,
    make_full_house,
    ranks_of,
)
from engines.gang_of_four.listing import combinations_in, plays_beating

__all__ = [
    "Combination",
    "Kind",
    "beats",
    "classify",
    "combinations_in",
    "is_valid_play",
    "plays_beating",
]

_SIZE_KIND = {2: Kind.PAIR, 3: Kind.THREE_OF_A_KIND}


def classify(cards: Sequence[GofCard]) -> Combination:
    """The combination ``cards`` form, or :class:`InvalidMoveError` saying why they form none.

    Reasons: ``EMPTY_PLAY``, ``UNKNOWN_CARD``, ``TOO_MANY_COPIES``, ``DRAGON_ONLY_ALONE``,
    ``PHOENIX_NOT_ALLOWED_HERE``, ``NOT_A_COMBINATION``.
    """
    count = len(cards)
    if count == 0:
        raise InvalidMoveError("EMPTY_PLAY", "a play needs at least one card")
    ranks = ranks_of(cards)
    if count == 1:
        return make(Kind.SINGLE, ranks)
    if ranks[-1] == DRAGON_RANK:
        raise InvalidMoveError("DRAGON_ONLY_ALONE", "the Dragon can only be played alone")
    if ranks[-1] >= FIRST_PHOENIX_RANK:
        return _with_phoenix(ranks)
    values = [rank >> 2 for rank in ranks]
    if values[0] == values[-1]:
        return make(_SIZE_KIND.get(count, Kind.GANG), ranks)
    if count == 5:
        kind = _five_card_kind(ranks, values)
        if kind is Kind.FULL_HOUSE:
            if values[1] == values[2]:
                return make_full_house(ranks[:3], ranks[3:])
            return make_full_house(ranks[2:], ranks[:2])
        if kind is not None:
            return make(kind, ranks)
    raise InvalidMoveError("NOT_A_COMBINATION", f"{_codes(cards)} form no combination")


def _with_phoenix(ranks: list[int]) -> Combination:
    """Phoenixes only as a single, as the Phoenix pair, or as the pair of a full house."""
    if tuple(ranks) == PHOENIX_PAIR:
        return make(Kind.PAIR, ranks)
    if (
        len(ranks) == 5
        and tuple(ranks[3:]) == PHOENIX_PAIR
        and ranks[0] >> 2 == ranks[2] >> 2 < PHOENIX
    ):
        return make_full_house(ranks[:3], ranks[3:])
    raise InvalidMoveError(
        "PHOENIX_NOT_ALLOWED_HERE",
        "a Phoenix is played alone, as the Phoenix pair, or as the pair of a full house",
    )


def _five_card_kind(ranks: list[int], values: list[int]) -> Kind | None:
    """The highest five-card kind of five sorted ordinary cards not all of one value."""
    if (values[0] == values[2] and values[3] == values[4]) or (
        values[0] == values[1] and values[2] == values[4]
    ):
        return Kind.FULL_HOUSE
    colours = {rank & 3 for rank in ranks if rank != MULTI_ONE_RANK}
    flush = len(colours) == 1
    if values[4] - values[0] == 4 and len(set(values)) == 5:
        return Kind.STRAIGHT_FLUSH if flush else Kind.STRAIGHT
    return Kind.FLUSH if flush else None


def is_valid_play(cards: Sequence[GofCard], current: Combination | None = None) -> bool:
    """Whether ``cards`` form a combination that may be played on ``current`` (None: leading).

    Agrees exactly with :func:`engines.gang_of_four.listing.plays_beating` (a property test).
    """
    try:
        combination = classify(cards)
    except InvalidMoveError:
        return False
    return current is None or beats(combination, current)


def beats(new: Combination, current: Combination) -> bool:
    """Whether ``new`` may be played on ``current``.

    A Gang beats every non-Gang; a larger Gang a smaller one; otherwise only the same number
    of cards, a higher five-card kind or the same kind with a higher key. Identical never
    beats (equal keys).
    """
    if new.kind == Kind.GANG:
        return current.kind != Kind.GANG or new.key > current.key
    return current.kind != Kind.GANG and new.size == current.size and new.key > current.key


def _codes(cards: Sequence[GofCard]) -> str:
    return " ".join(map(str, cards))
