"""What a load test does: how many games, through how many referees, for how long."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal
from urllib.parse import urlsplit

Transport = Literal["unary", "play"]
BotKind = Literal["random", "heuristic"]

TRANSPORTS: Final = ("unary", "play")
BOT_KINDS: Final = ("random", "heuristic")


class NotLoopback(ValueError):
    """A target (referee address or Redis URL) that is not on this machine's loopback."""


def is_loopback_host(host: str) -> bool:
    """Whether ``host`` (a name or an address, IPv6 with or without brackets) is loopback."""
    host = host.strip().strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_referee_target(target: str) -> str:
    """``host:port`` of a referee, refused unless the host is loopback."""
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit():
        raise NotLoopback(f"referee target {target!r} is not host:port")
    if not is_loopback_host(host):
        raise NotLoopback(
            f"referee target {target!r} is not on the loopback interface: the load test "
            "only drives referees on this machine"
        )
    return target


def check_redis_url(url: str) -> str:
    """A Redis URL, refused unless it is a unix socket or a loopback TCP address."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return url
    if parts.scheme not in ("redis", "rediss"):
        raise NotLoopback(f"Redis URL {url!r}: only redis://, rediss:// or unix:// URLs")
    if not is_loopback_host(parts.hostname or ""):
        raise NotLoopback(
            f"Redis URL {url!r} is not on the loopback interface: the load test writes "
            "thousands of games and only uses a Redis on this machine"
        )
    return url


@dataclass(frozen=True)
class LoadConfig:
    """One load test. ``games`` bounds the games started (0: as many as time allows);
    ``seconds`` bounds the driving time; whichever comes first ends it."""

    concurrency: int = 20  # games in play at once
    referees: int = 2  # referee processes started (ignored with ``targets``)
    seconds: float = 30.0
    games: int = 0
    warmup: float = 0.0  # seconds at the start not counted in rates and latencies
    game: tuple[str, ...] = ("the_gang",)  # games cycle through this list
    seats: int = 4
    bot: BotKind = "heuristic"
    transport: Transport = "unary"
    connections: int = 8  # gRPC connections per referee, shared by the seats
    redis_url: str | None = None  # None: start an embedded redis-server
    targets: tuple[str, ...] = ()  # already running referees instead of starting them
    seed: int = 1
    log_level: str = "warning"  # the referees' REFEREE_LOG_LEVEL
    # Redis connections per referee process (``?max_connections=`` on their REDIS_URL);
    # None: the referees' own setting (REDIS_MAX_CONNECTIONS, passed on from this process).
    redis_max_connections: int | None = None
    drain_seconds: float = 30.0  # after the time is up, how long games get to stop
    rpc_timeout: float = 30.0
    check: bool = True
    progress: bool = True
    json_path: Path | None = None
    work_dir: Path | None = None  # logs and the embedded Redis; None: a temporary folder

    def __post_init__(self) -> None:
        if self.concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        if not self.targets and self.referees < 1:
            raise ValueError("referees must be at least 1")
        if self.seconds <= 0 and self.games <= 0:
            raise ValueError("bound the test: seconds > 0 or games > 0")
        if self.games < 0 or self.warmup < 0:
            raise ValueError("games and warmup must not be negative")
        if self.transport not in TRANSPORTS:
            raise ValueError(f"transport must be one of {TRANSPORTS}")
        if self.bot not in BOT_KINDS:
            raise ValueError(f"bot must be one of {BOT_KINDS}")
        if self.connections < 1:
            raise ValueError("connections must be at least 1")
        if not self.game:
            raise ValueError("name at least one game")
        for target in self.targets:
            check_referee_target(target)
        if self.redis_url is not None:
            check_redis_url(self.redis_url)
        if self.redis_max_connections is not None and self.redis_max_connections < 1:
            raise ValueError("redis_max_connections must be at least 1")
        if self.targets and self.redis_url is None:
            raise ValueError("with --target, give the referees' --redis-url (for the check)")
