"""From finished games to points, standings and openskill ratings.

Competitive games (Gang of Four, Pinched!) place the seats of a table by the game's final
score; a seat earns one point per opponent it beat and one half per opponent it tied with.
The Gang is cooperative: a table is one team and every member earns the team's vaults
(heists won), with its alarms as the tie-break. Ratings are openskill's Plackett-Luce.

>>> placings([(3,), (5,), (3,), (1,)])
[(2, 1.5), (1, 3.0), (2, 1.5), (4, 0.0)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from engines.pinched import scoring as pinched_scoring
from engines.the_gang.model import VAULTS_TO_WIN
from service.tournaments.model import Rating, Round, SeatResult, Standing

TEAM_GAMES = frozenset({"the_gang"})
MODEL = PlackettLuce()


@dataclass(frozen=True)
class Finish:
    """What scoring needs of a finished game, per seat."""

    scores: tuple[int, ...]  # the seat's own game score
    keys: tuple[tuple[int, ...], ...]  # higher is better
    team: bool = False
    won: bool = False
    alarms: int = 0


def finish_of(game: str, state: Any) -> Finish:
    """Read a finished game's final state (the engines' own scores)."""
    if game == "gang_of_four":
        totals = tuple(int(total) for total in state.totals)
        return Finish(totals, tuple((-total,) for total in totals))
    if game == "pinched":
        ended = pinched_scoring.final(state)
        scores = sorted(ended.scores, key=lambda score: score.seat)
        return Finish(
            tuple(score.total for score in scores),
            tuple((score.total, score.tiebreak) for score in scores),
        )
    if game == "the_gang":
        players = int(state.config.players)
        vaults, alarms = int(state.vaults), int(state.alarms)
        return Finish(
            (vaults,) * players,
            ((vaults, -alarms),) * players,
            team=True,
            won=vaults >= VAULTS_TO_WIN,
            alarms=alarms,
        )
    raise ValueError(f"no tournament scoring for {game!r}")


def placings(keys: Sequence[tuple[int, ...]]) -> list[tuple[int, float]]:
    """(place, points) per seat: place 1 + seats strictly better; a point per seat strictly
    worse and a half per other seat tied."""
    result = []
    for index, key in enumerate(keys):
        better = sum(other > key for other in keys)
        worse = sum(other < key for other in keys)
        tied = sum(other == key for i, other in enumerate(keys) if i != index)
        result.append((better + 1, worse + tied / 2))
    return result


def seat_results(participants: Sequence[int], finish: Finish) -> tuple[SeatResult, ...]:
    if finish.team:
        place = 1 if finish.won else 2
        return tuple(
            SeatResult(
                who, seat, place, float(finish.scores[seat]), finish.scores[seat], finish.alarms
            )
            for seat, who in enumerate(participants)
        )
    return tuple(
        SeatResult(who, seat, place, points, finish.scores[seat])
        for seat, (who, (place, points)) in enumerate(
            zip(participants, placings(finish.keys), strict=True)
        )
    )


def bye_points(game: str, seats_per_table: int) -> float:
    """A bye: an average result, (seats_per_table - 1) / 2; nothing in The Gang."""
    return 0.0 if game in TEAM_GAMES else (seats_per_table - 1) / 2


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


def rate_round(game: str, ratings: Sequence[Rating], played: Round) -> tuple[Rating, ...]:
    """Ratings after a complete round, its tables taken in table order.

    Competitive: each table rates its seats (one-player teams) by place. The Gang: the
    round's tables are teams ranked by (vaults, fewer alarms); one table changes nothing.
    """
    new = list(ratings)
    tables = [table for table in played.tables if table.results]
    if game in TEAM_GAMES:
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
    game: str,
    seats_per_table: int,
    players: int,
    rounds: Sequence[Round],
    ratings: Sequence[Rating],
) -> tuple[Standing, ...]:
    """Everybody's standing after ``rounds`` (the complete ones), best first.

    Order: points, then (The Gang) fewer alarms, then rating ordinal, then index.
    """
    points = [0.0] * players
    played = [0] * players
    byes = [0] * players
    alarms = [0] * players
    bye = bye_points(game, seats_per_table)
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
