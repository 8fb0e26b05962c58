"""The firer's decisions (service.app.firer.Firer.play) on MemoryStore with a fake time: a
due seat gets its default move by the clock, a stale stamp or a seat not due yet gets
nothing, and after ``no_show_after`` consecutive clock moves the no-show policy hands the
seat to a bot or forfeits it. The firer is stepped by hand; nothing waits real seconds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

import pytest

from service.app.firer import NO_SHOW_BOT_STRATEGY, Firer
from service.app.referee import Referee
from service.app.writer import HostChange, TableWriter
from service.domain import clocks, hosting, records
from service.domain.records import ClockSpec
from service.storage.deadlines import DeadlineIndex
from service.storage.memory import MemoryStore
from service.storage.tables import Table, load_table
from tests.app.in_memory import T0, FakeTime, create, logged, referee_on

SECOND = 1000


@dataclass
class Deadlines:
    """Stands in for the DeadlineIndex: records what the writer and the firer index. The
    table writer only calls ``schedule``; the firer's ``play`` uses no index at all (only
    ``run``, ``fire_once`` and ``fire`` claim and drop), so any other use fails loudly
    with an AttributeError."""

    scheduled: list[tuple[str, int, int, int]] = field(default_factory=list)

    async def schedule(self, game_id: str, version: int, host_version: int, due_ms: int) -> None:
        self.scheduled.append((game_id, version, host_version, due_ms))


@dataclass
class Clocked:
    referee: Referee
    firer: Firer
    time: FakeTime
    deadlines: Deadlines

    @property
    def writer(self) -> TableWriter:
        return self.referee.writer

    async def table(self, game_id: str) -> Table:
        return await load_table(self.writer.store, game_id)

    async def play(self, game_id: str) -> None:
        """Fire the game at its stamp now (as the firer does with a claimed member)."""
        table = await self.table(game_id)
        await self.firer.play(game_id, (table.version, table.host_version))


@pytest.fixture
def clocked() -> Clocked:
    time, deadlines = FakeTime(), Deadlines()
    # The stub has only what is used of a DeadlineIndex (see Deadlines): cast, not subclassed.
    index = cast(DeadlineIndex, deadlines)
    writer = TableWriter(MemoryStore(), deadlines=index, now_ms=time)
    return Clocked(referee_on(writer), Firer(writer, index), time, deadlines)


async def clocked_game(
    clocked: Clocked, game: str, seats: int, spec: ClockSpec
) -> tuple[str, list[str]]:
    created = await create(clocked.referee, game, seats, clock=spec)
    return created.game_id, created.tokens


async def test_a_due_seat_gets_its_default_move_by_the_clock(clocked: Clocked) -> None:
    """When a seat's per-move limit runs out, the firer plays ``default_move`` for it under
    the clock's move id (``~clock:{version}:{seat}``, ``move_by`` BY_CLOCK), counts the
    clock move, and indexes the next seat's deadline, a full limit from now."""
    game_id, _ = await clocked_game(clocked, "gang_of_four", 3, ClockSpec(move_seconds=1))
    table = await clocked.table(game_id)
    (seat,) = table.awaited(table.state)
    assert clocked.deadlines.scheduled == [(game_id, 0, 0, T0 + SECOND)]
    clocked.time.advance(SECOND)
    await clocked.firer.play(game_id, (0, 0))
    (entry,) = await logged(clocked.writer.store, game_id)
    assert entry.client_move_id == clocks.move_id(clocks.BY_CLOCK, 0, seat) == f"~clock:0:{seat}"
    assert entry.client_move_id.startswith(clocks.CLOCK_PREFIX)
    assert clocks.move_by(entry.client_move_id) == clocks.BY_CLOCK
    assert (entry.seat, table.decode_move(entry.move)) == (
        seat,
        table.game.default_move(table.state, seat),
    )
    after = await clocked.table(game_id)
    assert after.clock_state is not None
    assert after.clock_state.seats[seat].clock_moves == 1
    (following,) = after.awaited(after.state)
    assert following != seat
    assert clocked.deadlines.scheduled[-1] == (game_id, 1, 0, T0 + 2 * SECOND)


async def test_every_due_seat_of_a_simultaneous_phase_is_played_once(clocked: Clocked) -> None:
    """Rule: "Play every due seat of the game at ``stamp``, one write each, while they stay due":
    both seats of Pinched's simultaneous phase, in seat order, each once, then nothing
    more (the next phase's clocks start now)."""
    game_id, _ = await clocked_game(clocked, "pinched", 2, ClockSpec(move_seconds=1))
    table = await clocked.table(game_id)
    assert table.awaited(table.state) == {0, 1}
    clocked.time.advance(SECOND)
    await clocked.firer.play(game_id, (0, 0))
    entries = await logged(clocked.writer.store, game_id)
    assert [entry.client_move_id for entry in entries] == ["~clock:0:0", "~clock:1:1"]


async def moved_on_by_a_move(clocked: Clocked, game_id: str, tokens: list[str]) -> None:
    table = await clocked.table(game_id)
    seat = min(table.awaited(table.state))
    move = table.game.default_move(table.state, seat)
    await clocked.referee.submit_move(game_id, tokens[seat], table.game.name, move, "p", None)


async def moved_on_by_a_host_change(clocked: Clocked, game_id: str, tokens: list[str]) -> None:
    def handing(table: Table) -> HostChange:
        when = hosting.When(table.version, 0.0)
        seat = max(set(range(table.meta.seats)) - table.awaited(table.state))
        return HostChange(hosting.replace_by_bot(table.hosting, seat, 1, table.finished, when))

    await clocked.writer.write(game_id, handing)


@pytest.mark.parametrize("moved_on", [moved_on_by_a_move, moved_on_by_a_host_change])
async def test_a_stale_stamp_plays_nothing(clocked: Clocked, moved_on: object) -> None:
    """Each decide "does nothing if the game moved on since the member was set (a newer
    state has its own member)": firing the stamp (0, 0) after a move (version 1) or a host
    change (host version 1) plays nothing and indexes nothing, though a seat is long due;
    the current stamp then plays it."""
    game_id, tokens = await clocked_game(clocked, "gang_of_four", 3, ClockSpec(move_seconds=1))
    assert callable(moved_on)
    await moved_on(clocked, game_id, tokens)
    moved = await clocked.table(game_id)
    assert (moved.version, moved.host_version) != (0, 0)
    clocked.time.advance(5 * SECOND)
    indexed = len(clocked.deadlines.scheduled)
    await clocked.firer.play(game_id, (0, 0))
    assert len(await logged(clocked.writer.store, game_id)) == moved.version
    assert len(clocked.deadlines.scheduled) == indexed
    await clocked.play(game_id)
    last = (await logged(clocked.writer.store, game_id))[moved.version]
    assert last.client_move_id.startswith(clocks.CLOCK_PREFIX)


async def test_a_seat_not_due_yet_plays_nothing_and_is_indexed_again(clocked: Clocked) -> None:
    """A member claimed early (a millisecond before the seat's limit) plays nothing; "a
    seat not due yet has its deadline indexed again", and at its deadline it is played."""
    game_id, _ = await clocked_game(clocked, "gang_of_four", 3, ClockSpec(move_seconds=1))
    clocked.time.advance(SECOND - 1)
    await clocked.firer.play(game_id, (0, 0))
    assert await logged(clocked.writer.store, game_id) == []
    assert clocked.deadlines.scheduled[-1] == (game_id, 0, 0, T0 + SECOND)
    clocked.time.advance(1)
    await clocked.firer.play(game_id, (0, 0))
    assert len(await logged(clocked.writer.store, game_id)) == 1


async def players_move(clocked: Clocked, game_id: str, tokens: list[str], idle: int) -> bool:
    """One player's move (its default move) by the first awaited seat other than
    ``idle``; False when only ``idle`` is awaited (or the game is over)."""
    table = await clocked.table(game_id)
    others = sorted(table.awaited(table.state) - {idle})
    if table.finished or not others:
        return False
    seat = others[0]
    move = table.game.default_move(table.state, seat)
    await clocked.referee.submit_move(
        game_id, tokens[seat], table.game.name, move, f"p{table.version}:{seat}", None
    )
    return True


async def idle_until_handed_over(
    clocked: Clocked, game_id: str, tokens: list[str], *, most_clock_moves: int
) -> Table:
    """Everybody but seat 0 plays; seat 0's time runs out each time it is awaited; until
    its hosting changes or the clock moved for it ``most_clock_moves`` times."""
    for _ in range(5_000):
        table = await clocked.table(game_id)
        clock_moves = [
            entry
            for entry in await logged(clocked.writer.store, game_id)
            if entry.seat == 0 and clocks.move_by(entry.client_move_id) == clocks.BY_CLOCK
        ]
        if table.host_version or table.finished or len(clock_moves) >= most_clock_moves:
            return table
        if not await players_move(clocked, game_id, tokens, idle=0):
            clocked.time.advance(SECOND)
            await clocked.play(game_id)
    raise AssertionError("seat 0 was never handed over")


@pytest.mark.parametrize(
    ("game", "seats", "policy", "after"),
    [
        ("gang_of_four", 3, clocks.NO_SHOW_BOT, "bot"),
        ("pinched", 2, clocks.NO_SHOW_FORFEIT, "forfeited"),
        ("gang_of_four", 3, clocks.NO_SHOW_FORFEIT, "forfeited"),
        ("the_gang", 3, clocks.NO_SHOW_FORFEIT, "bot"),  # not forfeitable: to a bot
        ("the_gang", 3, clocks.NO_SHOW_BOT, "bot"),
    ],
)
async def test_a_no_show_is_handed_over_after_no_show_after_clock_moves(
    clocked: Clocked, game: str, seats: int, policy: int, after: str
) -> None:
    """Rule: "After a seat's ``no_show_after`` consecutive clock moves the no-show policy hands
    it to a bot or forfeits it (a game without a forfeit, such as The Gang, always to a
    bot)": an automatic action right after the seat's second clock move, and from then
    on the seat is the bot's (its moves ``~bot:``) or the clock's (forfeited)."""
    spec = ClockSpec(move_seconds=1, no_show_after=2, no_show=policy)
    game_id, tokens = await clocked_game(clocked, game, seats, spec)
    table = await idle_until_handed_over(clocked, game_id, tokens, most_clock_moves=3)
    assert table.host_version == 1
    assert (table.game.forfeitable, after) != (False, "forfeited")
    action = table.hosting.actions[-1]
    assert (action.seat, action.automatic) == (0, True)
    entries = await logged(clocked.writer.store, game_id)
    seat0 = [entry for entry in entries[: action.version] if entry.seat == 0]
    assert [clocks.move_by(entry.client_move_id) for entry in seat0] == [clocks.BY_CLOCK] * 2
    assert seat0[-1].version == action.version  # decided on the second clock move's table
    hold = table.hosting.seats[0]
    if after == "bot":
        assert (action.kind, hold.holder, hold.bot) == (
            hosting.BOT_REPLACED,
            records.BOT,
            NO_SHOW_BOT_STRATEGY,
        )
        assert not hold.forfeited
    else:
        assert (action.kind, hold.forfeited, hold.holder) == (
            hosting.FORFEITED,
            True,
            records.PLAYER,
        )
    # On until seat 0 moves again: by its bot, or (forfeited) by the clock; never again
    # handed over.
    for _ in range(500):
        entries = await logged(clocked.writer.store, game_id)
        later = [entry for entry in entries[action.version :] if entry.seat == 0]
        if later:
            break
        if not await players_move(clocked, game_id, tokens, idle=0):
            clocked.time.advance(SECOND)
            await clocked.play(game_id)
    else:
        pytest.fail("seat 0 never moved again")
    expected = clocks.BY_BOT if after == "bot" else clocks.BY_CLOCK
    assert clocks.move_by(later[0].client_move_id) == expected
    assert (await clocked.table(game_id)).host_version == 1


async def test_the_no_show_count_is_of_consecutive_clock_moves(clocked: Clocked) -> None:
    """The count of clock moves is "raised by a clock move and reset by any other": a
    seat whose time ran out once, that then moved itself, and ran out once more is no
    no-show (two clock moves, not consecutive); one more and it is."""
    spec = ClockSpec(move_seconds=1, no_show_after=2, no_show=clocks.NO_SHOW_BOT)
    game_id, tokens = await clocked_game(clocked, "gang_of_four", 3, spec)
    table = await idle_until_handed_over(clocked, game_id, tokens, most_clock_moves=1)
    assert table.host_version == 0
    while await players_move(clocked, game_id, tokens, idle=0):
        pass
    table = await clocked.table(game_id)
    assert 0 in table.awaited(table.state)
    move = table.game.default_move(table.state, 0)
    await clocked.referee.submit_move(game_id, tokens[0], table.game.name, move, "me", None)
    table = await idle_until_handed_over(clocked, game_id, tokens, most_clock_moves=2)
    assert table.host_version == 0  # two clock moves, the player's own between them
    assert table.clock_state is not None and table.clock_state.seats[0].clock_moves == 1
    table = await idle_until_handed_over(clocked, game_id, tokens, most_clock_moves=4)
    assert table.host_version == 1
    assert table.hosting.actions[-1].automatic
    entries = await logged(clocked.writer.store, game_id)
    seat0 = [entry.client_move_id for entry in entries if entry.seat == 0]
    assert seat0[-4:] == [seat0[-4], "me", seat0[-2], seat0[-1]]
    assert [clocks.move_by(move_id) for move_id in seat0[-4:]] == [1, 0, 1, 1]
    assert table.hosting.seats[0].holder == records.BOT
