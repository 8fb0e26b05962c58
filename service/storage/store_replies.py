"""How the game store reads Redis's replies: stream entries, multi-stream reads, presence
leases, and the names of the fields it writes. Split from :mod:`service.storage.store`, whose
methods use these; they hold no client and make no call."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import Any, Final

from service.errors import Unavailable
from service.storage.redis_kit import as_bytes

# Field of a stream entry that holds the log entry. (Its chain head is not stored there:
# a watcher extends the chain from the entry itself, one sha256, see service.storage.feed.)
EVENT_FIELD: Final = b"entry"

# Field of a host change's stream entry (``<version>-<host version>``, see ``host.lua``):
# it holds the new host version; :func:`events` gives it as a :data:`HOST_CHANGE`.
HOST_FIELD: Final = b"host"
HOST_CHANGE: Final = b""
# A seat's presence lease (service.storage.presence) lasts this long unless renewed.
PRESENCE_LEASE_MS: Final = 15_000

# Field of a wake stream's entries (see :meth:`RedisStore.events_after`); a wake stream
# keeps its last entry only, and goes away this long after its last wake.
WAKE_FIELD: Final = b"w"
WAKE_TTL_MS: Final = 60_000

# Events of many games as one multi-stream read gives them: game id -> (version, entry)
# pairs, only for games that had something newer.
Reads = dict[str, list[tuple[int, bytes]]]
# Where a reader reads a game's stream after: a version (after its move's entry
# ``<version>-0``), or a version and host version (after the host change of that ID).
Position = int | tuple[int, int]


def stream_id(position: Position) -> str:
    version, seq = (position, 0) if isinstance(position, int) else position
    if version < 0 or seq < 0:
        raise ValueError("versions must be >= 0")
    return f"{version}-{seq}"


def event_version(entry_id: object) -> int:
    return int(as_bytes(entry_id).split(b"-", 1)[0])


def event_payload(fields: object) -> bytes:
    """The log entry of a stream entry; redis-py gives fields as a dict or a flat list."""
    if isinstance(fields, Mapping):
        mapping = dict(fields)
    else:
        flat = list(fields) if isinstance(fields, Iterable) else []
        mapping = dict(zip(flat[::2], flat[1::2], strict=True))
    if EVENT_FIELD not in mapping and HOST_FIELD in mapping:
        return HOST_CHANGE
    return as_bytes(mapping[EVENT_FIELD])


def events(entries: Iterable[Any]) -> list[tuple[int, bytes]]:
    return [(event_version(entry_id), event_payload(fields)) for entry_id, fields in entries]


def xread_entries(reply: object) -> list[Any]:
    """The entries of a single-stream XREAD reply, whatever shape redis-py gave it.

    Seen shapes: ``[[key, entries]]`` (RESP2), ``{key: entries}`` (unified responses) and
    ``{key: [entries]}`` (RESP3 legacy), where entries are ``(id, fields)`` pairs.
    """
    if not reply:
        return []
    if isinstance(reply, Mapping):
        entries: list[Any] = list(next(iter(reply.values())))
    else:
        entries = list(next(iter(reply))[1]) if isinstance(reply, Iterable) else []
    if entries and not isinstance(entries[0][0], bytes):
        entries = list(entries[0])
    return entries


def replication_timeout(acked: int, wanted: int, timeout_ms: int) -> Unavailable:
    """A move that is stored but not (yet) on ``wanted`` Redis replicas: not acknowledged."""
    return Unavailable(
        "REPLICATION_TIMEOUT",
        f"the move is stored, but {acked} of {wanted} Redis replicas confirmed it within "
        f"{timeout_ms} ms; retry with the same client_move_id: the retry answers with the "
        "stored result once the replicas have it, and applies nothing twice",
    )


def xread_streams(reply: object) -> list[tuple[bytes, list[Any]]]:
    """(key, entries) of every stream of a multi-stream XREAD reply (shapes as above)."""
    if not reply:
        return []
    if isinstance(reply, Mapping):
        pairs: list[Any] = list(reply.items())
    else:
        pairs = list(reply) if isinstance(reply, Iterable) else []
    streams = []
    for key, raw in pairs:
        entries = list(raw)
        if entries and not isinstance(entries[0][0], bytes):
            entries = list(entries[0])
        streams.append((as_bytes(key), entries))
    return streams


def lrange_slice(items: list[bytes], start: int, stop: int) -> list[bytes]:
    """``items[start..stop]`` as LRANGE takes it: both ends inclusive, negative from the end."""
    size = len(items)
    first = max(start + size if start < 0 else start, 0)
    last = stop + size if stop < 0 else stop
    return items[first : last + 1] if last >= first else []


def live_seats(leases: dict[Any, Any]) -> frozenset[int]:
    """The seats of the unexpired leases of a presence hash (``<seat>:<nonce>`` -> ms)."""
    now = time.time() * 1000
    return frozenset(
        int(as_bytes(name).split(b":", 1)[0])
        for name, expiry in leases.items()
        if float(expiry) > now
    )
