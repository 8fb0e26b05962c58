"""What the referee stores next to a game's state (msgspec, MessagePack on the wire)."""

from __future__ import annotations

import hashlib

import msgspec


class GameMeta(msgspec.Struct, frozen=True):
    """Set once at creation. ``seed`` is secret until the game ends. ``move_limit``: the
    most moves the game accepts (service.move_limits); UNSET in a game stored before limits
    existed, which plays under its game's default."""

    game: str
    seats: int
    config: msgspec.Raw  # the engine's config Struct, MessagePack
    allow_spectators: bool
    seed: bytes
    seed_sha256: str
    created_at: float
    move_limit: int | msgspec.UnsetType = msgspec.UNSET


class LogEntry(msgspec.Struct, frozen=True, array_like=True):
    """One accepted move. Entry ``i`` of a game's log made version ``i + 1``."""

    version: int
    seat: int
    move: msgspec.Raw  # the engine's move, MessagePack
    client_move_id: str
    at: float


class MoveRecord(msgspec.Struct, frozen=True, array_like=True):
    """Idempotency record of one (seat, client_move_id)."""

    version: int
    digest: str


def move_digest(move_bytes: bytes) -> str:
    return hashlib.sha256(move_bytes).hexdigest()


def move_key(seat: int, client_move_id: str) -> str:
    return f"{seat}:{client_move_id}"


encode = msgspec.msgpack.Encoder().encode
meta_decoder = msgspec.msgpack.Decoder(GameMeta)
log_decoder = msgspec.msgpack.Decoder(LogEntry)
record_decoder = msgspec.msgpack.Decoder(MoveRecord)
