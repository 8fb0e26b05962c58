"""Test-side helpers for the use cases on :class:`~service.storage.memory.MemoryStore`: a
referee and its table writer in this process's memory (no Redis, no server), a time
source that moves only when a test says so, and the log as stored, to witness what a
write did."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from service.app.referee import Referee
from service.app.views import Created
from service.app.writer import Following, Move, TableWriter
from service.domain import records
from service.domain.auth import TokenSigner
from service.storage.games import GameStore
from service.storage.tables import Table, load_table

SECRET = b"k" * 32
T0 = 1_700_000_000_000


@dataclass
class FakeTime:
    """Unix ms that move only when a test says so (as tests/service/clocking.py's)."""

    now: int = T0

    def __call__(self) -> int:
        return self.now

    def advance(self, ms: int) -> None:
        self.now += ms


@dataclass
class Stats:
    """A :class:`~service.app.writer.WriteStats` that counts."""

    conflicts: int = 0
    retries: int = 0

    def count_conflict(self) -> None:
        self.conflicts += 1

    def count_retry(self) -> None:
        self.retries += 1


@dataclass
class Ended:
    """A ``Following.ended`` hook that records every game id it is told of."""

    calls: list[str] = field(default_factory=list)

    async def __call__(self, game_id: str) -> None:
        self.calls.append(game_id)


def writer_on(
    store: GameStore,
    *,
    time: Callable[[], int] | None = None,
    stats: Stats | None = None,
    ended: Ended | None = None,
    max_retries: int = 16,
) -> TableWriter:
    """A table writer on ``store``: one replica's (its own lock and copies)."""
    following = Following(ended=() if ended is None else (ended,))
    return TableWriter(
        store,
        following=following,
        stats=stats,
        now_ms=time or FakeTime(),
        max_retries=max_retries,
    )


def referee_on(writer: TableWriter) -> Referee:
    """A referee on ``writer`` that takes the test's seeds (deterministic games)."""
    return Referee(writer, TokenSigner(SECRET), allow_client_seeds=True)


async def create(
    referee: Referee, game: str, seats: int, seed: bytes = b"app", **options: object
) -> Created:
    """A live table of ``game``, every seat a player's (``options``: the engine's and the
    table's, such as its ``clock``), from a fixed seed."""
    return await referee.create_game(game, seats, options, allow_spectators=True, seed=seed)


async def logged(store: GameStore, game_id: str) -> list[records.LogEntry]:
    """The log as stored, checked to be contiguous (entry i made version i + 1) and to
    end at the stored game's version: each version once, never one applied twice."""
    entries = [records.log_decoder.decode(raw) for raw in await store.log(game_id)]
    assert [entry.version for entry in entries] == list(range(1, len(entries) + 1))
    assert (await load_table(store, game_id)).version == len(entries)
    return entries


def default_move(seat: int | None = None, prefix: str = "m") -> Callable[[Table], Move]:
    """A decide function: ``seat`` (None: the first seat the game waits for) plays its
    default move, under the move id ``{prefix}{version}:{seat}`` of the table decided on."""

    def deciding(table: Table) -> Move:
        mover = min(table.awaited(table.state)) if seat is None else seat
        move = table.game.default_move(table.state, mover)
        state, events = table.game.apply(table.state, mover, move)
        return Move(mover, move, state, events, f"{prefix}{table.version}:{mover}")

    return deciding
