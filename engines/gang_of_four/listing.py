"""Every combination a hand can form, and every one of them that beats the current play.

The listing is the source of ``ListLegalMoves`` and must agree exactly with
:func:`engines.gang_of_four.combos.classify` (a property test checks it on random hands and
random subsets, and a brute force over all subsets of whole hands). Combinations are
multisets: the two green 5s of a hand give one single ``g5``, and a flush using "a" green 5
is listed once.

Speed (a 16-card hand can hold thousands of flushes): cards are handled as their integer
ranks (``value * 4 + colour``), grouped per value and per colour once; straights come from
``itertools.product`` over the distinct cards of five consecutive values, flushes from
``itertools.combinations`` over one colour's cards (plus the multicoloured 1), deduplicated
as rank tuples by a dict. The same index patterns run over the cards themselves, so a
combination's sorted card tuple costs no lookups. When a play is to be beaten, only the kinds
that can beat it are generated at all. ``python -m bench.gang_of_four_listing`` measures it.

The order is deterministic: by kind (singles, pairs, triples, straights, flushes, full houses,
straight flushes, Gangs), not sorted by strength within a kind; sort by ``key`` if needed.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence
from itertools import combinations, product

from engines.gang_of_four.cards import DRAGON, PHOENIX, Colour, GofCard
from engines.gang_of_four.kinds import (
    CARD_AT,
    MULTI_ONE_RANK,
    Combination,
    Kind,
    make,
    make_full_house,
    ranks_of,
)

COLOURS = (Colour.GREEN, Colour.YELLOW, Colour.RED)
NO_FLOOR: tuple[int, ...] = ()  # every key is greater than the empty tuple
RankTuple = tuple[int, ...]
CardTuple = tuple[GofCard, ...]


def combinations_in(hand: Sequence[GofCard]) -> list[Combination]:
    """Every distinct combination that can be formed from ``hand`` (what a leader may play)."""
    return plays_beating(hand, None)


def plays_beating(hand: Sequence[GofCard], current: Combination | None) -> list[Combination]:
    """Every distinct combination of ``hand`` that may be played on ``current``.

    ``current`` None means leading: every combination. Otherwise exactly the combinations
    ``c`` with ``beats(c, current)``.
    """
    by_value: list[list[int]] = [[] for _ in range(DRAGON + 1)]
    for rank in ranks_of(hand):
        by_value[rank >> 2].append(rank)
    found: list[Combination] = []
    if current is None or current.kind != Kind.GANG:
        size = 0 if current is None else current.size
        floor = NO_FLOOR if current is None else current.key
        if size <= 1:
            found += _singles(by_value, floor)
        if size in (0, 2):
            found += _same_value(by_value, 2, Kind.PAIR, floor)
        if size in (0, 3):
            found += _same_value(by_value, 3, Kind.THREE_OF_A_KIND, floor)
        if size in (0, 5):
            found += _five_card(by_value, Kind.STRAIGHT if current is None else current.kind, floor)
        floor = NO_FLOOR
    else:
        floor = current.key
    for size in range(4, 8):
        found += _same_value(by_value, size, Kind.GANG, floor)
    return found


def _singles(by_value: list[list[int]], floor: RankTuple) -> list[Combination]:
    return [
        combination
        for ranks in by_value
        for rank in dict.fromkeys(ranks)
        if (combination := make(Kind.SINGLE, (rank,))).key > floor
    ]


def _same_value(
    by_value: list[list[int]], size: int, kind: Kind, floor: RankTuple
) -> list[Combination]:
    """Pairs, triples or Gangs: ``size`` cards of one value (the Phoenix pair included)."""
    top = PHOENIX if size == 2 else PHOENIX - 1
    return [
        combination
        for ranks in by_value[1 : top + 1]
        if len(ranks) >= size
        for chosen in dict.fromkeys(combinations(ranks, size))
        if (combination := make(kind, chosen)).key > floor
    ]


def _five_card(by_value: list[list[int]], lowest: Kind, floor: RankTuple) -> list[Combination]:
    """Straights, flushes, full houses and straight flushes of kind ``lowest`` or higher."""
    distinct = [list(dict.fromkeys(ranks)) for ranks in by_value[:PHOENIX]]
    straight_flushes = _straight_flushes(distinct)
    found: list[Combination] = []
    if lowest <= Kind.STRAIGHT:
        straights = (
            zip(
                product(*distinct[low : low + 5]),
                product(*_cards(distinct[low : low + 5])),
                strict=True,
            )
            for low in range(1, 7)
        )
        found += _emit(Kind.STRAIGHT, straights, straight_flushes, floor)
    if lowest <= Kind.FLUSH:
        excluded = _single_colour_full_houses(by_value).union(straight_flushes)
        found += _emit(Kind.FLUSH, _flushes(by_value), excluded, floor)
    if lowest <= Kind.FULL_HOUSE:
        found += _full_houses(by_value, floor)
    if lowest <= Kind.STRAIGHT_FLUSH:
        pairs = ((ranks, tuple([CARD_AT[rank] for rank in ranks])) for ranks in straight_flushes)
        found += _emit(Kind.STRAIGHT_FLUSH, [pairs], set(), floor)
    return found


def _cards(ranks_lists: Iterable[Iterable[int]]) -> list[list[GofCard]]:
    return [[CARD_AT[rank] for rank in ranks] for ranks in ranks_lists]


def _emit(
    kind: Kind,
    groups: Iterable[Iterable[tuple[RankTuple, CardTuple]]],
    excluded: Container[RankTuple],
    floor: RankTuple,
) -> list[Combination]:
    """Combinations of ``kind`` from (ascending ranks, cards) pairs, minus ``excluded``."""
    head = (int(kind), 5)
    return [
        Combination(kind, chosen, 5, key)
        for group in groups
        for ranks, chosen in group
        if ranks not in excluded and (key := head + ranks[::-1]) > floor
    ]


def _straight_flushes(distinct: list[list[int]]) -> dict[RankTuple, None]:
    """Five consecutive values in one colour; the multicoloured 1 stands in for any colour."""
    found: dict[RankTuple, None] = {}
    for colour in COLOURS:
        options = [[rank for rank in ranks if rank & 3 == colour] for ranks in distinct]
        if MULTI_ONE_RANK in distinct[1]:
            options[1].append(MULTI_ONE_RANK)
        for low in range(1, 7):
            found.update(dict.fromkeys(product(*options[low : low + 5])))
    return found


def _colour_ranks(by_value: list[list[int]], colour: int) -> list[int]:
    """One colour's ranks with repeats, ascending, the multicoloured 1 included."""
    return [
        rank
        for ranks in by_value[1:PHOENIX]
        for rank in ranks
        if rank & 3 == colour or rank == MULTI_ONE_RANK
    ]


def _flushes(by_value: list[list[int]]) -> Iterable[Iterable[tuple[RankTuple, CardTuple]]]:
    """Per colour: the distinct five-card multisets (straight flushes and full houses too)."""
    for colour in COLOURS:
        ranks = _colour_ranks(by_value, colour)
        if len(ranks) >= 5:
            cards = [CARD_AT[rank] for rank in ranks]
            yield dict(zip(combinations(ranks, 5), combinations(cards, 5), strict=True)).items()


def _single_colour_full_houses(by_value: list[list[int]]) -> set[RankTuple]:
    """The full houses that are also flushes: two 1s of a colour with the multicoloured 1,
    and a pair of that colour. They are full houses (the higher kind), never flushes."""
    found: set[RankTuple] = set()
    ones = by_value[1]
    if MULTI_ONE_RANK not in ones:
        return found
    for colour in COLOURS:
        if ones.count(4 + colour) == 2:
            ranks = _colour_ranks(by_value, colour)
            found.update(
                (4 + colour, 4 + colour, MULTI_ONE_RANK, rank, rank)
                for rank in set(ranks[3:])
                if ranks.count(rank) == 2
            )
    return found


def _full_houses(by_value: list[list[int]], floor: RankTuple) -> list[Combination]:
    """A trio and a pair of another value; the Phoenix pair may be the pair."""
    trios = [
        (value, trio)
        for value in range(1, PHOENIX)
        for trio in dict.fromkeys(combinations(by_value[value], 3))
    ]
    if not trios:
        return []
    pairs = [
        (value, pair)
        for value in range(1, PHOENIX + 1)
        for pair in dict.fromkeys(combinations(by_value[value], 2))
    ]
    return [
        combination
        for trio_value, trio in trios
        for pair_value, pair in pairs
        if trio_value != pair_value and (combination := make_full_house(trio, pair)).key > floor
    ]
