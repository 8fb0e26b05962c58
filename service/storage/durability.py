"""Whether the Redis behind the referee keeps what the referee acknowledged.

A move is acknowledged once its commit returns. It survives a crash of Redis only if the
append-only file had it on disk (``appendonly yes`` with ``appendfsync always``), or if a
replica had it (``WAIT``, see ``Settings.wait_replicas``). At start the referee reads the
persistence settings (``CONFIG GET``; managed Redis services often disable CONFIG, and then
they are "unknown"), says what it found, and names the risk: a warning, or a refusal to
start when ``Settings.require_durability`` is on.

Without AOF a replica does not help either: a primary restarted empty hands its replicas
the empty data set. So AOF off is a risk whatever ``wait_replicas`` says; an unknown
configuration is one too, since nothing shows the moves are kept.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from redis import exceptions as redis_errors
from redis.asyncio import Redis, RedisCluster

from service.storage.redis_kit import OUTAGE, connect

UNKNOWN: Final = "unknown"
_CHECK_TIMEOUT_SECONDS: Final = 5.0


@dataclass(frozen=True)
class Persistence:
    """What Redis said of its persistence; each value "unknown" when it would not say
    (on a cluster: every primary's values, "/"-joined where they differ)."""

    appendonly: str
    appendfsync: str
    save: str
    why_unknown: str = ""

    def risk(self, wait_replicas: int) -> str | None:
        """How acknowledged moves could be lost with this persistence, or None."""
        if UNKNOWN in (self.appendonly, self.appendfsync):
            return (
                f"Redis' persistence is unknown ({self.why_unknown or 'CONFIG GET refused'}): "
                "nothing shows that acknowledged moves survive a Redis crash"
            )
        if self.appendonly != "yes":
            return (
                f"the append-only file is off (appendonly {self.appendonly}): a Redis restart "
                "loses every move since its last snapshot, and hands replicas the loss"
            )
        if self.appendfsync != "always" and wait_replicas == 0:
            return (
                f"appendfsync {self.appendfsync} without REDIS_WAIT_REPLICAS: a Redis crash "
                "loses the moves acknowledged in its last second; set appendfsync always, "
                "or wait for replicas"
            )
        return None


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _config(reply: Mapping[Any, Any], name: str) -> str:
    """One value of a CONFIG GET reply (keys and values bytes or text), "unknown" if absent."""
    found = {_text(key): _text(value) for key, value in reply.items()}
    return found.get(name, UNKNOWN)


def _joined(values: list[str]) -> str:
    return "/".join(dict.fromkeys(values)) if values else UNKNOWN


async def _node_config(client: Redis | RedisCluster, **target: object) -> tuple[str, str, str]:
    appending = await client.config_get("append*", **target)
    saving = await client.config_get("save", **target)
    return (
        _config(appending, "appendonly"),
        _config(appending, "appendfsync"),
        _config(saving, "save"),
    )


async def read_persistence(url: str, *, cluster: bool) -> Persistence:
    """The persistence settings of the Redis at ``url`` (every primary of a cluster)."""
    client = connect(
        url,
        cluster=cluster,
        socket_timeout=_CHECK_TIMEOUT_SECONDS,
        socket_connect_timeout=_CHECK_TIMEOUT_SECONDS,
    )
    try:
        if isinstance(client, RedisCluster):
            await client.initialize()
            found = [await _node_config(client, target_nodes=n) for n in client.get_primaries()]
        else:
            found = [await _node_config(client)]
    except redis_errors.ResponseError as error:  # CONFIG disabled or not permitted
        return Persistence(UNKNOWN, UNKNOWN, UNKNOWN, f"CONFIG GET: {type(error).__name__}")
    except OUTAGE as error:
        return Persistence(UNKNOWN, UNKNOWN, UNKNOWN, f"Redis unreachable: {type(error).__name__}")
    finally:
        await client.aclose()
    only, fsync, save = (_joined([node[i] for node in found]) for i in range(3))
    return Persistence(only, fsync, save)
