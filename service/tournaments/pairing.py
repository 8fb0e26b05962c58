"""Who sits where each round: table sizes, byes, round-robin and Swiss tables.

Pure functions of the tournament so far; the same inputs always give the same tables, so
any process that pairs a round pairs it alike.

>>> table_sizes(7, 4, frozenset({3, 4}))
((4, 3), 0)
>>> table_sizes(5, 4, frozenset({3, 4}))
((4,), 1)
>>> circle(4, 0), circle(4, 1), circle(4, 2)
(([0, 3], [1, 2]), ([0, 2], [3, 1]), ([0, 1], [2, 3]))
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence

Pair = tuple[int, int]
Meetings = Counter[Pair]


def table_sizes(players: int, most: int, allowed: frozenset[int]) -> tuple[tuple[int, ...], int]:
    """The table sizes for ``players`` (largest first) and how many sit out with a bye.

    As few tables of at most ``most`` seats as possible, sizes as even as possible, every
    size in ``allowed`` (the game's seat counts). If no split seats everybody, the fewest
    participants possible get a bye.
    """
    for seated in range(players, 0, -1):
        for tables in range(math.ceil(seated / most), seated + 1):
            base, extra = divmod(seated, tables)
            sizes = (base + 1,) * extra + (base,) * (tables - extra)
            if all(size in allowed for size in sizes):
                return sizes, players - seated
    return (), players


def pair(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


def meetings(tables: Iterable[Sequence[int]]) -> Meetings:
    """How often each pair of participants sat at the same table."""
    met: Meetings = Counter()
    for table in tables:
        met.update(pair(a, b) for a, b in itertools.combinations(table, 2))
    return met


def repeats(tables: Iterable[Sequence[int]], met: Meetings) -> int:
    """Earlier meetings of the pairs these tables seat together (lower is better).

    Minimising it each round minimises the growth of the sum over all pairs of their
    meeting counts squared, i.e. keeps the counts as even as possible.
    """
    return sum(met[pair(a, b)] for table in tables for a, b in itertools.combinations(table, 2))


def rotated(members: Sequence[int], number: int) -> tuple[int, ...]:
    """Seat order at a table: the members rotated by the round number (seat 0 moves on)."""
    shift = (number - 1) % len(members)
    return tuple(members[shift:]) + tuple(members[:shift])


def round_robin_byes(players: int, count: int, number: int, byes_so_far: Sequence[int]) -> set[int]:
    """Who sits out round ``number``: fewest byes so far, then a rotation that starts with
    the last participants (round 1: the last ``count``, round 2 one further up, ...)."""
    order = sorted(range(players), key=lambda p: (byes_so_far[p], -(p + number) % players))
    return set(order[:count])


def circle(players: int, index: int) -> tuple[list[int], ...]:
    """Round ``index`` (0-based) of the circle method for an even number of players:
    player 0 stays, the others turn; every pair meets once in ``players - 1`` rounds."""
    others = list(range(1, players))
    turn = index % (players - 1)
    ring = [0, *others[-turn:], *others[:-turn]] if turn else [0, *others]
    return tuple([ring[i], ring[players - 1 - i]] for i in range(players // 2))


def round_robin(
    players: int,
    number: int,
    sizes: Sequence[int],
    byes: int,
    byes_so_far: Sequence[int],
    met: Meetings,
    seed: bytes,
) -> tuple[list[list[int]], list[int]]:
    """Tables and byes of round ``number`` of a round-robin.

    Two-seat tables follow the circle method (an odd field adds a dummy whose partner has
    the bye). Larger tables: the split with the fewest repeated meetings (:func:`repeats`),
    found by a local search (swaps between tables) from restarts drawn from the seed.
    """
    if set(sizes) == {2} and byes <= 1 and len(sizes) * 2 + byes == players:
        field = players + byes
        tables, out = [], []
        for a, b in circle(field, number - 1):
            if max(a, b) >= players:
                out.append(min(a, b))
            else:
                tables.append([a, b])
        return tables, out
    out_set = round_robin_byes(players, byes, number, byes_so_far)
    seated = [p for p in range(players) if p not in out_set]
    rng = random.Random(hashlib.sha256(seed + b"round-robin:%d" % number).digest())
    best: list[list[int]] | None = None
    best_cost = 0
    for _restart in range(max(4, 400 // max(players, 1))):
        order = seated[:]
        rng.shuffle(order)
        tables = _split(order, sizes)
        cost = _improve(tables, met)
        if best is None or cost < best_cost:
            best, best_cost = tables, cost
        if best_cost == 0:
            break
    assert best is not None
    return [sorted(table) for table in best], sorted(out_set)


def _split(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


def _improve(tables: list[list[int]], met: Meetings) -> int:
    """Swap players between tables while that lowers :func:`repeats`; the final cost."""
    cost = repeats(tables, met)
    improved = True
    while improved and cost:
        improved = False
        for t1, t2 in itertools.combinations(range(len(tables)), 2):
            for i, j in itertools.product(range(len(tables[t1])), range(len(tables[t2]))):
                a, b = tables[t1][i], tables[t2][j]
                before = _cost_at(tables[t1], a, met) + _cost_at(tables[t2], b, met)
                after = _cost_at(tables[t1], a, met, b) + _cost_at(tables[t2], b, met, a)
                if after < before:
                    tables[t1][i], tables[t2][j] = b, a
                    cost += after - before
                    improved = True
    return cost


def _cost_at(table: Sequence[int], seat: int, met: Meetings, instead: int | None = None) -> int:
    """Earlier meetings of ``seat``'s occupant (or ``instead``) with the rest of the table."""
    who = seat if instead is None else instead
    return sum(met[pair(who, other)] for other in table if other != seat)


def swiss(
    ranked: Sequence[int],
    sizes: Sequence[int],
    byes: int,
    byes_so_far: Sequence[int],
    met: Meetings,
) -> tuple[list[list[int]], list[int]]:
    """Tables and byes of a Swiss round; ``ranked`` is everybody, best first.

    Byes go to the lowest ranked among those with the fewest byes. Then, table by table
    (largest first), the best unseated participant opens it and each next seat goes to the
    best ranked of those with the fewest earlier meetings with the table so far.
    """
    fewest = sorted(ranked, key=lambda p: (byes_so_far[p], -ranked.index(p)))
    out = set(fewest[:byes])
    waiting = [p for p in ranked if p not in out]
    tables: list[list[int]] = []
    for size in sizes:
        table = [waiting.pop(0)]
        while len(table) < size:
            pick = min(
                range(len(waiting)),
                key=lambda i: (sum(met[pair(waiting[i], other)] for other in table), i),
            )
            table.append(waiting.pop(pick))
        tables.append(table)
    return tables, sorted(out)
