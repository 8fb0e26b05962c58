"""Configuration from environment variables (and the same names as `referee serve` flags)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


def _port_or_off(value: str) -> int | None:
    return None if value.strip().lower() in {"", "off", "none"} else int(value)


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
    # Redis connections this process may open. Every game watched here holds one while its
    # reader blocks on the game's stream (redis-py's own default, 100, stalls a referee
    # watching more games than that); keep it below Redis' maxclients over all replicas.
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
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        secret = env.get("REFEREE_TOKEN_SECRET")
        return cls(
            redis_url=env.get("REDIS_URL") or None,
            data_dir=Path(env.get("REFEREE_DATA_DIR", ".data")),
            host=env.get("REFEREE_HOST", "127.0.0.1"),
            port=int(env.get("REFEREE_PORT", "50051")),
            http_port=_port_or_off(env.get("REFEREE_HTTP_PORT", "8080")),
            cors_origins=tuple(
                o.strip() for o in env.get("REFEREE_CORS_ORIGINS", "").split(",") if o.strip()
            ),
            token_secret=secret.encode() if secret else None,
            log_level=env.get("REFEREE_LOG_LEVEL", "info"),
            finished_ttl_seconds=int(env.get("REFEREE_FINISHED_TTL_SECONDS", str(7 * 24 * 3600))),
            idle_ttl_seconds=int(env.get("REFEREE_IDLE_TTL_SECONDS", str(30 * 24 * 3600))),
            allow_client_seeds=_flag(env.get("REFEREE_ALLOW_CLIENT_SEEDS")),
            redis_cluster=_flag(env.get("REDIS_CLUSTER")),
            redis_max_connections=int(env.get("REDIS_MAX_CONNECTIONS", "4096")),
            metrics_port=int(env.get("REFEREE_METRICS_PORT", "0")),
            tracing=env.get("REFEREE_TRACING", "off"),
            shutdown_grace_seconds=float(env.get("REFEREE_SHUTDOWN_GRACE_SECONDS", "5")),
            console_dir=Path(env["REFEREE_CONSOLE_DIR"])
            if env.get("REFEREE_CONSOLE_DIR")
            else None,
        )
