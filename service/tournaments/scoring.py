"""From finished games to points, standings and openskill ratings.

Everything comes from the engine's :class:`~engines.base.Outcome`; nothing here knows a
game. Competitive tables (opponents) place their seats by the outcome's placings; a seat
earns one point per opponent it beat and one half per opponent it tied with. A team table
(a cooperative game such as The Gang) is one team: every member earns the team's score
(The Gang: its vaults), place 1 if it won and 2 if it lost, and its tie-break (The Gang:
minus its alarms) ranks tables against each other. Ratings are openskill's Plackett-Luce.
The ranking of seats by place is the one ratings across tables use
(:func:`service.app.rating_math.placings`).

>>> placings([(3,), (5,), (3,), (1,)])
[(2, 1.5), (1, 3.0), (2, 1.5), (4, 0.0)]
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

from engines.base import Outcome
from service.app.rating_math import placings as placings
from service.tournaments.model import Rating, Round, SeatResult, Standing

MODEL = PlackettLuce()


def seat_results(participants: Sequence[int], outcome: Outcome) -> tuple[SeatResult, ...]:
    """How each seat of a finished table did, from the game's outcome alone.

    A team's "alarms" column is its tie-break negated (fewer is better), so a team game's
    tie-break must be a count of setbacks taken negatively, as The Gang's is.
    """
    if outcome.team:
        place = 1 if outcome.winners else 2
        return tuple(
            SeatResult(
                who,
                seat,
                place,
                float(outcome.scores[seat]),
                outcome.scores[seat],
                -outcome.tiebreaks[seat],
                team=True,
            )
            for seat, who in enumerate(participants)
        )
    keys = [(-place,) for place in outcome.placings]
    return tuple(
        SeatResult(who, seat, place, points, outcome.scores[seat])
        for seat, (who, (place, points)) in enumerate(
            zip(participants, placings(keys), strict=True)
        )
    )


def bye_points(seats_per_table: int, team: bool) -> float:
    """A bye: an average result, (seats_per_table - 1) / 2; nothing in a team game (a
    team has nobody to beat at its table)."""
    return 0.0 if team else (seats_per_table - 1) / 2


def _team(rounds: Sequence[Round]) -> bool:
    """Whether the tournament's game is a team game, read from its recorded results."""
    return any(result.team for done in rounds for table in done.tables for result in table.results)


def _rated(ratings: Sequence[Rating], teams: list[list[int]], ranks: list[float]) -> list[Rating]:
    new = list(ratings)
    rated = MODEL.rate(
        [[MODEL.rating(mu=new[p].mu, sigma=new[p].sigma) for p in team] for team in teams],
        ranks=ranks,
    )
    for team, team_ratings in zip(teams, rated, strict=True):
        for who, rating in zip(team, team_ratings, strict=True):
            new[who] = Rating(rating.mu, rating.sigma)
    return new


def rate_round(ratings: Sequence[Rating], played: Round) -> tuple[Rating, ...]:
    """Ratings after a complete round, its tables taken in table order.

    Competitive: each table rates its seats (one-player teams) by place. Team games: the
    round's tables are teams ranked by (score, fewer alarms); one table changes nothing.
    """
    new = list(ratings)
    tables = [table for table in played.tables if table.results]
    if _team([played]):
        if len(tables) < 2:
            return tuple(new)
        keys = [(table.results[0].score, -table.results[0].alarms) for table in tables]
        ranks = [float(1 + sum(other > key for other in keys)) for key in keys]
        return tuple(_rated(new, [list(table.participants) for table in tables], ranks))
    for table in tables:
        ranks = [float(result.place) for result in table.results]
        new = _rated(new, [[result.participant] for result in table.results], ranks)
    return tuple(new)


def standings(
    seats_per_table: int,
    players: int,
    rounds: Sequence[Round],
    ratings: Sequence[Rating],
) -> tuple[Standing, ...]:
    """Everybody's standing after ``rounds`` (the complete ones), best first.

    Order: points, then (team games) fewer alarms, then rating ordinal, then index.
    """
    points = [0.0] * players
    played = [0] * players
    byes = [0] * players
    alarms = [0] * players
    bye = bye_points(seats_per_table, _team(rounds))
    for done in rounds:
        for who in done.byes:
            byes[who] += 1
            points[who] += bye
        for table in done.tables:
            for result in table.results:
                points[result.participant] += result.points
                played[result.participant] += 1
                alarms[result.participant] += result.alarms
    order = sorted(range(players), key=lambda p: (-points[p], alarms[p], -ratings[p].ordinal, p))
    return tuple(
        Standing(rank, p, points[p], ratings[p], played[p], byes[p], alarms[p])
        for rank, p in enumerate(order, start=1)
    )
