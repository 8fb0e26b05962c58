"""The rater: applies a finished rated table's ratings exactly once, in every process.

A rated table (CreateGame ``rated`` by an operator key, or a tournament's) updates the
ratings of its seated players for its game when its game finishes (an aborted game is not
rated). Who is rated and how is :mod:`service.app.rating_math`'s; the ratings live in the
rating store (:mod:`service.storage.ratings`).

Exactly once, whoever sees the end and whatever dies:

1. the move that finishes a rated table's game puts the game among those to rate *before*
   it is committed (:mod:`service.storage.pending_ratings`, by the game store's commit), so a
   process that dies after the commit cannot lose the rating;
2. the process that committed it rates it at once (:meth:`Rater.ended`, the table
   writer's ``ended`` hook), and every process sweeps the games to rate that are due
   (:meth:`Rater.run`): a member is leased to one sweep at a time, and comes back due when
   a sweep that took it died;
3. rating a game reads its players' ratings, computes the new ones and applies them with
   one script (:meth:`service.storage.ratings.RatingStore.apply`) that does nothing if the
   game's marker is there (it was rated: DONE) or if any player's rating changed since it
   was read (CONFLICT: read again and compute again), else writes every rating, history
   entry, leaderboard score and the marker at once;
4. only then is the game's member dropped: a crash before that leaves it to a sweep, which
   finds the marker.

``on_step`` is told each step's name as it is reached ("before_apply", "after_apply"); the
fault tests end the process there (service.process.server: ``REFEREE_RATING_FAILPOINT``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Final

import structlog

from engines.base import Outcome
from service.app import rating_math
from service.app.views import outcome_of
from service.app.writer import wall_ms
from service.domain import records
from service.errors import GameNotFound, RefereeError
from service.storage.pending_ratings import Pending, PendingRatings
from service.storage.ratings import Applied, RatingChange, RatingStore, Skill, Update
from service.storage.tables import Table

log = structlog.get_logger("referee.ratings")

# Reads and computations one game's rating may take while other games of its players are
# rated meanwhile (each CONFLICT); past it the game is left to a sweep.
MAX_ATTEMPTS: Final = 8
SWEEP_SECONDS: Final = 1.0
LEASE_MS: Final = 30_000
PER_SHARD: Final = 8


def _nothing(_step: str) -> None:
    return None


class Rater:
    """Rates finished rated tables (see the module). ``load`` gives a game as stored (the
    table writer's :meth:`~service.app.writer.TableWriter.current`)."""

    def __init__(
        self,
        load: Callable[[str], Awaitable[Table]],
        ratings: RatingStore,
        pending: PendingRatings,
        *,
        now_ms: Callable[[], int] = wall_ms,
        on_step: Callable[[str], None] = _nothing,
        poll_seconds: float = SWEEP_SECONDS,
        lease_ms: int = LEASE_MS,
        per_shard: int = PER_SHARD,
    ) -> None:
        self.load = load
        self.ratings = ratings
        self.pending = pending
        self.now_ms = now_ms
        self.on_step = on_step
        self.poll_seconds = poll_seconds
        self.lease_ms = lease_ms
        self.per_shard = per_shard
        self._stopping = False

    # --- one game ------------------------------------------------------------------------

    async def ended(self, game_id: str) -> None:
        """The table writer's ``ended`` hook: rate the game this process just finished (or
        aborted: nothing to rate) and drop its member; a failure leaves it to a sweep."""
        try:
            table = await self.load(game_id)
            if table.finished and table.hosting.rated:  # only a rated one was added
                await self.rate(table)
                await self.pending.drop(game_id, table.version)
        except RefereeError as error:  # GameNotFound too: an expired game is not rated
            log.warning("rating left to a sweep", game_id=game_id, reason=error.reason)

    async def settle(self, pending: Pending) -> bool:
        """Rate one claimed game if it is to be rated; whether its member can go (False:
        the move that finished it is not stored yet, or never will be: wait)."""
        try:
            table = await self.load(pending.game_id)
        except GameNotFound:
            return True  # expired (or never created): nothing to rate
        if table.version < pending.version:
            return False
        await self.rate(table)
        return True

    async def rate(self, table: Table) -> Applied | None:
        """Apply the ratings of ``table`` if it is a finished rated table with players to
        rate (None: nothing to rate); DONE if they were applied before."""
        outcome = outcome_of(table, table.state)
        host = table.hosting
        if outcome is None or not host.rated or host.status == records.TABLE_ABORTED:
            return None
        for _ in range(MAX_ATTEMPTS):
            updates = await self._updates(table, outcome)
            if not updates:
                return None
            self.on_step("before_apply")
            applied = await self.ratings.apply(
                table.meta.game, table.game_id, updates, self.now_ms()
            )
            if applied is not Applied.CONFLICT:
                if applied is Applied.OK:
                    self.on_step("after_apply")
                    log.info("rated", game_id=table.game_id, players=len(updates))
                return applied
        raise RefereeError("RATING_CONTENTION", "the players' ratings kept changing")

    async def _updates(self, table: Table, outcome: Outcome) -> list[Update]:
        """The game's rating updates, from its players' ratings as stored now."""
        game = table.meta.game
        players = rating_math.who_is_rated(table.hosting, rating_math.seat_places(outcome))
        pseudo = rating_math.game_id_of(game) if outcome.team else ""
        ids = [player.player_id for player in players] + ([pseudo] if pseudo else [])
        stored = {rating.player_id: rating for rating in await self.ratings.ratings(game, ids)}
        skills = {player_id: rating.skill for player_id, rating in stored.items()}
        if outcome.team:
            new = rating_math.team(players, skills, pseudo)
        else:
            new = rating_math.competitive(players, skills)
        if not new:
            return []
        at = self.now_ms()
        seats = table.meta.seats
        tournament = table.hosting.tournament_id
        updates = [
            Update(
                p.player_id,
                stored[p.player_id].games,
                new[p.player_id],
                p.name,
                RatingChange(
                    table.game_id,
                    at,
                    skills[p.player_id],
                    new[p.player_id],
                    p.place,
                    seats,
                    p.seat,
                    tournament,
                ),
            )
            for p in players
        ]
        if pseudo:
            updates.append(self._pseudo(table, pseudo, stored[pseudo].games, skills, new, outcome))
        return updates

    def _pseudo(
        self,
        table: Table,
        pseudo: str,
        games: int,
        skills: Mapping[str, Skill],
        new: Mapping[str, Skill],
        outcome: Outcome,
    ) -> Update:
        """A team game's pseudo-player's update: its seat -1, its place the other side's."""
        place = 2 if outcome.winners else 1
        change = RatingChange(
            table.game_id,
            self.now_ms(),
            skills[pseudo],
            new[pseudo],
            place,
            table.meta.seats,
            -1,
            table.hosting.tournament_id,
        )
        return Update(pseudo, games, new[pseudo], table.meta.game, change, listed=False)

    # --- the sweep -----------------------------------------------------------------------

    def stop(self) -> None:
        """End :meth:`run` after its pass, even if the pass swallowed its cancellation."""
        self._stopping = True

    async def run(self) -> None:
        """Sweep pass after pass until stopped or cancelled."""
        while not self._stopping:
            try:
                await self.sweep()
            except RefereeError as error:  # the store is away: try again next pass
                log.warning("games to rate unreadable", reason=error.reason)
            await asyncio.sleep(self.poll_seconds)

    async def sweep(self) -> int:
        """One pass: claim the games due to rate, rate each, drop those done; how many
        were claimed."""
        claimed = await self.pending.claim(self.now_ms(), self.lease_ms, self.per_shard)
        for pending in claimed:
            try:
                if await self.settle(pending):
                    await self.pending.drop(pending.game_id, pending.version)
            except RefereeError as error:  # leased: it comes back when the lease runs out
                log.warning("game not rated", game_id=pending.game_id, reason=error.reason)
        return len(claimed)
