"""The game store's contract: what the table writer and the repository need of storage.

Two implementations honour it: :class:`service.storage.store.RedisStore` (one Lua
compare-and-set per write, durable before it answers) and
:class:`service.storage.memory.MemoryStore` (the same versions, conflicts and idempotency
in one process's memory, for use-case tests). ``tests/store/test_store_contract.py`` holds
both to the same contract.

The rules every implementation keeps:

- A game is created at version 0 and host version 0, once: a second create is refused.
- :meth:`GameStore.commit` applies a move only at ``expected_version`` and
  ``host_version``; a known ``move_key`` is a DUPLICATE carrying the first move's record
  (checked first, nothing written); then a missing game is MISSING; then a stale version or
  host version is CONFLICT. OK moves the game to ``expected_version + 1`` and appends the
  log entry, whose position ``i`` made version ``i + 1``.
- :meth:`GameStore.change_host` replaces the hosting record (and the clock state, if
  given) only at ``expected_version`` and ``expected_host_version``; OK carries the new host
  version.
- Nothing is changed by a refused write.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from service.storage.redis_kit import CommitResult as CommitResult
from service.storage.redis_kit import CommitStatus as CommitStatus


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game as stored: its version, the opaque state and metadata bytes, and the head of
    its log's hash chain at that version (None: stored before the chain existed).

    ``host`` is the table's hosting record (seats, names, token generations, status;
    None: stored before tables were hosted) and ``host_version`` the count of its changes,
    which a move's commit compares; ``clock`` the turn clock's state (None: no clock)."""

    version: int
    state: bytes
    meta: bytes
    head: str | None = None
    host: bytes | None = None
    host_version: int = 0
    clock: bytes | None = None


class GameStore(Protocol):
    """The game store, as the table writer (service.app.writer) and the repository
    (service.storage.tables) use it."""

    async def create(
        self,
        game_id: str,
        state: bytes,
        meta: bytes,
        *,
        host: bytes | None = None,
        clock: bytes | None = None,
    ) -> bool: ...

    async def load(self, game_id: str) -> GameRecord | None: ...

    async def load_with_presence(
        self, game_id: str
    ) -> tuple[GameRecord | None, frozenset[int]]: ...

    async def stamp(self, game_id: str) -> tuple[int, int, frozenset[int]] | None: ...

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
    ) -> CommitResult: ...

    async def change_host(
        self,
        game_id: str,
        *,
        expected_version: int,
        expected_host_version: int,
        host: bytes,
        clock: bytes | None = None,
    ) -> CommitResult: ...

    async def move_record(self, game_id: str, move_key: str) -> bytes | None: ...

    async def log(self, game_id: str, start: int = 0, stop: int = -1) -> list[bytes]: ...

    async def exists(self, game_id: str) -> bool: ...

    async def delete(self, game_id: str) -> None: ...


__all__ = ["CommitResult", "CommitStatus", "GameRecord", "GameStore"]
