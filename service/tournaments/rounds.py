"""The transitions of a tournament, as pure functions: record in, new record out.

Every write to the store is one of these applied to the latest stored record under a
compare-and-set, so two processes deciding the same step decide it alike, and the loser of
a race simply reloads and finds the step done. ``None`` means "nothing to change".
"""

from __future__ import annotations

import math
from typing import Any

import msgspec

from engines.errors import InvalidConfigError
from service.tournaments import pairing, scoring
from service.tournaments.model import Format, Rating, Round, SeatResult, Status, Table, Tournament


def default_rounds(format: Format, players: int, seats_per_table: int) -> int:
    """Rounds when the creator gives none: enough to meet everybody once (round-robin) or
    ceil(log2 n) (Swiss)."""
    if format is Format.ROUND_ROBIN:
        return max(1, math.ceil((players - 1) / max(seats_per_table - 1, 1)))
    return max(1, math.ceil(math.log2(max(players, 2))))


def pair_round(tournament: Tournament, number: int) -> Round:
    """The tables and byes of round ``number`` (after the rounds played so far)."""
    players = len(tournament.participants)
    sizes, bye_count = pairing.table_sizes(
        players, tournament.seats_per_table, frozenset(tournament.seat_counts)
    )
    byes_so_far = [0] * players
    for done in tournament.played:
        for who in done.byes:
            byes_so_far[who] += 1
    met = pairing.meetings(
        table.participants for done in tournament.played for table in done.tables
    )
    if tournament.format is Format.ROUND_ROBIN:
        tables, byes = pairing.round_robin(
            players, number, sizes, bye_count, byes_so_far, met, tournament.seed
        )
    else:
        last = tournament.current
        ranked = [s.participant for s in last.standings] if last else list(range(players))
        tables, byes = pairing.swiss(ranked, sizes, bye_count, byes_so_far, met)
    return Round(
        number=number,
        tables=tuple(
            Table(number=i, participants=pairing.rotated(members, number))
            for i, members in enumerate(tables, start=1)
        ),
        byes=tuple(byes),
    )


def _with_round(tournament: Tournament, changed: Round) -> Tournament:
    played = (*tournament.played[:-1], changed)
    return msgspec.structs.replace(tournament, played=played)


def start(tournament: Tournament) -> Tournament | None:
    """CREATED -> RUNNING with round 1 paired; None if already started."""
    if tournament.status is not Status.CREATED:
        return None
    ready = msgspec.structs.replace(
        tournament,
        status=Status.RUNNING,
        ratings=tuple(Rating() for _ in tournament.participants),
    )
    return msgspec.structs.replace(ready, played=(pair_round(ready, 1),))


def claim_seat(
    tournament: Tournament, participant: int, token_sha256: str, name: str, at: float
) -> Tournament | None:
    """An external participant's seat claimed with its one-time code: its token's hash,
    the time, and its display name if it chose one (``""`` keeps the name). The code is
    the authority (redeemed once), so a claim replaces an earlier one whose reply was lost.
    None for a bot or an unknown participant."""
    if not 0 <= participant < len(tournament.participants):
        return None
    old = tournament.participants[participant]
    if not old.external:
        return None
    participants = list(tournament.participants)
    participants[participant] = msgspec.structs.replace(
        old, token_sha256=token_sha256, claimed_at=at, name=name or old.name
    )
    return msgspec.structs.replace(tournament, participants=tuple(participants))


def set_game(tournament: Tournament, number: int, table: int, game_id: str) -> Tournament | None:
    """Record the game of a table; None if the table already has one (keep the first)."""
    current = tournament.current
    if current is None or current.number != number:
        return None
    old = current.tables[table - 1]
    if old.game_id:
        return None
    tables = list(current.tables)
    tables[table - 1] = msgspec.structs.replace(old, game_id=game_id)
    return _with_round(tournament, msgspec.structs.replace(current, tables=tuple(tables)))


def record_table(
    tournament: Tournament,
    number: int,
    table: int,
    game_id: str,
    results: tuple[SeatResult, ...],
    summary: str,
) -> Tournament | None:
    """Record a finished table; the round's last one closes the round (ratings, standings)
    and pairs the next, or finishes the tournament. None if already recorded."""
    current = tournament.current
    if current is None or current.number != number:
        return None
    old = current.tables[table - 1]
    if old.finished or old.game_id != game_id:
        return None
    tables = list(current.tables)
    tables[table - 1] = msgspec.structs.replace(
        old, finished=True, results=results, summary=summary
    )
    changed = msgspec.structs.replace(current, tables=tuple(tables))
    if all(t.finished for t in changed.tables):
        return close_round(_with_round(tournament, changed))
    return _with_round(tournament, changed)


def close_round(tournament: Tournament) -> Tournament:
    """Rate and rank the (fully played) current round; pair the next or finish."""
    current = tournament.current
    assert current is not None
    assert all(t.finished for t in current.tables)
    ratings = scoring.rate_round(tournament.ratings, current)
    done = msgspec.structs.replace(
        current,
        complete=True,
        standings=scoring.standings(
            tournament.seats_per_table,
            len(tournament.participants),
            (*tournament.played[:-1], current),
            ratings,
        ),
    )
    closed = msgspec.structs.replace(_with_round(tournament, done), ratings=ratings)
    if done.number >= tournament.rounds:
        return msgspec.structs.replace(closed, status=Status.FINISHED)
    return msgspec.structs.replace(
        closed, played=(*closed.played, pair_round(closed, done.number + 1))
    )


def seat_counts(game: Any, options: dict[str, object], most: int = 12) -> tuple[int, ...]:
    """The table sizes ``game`` (a GameDefinition) accepts with ``options``."""
    counts = []
    for players in range(1, most + 1):
        try:
            game.make_config(players, options)
        except InvalidConfigError:
            continue
        counts.append(players)
    return tuple(counts)
