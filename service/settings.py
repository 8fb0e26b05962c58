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
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Final

from service.domain.proxies import Network, parse_networks
from service.domain.quotas import Quotas, parse_quotas

# Quotas of anonymous callers by address (open creation beyond loopback, and everybody's
# watches and request rate), and the default of each operator key. A loopback address has
# no quotas of its own unless REFEREE_LOOPBACK_QUOTAS sets them (`./dev serve`: unlimited):
# behind a proxy on the same host every caller is loopback.
ANONYMOUS_QUOTAS: Final = Quotas(
    creates_per_minute=30,
    live_games=100,
    live_tournaments=2,
    live_bots=32,
    watch_streams=64,
    requests_per_second=100,
)
KEY_QUOTAS: Final = Quotas(
    creates_per_minute=1200,
    live_games=20_000,
    live_tournaments=50,
    live_bots=1024,
    watch_streams=20_000,
    requests_per_second=5000,
)


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


def _loopback_quotas(value: str) -> Quotas | None:
    """``unlimited``, ``same`` (as any address: None), or ``name=value`` pairs over
    unlimited ones."""
    word = value.strip().lower()
    if word == "same":
        return None
    return Quotas() if word == "unlimited" else parse_quotas(value, base=Quotas())


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
    # Referee processes sharing the gRPC and HTTP ports (SO_REUSEPORT; service.process.workers);
    # 0: one per core this process may use (its CPU affinity and cgroup CPU limit), 1: a
    # single process and no supervisor.
    workers: int = 0
    # Worker i of `referee serve --workers N` also serves gRPC alone on worker_port + i, for a
    # proxy that sends every call of a game to one worker (deploy/README.md, "Workers"); 0
    # picks free ports (printed at start-up), None (the default) is off.
    worker_port: int | None = None
    # HTTP/JSON (Connect protocol) port, also serving /openapi.json; 0 picks a free one,
    # None turns the HTTP face off.
    http_port: int | None = 8080
    # The HTTP face closes a connection idle this long, before its first request or
    # between two (keep-alive).
    http_keep_alive_seconds: float = 5.0
    # ... a request whose headers are not complete this long after its first byte (408).
    http_header_timeout_seconds: float = 10.0
    # ... a request whose body is not complete this long after its headers. Only requests
    # are timed: a response may last (a WatchGame stream).
    http_body_timeout_seconds: float = 30.0
    # HTTP connections open at once; the next are closed as soon as accepted. Lowered at
    # start (with a warning) to fit the open files limit, whose soft value is raised to
    # the hard one.
    http_max_connections: int = 1000
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
    # games are watched (service.storage.watch_reader); the rest serve RPCs concurrently. Keep it
    # below Redis' maxclients over all replicas.
    redis_max_connections: int = 4096
    # REDIS_URL names a node of a Redis Cluster (every key of a game shares one slot).
    redis_cluster: bool = False
    # Refuse to start on an external Redis whose persistence would lose acknowledged moves
    # (AOF off, or appendfsync not "always" while wait_replicas is 0); off: a warning only.
    require_durability: bool = False
    # Acknowledge a move only once this many Redis replicas confirm it (WAIT after each
    # commit; 0: no WAIT). Fewer in time: UNAVAILABLE REPLICATION_TIMEOUT, the move stored.
    wait_replicas: int = 0
    # How long a commit waits for wait_replicas confirmations, in milliseconds (> 0).
    wait_timeout_ms: int = 1000
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
    # How long a tournament's one-time seat code (ClaimSeat) stays good.
    seat_code_ttl_seconds: int = 7 * 24 * 3600
    # Wrong seat codes one client address may try per minute, over all replicas (0: no
    # limit); good codes do not count, so a room behind one address can all claim.
    seat_code_attempts_per_minute: int = 10
    # How often this process looks for running tournaments whose director's lease lapsed
    # (its process died) and takes them over; well under the 6 s lease. 0: never.
    tournament_takeover_seconds: float = 2.0
    # Tournaments one takeover pass may take over (the others wait for the next pass, or
    # another process's).
    tournament_takeovers_per_pass: int = 4
    # Tournaments this process directs at once, started here or taken over; one more
    # started here is left to another process (the bots of each play here).
    tournament_max_directed: int = 32
    # How long a table's join code (CreateGame with open_seats) stays good, unless the
    # table starts first.
    join_code_ttl_seconds: int = 24 * 3600
    # JoinGame calls one client address may make per minute, over all replicas (0: no
    # limit); wrong join codes count apart, under seat_code_attempts_per_minute.
    joins_per_minute: int = 30
    # Table actions (joins, leaves, reissues, ...) one table keeps at most; past it every
    # further one is refused (RESOURCE_EXHAUSTED TABLE_ACTIONS_EXCEEDED).
    max_table_actions: int = 256
    # ListGames calls per second of one caller to this process (bursts of twice that; 0:
    # only the request rate).
    list_games_per_second: int = 5
    # RatingService calls per second of one caller to this process (bursts of twice that;
    # 0: only the request rate).
    rating_reads_per_second: int = 10
    # Processes that replay games for VerifyHistory, off the event loop (started at the
    # first call). Each replay holds one core while it runs.
    verify_workers: int = 1
    # VerifyHistory calls that may wait for a free worker; one more is refused with
    # UNAVAILABLE VERIFY_BUSY (once its bytes have taken their time at the pace below).
    verify_queue: int = 4
    # Request bytes a second the verify pool takes in (a body at the 4 MiB cap at once):
    # callers wait their turn, and one refused VERIFY_BUSY hears so once its bytes have
    # taken their time (service.edge.verifying), so a flood of bodies cannot have this
    # process receive them faster than this.
    verify_bytes_per_second: int = 4 * 1024 * 1024
    # Operator keys, inline ("name secret [quota=value ...]", ";" between keys; tests) and
    # from a file (one key a line; a mounted Secret). Creating games and tournaments needs
    # one when any is set or the referee listens beyond loopback (see service/domain/quotas.py).
    operator_keys: str = field(default="", repr=False)
    operator_keys_file: Path | None = None
    # Beyond loopback without keys, let anyone create (under `quotas`); else refuse to start.
    open_creation: bool = False
    # Anonymous callers' quotas by address; each key's default.
    quotas: Quotas = ANONYMOUS_QUOTAS
    # Quotas of anonymous callers from a loopback address; None: the same as any address's
    # (`quotas`). `./dev serve` and the tests set them unlimited ("unlimited").
    loopback_quotas: Quotas | None = None
    # Peers whose X-Forwarded-For / Forwarded headers (HTTP headers or gRPC metadata) name
    # the caller (service.domain.proxies); from any other peer they are ignored.
    trusted_proxies: tuple[Network, ...] = ()
    key_quotas: Quotas = KEY_QUOTAS
    # Turn clocks (service.app.firer): play due deadlines in this process (every replica may;
    # each deadline applies once), how often to look for them, how many to claim per shard
    # of the index per look (16 shards), how many games to fire at once, how long a claim
    # is leased (a firer that dies leaves it to another after this), and how long after a
    # bot's seat is to act its bot moves. The search bot (BotStrategy SEARCH) thinks for
    # bot_search_seconds a move in bot_workers processes of its own (service.edge.house_bots).
    deadline_firer: bool = True
    deadline_poll_seconds: float = 0.25
    deadline_claims_per_shard: int = 4
    deadline_concurrency: int = 16
    deadline_lease_ms: int = 10_000
    bot_move_delay_ms: int = 300
    bot_search_seconds: float = 1.0
    bot_workers: int = 1

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
    "workers": ("REFEREE_WORKERS", int),
    "worker_port": ("REFEREE_WORKER_PORT", _port_or_off),
    "http_port": ("REFEREE_HTTP_PORT", _port_or_off),
    "http_keep_alive_seconds": ("REFEREE_HTTP_KEEP_ALIVE_SECONDS", float),
    "http_header_timeout_seconds": ("REFEREE_HTTP_HEADER_TIMEOUT_SECONDS", float),
    "http_body_timeout_seconds": ("REFEREE_HTTP_BODY_TIMEOUT_SECONDS", float),
    "http_max_connections": ("REFEREE_HTTP_MAX_CONNECTIONS", int),
    "cors_origins": ("REFEREE_CORS_ORIGINS", _origins),
    "token_secret": ("REFEREE_TOKEN_SECRET", _secret),
    "log_level": ("REFEREE_LOG_LEVEL", str),
    "finished_ttl_seconds": ("REFEREE_FINISHED_TTL_SECONDS", int),
    "idle_ttl_seconds": ("REFEREE_IDLE_TTL_SECONDS", int),
    "allow_client_seeds": ("REFEREE_ALLOW_CLIENT_SEEDS", _flag),
    "redis_max_connections": ("REDIS_MAX_CONNECTIONS", int),
    "redis_cluster": ("REDIS_CLUSTER", _flag),
    "require_durability": ("REFEREE_REQUIRE_DURABILITY", _flag),
    "wait_replicas": ("REDIS_WAIT_REPLICAS", int),
    "wait_timeout_ms": ("REDIS_WAIT_TIMEOUT_MS", int),
    "metrics_port": ("REFEREE_METRICS_PORT", int),
    "tracing": ("REFEREE_TRACING", str),
    "shutdown_grace_seconds": ("REFEREE_SHUTDOWN_GRACE_SECONDS", float),
    "console_dir": ("REFEREE_CONSOLE_DIR", _path_or_none),
    "seat_code_ttl_seconds": ("REFEREE_SEAT_CODE_TTL_SECONDS", int),
    "seat_code_attempts_per_minute": ("REFEREE_SEAT_CODE_ATTEMPTS_PER_MINUTE", int),
    "tournament_takeover_seconds": ("REFEREE_TOURNAMENT_TAKEOVER_SECONDS", float),
    "tournament_takeovers_per_pass": ("REFEREE_TOURNAMENT_TAKEOVERS_PER_PASS", int),
    "tournament_max_directed": ("REFEREE_TOURNAMENT_MAX_DIRECTED", int),
    "join_code_ttl_seconds": ("REFEREE_JOIN_CODE_TTL_SECONDS", int),
    "joins_per_minute": ("REFEREE_JOINS_PER_MINUTE", int),
    "max_table_actions": ("REFEREE_MAX_TABLE_ACTIONS", int),
    "list_games_per_second": ("REFEREE_LIST_GAMES_PER_SECOND", int),
    "rating_reads_per_second": ("REFEREE_RATING_READS_PER_SECOND", int),
    "verify_workers": ("REFEREE_VERIFY_WORKERS", int),
    "verify_queue": ("REFEREE_VERIFY_QUEUE", int),
    "verify_bytes_per_second": ("REFEREE_VERIFY_BYTES_PER_SECOND", int),
    "operator_keys": ("REFEREE_OPERATOR_KEYS", str),
    "operator_keys_file": ("REFEREE_OPERATOR_KEYS_FILE", _path_or_none),
    "open_creation": ("REFEREE_OPEN_CREATION", _flag),
    "quotas": ("REFEREE_QUOTAS", partial(parse_quotas, base=ANONYMOUS_QUOTAS)),
    "loopback_quotas": ("REFEREE_LOOPBACK_QUOTAS", _loopback_quotas),
    "trusted_proxies": ("REFEREE_TRUSTED_PROXIES", parse_networks),
    "key_quotas": ("REFEREE_KEY_QUOTAS", partial(parse_quotas, base=KEY_QUOTAS)),
    "deadline_firer": ("REFEREE_DEADLINE_FIRER", _flag),
    "deadline_poll_seconds": ("REFEREE_DEADLINE_POLL_SECONDS", float),
    "deadline_claims_per_shard": ("REFEREE_DEADLINE_CLAIMS_PER_SHARD", int),
    "deadline_concurrency": ("REFEREE_DEADLINE_CONCURRENCY", int),
    "deadline_lease_ms": ("REFEREE_DEADLINE_LEASE_MS", int),
    "bot_move_delay_ms": ("REFEREE_BOT_MOVE_DELAY_MS", int),
    "bot_search_seconds": ("REFEREE_BOT_SEARCH_SECONDS", float),
    "bot_workers": ("REFEREE_BOT_WORKERS", int),
}


def env_name(field: str) -> str:
    """The environment variable of a field of :class:`Settings` (``port``: REFEREE_PORT)."""
    return ENVIRONMENT[field][0]
