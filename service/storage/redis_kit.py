"""What every Redis store of the referee shares: its client, its scripts, its errors.

The game store (:mod:`service.storage.store`) and the tournament store
(:mod:`service.tournaments.store`) keep different records under different keys, but they
are built alike, and this module is that likeness, so a reader learns it once:

* **The client** (:func:`connect`): one asyncio Redis or Redis Cluster client per store,
  bytes in and out, RESP2 unless told otherwise.
* **The scripts** (:func:`script`): every write is one Lua script read from
  ``service/storage/lua/``, whose header documents its KEYS, ARGV and reply.
* **The compare-and-set** (:class:`CommitStatus`, :func:`commit_result`): a versioned write
  answers ``{status, version[, record]}``; it checks that the record exists (MISSING), then
  that its integer version is the expected one (CONFLICT), and only then writes, bumping
  the version by one and appending to the record's stream in the same step (OK).
* **The outage mapping** (:class:`Outage`): Redis being down, restarting, failing over or
  out of memory becomes the referee's own UNAVAILABLE (``STORE_UNAVAILABLE``) or
  RESOURCE_EXHAUSTED (``STORE_FULL``, also when a script's write is refused), in one
  place, and every call is timed for metrics.

It knows nothing of games or tournaments.
"""

from __future__ import annotations

import enum
import functools
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from importlib import resources
from typing import Any, Concatenate, Final, ParamSpec, Protocol, TypeVar

from redis import exceptions as redis_errors
from redis.asyncio import Redis, RedisCluster
from redis.commands.core import AsyncScript

from service.errors import StoreFull, Unavailable

# What Redis raises while it is down, restarting (loading its AOF), failing over, or while
# a cluster slot moves: nothing was applied that a retry of the same write would repeat.
OUTAGE: Final = (
    redis_errors.ConnectionError,
    redis_errors.TimeoutError,
    redis_errors.BusyLoadingError,
    redis_errors.ReadOnlyError,
    redis_errors.ClusterDownError,
    redis_errors.TryAgainError,
    OSError,
)

Client = Redis | RedisCluster


def connect(url: str, *, cluster: bool = False, **client_kwargs: Any) -> Client:
    """A client for ``url`` that returns bytes; extra keywords go to the client.

    ``cluster=True`` makes a Redis Cluster client (``url`` names any node). RESP2 is the
    default wire protocol: every Redis server and proxy speaks it, and it gives the same
    reply shapes on every redis-py version the project allows.
    """
    client_kwargs.setdefault("protocol", 2)
    if cluster:
        return RedisCluster.from_url(url, decode_responses=False, **client_kwargs)
    return Redis.from_url(url, decode_responses=False, **client_kwargs)


def check_bytes_client(client: Client, owner: str) -> None:
    """Refuse a client that decodes replies: the stores keep opaque bytes."""
    if isinstance(client, RedisCluster):
        connection_kwargs = client.get_connection_kwargs()
    else:
        connection_kwargs = client.connection_pool.connection_kwargs
    if connection_kwargs.get("decode_responses"):
        raise ValueError(f"{owner} needs a client with decode_responses=False")


def script(client: Client, name: str) -> AsyncScript:
    """The Lua script ``service/storage/lua/<name>``, registered on ``client`` (EVALSHA, loaded on
    first use and again after a Redis restart)."""
    text = (resources.files("service.storage") / "lua" / name).read_text(encoding="utf-8")
    return client.register_script(text)


class CommitStatus(enum.Enum):
    """Outcome of a compare-and-set write. Only ``OK`` changed anything."""

    OK = "OK"
    CONFLICT = "CONFLICT"
    DUPLICATE = "DUPLICATE"  # games only: the move key was seen before
    MISSING = "MISSING"


@dataclass(frozen=True, slots=True)
class CommitResult:
    """What a compare-and-set write did.

    ``version`` is the new version (OK), the current version (CONFLICT, DUPLICATE), or -1
    (MISSING). ``record`` is the stored move record of a DUPLICATE, else None.
    """

    status: CommitStatus
    version: int
    record: bytes | None = None


def as_bytes(value: object) -> bytes:
    """``value``, which Redis gave as bytes (the stores' clients never decode)."""
    if not isinstance(value, bytes):
        raise TypeError(f"expected bytes from Redis, got {type(value).__name__}")
    return value


def commit_result(reply: Any) -> CommitResult:
    """A compare-and-set script's reply ``{status, version[, record]}`` as a result."""
    status = CommitStatus(as_bytes(reply[0]).decode("ascii"))
    record = as_bytes(reply[2]) if status is CommitStatus.DUPLICATE else None
    return CommitResult(status=status, version=int(reply[1]), record=record)


def out_of_memory(error: redis_errors.ResponseError) -> bool:
    """Whether Redis refused a write for lack of memory (``maxmemory`` with ``noeviction``).

    A plain command raises OutOfMemoryError; a write inside a script fails the script with
    a plain ResponseError that quotes the ``-OOM`` reply. Redis refuses a script's write
    only while the script has written nothing yet, so either way nothing was applied.
    """
    return isinstance(error, redis_errors.OutOfMemoryError) or "-OOM " in str(error)


class Timed(Protocol):
    """A store that reports the name and duration of every call (metrics), or nobody."""

    on_call: Callable[[str, float], None] | None


S = TypeVar("S", bound=Timed)
P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True)
class Outage:
    """The one mapping of Redis failures to referee errors, as a method decorator.

    ``store`` names the store in messages ("the game store"); ``retry`` says why a retry
    is safe, since a write whose reply was lost may have been applied.
    """

    store: str
    retry: str

    def __call__(
        self, method: Callable[Concatenate[S, P], Coroutine[Any, Any, R]]
    ) -> Callable[Concatenate[S, P], Coroutine[Any, Any, R]]:
        name = method.__name__

        @functools.wraps(method)
        async def wrapper(self_: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
            started = time.perf_counter()
            try:
                return await method(self_, *args, **kwargs)
            except redis_errors.ResponseError as error:
                if not out_of_memory(error):
                    raise
                raise StoreFull(
                    "STORE_FULL", f"{self.store} is full; nothing was applied"
                ) from error
            except OUTAGE as error:
                raise Unavailable(
                    "STORE_UNAVAILABLE",
                    f"{self.store} is unreachable ({type(error).__name__}); {self.retry}",
                ) from error
            finally:
                if self_.on_call is not None:
                    self_.on_call(name, time.perf_counter() - started)

        return wrapper
