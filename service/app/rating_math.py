"""A finished table's ratings: who is rated, at which place, and openskill's update.

Pure: it reads a table's hosting record and its outcome, and the players' ratings as
stored, and returns their new ratings; service.app.rater reads and stores them.

* **Who.** A seat with a ``player_id`` (JoinGame's, or ParticipantSpec's) is rated under
  it, even when it was handed to the referee's bot (for a no-show, or by its admin): the
  result is the person's, so walking away from a lost position still counts as a loss. A
  seat the referee's bot held from the start (never a person's) is rated under the bot's
  strategy's id (:func:`bot_id`: ``bot:random``, ``bot:heuristic``, ``bot:search``); any
  other seat is not rated (a person's without an id, whoever holds it now). A ``bot:*``
  rating is named by its kind ("search bot"), never by the display name of a seat.
* **Places.** Seats are placed by the outcome (:func:`placings`, which tournament scoring
  shares: place 1 + the seats strictly better, tied seats sharing a place). A player who
  holds several seats (a table of two of the same bot) takes part once, ranked at the mean
  of its seats' places, and its history names its best-placed seat.
* **Competitive games** rate the players against each other: openskill's Plackett-Luce
  with one-player teams, ranked by place. One rated player alone is not rated.
* **A team game** (cooperative, The Gang) is rated as a match of two: the table's team
  against the game's own pseudo-player ``game:<game>``, the way puzzle sites rate a puzzle.
  The team plays as one player whose rating is its members' mean (mu the mean of theirs,
  sigma the root mean square of theirs); it wins (place 1) when the outcome has winners
  (The Gang: the third vault cracked), else it loses (place 2). Every member's mu moves by
  the team's change and its sigma shrinks in the team's proportion; the pseudo-player
  takes the other side of the match, so its rating is what the game expects of a team.

>>> placings([(3,), (5,), (3,), (1,)])
[(2, 1.5), (1, 3.0), (2, 1.5), (4, 0.0)]
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

from engines.base import Outcome
from service.domain import hosting, records
from service.errors import BadRequest
from service.storage.ratings import Skill

MODEL: Final = PlackettLuce()
BOT_PREFIX: Final = "bot:"
GAME_PREFIX: Final = "game:"
# The BotStrategy numbers (tournament.proto) and their ids; a seat handed to a bot
# without one got the random bot (service.domain.hosting).
RESERVED_PREFIXES: Final = (BOT_PREFIX, GAME_PREFIX)


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


def check_own_player_id(player_id: str) -> str:
    """``player_id`` unless it is one the referee rates under itself (``bot:...``,
    ``game:...``): an operator's player cannot take a bot's or a game's rating."""
    if player_id.startswith(RESERVED_PREFIXES):
        raise BadRequest(
            "PLAYER_ID_INVALID",
            f"player ids starting with {' or '.join(RESERVED_PREFIXES)} are the referee's own",
        )
    return player_id


def bot_id(strategy: int) -> str:
    """The player id the referee's bot of ``strategy`` (a BotStrategy number) is rated as."""
    names = hosting.BOT_STRATEGIES
    return BOT_PREFIX + names.get(strategy, names[hosting.BOT_RANDOM])


def game_id_of(game: str) -> str:
    """The player id of a team game's pseudo-player (``game:<game>``)."""
    return GAME_PREFIX + game


def seat_places(outcome: Outcome) -> list[int]:
    """Each seat's place: by the outcome's placings, or a team's 1 (won) or 2 (lost)."""
    if outcome.team:
        return [1 if outcome.winners else 2] * len(outcome.placings)
    return [place for place, _ in placings([(-place,) for place in outcome.placings])]


@dataclass(frozen=True)
class Rated:
    """One rated player of a table: its id, its seat's name, the seat and place its history
    names (its best-placed seat), and its rank in the match (its seats' mean place)."""

    player_id: str
    name: str
    seat: int
    place: int
    rank: float


def _rated_as(host: records.HostRecord, seat: int) -> str:
    """The id ``seat`` is rated under ("": not rated; see the module)."""
    hold = host.seats[seat]
    if hold.player_id:
        return hold.player_id
    if hold.holder != records.BOT:
        return ""
    handed_over = any(
        action.kind == hosting.BOT_REPLACED and action.seat == seat for action in host.actions
    )
    return "" if handed_over else bot_id(hold.bot)


def rating_name(player_id: str, seat_name: str) -> str:
    """A rating's name: a ``bot:*`` one's is its kind ("search bot"), never the name of the
    seat it played (a person's, when it took one over); anyone else's is its seat's."""
    if player_id.startswith(BOT_PREFIX):
        return f"{player_id.removeprefix(BOT_PREFIX)} bot"
    return seat_name


def who_is_rated(host: records.HostRecord, places: Sequence[int]) -> list[Rated]:
    """The table's rated players, in the order of their first seats (see the module)."""
    seats: dict[str, list[tuple[int, int, str]]] = {}
    for seat, hold in enumerate(host.seats):
        player_id = _rated_as(host, seat)
        if player_id:
            name = rating_name(player_id, hold.name)
            seats.setdefault(player_id, []).append((places[seat], seat, name))
    rated = []
    for player_id, held in seats.items():
        place, seat, name = min(held)
        rank = sum(place for place, _, _ in held) / len(held)
        rated.append(Rated(player_id, name, seat, place, rank))
    return rated


def _openskill(skill: Skill) -> object:
    return MODEL.rating(mu=skill.mu, sigma=skill.sigma)


def _skill(rating: object) -> Skill:
    return Skill(float(rating.mu), float(rating.sigma))  # type: ignore[attr-defined]


def competitive(players: Sequence[Rated], skills: Mapping[str, Skill]) -> dict[str, Skill]:
    """New ratings of a competitive table's players (none when fewer than two)."""
    if len(players) < 2:
        return {}
    teams = [[_openskill(skills[p.player_id])] for p in players]
    rated = MODEL.rate(teams, ranks=[p.rank for p in players])  # type: ignore[arg-type]
    return {p.player_id: _skill(team[0]) for p, team in zip(players, rated, strict=True)}


def team(players: Sequence[Rated], skills: Mapping[str, Skill], pseudo: str) -> dict[str, Skill]:
    """New ratings of a team table's players and of the game's pseudo-player ``pseudo``
    (none when nobody at the table is rated): the team as one player, see the module."""
    if not players:
        return {}
    members = [skills[p.player_id] for p in players]
    mean = Skill(
        sum(s.mu for s in members) / len(members),
        math.sqrt(sum(s.sigma**2 for s in members) / len(members)),
    )
    won = players[0].place == 1
    teams = [[_openskill(mean)], [_openskill(skills[pseudo])]]
    rated = MODEL.rate(teams, ranks=[1.0, 2.0] if won else [2.0, 1.0])  # type: ignore[arg-type]
    after, game = _skill(rated[0][0]), _skill(rated[1][0])
    new = {
        p.player_id: Skill(s.mu + after.mu - mean.mu, s.sigma * after.sigma / mean.sigma)
        for p, s in zip(players, members, strict=True)
    }
    new[pseudo] = game
    return new
