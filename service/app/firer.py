"""The firer: plays the seats whose time ran out, in every referee process.

Each pass claims the due members of the deadline index (:mod:`service.storage.deadlines`,
a few per shard, leased), and for each claimed game, at most :attr:`Firer.concurrency` at
once, runs decide functions through the table writer (service.app.writer), each of which
does nothing if the game moved on since the member was set (a newer state has its own
member), else plays the first due seat: the same compare-and-set commit as a player's move,
with a move id of its version and seat (:func:`service.domain.clocks.move_id`). A player's
last-instant move and the clock cannot both apply, and two replicas firing one deadline
apply it once: the loser of the race finds the game moved on (or gets the duplicate of the
same move) and leaves it. A seat held by the referee's bot is played by the bot's choice
(:class:`BotMoves`, from the seat's own view and legal moves, as any bot client would, its
randomness seeded from the game, version and seat; a bot that thinks for a time budget may
still choose differently on two replicas, and the compare-and-set keeps one); a
player's or forfeited seat by the game's ``default_move``. After a seat's ``no_show_after``
consecutive clock moves the no-show policy hands it to a bot or forfeits it (a host change,
through the same writer). What follows each of these writes (the listing of a table that
ended, the quotas) is the writer's, as for any other.

A member whose firer died mid-way comes back due when its lease runs out. An idle process
costs one pipelined round trip per pass (:attr:`Firer.poll_seconds`).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from typing import Any, Protocol, TypeAlias

import structlog

from engines.errors import MoveError
from service.app.writer import Decide, HostChange, Move, TableWriter
from service.domain import clocks, hosting, records
from service.domain.move_limits import check_room
from service.errors import GameNotFound, RefereeError
from service.storage.deadlines import DeadlineIndex, Due
from service.storage.tables import Table, clock_deadlines

log = structlog.get_logger("referee.clock")

NO_SHOW_BOT_STRATEGY = hosting.BOT_SEARCH  # Clock.no_show_bot unset
Stamp: TypeAlias = tuple[int, int]  # a table's (version, host version)
Chosen: TypeAlias = tuple[int, Any]  # a bot's seat and the engine move it chose
# The most moves one firing plays: every seat of the largest table twice, and then some.
MAX_FIRED_MOVES = 16


class BotMoves(Protocol):
    """The referee's bots: the move of ``seat``'s bot of ``strategy`` (a BotStrategy
    number) in ``table``, chosen from the seat's own view and legal moves with ``rng``
    (None: it chose nothing). Awaited before the table's write, never inside it: a bot
    may think for a second (the search bot), and the write holds the game's lock."""

    async def choose(
        self, table: Table, seat: int, strategy: int, rng: random.Random
    ) -> Any | None: ...


class DefaultMoves:
    """No bots: every seat the referee plays gets the game's default move."""

    async def choose(
        self, table: Table, seat: int, strategy: int, rng: random.Random
    ) -> Any | None:
        return None


def no_show(table: Table, seat: int, spec: records.ClockSpec, at: float) -> records.HostRecord:
    """The hosting record after the no-show policy took ``seat`` (service.domain.hosting's
    transitions, marked automatic): forfeited, or handed to the clock's bot (a game
    without a forfeit, such as The Gang, always to a bot)."""
    when = hosting.When(table.version, at)
    host = table.hosting
    if spec.no_show == clocks.NO_SHOW_FORFEIT and table.game.forfeitable:
        return hosting.forfeit(host, True, seat, table.finished, when, automatic=True)
    bot = spec.no_show_bot or NO_SHOW_BOT_STRATEGY
    return hosting.replace_by_bot(host, seat, bot, table.finished, when, automatic=True)


def _stamp(table: Table) -> Stamp:
    return table.version, table.host_version


class Firer:
    """The firing loop of one process (see the module)."""

    def __init__(
        self,
        writer: TableWriter,
        index: DeadlineIndex,
        *,
        bots: BotMoves | None = None,
        poll_seconds: float = 0.25,
        per_shard: int = 4,
        concurrency: int = 16,
        lease_ms: int = 10_000,
    ) -> None:
        self.writer = writer
        self.index = index
        self.bots: BotMoves = bots or DefaultMoves()
        self.poll_seconds = poll_seconds
        self.per_shard = per_shard
        self.concurrency = concurrency
        self.lease_ms = lease_ms
        self._slots = asyncio.Semaphore(concurrency)
        self.busy = 0  # games being fired now (tests: never above concurrency)
        self.most_busy = 0
        self._stopping = False

    def stop(self) -> None:
        """End :meth:`run` after its pass, even if the pass swallowed its cancellation."""
        self._stopping = True

    async def run(self) -> None:
        """Pass after pass until stopped or cancelled; a full pass is followed at once by
        the next."""
        while not self._stopping:
            try:
                claimed = await self.fire_once()
            except RefereeError as error:  # the store is away: try again next pass
                log.warning("deadlines unreadable", reason=error.reason)
                claimed = 0
            if claimed < self.per_shard * self.index.shards:
                await asyncio.sleep(self.poll_seconds)

    async def fire_once(self) -> int:
        """One pass: claim what is due, fire it all (bounded), return how many were claimed."""
        due = await self.index.claim(self.writer.now_ms(), self.lease_ms, self.per_shard)
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
            except Exception:  # a bug in a bot or a game: this game only, never the loop
                log.exception("deadline not fired", game_id=due.game_id)
            finally:
                self.busy -= 1

    async def fire(self, due: Due) -> None:
        """Deal with one claimed member, then drop it (see the module)."""
        with contextlib.suppress(GameNotFound):  # expired: nothing to fire
            await self.play(due.game_id, (due.version, due.host_version))
        await self.index.drop(due)

    async def play(self, game_id: str, stamp: Stamp) -> None:
        """Play every due seat of the game at ``stamp``, one write each, while they stay
        due; a seat not due yet has its deadline indexed again."""
        for _ in range(MAX_FIRED_MOVES):
            chosen = await self._bot_choice(game_id, stamp)
            try:
                written = await self.writer.write(game_id, self._due_move(stamp, chosen))
            except MoveError as error:  # an engine's default move must always be legal
                log.error("the referee's own move is illegal", game_id=game_id, reason=error.reason)
                return
            table, move = written.table, written.change
            if move is None or written.duplicate is not None:
                if move is None and _stamp(table) == stamp and self._waiting(table):
                    await self.writer.schedule_clock(table)  # claimed early, or time given back
                return
            assert isinstance(move, Move)
            stamp = _stamp(table)
            if clocks.move_by(move.client_move_id) == clocks.BY_CLOCK:
                stamp = await self._no_show(table, move.seat)

    async def _bot_choice(self, game_id: str, stamp: Stamp) -> Chosen | None:
        """The bot's move for the first due seat of the game at ``stamp``, if the referee's
        bot holds it, decided before the write (see :class:`BotMoves`); its randomness
        seeded from the game, version and seat (the stamp check keeps one replica's choice)."""
        table = await self.writer.current(game_id)
        due = self._first_due(table, stamp)
        if due is None or due[1] != clocks.BY_BOT:
            return None
        seat = due[0]
        rng = random.Random(f"{table.game_id}/{table.version}/{seat}")
        move = await self.bots.choose(table, seat, table.hosting.seats[seat].bot, rng)
        return None if move is None else (seat, move)

    def _first_due(self, table: Table, stamp: Stamp) -> tuple[int, int] | None:
        """The first seat of the table at ``stamp`` whose time is up, and who plays it
        (None: the game moved on, is over or not live, or no seat is due yet)."""
        if _stamp(table) != stamp or not _live(table):
            return None
        now = self.writer.now_ms()
        due = clock_deadlines(table, self.writer.bot_delay_ms)
        ready = sorted(seat for seat, at in due.items() if at <= now)
        if not ready:
            return None
        return ready[0], clocks.by_for(ready[0], clocks.roles(table.hosting))

    def _due_move(self, stamp: Stamp, chosen: Chosen | None) -> Decide:
        """Decide the move of the first due seat of the table at ``stamp`` (None: nothing
        is due): the bot's ``chosen`` move for its seat while it is legal, else the
        game's default move."""

        def deciding(table: Table) -> Move | None:
            due = self._first_due(table, stamp)
            if due is None:
                return None
            seat, by = due
            move = None
            if by == clocks.BY_BOT and chosen is not None and chosen[0] == seat:
                move = chosen[1] if table.game.is_legal(table.state, seat, chosen[1]) else None
            if move is None:
                move = table.game.default_move(table.state, seat)
            check_room(table.version, table.move_limit)
            state, events = table.game.apply(table.state, seat, move)
            return Move(seat, move, state, events, clocks.move_id(by, table.version, seat))

        return deciding

    async def _no_show(self, table: Table, seat: int) -> Stamp:
        """Apply the no-show policy to ``seat`` if its clock moves say so (a host change
        through the writer, decided only on ``table``'s stamp); the stamp after it."""
        spec, state = table.clock_spec, table.clock_state
        who = clocks.roles(table.hosting)
        if spec is None or state is None or not clocks.no_show_due(spec, state, seat, who):
            return _stamp(table)
        stamp = _stamp(table)

        def deciding(now: Table) -> HostChange | None:
            if _stamp(now) != stamp:
                return None
            return HostChange(no_show(now, seat, spec, self.writer.now_ms() / 1000))

        try:
            written = await self.writer.write(table.game_id, deciding)
        except RefereeError as error:  # the record refuses it: the next clock move tries again
            log.warning("no-show not applied", game_id=table.game_id, reason=error.reason)
            return stamp
        if written.change is not None:
            log.info("no-show", game_id=table.game_id, seat=seat, policy=spec.no_show)
        return _stamp(written.table)

    def _waiting(self, table: Table) -> bool:
        """A live table with a deadline still to come."""
        return _live(table) and bool(clock_deadlines(table, self.writer.bot_delay_ms))


def _live(table: Table) -> bool:
    return not table.finished and table.hosting.status == records.TABLE_LIVE


@contextlib.asynccontextmanager
async def firing(firer: Firer) -> AsyncIterator[Firer]:
    """The firer's loop as a task for the block's duration.

    Stopped by a flag as well as cancelled: a cancellation that lands in a Redis call at
    the wrong instant can be swallowed by the client library (redis-py issues 2028 and
    2551: a timeout context around the socket read), and the loop then went on forever,
    so a SIGTERMed referee never exited (a `referee serve` left holding its ports)."""
    task = asyncio.create_task(firer.run(), name="deadline firer")
    try:
        yield firer
    finally:
        firer.stop()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
