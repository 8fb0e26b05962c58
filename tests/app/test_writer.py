"""The unit of work (service.app.writer.TableWriter.write) decides and stores each change of
a game once, on MemoryStore: two TableWriters on one store are two replicas (each its own
lock and copy of the table), and the store's compare-and-set is what they race on."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import pytest

from engines.errors import IllegalMoveError
from service.app.writer import HostChange, Move, TableWriter
from service.domain import hosting, records
from service.errors import RuleViolation, VersionConflict
from service.storage.games import CommitResult
from service.storage.memory import MemoryStore
from service.storage.tables import Table, load_table
from tests.app.in_memory import Ended, Stats, create, default_move, logged, referee_on, writer_on


async def new_game(writer: TableWriter, game: str = "gang_of_four", seats: int = 3) -> str:
    return (await create(referee_on(writer), game, seats)).game_id


def recording(decide: Callable[[Table], Any], seen: list[int]) -> Callable[[Table], Any]:
    """``decide``, noting the version of every table it is asked to decide on."""

    def deciding(table: Table) -> Any:
        seen.append(table.version)
        return decide(table)

    return deciding


def playing(seat: int, move: Any, client_move_id: str) -> Callable[[Table], Move]:
    """A player's fixed move as a decide function: the engine applies it to the table
    given, or refuses it (a MoveError)."""

    def deciding(table: Table) -> Move:
        state, events = table.game.apply(table.state, seat, move)
        return Move(seat, move, state, events, client_move_id)

    return deciding


async def test_a_move_decided_on_a_stale_copy_conflicts_and_is_decided_again_fresh() -> None:
    """Writes decide on the process's copy; "the store's compare-and-set catches any write
    by another process, after which the change is decided again on a fresh load": one
    conflict, the move decided on version 0 then 1, stored once, at version 2."""
    store, stats = MemoryStore(), Stats()
    mine, theirs = writer_on(store, stats=stats), writer_on(store)
    game_id = await new_game(mine)
    assert (await mine.current(game_id)).version == 0  # this replica's copy
    await theirs.write(game_id, default_move(prefix="theirs"))  # the other replica moves
    seen: list[int] = []
    written = await mine.write(game_id, recording(default_move(prefix="mine"), seen))
    assert seen == [0, 1]
    assert (stats.conflicts, stats.retries) == (1, 1)
    assert (written.before.version, written.table.version) == (1, 2)
    entries = await logged(store, game_id)
    assert [entry.client_move_id[:5] for entry in entries] == ["their", "mine1"]
    assert (await mine.table(game_id, fresh=False)) is written.table  # the new copy


async def test_a_refusal_on_the_copy_is_decided_again_and_the_fresh_table_accepts() -> None:
    """Rule: "A refusal ... decided on the copy is decided again on the stored game before it is
    final (the copy may be behind)": the next seat's move is not its turn on the stale
    copy (the engine refuses it) but is on the fresh table, where it is stored, with no
    conflict counted."""
    store, stats = MemoryStore(), Stats()
    mine, theirs = writer_on(store, stats=stats), writer_on(store)
    game_id = await new_game(mine)
    copy = await mine.current(game_id)
    first = min(copy.awaited(copy.state))
    await theirs.write(game_id, default_move(first, prefix="theirs"))
    fresh = await load_table(store, game_id)
    (second,) = fresh.awaited(fresh.state)
    move = fresh.game.legal_moves(fresh.state, second)[0]  # chosen from the fresh view
    with pytest.raises(IllegalMoveError):  # what the copy says of it
        copy.game.apply(copy.state, second, move)
    seen: list[int] = []
    written = await mine.write(game_id, recording(playing(second, move, "late"), seen))
    assert seen == [0, 1]
    assert (stats.conflicts, stats.retries) == (0, 1)
    assert written.table.version == 2
    entries = await logged(store, game_id)
    assert (entries[-1].seat, entries[-1].client_move_id) == (second, "late")


async def test_an_engine_refusal_that_stands_on_the_fresh_table_is_raised() -> None:
    """The refusal of the stored game is raised (decided on the copy, then on a fresh
    load), and "nothing is changed by a refused write"."""
    store, stats = MemoryStore(), Stats()
    writer = writer_on(store, stats=stats)
    game_id = await new_game(writer)
    table = await writer.current(game_id)
    idle = min(set(range(3)) - table.awaited(table.state))
    move = table.game.legal_moves(table.state, min(table.awaited(table.state)))[0]
    seen: list[int] = []
    with pytest.raises(IllegalMoveError):
        await writer.write(game_id, recording(playing(idle, move, "out of turn"), seen))
    assert seen == [0, 0]
    assert (stats.conflicts, stats.retries) == (0, 1)
    assert await logged(store, game_id) == []
    stored = await load_table(store, game_id)
    assert (stored.version, stored.host_version) == (0, 0)


async def test_a_lobby_refusal_that_stands_on_the_fresh_table_is_raised() -> None:
    """The same for a host change: joining a live table (every seat held) is refused by
    service.domain.hosting (RuleViolation GAME_ALREADY_STARTED), on the copy and fresh,
    and the hosting record stays as it was."""
    store = MemoryStore()
    writer = writer_on(store)
    game_id = await new_game(writer)
    before = (await load_table(store, game_id)).hosting

    def joining(table: Table) -> HostChange:
        host, _ = hosting.join(table.hosting, "late", "p-late", hosting.When(table.version, 0.0))
        return HostChange(host)

    seen: list[int] = []
    with pytest.raises(RuleViolation) as refused:
        await writer.write(game_id, recording(joining, seen))
    assert refused.value.reason == "GAME_ALREADY_STARTED"
    assert seen == [0, 0]
    stored = await load_table(store, game_id)
    assert (stored.host_version, stored.hosting) == (0, before)


async def test_nothing_to_do_writes_nothing() -> None:
    """A decide function's None is "nothing to do": decided again on a fresh load, and
    then ``Written(table, table, None)``, with nothing stored."""
    store, stats = MemoryStore(), Stats()
    writer = writer_on(store, stats=stats)
    game_id = await new_game(writer)
    seen: list[int] = []
    written = await writer.write(game_id, recording(lambda table: None, seen))
    assert seen == [0, 0]
    assert written.change is None and written.duplicate is None
    assert written.table is written.before and written.table.version == 0
    assert stats.conflicts == 0
    assert await logged(store, game_id) == []
    assert (await store.stamp(game_id)) == (0, 0, frozenset())


async def test_a_repeated_move_id_is_a_duplicate_carrying_the_first_record() -> None:
    """Rule: "A known move_key is a DUPLICATE carrying the first move's record (checked first,
    nothing written)": the same seat's move id again, on a later table where the move is
    legal again, is ``Written.duplicate`` with the record of version 1, and stores
    nothing."""
    store = MemoryStore()
    writer = writer_on(store)
    game_id = await new_game(writer, "pinched", 2)
    table = await writer.current(game_id)
    assert 0 in table.awaited(table.state)
    first = table.game.legal_moves(table.state, 0)[0]
    await writer.write(game_id, playing(0, first, "again"))
    for _ in range(60):  # on until seat 0 may play the same move again
        table = await writer.current(game_id)
        awaited = table.awaited(table.state)
        if 0 in awaited and first in table.game.legal_moves(table.state, 0):
            break
        await writer.write(game_id, default_move(min(awaited, key=lambda seat: seat == 0)))
    else:
        pytest.fail("seat 0 never had its first move again")
    version = table.version
    written = await writer.write(game_id, playing(0, first, "again"))
    assert written.duplicate is not None
    assert records.record_decoder.decode(written.duplicate).version == 1
    assert written.table is written.before and written.table.version == version
    assert isinstance(written.change, Move) and written.change.client_move_id == "again"
    entries = await logged(store, game_id)
    assert len(entries) == version
    assert [entry.version for entry in entries if entry.client_move_id == "again"] == [1]


class Contended(MemoryStore):
    """A store where another replica's writes, queued in :attr:`meanwhile`, land between
    a writer's load and its commit (what real I/O allows), every time."""

    def __init__(self) -> None:
        super().__init__()
        self.meanwhile: list[Callable[[], Awaitable[object]]] = []

    async def commit(
        self,
        game_id: str,
        *,
        expected_version: int,
        state: bytes,
        log_entry: bytes,
        head: str,
        move_key: str,
        move_record: bytes,
        finished: bool,
        host_version: int = 0,
        clock: bytes | None = None,
        rated: bool = False,
    ) -> CommitResult:
        queued, self.meanwhile = self.meanwhile, []
        for write in queued:
            await write()
        return await super().commit(
            game_id,
            expected_version=expected_version,
            state=state,
            log_entry=log_entry,
            head=head,
            move_key=move_key,
            move_record=move_record,
            finished=finished,
            host_version=host_version,
            clock=clock,
            rated=rated,
        )


async def test_a_game_that_keeps_changing_is_contention_after_max_retries() -> None:
    """Rule: "A conflict (another process wrote first) reloads and decides again, a bounded
    number of times": each time this writer decides, another replica commits first, so
    after ``max_retries`` decisions it raises VersionConflict CONTENTION with the current
    version, having stored nothing of its own."""
    store, stats = Contended(), Stats()
    mine, theirs = writer_on(store, stats=stats, max_retries=3), writer_on(store)
    game_id = await new_game(mine)
    decided = default_move(prefix="mine")
    seen: list[int] = []

    def deciding(table: Table) -> Move:
        seen.append(table.version)
        store.meanwhile.append(lambda: theirs.write(game_id, default_move(prefix="theirs")))
        return decided(table)

    with pytest.raises(VersionConflict) as refused:
        await mine.write(game_id, deciding)
    assert refused.value.reason == "CONTENTION"
    assert refused.value.metadata == {"current_version": "3"}
    assert seen == [0, 1, 2]
    assert (stats.conflicts, stats.retries) == (3, 3)
    entries = await logged(store, game_id)
    assert [entry.client_move_id[:6] for entry in entries] == ["theirs"] * 3


async def test_the_per_game_lock_serialises_one_processs_writes() -> None:
    """Rule: "Takes the game's lock in this process (so six seats racing ... queue here instead
    of spinning on conflicts)": 20 concurrent moves through one writer all apply, each
    decided on the copy the one before left, with no conflict and no retry."""
    store, stats = MemoryStore(), Stats()
    writer = writer_on(store, stats=stats)
    game_id = await new_game(writer)
    await writer.current(game_id)
    seen: list[int] = []
    written = await asyncio.gather(
        *(writer.write(game_id, recording(default_move(), seen)) for _ in range(20))
    )
    assert (stats.conflicts, stats.retries) == (0, 0)
    assert seen == list(range(20))
    assert sorted(item.table.version for item in written) == list(range(1, 21))
    assert len(await logged(store, game_id)) == 20


async def test_without_a_shared_lock_two_replicas_conflict_yet_apply_each_move_once() -> None:
    """The control of the test above (the store does interleave concurrent writes): the
    same burst split over two replicas conflicts, and still every move is applied once,
    each decided again after its conflict."""
    store, stats = MemoryStore(), Stats()
    one, two = writer_on(store, stats=stats), writer_on(store, stats=stats)
    game_id = await new_game(one)
    await asyncio.gather(
        *(
            writer.write(game_id, default_move(prefix=prefix))
            for _ in range(10)
            for writer, prefix in ((one, "a"), (two, "b"))
        )
    )
    assert stats.conflicts > 0
    entries = await logged(store, game_id)
    assert sorted(entry.client_move_id[0] for entry in entries) == ["a"] * 10 + ["b"] * 10


def restored(table: Table) -> HostChange:
    """A later host change of an ended table: its hosting record stored again."""
    return HostChange(msgspec.structs.replace(table.hosting))


async def test_ended_hooks_hear_once_of_a_game_finished_by_a_move() -> None:
    """Rule: "The end of a game (finished or aborted) is announced to ``ended``": not before the
    move that finishes it, once for that move, and not again for a later write."""
    ended = Ended()
    store = MemoryStore()
    writer = writer_on(store, ended=ended)
    game_id = await new_game(writer, "pinched", 2)
    for _ in range(500):
        table = await writer.current(game_id)
        if table.finished:
            break
        assert ended.calls == []
        await writer.write(game_id, default_move())
    else:
        pytest.fail("the game did not finish")
    assert ended.calls == [game_id]
    later = await writer.write(game_id, restored)
    assert later.table.host_version == 1  # committed
    assert ended.calls == [game_id]


async def test_ended_hooks_hear_once_of_a_game_aborted_by_a_host_change() -> None:
    """An abort (service.domain.hosting.abort, a HostChange) ends the game too: the hooks
    hear of it once, and not of a later write of the aborted table."""
    ended = Ended()
    writer = writer_on(MemoryStore(), ended=ended)
    game_id = await new_game(writer)
    await writer.write(game_id, default_move())
    assert ended.calls == []

    def aborting(table: Table) -> HostChange:
        when = hosting.When(table.version, 0.0)
        return HostChange(hosting.abort(table.hosting, table.finished, when))

    written = await writer.write(game_id, aborting)
    assert written.table.hosting.status == records.TABLE_ABORTED
    assert ended.calls == [game_id]
    await writer.write(game_id, restored)
    assert ended.calls == [game_id]
