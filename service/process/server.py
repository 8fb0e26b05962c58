"""Assembling and running the referee: store, embedded Redis, gRPC server, health, reflection."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import os
import signal
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
import structlog
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from service import compiled
from service.app.firer import Firer, firing
from service.app.limits import Limits
from service.app.lobby import Lobby
from service.app.rater import Rater
from service.app.ratings import Ratings
from service.app.referee import Referee
from service.app.writer import Following, TableWriter
from service.domain.auth import TokenSigner, load_or_create_secret
from service.edge.api import RPCS, RefereeApi
from service.edge.calls import MAX_VERIFY_BYTES
from service.edge.connect.app import HttpLimits, build_app, raise_open_files_limit, serving_http
from service.edge.connect.face import lobby_mount, ratings_mount
from service.edge.grpc_api import LobbyServicer, RatingServicer, RefereeServicer
from service.edge.house_bots import HouseBots
from service.edge.lobby_api import RPCS as LOBBY_RPCS
from service.edge.lobby_api import LobbyApi
from service.edge.observability import Metrics, start_tracing
from service.edge.ratings_api import RPCS as RATING_RPCS
from service.edge.ratings_api import RatingApi
from service.edge.verifying import Verifier
from service.errors import Unavailable
from service.process.announce import announce
from service.process.redis_server import DIR_MODE, EmbeddedRedis
from service.process.redis_supervisor import Supervisor
from service.process.stopping import (
    EXIT_STEP_CUT,
    Steps,
    StopSignals,
    bounded,
    drain_tasks,
    exit_now,
)
from service.settings import Settings
from service.storage.deadlines import DeadlineIndex
from service.storage.durability import read_persistence
from service.storage.join_codes import JoinCodes
from service.storage.lobby_listing import Listing
from service.storage.ratings import RatingStore
from service.storage.redis_kit import connect
from service.storage.store import RedisStore
from service.tournaments.serving import SERVICE_NAME as TOURNAMENT_SERVICE
from service.tournaments.serving import TournamentService, tournament_service

log = structlog.get_logger("referee")

SERVICE_NAME = RPCS.full_name
# gRPC's own transport limit; requests above MAX_REQUEST_BYTES but below this get a typed
# INVALID_ARGUMENT with reason REQUEST_TOO_LARGE from the servicer.
TRANSPORT_LIMIT = MAX_VERIFY_BYTES + 1024 * 1024  # VerifyHistory carries whole games
# How often (and how long at most) the health status asks Redis whether it is there.
STORE_PROBE_SECONDS = 1.0
# The deadline of each step of a stop (service.process.stopping) but these two: the
# tournaments' (each director waits up to twice its STOP_SECONDS, then the bots' client
# closes) and the servers' (shutdown_grace_seconds for the calls in flight, plus this).
STEP_SECONDS = 3.0
TOURNAMENTS_STOP_SECONDS = 6.0
# How much longer than a finished game a rated game's marker is kept (service.storage.ratings).
RATED_MARKER_MARGIN_SECONDS = 24 * 3600
# Fault tests only: this process ends itself (as a SIGKILL would) when its rater reaches the
# step named here ("before_apply", "after_apply": service.app.rater).
FAILPOINT_VARIABLE = "REFEREE_RATING_FAILPOINT"
FAILPOINT_EXIT = 86
# A stop longer than shutdown_grace_seconds plus this is ended by the watchdog (exit code
# EXIT_FORCED); a supervisor kills its worker a little later (workers.KILL_MARGIN_SECONDS).
STOP_MARGIN_SECONDS = 10.0


@dataclass
class Running:
    server: grpc.aio.Server
    referee: Referee
    port: int
    redis_url: str
    metrics_port: int = 0  # 0: the /metrics endpoint is off
    http_port: int = 0  # 0: the HTTP/JSON face is off
    worker_port: int = 0  # the gRPC port this process serves alone (0: none; Settings.worker_port)
    tournaments: TournamentService | None = None
    redis: str = "external"  # what the logs call it: "embedded" or "external"
    # The close steps cut at their deadline when the block exited (service.process.stopping).
    cut_steps: list[str] = field(default_factory=list)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def http_url(self) -> str:
        """Base URL of the HTTP/JSON (Connect) face."""
        if not self.http_port:
            raise RuntimeError("the HTTP face is off (http_port=None)")
        return f"http://127.0.0.1:{self.http_port}"


@contextlib.asynccontextmanager
async def running(
    settings: Settings, *, embedded_redis: bool | None = None
) -> AsyncIterator[Running]:
    """The referee serving on ``settings.host:settings.port`` until the block exits; its
    stop bounded step by step (the steps cut are in :attr:`Running.cut_steps`).
    ``embedded_redis``: see :func:`serve`."""
    origin = redis_origin(settings, embedded_redis)
    async with contextlib.AsyncExitStack() as stack:
        redis_url, supervisor = _redis(settings, stack)
        secret = settings.token_secret or load_or_create_secret(settings.data_dir / "token-secret")
        limits = Limits.from_settings(settings, redis_url, secret)
        stack.push_async_callback(limits.aclose)
        await _report_persistence(settings, redis_url, origin)
        if settings.tracing != "off":
            start_tracing(settings.tracing)
        metrics = Metrics()
        metrics_port = stack.enter_context(metrics.serving(settings.host, settings.metrics_port))
        store, deadlines = _store(settings, redis_url, metrics)
        rating_store = _rating_store(settings, store)
        writer, referee, lobby, rater = _tables(
            settings, stack, redis_url, secret, store, deadlines, limits, metrics, rating_store
        )
        metrics.watch_streams_from(lambda: referee.feed.watchers)
        server = _grpc_server(settings)
        api, lobby_api, bots = _apis(settings, stack, referee, lobby, limits, metrics)
        rating_api = RatingApi(Ratings(rating_store, secret), metrics, limits)
        tournaments = tournament_service(
            referee, redis_url, settings, metrics, limits, lobby=lobby, bots=bots
        )
        health_servicer = _register(server, api, lobby_api, rating_api, tournaments)
        port = server.add_insecure_port(f"{settings.host}:{settings.port}")
        worker_port = _own_port(server, settings)
        tournaments.serving_on(settings.host, port, limits.internal)
        await server.start()
        tournaments.start()
        for name in ("", SERVICE_NAME):
            await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
        http = contextlib.AsyncExitStack()
        http_port = await _serve_http(settings, http, api, lobby_api, rating_api, tournaments)
        background = _Background.start(_StoreFollower(store, health_servicer, supervisor), rater)
        if settings.deadline_firer:
            firer = _firer(writer, deadlines, settings, bots)
            await background.clocks.enter_async_context(firing(firer))
        handle = Running(
            server,
            referee,
            port,
            redis_url,
            metrics_port,
            http_port,
            worker_port,
            tournaments,
            origin,
        )
        try:
            yield handle
        finally:
            handle.cut_steps = await _stop(
                settings, handle, tournaments, health_servicer, background, http, store
            )


def _apis(
    settings: Settings,
    stack: contextlib.AsyncExitStack,
    referee: Referee,
    lobby: Lobby,
    limits: Limits,
    metrics: Metrics,
) -> tuple[RefereeApi, LobbyApi, HouseBots]:
    """The referee's and the lobby's APIs, and the house bots, each of whose worker pools
    (VerifyHistory's replays, the search bot's thinking) closes with ``stack``, after the
    server, the firer and the directors have stopped."""
    verifier = Verifier(
        settings.verify_workers, settings.verify_queue, settings.verify_bytes_per_second
    )
    stack.callback(verifier.close)
    bots = HouseBots(settings.bot_search_seconds, settings.bot_workers)
    stack.callback(bots.close)
    api = RefereeApi(referee, metrics, verifier, limits, lobby)
    return api, LobbyApi(lobby, metrics, limits), bots


def _redis(settings: Settings, stack: contextlib.AsyncExitStack) -> tuple[str, Supervisor | None]:
    """The Redis to use: ``settings.redis_url``, else an embedded one started here (and
    supervised until ``stack`` closes) in the data folder."""
    if settings.redis_url is not None:
        if settings.token_secret is None:
            # Replicas sharing a Redis must share the secret, or one's tokens fail on another.
            raise SystemExit(
                "REFEREE_TOKEN_SECRET must be set when REDIS_URL is (every replica needs the "
                "same secret); only the embedded default generates one"
            )
        return settings.redis_url, None
    # The folder holds the token secret and the embedded Redis: its owner's only.
    settings.data_dir.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
    settings.data_dir.chmod(DIR_MODE)
    embedded = EmbeddedRedis(settings.data_dir / "redis", appendfsync="always")
    supervisor = stack.enter_context(Supervisor(embedded))
    return embedded.url, supervisor


def _store(
    settings: Settings, redis_url: str, metrics: Metrics
) -> tuple[RedisStore, DeadlineIndex]:
    """The game store and the deadline index on it, their Redis calls measured."""
    store = RedisStore.from_url(
        redis_url,
        finished_ttl_seconds=settings.finished_ttl_seconds,
        idle_ttl_seconds=settings.idle_ttl_seconds,
        cluster=settings.redis_cluster,
        max_connections=settings.redis_max_connections,
        wait_replicas=settings.wait_replicas,
        wait_timeout_ms=settings.wait_timeout_ms,
    )
    store.on_call = metrics.observe_redis
    deadlines = DeadlineIndex(store.client, key_prefix=store.key_prefix, batcher=store.batcher)
    deadlines.on_call = metrics.observe_redis
    return store, deadlines


def _rating_store(settings: Settings, store: RedisStore) -> RatingStore:
    """The ratings, beside the games on the game store's client (service.storage.ratings)."""
    ratings = RatingStore(
        store.client,
        key_prefix=store.key_prefix,
        marker_ttl_seconds=settings.finished_ttl_seconds + RATED_MARKER_MARGIN_SECONDS,
    )
    ratings.on_call = store.on_call
    return ratings


def _failpoint(step: str) -> None:
    """The rater's steps (see FAILPOINT_VARIABLE): end the process at the one named."""
    if step == os.environ.get(FAILPOINT_VARIABLE):
        log.warning("failpoint", step=step)
        os._exit(FAILPOINT_EXIT)


def _tables(
    settings: Settings,
    stack: contextlib.AsyncExitStack,
    redis_url: str,
    secret: bytes,
    store: RedisStore,
    deadlines: DeadlineIndex,
    limits: Limits,
    metrics: Metrics,
    ratings: RatingStore,
) -> tuple[TableWriter, Referee, Lobby, Rater]:
    """The tables' one writer, the two use cases that write through it: the referee
    (games and moves) and the lobby (seats, listing, join codes), and the rater that
    follows the end of a rated table (its ratings)."""
    lobby_client = connect(redis_url, cluster=settings.redis_cluster, max_connections=256)
    stack.push_async_callback(_bounded_close, "lobby client", lobby_client.aclose)
    listing = Listing(lobby_client, lambda game_id: store.keys(game_id).game)
    join_codes = JoinCodes(
        lobby_client,
        lambda game_id: store.keys(game_id).game,
        ttl_seconds=settings.join_code_ttl_seconds,
        attempts_per_minute=settings.seat_code_attempts_per_minute,
    )
    # The rater reads a game through the writer's copy (the writer made just below: the
    # lambda reads it when a game ends, never before).
    rater = Rater(
        lambda game_id: writer.current(game_id), ratings, store.pending, on_step=_failpoint
    )
    writer = TableWriter(
        store,
        deadlines=deadlines,
        following=Following(listing, join_codes, ended=(limits.game_finished, rater.ended)),
        stats=metrics,
        bot_delay_ms=settings.bot_move_delay_ms,
    )
    signer = TokenSigner(secret)
    referee = Referee(writer, signer, allow_client_seeds=settings.allow_client_seeds)
    lobby = Lobby(
        writer,
        signer,
        join_codes,
        listing,
        lobby_client,
        joins_per_minute=settings.joins_per_minute,
        max_actions=settings.max_table_actions,
    )
    return writer, referee, lobby, rater


def _grpc_server(settings: Settings) -> grpc.aio.Server:
    return grpc.aio.server(
        options=[
            ("grpc.max_receive_message_length", TRANSPORT_LIMIT),
            # Off for one process, so a port in use fails the start; on for the workers
            # of `referee serve --workers N`, which all bind the same port.
            ("grpc.so_reuseport", 1 if settings.workers > 1 else 0),
            # With a port of its own (worker_port: for a proxy on this host that keeps
            # idle HTTP/2 connections to each worker), no BDP probe: its PING after a
            # call reaches the proxy on an idle connection, which nginx then closes, so
            # it reconnected every ~10 calls. Loopback needs no window probing.
            ("grpc.http2.bdp_probe", 0 if settings.worker_port is not None else 1),
        ]
    )


def _register(
    server: grpc.aio.Server,
    api: RefereeApi,
    lobby_api: LobbyApi,
    rating_api: RatingApi,
    tournaments: TournamentService,
) -> Any:
    """Every service on ``server``: the four of the referee, health and reflection; the
    health servicer is returned (its status follows the store)."""
    RefereeServicer.register(api, server)
    LobbyServicer.register(lobby_api, server)
    RatingServicer.register(rating_api, server)
    tournaments.register(server)
    health_servicer = health.aio.HealthServicer()  # type: ignore[attr-defined]
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        [
            SERVICE_NAME,
            TOURNAMENT_SERVICE,
            LOBBY_RPCS.full_name,
            RATING_RPCS.full_name,
            health.SERVICE_NAME,
            reflection.SERVICE_NAME,
        ],
        server,
    )
    return health_servicer


async def _serve_http(
    settings: Settings,
    http: contextlib.AsyncExitStack,
    api: RefereeApi,
    lobby_api: LobbyApi,
    rating_api: RatingApi,
    tournaments: TournamentService,
) -> int:
    """Serve the HTTP/JSON face until ``http`` closes; its port, or 0 when it is off."""
    if settings.http_port is None:
        return 0
    app = build_app(
        api,
        settings.cors_origins,
        [tournaments.http_mount(), lobby_mount(lobby_api), ratings_mount(rating_api)],
        console_dir=settings.console_dir,
    )
    return await http.enter_async_context(
        serving_http(
            app,
            settings.host,
            settings.http_port,
            HttpLimits.of(settings),
            reuse_port=settings.workers > 1,
        )
    )


@dataclass
class _Background:
    """What runs beside the servers: the store follower, the embedded Redis's supervisor,
    the rater's sweep (service.app.rater) and the deadline firer (entered into ``clocks``
    when the settings run one)."""

    follower: _StoreFollower
    rater: Rater
    tasks: tuple[asyncio.Task[None], ...]
    clocks: contextlib.AsyncExitStack

    @classmethod
    def start(cls, follower: _StoreFollower, rater: Rater) -> _Background:
        tasks = [
            asyncio.create_task(follower.run(), name="store follower"),
            asyncio.create_task(rater.run(), name="rating sweep"),
        ]
        if follower.supervisor is not None:
            tasks.append(asyncio.create_task(follower.supervisor.run(), name="redis supervisor"))
        return cls(follower, rater, tuple(tasks), contextlib.AsyncExitStack())


async def _stop(
    settings: Settings,
    handle: Running,
    tournaments: TournamentService,
    health_servicer: Any,
    background: _Background,
    http: contextlib.AsyncExitStack,
    store: RedisStore,
) -> list[str]:
    """The graceful stop; the steps cut at their deadline.

    Stop advertising and end watch streams with UNAVAILABLE at once (their clients resume
    elsewhere from their last version), whatever the rest takes; then no clock moves, no
    directors or bots, and in-flight moves finish. Each step is bounded
    (service.process.stopping)."""
    steps = Steps()
    background.follower.stop()
    background.rater.stop()
    for task in background.tasks:
        task.cancel()
        await steps.run(task.get_name(), functools.partial(_ended, task), STEP_SECONDS)
    await steps.run("health", health_servicer.enter_graceful_shutdown, STEP_SECONDS)
    # The watch lanes end within one blocking read (watch_reader.CLOSE_SECONDS).
    await steps.run("watch feed", handle.referee.feed.aclose, STEP_SECONDS + 1)
    await steps.run("deadline firer", background.clocks.aclose, STEP_SECONDS)
    # The directors' bots stop before the server.
    await steps.run("tournaments", tournaments.aclose, TOURNAMENTS_STOP_SECONDS)
    grace = settings.shutdown_grace_seconds
    await steps.run(
        "servers",
        lambda: asyncio.gather(handle.server.stop(grace=grace), http.aclose()),
        grace + STEP_SECONDS,
    )
    await steps.run("store", store.aclose, STEP_SECONDS)
    return steps.cut


def _own_port(server: grpc.aio.Server, settings: Settings) -> int:
    """Bind the gRPC port this process serves alone, if any (a worker's, for a proxy that
    sends every call of a game to one worker: service.process.workers); 0 when none."""
    if settings.worker_port is None:
        return 0
    return server.add_insecure_port(f"{settings.host}:{settings.worker_port}")


async def _ended(task: asyncio.Task[Any]) -> None:
    """Until ``task`` is over, whatever it ended with (it was cancelled)."""
    await asyncio.wait({task})


def _firer(
    writer: TableWriter, deadlines: DeadlineIndex, settings: Settings, bots: HouseBots
) -> Firer:
    """The deadline firer of this process (service.app.firer), as the settings say."""
    return Firer(
        writer,
        deadlines,
        bots=bots,
        poll_seconds=settings.deadline_poll_seconds,
        per_shard=settings.deadline_claims_per_shard,
        concurrency=settings.deadline_concurrency,
        lease_ms=settings.deadline_lease_ms,
    )


async def _report_persistence(settings: Settings, redis_url: str, origin: str) -> None:
    """Log what Redis says of its persistence; refuse to start on a Redis that would lose
    acknowledged moves when ``require_durability`` says so (see :mod:`service.storage.durability`).
    Never logs the URL: it may carry a password."""
    persistence = await read_persistence(redis_url, cluster=settings.redis_cluster)
    risk = persistence.risk(settings.wait_replicas)
    log.info(
        "redis persistence",
        redis=origin,
        appendonly=persistence.appendonly,
        appendfsync=persistence.appendfsync,
        save=persistence.save,
        wait_replicas=settings.wait_replicas,
        durable=risk is None,
    )
    if risk is None:
        return
    if settings.require_durability:
        raise SystemExit(f"REFEREE_REQUIRE_DURABILITY is on, and {risk}")
    log.warning("acknowledged moves may be lost", risk=risk)


class _StoreFollower:
    """The RefereeService is NOT_SERVING while Redis does not answer (or the embedded one
    is being restarted), so load balancers and readiness probes take this replica out of
    rotation; the process itself stays healthy (service ""). Probed every
    STORE_PROBE_SECONDS, and at once when the supervisor says the server died or is back.
    Stopped by a flag as well as cancelled (a cancellation can be lost in a Redis call:
    service.process.stopping)."""

    def __init__(
        self, store: RedisStore, health_servicer: Any, supervisor: Supervisor | None
    ) -> None:
        self.store = store
        self.health_servicer = health_servicer
        self.supervisor = supervisor
        self._stopping = False

    def stop(self) -> None:
        self._stopping = True

    async def run(self) -> None:
        serving = True
        while not self._stopping:
            try:
                await asyncio.wait_for(self.store.ping(), STORE_PROBE_SECONDS)
                ok = self.supervisor is None or self.supervisor.up
            except (Unavailable, TimeoutError):
                ok = False
            if ok != serving and not self._stopping:
                serving = ok
                status = (
                    health_pb2.HealthCheckResponse.SERVING
                    if ok
                    else health_pb2.HealthCheckResponse.NOT_SERVING
                )
                await self.health_servicer.set(SERVICE_NAME, status)
                log.warning("store reachable" if ok else "store unreachable", service=SERVICE_NAME)
            await self._next_probe()

    async def _next_probe(self) -> None:
        """Wait STORE_PROBE_SECONDS, or less if the embedded server died or came back."""
        if self.supervisor is None:
            await asyncio.sleep(STORE_PROBE_SECONDS)
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.supervisor.changed.wait(), STORE_PROBE_SECONDS)
        self.supervisor.changed.clear()


async def _bounded_close(name: str, close: Callable[[], Awaitable[Any]]) -> None:
    """A close of the exit stack, bounded like the stop's steps."""
    await bounded(name, close(), STEP_SECONDS)


def redis_origin(settings: Settings, embedded: bool | None = None) -> str:
    """What the logs call the Redis: "embedded" when this referee started it (here, or a
    supervisor of workers, which hands its workers a ``redis_url``), else "external"."""
    if embedded is None:
        embedded = settings.redis_url is None
    return "embedded" if embedded else "external"


def _announce(settings: Settings, handle: Running) -> None:
    metrics = (handle.metrics_port,) if handle.metrics_port else ()
    own = (handle.worker_port,) if handle.worker_port else ()
    announce(settings.host, handle.port, handle.redis, handle.http_port, metrics, own)


def stop_seconds(settings: Settings) -> float:
    """How long a stop may take before the watchdog ends the process."""
    return settings.shutdown_grace_seconds + STOP_MARGIN_SECONDS


async def serve(
    settings: Settings,
    on_ready: Callable[[Settings, Running], None] = _announce,
    signals: Sequence[signal.Signals] = (signal.SIGINT, signal.SIGTERM),
    *,
    embedded_redis: bool | None = None,
    on_stopper: Callable[[StopSignals], None] | None = None,
) -> None:
    """Serve until one of ``signals`` comes; ``on_ready`` once serving (by default, print
    where; a worker of :mod:`service.process.workers` tells its supervisor instead).

    ``embedded_redis``: whether the ``redis_url`` is an embedded Redis started for this
    process (a worker's, by its supervisor); None: only when there is no ``redis_url``.
    ``on_stopper`` is given the stop's :class:`StopSignals` (a worker also begins its stop
    when its supervisor is gone). The stop is bounded (service.process.stopping): exits
    with EXIT_STEP_CUT when a step was cut, EXIT_FORCED from the watchdog or a second
    signal."""
    open_files = raise_open_files_limit()
    stopper = StopSignals(stop_seconds(settings))
    stopper.install(signals)
    if on_stopper is not None:
        on_stopper(stopper)
    async with running(settings, embedded_redis=embedded_redis) as handle:
        on_ready(settings, handle)
        log.info(
            "started",
            port=handle.port,
            redis=handle.redis,
            open_files=open_files,
            pid=os.getpid(),
            compiled=compiled.build() == "compiled",  # the mypyc build (docs/hosting.md)
        )
        # Everything made so far (modules, the engines' lookup tables, the servers) lives as
        # long as the process: out of the collector's sight, a full collection scans only
        # what calls made since, and its pause drops from 40-55 ms to about 4 ms (measured
        # under the abuse suite's floods: docs/security.md), which every caller's p99 felt.
        gc.freeze()
        await stopper.stop.wait()
        log.info("stopping", reason=stopper.reason)
    await _after_stop(handle.cut_steps)


async def _after_stop(cut_steps: list[str]) -> None:
    """End the tasks left (asyncio.run would wait for them without a bound) and leave with
    the stop's exit code: 0 (return), else EXIT_STEP_CUT."""
    left = await drain_tasks(STEP_SECONDS)
    if left:
        exit_now(EXIT_STEP_CUT, "tasks would not stop", tasks=left[:20], cut_steps=cut_steps)
    if cut_steps:
        log.error("stopped, some steps cut at their deadline", cut_steps=cut_steps)
        raise SystemExit(EXIT_STEP_CUT)
    log.info("stopped")
