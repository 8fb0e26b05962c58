"""Configuration from environment variables (and the same names as `referee serve` flags).

Every default is written once, on a field of :class:`Settings`. :meth:`Settings.from_env`
reads only the variables that are set (:data:`ENVIRONMENT` names one per field), and the
command line, the benchmarks and the tests take theirs from :data:`DEFAULTS` or replace
fields, so none of them spells a default again.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final


def _flag(value: str) -> bool:
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _port_or_off(value: str) -> int | None:
    return None if value.strip().lower() in {"", "off", "none"} else int(value)


def _text_or_none(value: str) -> str | None:
    return value or None


def _path_or_none(value: str) -> Path | None:
    return Path(value) if value else None


def _secret(value: str) -> bytes | None:
    return value.encode() if value else None


def _origins(value: str) -> tuple[str, ...]:
    return tuple(origin.strip() for origin in value.split(",") if origin.strip())


@dataclass(frozen=True)
class Settings:
    # Redis to use; None starts an embedded redis-server with its data in data_dir.
    redis_url: str | None = None
    data_dir: Path = Path(".data")
    host: str = "127.0.0.1"
    # gRPC port; 0 picks a free one (printed at start-up).
    port: int = 50051
    # HTTP/JSON (Connect protocol) port, also serving /openapi.json; 0 picks a free one,
    # None turns the HTTP face off.
    http_port: int | None = 8080
    # Origins allowed to call the HTTP face from a browser ("*" for any); empty: no CORS.
    cors_origins: tuple[str, ...] = ()
    # HMAC secret for seat tokens; None keeps a generated one in data_dir/token-secret.
    token_secret: bytes | None = None
    log_level: str = "info"
    finished_ttl_seconds: int = 7 * 24 * 3600
    # A game nobody moves in for this long expires (0: never).
    idle_ttl_seconds: int = 30 * 24 * 3600
    # Accept CreateGame seeds from clients (tests, replays). Off in production: the
    # creator would know every card.
    allow_client_seeds: bool = False
    # Redis connections this process may open. Watches hold at most 16 of them however many
    # games are watched (service.watch_reader); the rest serve RPCs concurrently. Keep it
    # below Redis' maxclients over all replicas.
    redis_max_connections: int = 4096
    # REDIS_URL names a node of a Redis Cluster (every key of a game shares one slot).
    redis_cluster: bool = False
    # Prometheus metrics on http://host:metrics_port/metrics; 0 (the default) is off. The
    # container image and the manifests set 9464.
    metrics_port: int = 0
    # OpenTelemetry tracing of RPCs and Redis calls: "off", "otlp" (OTEL_EXPORTER_OTLP_*
    # variables configure the exporter) or "console" (spans printed to stderr).
    tracing: str = "off"
    # Seconds in-flight calls get to finish after SIGTERM.
    shutdown_grace_seconds: float = 5.0
    # The built web console (clients/console/dist), served at /console/ on the HTTP port;
    # None: the one beside this source tree, when it has been built.
    console_dir: Path | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """The defaults, with each variable of :data:`ENVIRONMENT` that ``env`` sets."""
        env = os.environ if env is None else env
        values = {
            field: read(env[variable])
            for field, (variable, read) in ENVIRONMENT.items()
            if variable in env
        }
        return dataclasses.replace(cls(), **values)


DEFAULTS: Final = Settings()

# Each field's environment variable and how its text is read (into the field's type: the
# table holds every type, hence Any).
ENVIRONMENT: Final[dict[str, tuple[str, Callable[[str], Any]]]] = {
    "redis_url": ("REDIS_URL", _text_or_none),
    "data_dir": ("REFEREE_DATA_DIR", Path),
    "host": ("REFEREE_HOST", str),
    "port": ("REFEREE_PORT", int),
    "http_port": ("REFEREE_HTTP_PORT", _port_or_off),
    "cors_origins": ("REFEREE_CORS_ORIGINS", _origins),
    "token_secret": ("REFEREE_TOKEN_SECRET", _secret),
    "log_level": ("REFEREE_LOG_LEVEL", str),
    "finished_ttl_seconds": ("REFEREE_FINISHED_TTL_SECONDS", int),
    "idle_ttl_seconds": ("REFEREE_IDLE_TTL_SECONDS", int),
    "allow_client_seeds": ("REFEREE_ALLOW_CLIENT_SEEDS", _flag),
    "redis_max_connections": ("REDIS_MAX_CONNECTIONS", int),
    "redis_cluster": ("REDIS_CLUSTER", _flag),
    "metrics_port": ("REFEREE_METRICS_PORT", int),
    "tracing": ("REFEREE_TRACING", str),
    "shutdown_grace_seconds": ("REFEREE_SHUTDOWN_GRACE_SECONDS", float),
    "console_dir": ("REFEREE_CONSOLE_DIR", _path_or_none),
}


def env_name(field: str) -> str:
    """The environment variable of a field of :class:`Settings` (``port``: REFEREE_PORT)."""
    return ENVIRONMENT[field][0]
