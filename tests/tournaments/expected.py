"""Standings computed by hand from the finished games, independently of the service code.

Reads every table's game through the public API (as a spectator: tournament tables allow
spectators), places its seats with the game's own final scores, and replays the ratings
with openskill directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from referee.client import AsyncRefereeClient
from referee.v1 import tournament_pb2


@dataclass
class Line:
    points: float = 0.0
    alarms: int = 0
    played: int = 0
    byes: int = 0
    mu: float = 25.0
    sigma: float = 25.0 / 3
    places: list[int] = field(default_factory=list)


async def table_keys(client: AsyncRefereeClient, game: str, game_id: str) -> list[tuple[int, ...]]:
    """Per seat, the final result as a key where higher is better."""
    spectator = client.seat(game_id)
    if game == "pinched":
        history = await spectator.history()
        for entry in history.entries:
            for event in entry.events:
                if event.pinched.WhichOneof("kind") == "game_ended":
                    scores = sorted(event.pinched.game_ended.scores, key=lambda s: s.seat)
                    return [(s.total, s.tiebreak) for s in scores]
        raise AssertionError("no GameEnded event in a finished Pinched! game")
    view = await spectator.view()
    assert view.HasField("outcome"), "the table's game is not over"
    if game == "gang_of_four":
        return [(-total,) for total in view.gang_of_four.totals]
    gang = view.the_gang
    return [(gang.vaults, -gang.alarms)] * view.seats


async def by_hand(
    client: AsyncRefereeClient, tournament: tournament_pb2.Tournament
) -> tuple[list[int], dict[int, Line]]:
    """The final order of participants and each one's line, from the games themselves."""
    game = tournament.game
    lines = {p.index: Line() for p in tournament.participants}
    model = PlackettLuce()
    bye = 0.0 if game == "the_gang" else (tournament.seats_per_table - 1) / 2
    for played in tournament.round_results:
        for who in played.byes:
            lines[who].points += bye
            lines[who].byes += 1
        team_keys = []
        for table in played.tables:
            keys = await table_keys(client, game, table.game_id)
            members = list(table.participants)
            for seat, who in enumerate(members):
                line = lines[who]
                line.played += 1
                if game == "the_gang":
                    line.points += keys[seat][0]
                    line.alarms += -keys[seat][1]
                    continue
                mine = keys[seat]
                line.points += sum(
                    1.0 if mine > other else 0.5 if mine == other else 0.0
                    for i, other in enumerate(keys)
                    if i != seat
                )
            if game == "the_gang":
                team_keys.append((keys[0], members))
                continue
            places = [1 + sum(other > mine for other in keys) for mine in keys]
            rated = model.rate(
                [[model.rating(mu=lines[w].mu, sigma=lines[w].sigma)] for w in members],
                ranks=[float(p) for p in places],
            )
            for who, team in zip(members, rated, strict=True):
                lines[who].mu, lines[who].sigma = team[0].mu, team[0].sigma
        if len(team_keys) >= 2:
            ranks = [float(1 + sum(o[0] > k[0] for o in team_keys)) for k in team_keys]
            rated = model.rate(
                [
                    [model.rating(mu=lines[w].mu, sigma=lines[w].sigma) for w in members]
                    for _, members in team_keys
                ],
                ranks=ranks,
            )
            for (_, members), team in zip(team_keys, rated, strict=True):
                for who, rating in zip(members, team, strict=True):
                    lines[who].mu, lines[who].sigma = rating.mu, rating.sigma
    order = sorted(
        lines,
        key=lambda w: (-lines[w].points, lines[w].alarms, -(lines[w].mu - 3 * lines[w].sigma), w),
    )
    return order, lines
