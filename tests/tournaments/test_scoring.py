"""Points, standings and ratings from hand-written table results (pure)."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from engines.base import Outcome
from service.tournaments import rounds, scoring
from service.tournaments.model import Format, Participant, Rating, Round, SeatResult, Table
from service.tournaments.model import Tournament as Record


def test_placings_split_ties() -> None:
    # Gang of Four totals 12, 40, 12, 101 (lower is better): keys are the negatives.
    keys = [(-12,), (-40,), (-12,), (-101,)]
    assert scoring.placings(keys) == [(1, 2.5), (3, 1.0), (1, 2.5), (4, 0.0)]


def test_competitive_seat_results() -> None:
    # Pinched!: equal scores, separated by the tie-break
    finish = Outcome((0,), "", scores=(7, 7, 3), placings=(1, 2, 3), tiebreaks=(2, 1, 0))
    results = scoring.seat_results((5, 2, 9), finish)
    assert results == (
        SeatResult(participant=5, seat=0, place=1, points=2.0, score=7),
        SeatResult(participant=2, seat=1, place=2, points=1.0, score=7),
        SeatResult(participant=9, seat=2, place=3, points=0.0, score=3),
    )


def test_the_gang_table_scores_as_one_team() -> None:
    won = Outcome((0, 1, 2), "", (3, 3, 3), (1, 1, 1), (-1, -1, -1), team=True)
    assert scoring.seat_results((0, 1, 2), won) == tuple(
        SeatResult(p, p, place=1, points=3.0, score=3, alarms=1, team=True) for p in range(3)
    )
    lost = Outcome((), "", (1, 1, 1), (1, 1, 1), (-3, -3, -3), team=True)
    assert {r.place for r in scoring.seat_results((3, 4, 5), lost)} == {2}


def _result(participant: int, seat: int, place: int, points: float, score: int) -> SeatResult:
    return SeatResult(participant, seat, place, points, score)


def test_standings_and_ratings_of_a_competitive_round_with_a_bye() -> None:
    """Gang of Four, five players, tables of four: participant 4 has the bye."""
    table = Table(
        1,
        (3, 0, 1, 2),
        "g",
        True,
        (
            _result(3, 0, 2, 2.0, 20),
            _result(0, 1, 1, 3.0, 5),
            _result(1, 2, 3, 0.5, 101),
            _result(2, 3, 3, 0.5, 101),
        ),
    )
    played = Round(1, (table,), byes=(4,))
    start = tuple(Rating() for _ in range(5))
    ratings = scoring.rate_round(start, played)
    model = PlackettLuce()
    expected = model.rate(
        [[model.rating()], [model.rating()], [model.rating()], [model.rating()]],
        ranks=[2, 1, 3, 3],
    )
    for participant, team in zip((3, 0, 1, 2), expected, strict=True):
        assert ratings[participant].mu == pytest.approx(team[0].mu)
        assert ratings[participant].sigma == pytest.approx(team[0].sigma)
    assert ratings[4] == Rating()  # the bye changes no rating
    table_of = scoring.standings(4, 5, [played], ratings)
    # points: 0: 3, 3: 2, 4: bye (4 - 1) / 2 = 1.5, 1 and 2: 0.5 each; 1 before 2 only by
    # rating (equal here), then by index.
    assert [(s.participant, s.points) for s in table_of] == [
        (0, 3.0),
        (3, 2.0),
        (4, 1.5),
        (1, 0.5),
        (2, 0.5),
    ]
    assert [s.rank for s in table_of] == [1, 2, 3, 4, 5]
    assert table_of[2].byes == 1
    assert table_of[2].tables_played == 0


def test_the_gang_rates_tables_against_each_other() -> None:
    def team(number: int, members: tuple[int, ...], vaults: int, alarms: int) -> Table:
        results = tuple(
            SeatResult(p, seat, 1 if vaults == 3 else 2, float(vaults), vaults, alarms, team=True)
            for seat, p in enumerate(members)
        )
        return Table(number, members, f"g{number}", True, results)

    played = Round(1, (team(1, (0, 1, 2), 2, 3), team(2, (3, 4, 5), 3, 1)))
    start = tuple(Rating() for _ in range(6))
    ratings = scoring.rate_round(start, played)
    model = PlackettLuce()
    first, second = model.rate(
        [[model.rating() for _ in range(3)], [model.rating() for _ in range(3)]], ranks=[2, 1]
    )
    assert [r.mu for r in ratings] == pytest.approx([r.mu for r in first + second])
    assert [r.sigma for r in ratings] == pytest.approx([r.sigma for r in first + second])
    table_of = scoring.standings(3, 6, [played], ratings)
    assert [s.participant for s in table_of][:3] == [3, 4, 5]  # 3 vaults each
    assert {s.points for s in table_of[:3]} == {3.0}
    assert {s.alarms for s in table_of[3:]} == {3}
    # one table alone in a round: nothing to rate against
    assert scoring.rate_round(start, Round(1, played.tables[:1])) == start


def test_equal_points_break_on_alarms_then_rating() -> None:
    def one(p: int, vaults: int, alarms: int) -> SeatResult:
        return SeatResult(p, 0, 2, float(vaults), vaults, alarms, team=True)

    played = Round(
        1,
        (
            Table(1, (0,), "a", True, (one(0, 2, 3),)),
            Table(2, (1,), "b", True, (one(1, 2, 1),)),
            Table(3, (2,), "c", True, (one(2, 2, 1),)),
        ),
    )
    ratings = (Rating(), Rating(20.0, 5.0), Rating(30.0, 5.0))
    order = scoring.standings(3, 3, [played], ratings)
    assert [s.participant for s in order] == [2, 1, 0]


def test_recording_the_last_table_closes_the_round_and_pairs_the_next() -> None:
    record = Record(
        tournament_id="t",
        game="pinched",
        seats_per_table=2,
        options=b"",
        format=Format.ROUND_ROBIN,
        rounds=2,
        seed=b"s",
        seed_sha256="",
        admin_sha256="",
        participants=tuple(Participant(f"p{i}", "random") for i in range(4)),
        created_at=0.0,
        seat_counts=(2, 3, 4, 5),
    )
    started = rounds.start(record)
    assert started is not None
    assert rounds.start(started) is None  # idempotent
    first = started.played[0]
    assert [t.participants for t in first.tables] == [(0, 3), (1, 2)]
    with_games = started
    for table in first.tables:
        changed = rounds.set_game(with_games, 1, table.number, f"g{table.number}")
        assert changed is not None
        with_games = changed
    assert rounds.set_game(with_games, 1, 1, "other") is None  # the first game stays
    results = (_result(0, 0, 1, 1.0, 9), _result(3, 1, 2, 0.0, 4))
    one = rounds.record_table(with_games, 1, 1, "g1", results, "done")
    assert one is not None
    assert rounds.record_table(one, 1, 1, "g1", results, "done") is None  # idempotent
    assert not one.played[0].complete
    results2 = (_result(1, 0, 1, 0.5, 5), _result(2, 1, 1, 0.5, 5))
    two = rounds.record_table(one, 1, 2, "g2", results2, "done")
    assert two is not None
    assert two.played[0].complete
    assert [(s.participant, s.points) for s in two.played[0].standings] == [
        (0, 1.0),
        (1, 0.5),
        (2, 0.5),
        (3, 0.0),
    ]
    assert len(two.played) == 2
    assert [t.participants for t in two.played[1].tables] == [(2, 0), (1, 3)]
