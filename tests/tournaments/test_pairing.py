"""Pairing: table sizes and byes, the round-robin's spread, Swiss grouping (pure)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from engines.registry import GAMES
from service.tournaments import pairing, rounds
from service.tournaments.model import Format, Participant, Rating, Round, Standing, Tournament

G4 = frozenset({3, 4})
GANG = frozenset({3, 4, 5, 6})
PINCHED = frozenset({2, 3, 4, 5})


def test_seat_counts_come_from_the_engines() -> None:
    assert rounds.seat_counts(GAMES["gang_of_four"], {}) == (3, 4)
    assert rounds.seat_counts(GAMES["the_gang"], {}) == (3, 4, 5, 6)
    assert rounds.seat_counts(GAMES["pinched"], {}) == (2, 3, 4, 5)


@pytest.mark.parametrize(
    ("players", "most", "allowed", "sizes", "byes"),
    [
        (8, 4, G4, (4, 4), 0),
        (7, 4, G4, (4, 3), 0),  # as even as possible
        (6, 4, G4, (3, 3), 0),  # two tables of 3, not 4 + 2
        (5, 4, G4, (4,), 1),  # 3 + 2 is impossible: one bye
        (10, 4, G4, (4, 3, 3), 0),
        (5, 3, G4, (3,), 2),
        (9, 6, GANG, (5, 4), 0),
        (5, 2, PINCHED, (2, 2), 1),  # odd field of pairs
        (4, 5, PINCHED, (4,), 0),
        (3, 3, G4, (3,), 0),
    ],
)
def test_table_sizes(
    players: int, most: int, allowed: frozenset[int], sizes: tuple[int, ...], byes: int
) -> None:
    assert pairing.table_sizes(players, most, allowed) == (sizes, byes)


def test_two_seat_round_robin_is_the_circle_method() -> None:
    met: Counter[tuple[int, int]] = Counter()
    for number in (1, 2, 3, 4, 5):
        tables, byes = pairing.round_robin(6, number, (2, 2, 2), 0, [0] * 6, met, b"seed")
        assert byes == []
        assert sorted(p for t in tables for p in t) == list(range(6))
        met += pairing.meetings(tables)
    assert met == Counter(dict.fromkeys(itertools.combinations(range(6), 2), 1))


def test_odd_two_seat_round_robin_gives_each_one_bye() -> None:
    met: Counter[tuple[int, int]] = Counter()
    byes_so_far = [0] * 5
    for number in range(1, 6):
        tables, byes = pairing.round_robin(5, number, (2, 2), 1, byes_so_far, met, b"seed")
        assert len(byes) == 1
        byes_so_far[byes[0]] += 1
        met += pairing.meetings(tables)
    assert byes_so_far == [1, 1, 1, 1, 1]
    assert met == Counter(dict.fromkeys(itertools.combinations(range(5), 2), 1))


def test_larger_round_robin_tables_spread_opponents() -> None:
    """Nine players at tables of three: four rounds can seat every pair exactly once
    (an affine plane), and the search finds such a schedule."""
    met: Counter[tuple[int, int]] = Counter()
    for number in range(1, 5):
        tables, byes = pairing.round_robin(9, number, (3, 3, 3), 0, [0] * 9, met, b"seed")
        assert byes == []
        assert pairing.repeats(tables, met) == 0
        met += pairing.meetings(tables)
    assert len(met) == 36
    assert set(met.values()) == {1}


def test_round_robin_byes_rotate_to_those_with_fewest() -> None:
    byes_so_far = [0] * 5
    seen = []
    for number in range(1, 6):
        tables, byes = pairing.round_robin(5, number, (4,), 1, byes_so_far, Counter(), b"s")
        assert [len(t) for t in tables] == [4]
        seen += byes
        byes_so_far[byes[0]] += 1
    assert sorted(seen) == [0, 1, 2, 3, 4]


def test_swiss_groups_neighbours_and_avoids_repeats() -> None:
    ranked = [4, 2, 0, 5, 1, 3]  # best first
    tables, byes = pairing.swiss(ranked, (3, 3), 0, [0] * 6, Counter())
    assert (tables, byes) == ([[4, 2, 0], [5, 1, 3]], [])
    # 4, 2 and 1 met before: 4 takes the best it has not met (0), then 5; 2 opens the
    # second table and prefers 3 (new) to 1 (met).
    met = pairing.meetings([[4, 2, 1]])
    tables, _ = pairing.swiss(ranked, (3, 3), 0, [0] * 6, met)
    assert tables == [[4, 0, 5], [2, 3, 1]]


def test_swiss_bye_goes_to_the_lowest_ranked_without_one() -> None:
    ranked = [0, 1, 2, 3, 4]
    _, byes = pairing.swiss(ranked, (4,), 1, [0, 0, 0, 0, 1], Counter())
    assert byes == [3]  # 4 is last but already had a bye


def _tournament(format: Format, players: int, game: str = "pinched") -> Tournament:
    counts = rounds.seat_counts(GAMES[game], {})
    return Tournament(
        tournament_id="t",
        game=game,
        seats_per_table=2 if game == "pinched" else 3,
        options=b"",
        format=format,
        rounds=3,
        seed=b"seed",
        seed_sha256="",
        admin_sha256="",
        participants=tuple(Participant(f"p{i}", "random") for i in range(players)),
        created_at=0.0,
        seat_counts=counts,
    )


def test_first_swiss_round_goes_by_participant_order_and_rotates_seats() -> None:
    started = rounds.start(_tournament(Format.SWISS, 6, "the_gang"))
    assert started is not None
    first = started.played[0]
    assert [t.participants for t in first.tables] == [(0, 1, 2), (3, 4, 5)]
    later = rounds.pair_round(
        started.__class__(
            **{
                **{f: getattr(started, f) for f in started.__struct_fields__},
                "played": (
                    Round(
                        1,
                        first.tables,
                        complete=True,
                        standings=tuple(
                            Standing(r, p, 0.0, Rating(), 1, 0)
                            for r, p in enumerate([0, 3, 1, 4, 2, 5], 1)
                        ),
                    ),
                ),
            }
        ),
        2,
    )
    # Standings 0,3,1,4,2,5. 0 opens and takes 3 (new to it); to join {0, 3}, 1, 4, 2 and
    # 5 each met one of them once, so the best ranked, 1, comes. 4, 2, 5 make table 2.
    assert [t.participants for t in later.tables] == [(3, 1, 0), (2, 5, 4)]  # seats turned
