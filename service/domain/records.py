"""What the referee stores next to a game's state (msgspec, MessagePack on the wire)."""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterable, Sequence
from typing import Final

import msgspec


class GameMeta(msgspec.Struct, frozen=True):
    """Set once at creation. ``seed`` is secret until the game ends. ``move_limit``: the
    most moves the game accepts (service.domain.move_limits); UNSET in a game stored before limits
    existed, which plays under its game's default."""

    game: str
    seats: int
    config: msgspec.Raw  # the engine's config Struct, MessagePack
    allow_spectators: bool
    seed: bytes
    seed_sha256: str
    created_at: float
    move_limit: int | msgspec.UnsetType = msgspec.UNSET
    clock: ClockSpec | msgspec.UnsetType = msgspec.UNSET


class ClockSpec(msgspec.Struct, frozen=True, array_like=True):
    """A table's turn clock as created (table.proto ``Clock``): whole seconds, 0 = none;
    ``no_show`` is the ``NoShow`` enum's number and ``no_show_bot`` the ``BotStrategy``
    number of the bot a no-show's seat goes to (0: the search bot, ``NoShowBot``'s
    default; records stored before it had the field read 0)."""

    move_seconds: int = 0
    bank_seconds: int = 0
    increment_seconds: int = 0
    no_show_after: int = 0
    no_show: int = 0
    no_show_bot: int = 0


# SeatHold.holder values (table.proto ``SeatHolder``) and HostRecord.status values (its
# ``TableStatus``; a finished game is told by its outcome, never stored as a status).
OPEN_SEAT, PLAYER, BOT = 0, 1, 2
TABLE_OPEN, TABLE_LIVE, TABLE_ABORTED = 1, 2, 4


class SeatHold(msgspec.Struct, frozen=True, array_like=True):
    """Who holds one seat. ``generation`` is that of the seat's token (service.domain.auth): a
    reissue raises it and every older token is refused. ``bot`` is the ``BotStrategy``
    number of a seat held by the referee's bot. ``program`` marks a player's seat that a
    program holds (a tournament's bot participant): a slow program may get a clock move,
    but the no-show policy, which is for people who do not show up, never applies to it."""

    holder: int = OPEN_SEAT
    name: str = ""
    player_id: str = ""
    generation: int = 0
    bot: int = 0
    forfeited: bool = False
    program: bool = False


class TableActionRecord(msgspec.Struct, frozen=True, array_like=True):
    """One thing done to the table (table.proto ``TableAction``; ``kind`` its number)."""

    kind: int
    version: int
    seat: int
    name: str
    at: float
    automatic: bool = False


class HostRecord(msgspec.Struct, frozen=True):
    """A table's hosting record, stored beside its game (``GameRecord.host``) and changed
    only through ``host.lua``'s compare-and-set. A game stored without one is a live table
    of players at generation 0 (see service.domain.hosting)."""

    status: int
    seats: tuple[SeatHold, ...]
    created_at: float
    listed: bool = False
    admin_generation: int = 0
    actions: tuple[TableActionRecord, ...] = ()
    # Shows its seats' presence though neither listed nor joined: a tournament's table
    # where a person sits (see service.domain.hosting.tracks_presence).
    presence: bool = False
    # A rated table: its end updates its seated players' ratings (service.app.rater); a
    # tournament's table names its tournament (its players' rating histories show it).
    rated: bool = False
    tournament_id: str = ""


class LogEntry(msgspec.Struct, frozen=True, array_like=True):
    """One accepted move. Entry ``i`` of a game's log made version ``i + 1``."""

    version: int
    seat: int
    move: msgspec.Raw  # the engine's move, MessagePack
    client_move_id: str
    at: float


class MoveRecord(msgspec.Struct, frozen=True, array_like=True, omit_defaults=True):
    """Idempotency record of one (seat, client_move_id): the version its move made.

    ``digest`` (sha256 of the move's bytes) is set only in records stored before issue 19.
    A newer record is the version alone (two or three bytes, so a game's records stay in
    Redis's compact listpack encoding, whose values must be at most 64 bytes): the log entry
    at that version holds the move, and :meth:`first_digest` takes its digest from there.
    """

    version: int
    digest: str = ""

    def first_digest(self, logged: LogEntry) -> str:
        """The digest of the move first submitted under this record's move id, whose log
        entry (the one at :attr:`version`) is ``logged``."""
        return self.digest or move_digest(logged.move)


def move_digest(move_bytes: bytes) -> str:
    return hashlib.sha256(move_bytes).hexdigest()


def logged_record(entries: list[bytes], key: str) -> bytes | None:
    """The idempotency record of ``key`` (:func:`move_key`) rebuilt from a game's log.

    A finished game's records are dropped (its log holds the same facts: each entry's seat
    and client move id, at its version); a late retry is answered from here instead."""
    for raw in entries:
        entry = log_decoder.decode(raw)
        if move_key(entry.seat, entry.client_move_id) == key:
            return encode(MoveRecord(entry.version))
    return None


def move_key(seat: int, client_move_id: str) -> str:
    """The name of one (seat, client move id): what the referee looks records up by, and
    the key games stored before short keys have in their moves hash (see :func:`short_key`)."""
    return f"{seat}:{client_move_id}"


def short_key(key: str) -> bytes:
    """The field of ``key`` (:func:`move_key`) in a game's moves hash: 12 bytes of its
    BLAKE2b, not its up to 66 characters (a live game holds one per move). 96 bits: two move
    ids of one game share a field with odds of about moves² / 2⁹⁷; hitting another seat's
    field on purpose takes a second preimage. Records stored under the text key before
    this are still found there (``commit.lua``, ``move_record.lua`` look up both)."""
    return hashlib.blake2b(key.encode(), digest_size=12).digest()


# A finished game's state and log are stored compressed: they never change again, and
# they were most of its bytes (The Gang's final state: about 4,000 bytes, 1,200 in zlib;
# its log of about 55 moves: 4,100 bytes, 1,800). The byte in front says so: 0xC1 is the
# one byte MessagePack never uses, so no plain state or log entry (a live game's, or one
# stored before this) starts with it.
PACKED: Final = b"\xc1"


def stored_state(state: bytes, *, finished: bool) -> bytes:
    """The bytes stored for ``state`` (MessagePack): compressed when the game is over."""
    return PACKED + zlib.compress(state, 9) if finished else state


def loaded_state(stored: bytes) -> bytes:
    """The state's MessagePack from its stored bytes (:func:`stored_state`)."""
    if stored.startswith(PACKED):
        return zlib.decompress(stored[len(PACKED) :])
    return stored


def packed_log(entries: Sequence[bytes]) -> bytes:
    """One stored element holding a whole log's ``entries`` (a finished game's log)."""
    return PACKED + zlib.compress(encode(list(entries)), 9)


def log_entries(elements: Iterable[bytes]) -> list[bytes]:
    """A stored log's entries, exactly as committed: each element of the log's list is an
    entry, or (:func:`packed_log`) packed entries."""
    entries: list[bytes] = []
    for element in elements:
        if element.startswith(PACKED):
            entries += _entries_decoder.decode(zlib.decompress(element[len(PACKED) :]))
        else:
            entries.append(element)
    return entries


_entries_decoder = msgspec.msgpack.Decoder(list[bytes])


encode = msgspec.msgpack.Encoder().encode
meta_decoder = msgspec.msgpack.Decoder(GameMeta)
log_decoder = msgspec.msgpack.Decoder(LogEntry)
record_decoder = msgspec.msgpack.Decoder(MoveRecord)
host_decoder = msgspec.msgpack.Decoder(HostRecord)
