"""The game store in one process's memory: :class:`MemoryStore`, for use-case tests.

It keeps the contract of :mod:`service.storage.games` as :class:`service.storage.store.RedisStore`
keeps it, answer for answer: the same versions and host versions, the same order of checks
in a commit, the same idempotency by move key (a finished game's records dropped, its late
retries answered from its log) and the same reads. ``tests/store/test_store_contract.py``
runs one suite against both.

What it leaves out is what the contract does not promise: expiry, watcher streams and
presence leases (it holds none, so every seat is absent).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from service.domain import records
from service.storage.games import CommitResult, CommitStatus, GameRecord
from service.storage.store_replies import lrange_slice


@dataclass(slots=True)
class _Game:
    """One game as RedisStore keeps its keys: the hash's fields, the log, the records.

    ``state`` holds the bytes Redis would (:func:`service.domain.records.stored_state`),
    so :meth:`MemoryStore.load` gives back exactly what RedisStore's load would."""

    version: int
    state: bytes
    meta: bytes
    host: bytes | None
    clock: bytes | None
    head: str | None = None
    host_version: int = 0
    log: list[bytes] = field(default_factory=list)
    moves: dict[str, bytes] = field(default_factory=dict)

    def record(self) -> GameRecord:
        return GameRecord(
            version=self.version,
            state=records.loaded_state(self.state),
            meta=self.meta,
            head=self.head,
            host=self.host,
            host_version=self.host_version,
            clock=self.clock,
        )


def _checked(game_id: str) -> str:
    """``game_id`` if RedisStore would take it (non-empty, brace-free: see its ``keys``)."""
    if not game_id or "{" in game_id or "}" in game_id:
        raise ValueError(f"invalid game id {game_id!r}: must be non-empty, without braces")
    return game_id


async def _round_trip() -> None:
    """Where RedisStore waits for Redis: every call lets the other tasks run once first.

    Without it a call would run to its end the moment it is awaited, and a use-case test
    could never see what real I/O allows: another task's write landing between this
    task's load and its commit. The yield comes before each call's reads and writes, never
    between them, so each call stays as atomic as RedisStore's one Lua script."""
    await asyncio.sleep(0)


class MemoryStore:
    """The game store (:class:`service.storage.games.GameStore`) in a dict of games.

    One event loop's tasks may share it; it is not for threads."""

    def __init__(self) -> None:
        self._games: dict[str, _Game] = {}

    async def create(
        self,
        game_id: str,
        state: bytes,
        meta: bytes,
        *,
        host: bytes | None = None,
        clock: bytes | None = None,
    ) -> bool:
        """Create the game at version 0 (host version 0); False (and nothing written) if
        it exists. An empty ``host`` or ``clock`` is none, as in RedisStore."""
        await _round_trip()
        if _checked(game_id) in self._games:
            return False
        self._games[game_id] = _Game(
            version=0, state=state, meta=meta, host=host or None, clock=clock or None
        )
        return True

    async def load(self, game_id: str) -> GameRecord | None:
        await _round_trip()
        game = self._games.get(_checked(game_id))
        return None if game is None else game.record()

    async def load_with_presence(self, game_id: str) -> tuple[GameRecord | None, frozenset[int]]:
        """:meth:`load`, and no present seats: this store holds no presence leases."""
        return await self.load(game_id), frozenset()

    async def stamp(self, game_id: str) -> tuple[int, int, frozenset[int]] | None:
        await _round_trip()
        game = self._games.get(_checked(game_id))
        return None if game is None else (game.version, game.host_version, frozenset())

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
        """Apply one move if ``expected_version`` and ``host_version`` are current, with
        RedisStore's checks in its order (``commit.lua``): DUPLICATE, MISSING, CONFLICT
        (a game's records live and go with it, so a missing game has none to find).

        A move that finishes the game drops the game's records, as Redis does: a later
        repeat of any of its move keys is no DUPLICATE but a CONFLICT (the game has moved
        on), and :meth:`move_record` answers it from the log. ``rated`` changes nothing
        here: no games to rate are kept in memory (RedisStore's ``pending``)."""
        if expected_version < 0:
            raise ValueError("expected_version must be >= 0")
        await _round_trip()
        game = self._games.get(_checked(game_id))
        if game is None:
            return CommitResult(CommitStatus.MISSING, -1)
        first = game.moves.get(move_key)
        if first is not None:
            return CommitResult(CommitStatus.DUPLICATE, game.version, first)
        if game.version != expected_version or game.host_version != host_version:
            return CommitResult(CommitStatus.CONFLICT, game.version)
        game.version += 1
        game.state = records.stored_state(state, finished=finished)
        game.head = head
        if clock:
            game.clock = clock
        game.log.append(log_entry)
        if finished:
            game.moves.clear()
        else:
            game.moves[move_key] = move_record
        return CommitResult(CommitStatus.OK, game.version)

    async def change_host(
        self,
        game_id: str,
        *,
        expected_version: int,
        expected_host_version: int,
        host: bytes,
        clock: bytes | None = None,
    ) -> CommitResult:
        """Replace the hosting record (and the clock state, if given) if the game is at
        ``expected_version`` and ``expected_host_version`` (``host.lua``). OK carries the
        new host version; CONFLICT the game's version."""
        await _round_trip()
        game = self._games.get(_checked(game_id))
        if game is None:
            return CommitResult(CommitStatus.MISSING, -1)
        if game.version != expected_version or game.host_version != expected_host_version:
            return CommitResult(CommitStatus.CONFLICT, game.version)
        game.host_version += 1
        game.host = host
        if clock:
            game.clock = clock
        return CommitResult(CommitStatus.OK, game.host_version)

    async def move_record(self, game_id: str, move_key: str) -> bytes | None:
        """The idempotency record of ``move_key`` (None: no move was applied under it);
        a finished game's, whose records were dropped, rebuilt from its log
        (:func:`service.domain.records.logged_record`, as ``move_record.lua``)."""
        await _round_trip()
        game = self._games.get(_checked(game_id))
        if game is None:
            return None
        if move_key in game.moves:
            return game.moves[move_key]
        if not game.moves and game.log:
            return records.logged_record(game.log, move_key)
        return None

    async def log(self, game_id: str, start: int = 0, stop: int = -1) -> list[bytes]:
        """Move log slice, LRANGE semantics; entry i produced version i + 1."""
        await _round_trip()
        game = self._games.get(_checked(game_id))
        return [] if game is None else lrange_slice(game.log, start, stop)

    async def exists(self, game_id: str) -> bool:
        await _round_trip()
        return _checked(game_id) in self._games

    async def delete(self, game_id: str) -> None:
        await _round_trip()
        self._games.pop(_checked(game_id), None)
