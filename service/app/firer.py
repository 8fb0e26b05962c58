"""The firer: plays the seats whose time ran out, in every referee process.

Each pass claims the due members of the deadline index (:mod:`service.storage.deadlines`, a few
per shard, leased), and for each claimed game, at most :attr:`Firer.concurrency` at once:
loads it, drops the member if the game moved on since it was set (a newer state has its
own member), else plays every due seat through :meth:`Referee.commit_for`, the same
compare-and-set commit as a player's move with a move id of its version and seat
(:func:`service.domain.clocks.move_id`). A player's last-instant move and the clock cannot both
apply, and two replicas firing one deadline apply it once: the loser of the race gets a
conflict (or the duplicate of the same move) and leaves it. A seat held by the referee's
bot is played by the bot's choice (``referee.bots``) from the seat's own view and legal
moves, as any bot client would, its randomness seeded from the game, version and seat so
every replica chooses alike; a player's or forfeited seat by the game's
``default_move``. After a seat's ``no_show_after`` consecutive clock moves the no-show
policy hands it to a bot or forfeits it (a host change, compare-and-set like a move).

A member whose firer died mid-way comes back due when its lease runs out. An idle process
costs one pipelined round trip per pass (:attr:`Firer.poll_seconds`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import structlog

from engines.errors import MoveError
from referee.bots import bot_for
from service.app.referee import Referee
from service.app.views import project
from service.domain import clocks, hosting, records
from service.edge import translate
from service.errors import GameNotFound, RefereeError
from service.storage.deadlines import DeadlineIndex, Due
from service.storage.store import CommitStatus
from service.storage.tables import Table, clock_deadlines, load_table

log = structlog.get_logger("referee.clock")

# The BotStrategy numbers (tournament.proto) of the bots a seat may be handed to.
STRATEGIES = {1: "random", 2: "heuristic"}
NO_SHOW_BOT_STRATEGY = 1


def no_show(table: Table, seat: int, policy: int, at: float) -> records.HostRecord:
    """The hosting record after the no-show policy took ``seat`` (service.domain.hosting's
    transitions, marked automatic): forfeited, or handed to a bot (The Gang, which has no
    forfeit, always to a bot)."""
    when = hosting.When(table.version, at)
    host = table.hosting
    if policy == clocks.NO_SHOW_FORFEIT and table.game.name not in hosting.NO_FORFEIT_GAMES:
        return hosting.forfeit(host, table.game.name, seat, table.finished, when, automatic=True)
    return hosting.replace_by_bot(
        host, seat, NO_SHOW_BOT_STRATEGY, table.finished, when, automatic=True
    )


class Firer:
    """The firing loop of one process (see the module)."""

    def __init__(
        self,
        referee: Referee,
        index: DeadlineIndex,
        *,
        poll_seconds: float = 0.25,
        per_shard: int = 4,
        concurrency: int = 16,
        lease_ms: int = 10_000,
        on_finished: Callable[[str], Awaitable[None]] | None = None,
    ) -> None:
        self.referee = referee
        self.index = index
        self.poll_seconds = poll_seconds
        self.per_shard = per_shard
        self.concurrency = concurrency
        self.lease_ms = lease_ms
        self.on_finished = on_finished
        self._slots = asyncio.Semaphore(concurrency)
        self.busy = 0  # games being fired now (tests: never above concurrency)
        self.most_busy = 0

    async def run(self) -> None:
        """Pass after pass until cancelled; a full pass is followed at once by the next."""
        while True:
            try:
                claimed = await self.fire_once()
            except RefereeError as error:  # the store is away: try again next pass
                log.warning("deadlines unreadable", reason=error.reason)
                claimed = 0
            if claimed < self.per_shard * self.index.shards:
                await asyncio.sleep(self.poll_seconds)

    async def fire_once(self) -> int:
        """One pass: claim what is due, fire it all (bounded), return how many were claimed."""
        due = await self.index.claim(self.referee.now_ms(), self.lease_ms, self.per_shard)
        if due:
            await asyncio.gather(*(self._guarded(item) for item in due))
        return len(due)

    async def _guarded(self, due: Due) -> None:
        async with self._slots:
            self.busy += 1
            self.most_busy = max(self.most_busy, self.busy)
            try:
                await self.fire(due)
            except RefereeError as error:  # leased: it comes back when the lease runs out
                log.warning("deadline not fired", game_id=due.game_id, reason=error.reason)
            finally:
                self.busy -= 1

    async def fire(self, due: Due) -> None:
        """Deal with one claimed member, then drop it (see the module)."""
        try:
            table = await load_table(self.referee.store, due.game_id)
        except GameNotFound:
            await self.index.drop(due)
            return
        if (table.version, table.host_version) == (due.version, due.host_version):
            await self.play(table)
        await self.index.drop(due)

    async def play(self, table: Table) -> None:
        """Play every due seat of ``table``, one commit each, while they stay due."""
        for _ in range(2 * table.meta.seats + 2):
            host = table.host_record
            if table.finished or (host is not None and host.status != records.TABLE_LIVE):
                return
            now = self.referee.now_ms()
            due = clock_deadlines(table, self.referee.bot_delay_ms)
            ready = sorted(seat for seat, at in due.items() if at <= now)
            if not ready:
                if due:  # not yet (claimed early, or a seat's time was given back)
                    await self.referee.schedule_clock(table)
                return
            moved = await self._move(table, ready[0])
            if moved is None:
                return
            table = moved
            if table.finished and self.on_finished is not None:
                await self.on_finished(table.game_id)

    async def _move(self, table: Table, seat: int) -> Table | None:
        who = clocks.roles(table.host_record)
        by = clocks.by_for(seat, who)
        move = self._bot_move(table, seat, who) if by == clocks.BY_BOT else None
        if move is None:
            move = table.game.default_move(table.state, seat)
        try:
            moved = await self.referee.commit_for(
                table, seat, move, clocks.move_id(by, table.version, seat)
            )
        except MoveError as error:  # an engine's default move must always be legal
            log.error(
                "the referee's own move is illegal", game_id=table.game_id, reason=error.reason
            )
            return None
        if moved is None or by != clocks.BY_CLOCK:
            return moved
        state = moved.clock_state
        if state is not None and clocks.no_show_due(moved.clock_spec, state, seat, who):
            return await self._no_show(moved, seat)
        return moved

    def _bot_move(self, table: Table, seat: int, who: clocks.Roles) -> Any | None:
        """The seat's bot's choice from its own view and legal moves (None: it chose
        nothing, so the clock's default move is played, still as the bot's)."""
        host = table.host_record
        strategy = STRATEGIES.get(host.seats[seat].bot, "random")
        bot = bot_for(table.game.name, strategy)
        view = project(table, table.state, table.version, seat, table.head)
        legal = table.game.legal_moves(table.state, seat)
        rng = random.Random(f"{table.game_id}/{table.version}/{seat}")
        choice = bot.choose(
            translate.view_to_proto(view), translate.moves_to_proto(table.game.name, legal), rng
        )
        return None if choice is None else translate.move_from_proto(choice)[1]

    async def _no_show(self, table: Table, seat: int) -> Table:
        """Apply the no-show policy to ``seat`` (a host change); ``table`` unchanged when
        the game moved on meanwhile or the table's record refuses it (the next clock move
        tries again)."""
        spec = table.clock_spec
        assert spec is not None
        try:
            host = no_show(table, seat, spec.no_show, self.referee.now_ms() / 1000)
        except RefereeError as error:
            log.warning("no-show not applied", game_id=table.game_id, reason=error.reason)
            return table
        changed = dataclasses.replace(
            table,
            host=records.encode(host),
            hosted=host,
            host_version=table.host_version + 1,
        )
        await self.referee.schedule_clock(changed)
        result = await self.referee.store.change_host(
            table.game_id,
            expected_version=table.version,
            expected_host_version=table.host_version,
            host=records.encode(host),
        )
        if result.status is not CommitStatus.OK:
            return table
        self.referee.forget(table.game_id)
        log.info("no-show", game_id=table.game_id, seat=seat, policy=spec.no_show)
        return changed


@contextlib.asynccontextmanager
async def firing(firer: Firer) -> AsyncIterator[Firer]:
    """The firer's loop as a task for the block's duration."""
    task = asyncio.create_task(firer.run(), name="deadline firer")
    try:
        yield firer
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
