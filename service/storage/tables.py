"""Loading and decoding games from the store: the referee's repository.

A :class:`Table` is one game at one version, decoded into engine values. States, moves and
configs travel as MessagePack produced by msgspec from the engine's own Structs, decoded
with typed decoders so a corrupted record fails loudly instead of half-loading.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import msgspec

from engines.base import GameDefinition, Step, replay
from engines.registry import GAMES
from service.domain import chain, clocks, hosting, records
from service.domain.move_limits import move_limit
from service.errors import GameNotFound, echo
from service.storage.games import GameStore

AnyGame = GameDefinition[Any, Any, Any, Any, Any]


@dataclass(frozen=True)
class Formats:
    """Typed MessagePack decoders for one game's values."""

    state: msgspec.msgpack.Decoder[Any]
    move: msgspec.msgpack.Decoder[Any]
    config: msgspec.msgpack.Decoder[Any]


@cache
def formats(name: str) -> Formats:
    game = GAMES[name]
    return Formats(
        state=msgspec.msgpack.Decoder(game.state_type),
        move=msgspec.msgpack.Decoder(game.move_type),
        config=msgspec.msgpack.Decoder(game.config_type),
    )


@dataclass(frozen=True)
class Table:
    """One game at ``version``; ``head`` is its log's chain head there (service.domain.chain)."""

    game_id: str
    game: AnyGame
    meta: records.GameMeta
    config: Any
    version: int
    state: Any
    head: str
    # The table's hosting record (service.domain.hosting; the default for a game stored
    # without one) and its host version, which a move's commit is compared against.
    hosting: records.HostRecord
    host_version: int = 0
    # The clock state as stored (service.domain.clocks; None: no clock has run yet), and
    # the seats with a live stream as of the load (service.storage.presence).
    clock: bytes | None = None
    present: frozenset[int] = frozenset()

    @property
    def finished(self) -> bool:
        return self.game.outcome(self.state) is not None

    @property
    def move_limit(self) -> int:
        """The most moves this game accepts (service.domain.move_limits)."""
        return move_limit(self.meta, self.game.default_move_limit)

    def decode_move(self, raw: bytes) -> Any:
        return formats(self.game.name).move.decode(raw)

    @property
    def clock_spec(self) -> records.ClockSpec | None:
        """The table's clock as created; None: no clock."""
        spec = self.meta.clock
        return None if isinstance(spec, msgspec.UnsetType) else spec

    @property
    def clock_state(self) -> clocks.ClockState | None:
        """The clocks at this version as stored (None: no clock has run yet)."""
        return clocks.decode(self.clock)

    def awaited(self, state: Any) -> frozenset[int]:
        """The seats the game waits for in ``state``: those whose clocks run."""
        seats: frozenset[int] = self.game.waiting_for(state)
        return seats


@dataclass(frozen=True)
class Clocked:
    """A table's clocks after a move: the state to store with it (None: the table has
    no clock and no seat the referee plays) and the next deadline (None: none)."""

    state: clocks.ClockState | None
    due_ms: int | None


def clocks_of(table: Table) -> clocks.ClockState:
    """The clocks at the table's version: as stored, or (stored without, e.g. a table
    without a clock whose seat went to a bot) running since the table was created."""
    state = table.clock_state
    if state is not None:
        return state
    rules = table.clock_spec or records.ClockSpec()
    created_ms = int(table.meta.created_at * 1000)
    return clocks.at_start(rules, table.meta.seats, table.awaited(table.state), created_ms)


def clock_deadlines(table: Table, bot_delay_ms: int) -> dict[int, int]:
    """Every awaited seat's deadline at the table's version, by seat (none: nothing to
    fire: no clock, and no seat the referee plays)."""
    who = clocks.roles(table.hosting)
    if table.clock_spec is None and not who.any:
        return {}
    return clocks.deadlines(table.clock_spec, clocks_of(table), who, bot_delay_ms)


def clock_after(
    table: Table, state: Any, seat: int, by: int, now_ms: int, bot_delay_ms: int
) -> Clocked:
    """The clocks after ``seat``'s move (made ``by`` whom, at ``now_ms``) that led from
    ``table`` to ``state``: computed purely (service.domain.clocks), stored with the move."""
    spec = table.clock_spec
    who = clocks.roles(table.hosting)
    if spec is None and not who.any:
        return Clocked(None, None)
    before = clocks_of(table)
    after = clocks.after_move(
        spec or records.ClockSpec(),
        before,
        table.awaited(table.state),
        table.awaited(state),
        seat,
        by,
        now_ms,
    )
    found = clocks.deadlines(spec, after, who, bot_delay_ms)
    return Clocked(after, min(found.values(), default=None))


async def load_table(store: GameStore, game_id: str) -> Table:
    record, present = await store.load_with_presence(game_id)
    if record is None:
        raise GameNotFound("GAME_NOT_FOUND", f"no game {echo(game_id)} (it may have expired)")
    meta = records.meta_decoder.decode(record.meta)
    game = GAMES[meta.game]
    fmt = formats(meta.game)
    head = record.head
    if head is None and record.version == 0:  # not moved yet: the commitment
        head = meta.seed_sha256
    elif head is None:  # stored before the chain existed: from its log, once per load
        head = chain.heads(meta.seed_sha256, await store.log(game_id, 0, record.version - 1))[-1]
    return Table(
        game_id=game_id,
        game=game,
        meta=meta,
        config=fmt.config.decode(meta.config),
        version=record.version,
        state=fmt.state.decode(record.state),
        head=head,
        hosting=hosting.decode(record.host, meta.seats, meta.created_at),
        host_version=record.host_version,
        clock=record.clock,
        present=present,
    )


@dataclass(frozen=True)
class Logged:
    """One stored log entry: its exact bytes, decoded, and the chain head it made."""

    raw: bytes
    entry: records.LogEntry
    head: str


async def load_log(store: GameStore, table: Table, upto: int) -> list[Logged]:
    """The first ``upto`` log entries (those that made versions 1..upto), with heads."""
    if upto <= 0:
        return []
    raw = await store.log(table.game_id, 0, upto - 1)
    heads = chain.heads(table.meta.seed_sha256, raw)
    return [
        Logged(item, records.log_decoder.decode(item), head)
        for item, head in zip(raw, heads[1:], strict=True)
    ]


def replay_log(table: Table, entries: list[Logged]) -> tuple[Any, list[Step[Any, Any, Any]]]:
    """States and events of every logged move, recomputed from the seed."""
    moves = [(item.entry.seat, table.decode_move(item.entry.move)) for item in entries]
    return replay(table.game, table.config, table.meta.seed, moves)
