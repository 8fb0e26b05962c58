"""Moves over Play streams against a streaming gRPC echo: ``python -m bench.play_stream``.

Two phases in one run, with the same process layout, streams and bytes (as ``bench.e2e``):

1. **referee**: a real ``redis-server`` (embedded, started here; or ``REDIS_URL``), the
   referee in its own process (``referee serve`` at the log level ``--log-level``, info by
   default: a line per move), and this process as the load generator: ``--tables`` games
   of Gang of Four (4 seats, or ``--seats 3``: the difference is what one stream more costs
   per move), each seat on its own ``Play`` stream over its own connection.
   Gang of Four has one seat to act at a time, so the seats of a table never race: each
   table submits one move, waits for its answer, then submits the next, on the stream of
   the seat to act, pinned to the version it expects (``expected_version``), so a conflict
   would show as a rejection. The moves are planned ahead, before any window, by a seeded
   local replay of the engine (the first listed legal move of the seat to act, every
   time): the driver never lists moves nor decides, it writes prepared request bytes and
   reads the answers as bytes (each response's kind is its first byte), never parsing an
   update. A game over is replaced by a new game of one of the ``--plans`` seeds.
2. **echo**: ``python -m bench.echo`` in its own process, as many ``EchoStream`` streams
   as seat streams (one per seat, one connection each), each writing a request and reading
   its answer in a loop, with the mean submit size and the mean bytes the acting seat
   received per move in phase 1 (its update and the move's result), and an
   ``authorization`` header of the token's length.

The phases alternate ``--rounds`` times, ``--warmup`` seconds unmeasured then ``--seconds /
--rounds`` measured each. The figure is accepted moves/s over echo messages/s (goal >=
0.6), with the referee's CPU (``/proc``) per accepted move and per pushed update (each
move pushes an update to each stream of its table), the load generator's CPU beside
it (it must cost less than the referee), and what other processes on the machine used.
``--py-spy FILE`` samples the referee in its measured windows and prints the hotspots.
Everything listens on 127.0.0.1; every child process is stopped when the run ends.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import secrets
import signal
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from bench import echo
from bench.common import Row, machine, print_table
from bench.e2e import (
    CHANNEL_OPTIONS,
    Metadata,
    Phase,
    Servers,
    Stats,
    Window,
    Worker,
    add_referee_options,
    child_env,
    merged_py_spy,
    py_spy,
    redis_url,
    run_window,
    serve_arguments,
    server_process,
)
from engines.gang_of_four import GAME
from referee.v1 import referee_pb2, referee_pb2_grpc
from service.edge.translate import moves_to_proto

GOAL = 0.6
SEATS = 4  # the default; --seats 3 shows what one stream more costs per move
PLAY_PATH = "/referee.v1.RefereeService/Play"
# The first byte of a serialised PlayResponse names its kind (the oneof's field, wire type 2).
UPDATE, MOVE_RESULT, LEGAL_MOVES, REJECTION = 0x0A, 0x12, 0x1A, 0x22
MAX_STEPS = 2000  # a planned game longer than this is cut (never seen with these seeds)


# --- the plan -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """One game planned by a local replay: its seed, and per step the seat to act and the
    ``PlayRequest`` bytes of its move (pinned to the version before it)."""

    seed: bytes
    players: int
    seats: tuple[int, ...]
    submits: tuple[bytes, ...]
    complete: bool = True  # played to its end (else cut: the referee will not end the streams)


def plan(seed: bytes, players: int = SEATS, limit: int = MAX_STEPS) -> Plan:
    """Replay Gang of Four from ``seed`` (the referee deals the same from it), the seat to
    act always playing its first legal move, and prepare each move's request bytes; at most
    ``limit`` moves (bench.peers cuts its games to the peers' length)."""
    config = GAME.make_config(players, {})
    state = GAME.new_game(config, seed)
    seats: list[int] = []
    moves: list[Any] = []
    while GAME.outcome(state) is None and len(moves) < limit:
        (seat,) = GAME.to_act(state)
        move = GAME.legal_moves(state, seat)[0]
        state, _ = GAME.apply(state, seat, move)
        seats.append(seat)
        moves.append(move)
    submits = tuple(
        referee_pb2.PlayRequest(
            submit=referee_pb2.PlayRequest.Submit(
                move=proto, client_move_id=f"m{step}", expected_version=step
            )
        ).SerializeToString()
        for step, proto in enumerate(moves_to_proto("gang_of_four", moves))
    )
    return Plan(seed, players, tuple(seats), submits, GAME.outcome(state) is not None)


# --- phase 1: the referee -----------------------------------------------------------------


@dataclass
class Tally:
    """What the seats' streams received in one measured window (besides the move results
    the table workers count in :class:`~bench.e2e.Stats`)."""

    updates: int = 0
    update_bytes: int = 0
    request_bytes: int = 0
    answer_bytes: int = 0  # the acting seat's update and the move's result, per move
    answered: int = 0
    rejections: int = 0


@dataclass(eq=False)
class Seat:
    """One seat's Play stream: a reader that takes every response as bytes."""

    call: grpc.aio.StreamStreamCall[bytes, bytes]
    waiting: asyncio.Future[tuple[int, int]] | None = None  # (kind, answer bytes)
    last_update: int = 0  # bytes of the latest update received
    reader: asyncio.Task[None] | None = None

    async def read(self, stats: Stats, tally: Tally) -> None:
        while True:
            message = await self.call.read()
            if not isinstance(message, bytes):
                return  # EOF: the referee ended the stream (the game is over)
            kind = message[0]
            if kind == UPDATE:
                self.last_update = len(message)
                if stats.measuring:
                    tally.updates += 1
                    tally.update_bytes += len(message)
            elif self.waiting is not None and not self.waiting.done():
                self.waiting.set_result((kind, self.last_update + len(message)))


class TableLoad:
    """Every table's worker, their channels (one per seat) and the plans they replay."""

    def __init__(self, address: str, tables: int, plans: Sequence[Plan]) -> None:
        self.plans = plans
        self.seats = plans[0].players
        self.channels = [
            grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS)
            for _ in range(tables * self.seats)
        ]
        self.tally = Tally()
        self.created = self.finished = 0
        self.token_length = 0
        self.workers: list[Worker] = [self._worker(n) for n in range(tables)]

    async def close(self) -> None:
        for channel in self.channels:
            await channel.close(grace=None)

    def _worker(self, table: int) -> Worker:
        channels = self.channels[table * self.seats : (table + 1) * self.seats]
        stub = referee_pb2_grpc.RefereeServiceStub(channels[0])
        play = [
            channel.stream_stream(PLAY_PATH, request_serializer=None, response_deserializer=None)
            for channel in channels
        ]

        async def work(stats: Stats, stop: asyncio.Event) -> None:
            while not stop.is_set():
                game = self.plans[(table + self.created) % len(self.plans)]
                self.created += 1
                created = await stub.CreateGame(
                    referee_pb2.CreateGameRequest(
                        game="gang_of_four", seats=self.seats, seed=game.seed
                    )
                )
                join = referee_pb2.PlayRequest(
                    join=referee_pb2.PlayRequest.Join(game_id=created.game_id)
                ).SerializeToString()
                seats = []
                for method, token in zip(play, created.seat_tokens, strict=True):
                    md: Metadata = (("authorization", f"Bearer {token.token}"),)
                    self.token_length = len(md[0][1])
                    seat = Seat(method(None, metadata=md))
                    await seat.call.write(join)
                    seat.reader = asyncio.create_task(seat.read(stats, self.tally))
                    seats.append(seat)
                try:
                    if await self._play(game, seats, stats, stop):
                        self.finished += 1
                        if game.complete:
                            await _closed(seats)
                finally:
                    for seat in seats:
                        seat.call.cancel()
                        if seat.reader is not None:
                            seat.reader.cancel()
                    await asyncio.gather(
                        *(seat.reader for seat in seats if seat.reader), return_exceptions=True
                    )

        return work

    async def _play(self, game: Plan, seats: list[Seat], stats: Stats, stop: asyncio.Event) -> bool:
        """Submit the plan's moves one at a time; True when the game was played out."""
        loop = asyncio.get_running_loop()
        for seat_number, submit in zip(game.seats, game.submits, strict=True):
            if stop.is_set():
                return False
            seat = seats[seat_number]
            seat.waiting = loop.create_future()
            started = time.perf_counter()
            await seat.call.write(submit)
            kind, answer = await seat.waiting
            if kind != MOVE_RESULT:
                stats.failure("rejection" if kind == REJECTION else f"kind {kind:#x}")
                if stats.measuring:
                    self.tally.rejections += 1
                return False  # off the plan: start a new game
            stats.success(time.perf_counter() - started)
            if stats.measuring:
                self.tally.request_bytes += len(submit)
                self.tally.answer_bytes += answer
                self.tally.answered += 1
        return True

    @property
    def sizes(self) -> tuple[int, int]:
        """Mean submit request and answer (acting seat's update + result) bytes so far."""
        answered = max(self.tally.answered, 1)
        return (
            round(self.tally.request_bytes / answered),
            round(self.tally.answer_bytes / answered),
        )


async def _closed(seats: list[Seat]) -> None:
    """Close each seat's side and let its reader take the rest, up to the referee's end."""
    for seat in seats:
        await seat.call.done_writing()
    await asyncio.wait_for(
        asyncio.gather(*(seat.reader for seat in seats if seat.reader)), timeout=30
    )


# --- phase 2: the echo --------------------------------------------------------------------


def echo_stream_worker(channel: grpc.aio.Channel, payload: bytes, md: Metadata) -> Worker:
    """One EchoStream: write a request, read its answer, as long as the window lasts."""
    method = echo.stream_method(channel)

    async def work(stats: Stats, stop: asyncio.Event) -> None:
        call = method(None, metadata=md)
        try:
            while not stop.is_set():
                started = time.perf_counter()
                await call.write(payload)
                if not isinstance(await call.read(), bytes):
                    stats.failure("EOF")
                    return
                stats.success(time.perf_counter() - started)
        except grpc.aio.AioRpcError as error:
            stats.failure(error.code().name)
        finally:
            call.cancel()

    return work


# --- the run ------------------------------------------------------------------------------


@dataclass
class Result:
    referee: Phase
    echo: Phase
    tally: Tally
    sizes: tuple[int, int]
    games: tuple[int, int]
    windows: dict[str, list[Window]] = field(default_factory=dict)

    @property
    def ratio(self) -> float:
        return self.referee.rate / self.echo.rate if self.echo.rate else math.nan


async def measure(servers: Servers, args: argparse.Namespace, plans: Sequence[Plan]) -> Result:
    """Alternate referee and echo windows ``--rounds`` times on long-lived servers."""
    load = TableLoad(servers.referee, args.tables, plans)
    echo_channels = [
        grpc.aio.insecure_channel(servers.echo, options=CHANNEL_OPTIONS)
        for _ in range(args.tables * args.seats)
    ]
    windows: dict[str, list[Window]] = {"referee": [], "echo": []}
    window_seconds = args.seconds / args.rounds
    try:
        for round_number in range(1, args.rounds + 1):
            spy = Path(f"{args.py_spy}.{round_number}").resolve() if args.py_spy else None

            def during(spy: Path | None = spy) -> contextlib.AbstractContextManager[None]:
                if spy is None:
                    return contextlib.nullcontext()
                return py_spy(servers.pids["referee"], window_seconds, spy, args.py_spy_native)

            played = await run_window(
                load.workers,
                warmup=args.warmup,
                seconds=window_seconds,
                pids=servers.pids,
                during=during,
            )
            windows["referee"].append(played)
            request_size, answer_size = load.sizes
            payload = echo.request_bytes(request_size, answer_size)
            md: Metadata = (("authorization", "x" * load.token_length),)
            echoed = await run_window(
                [echo_stream_worker(channel, payload, md) for channel in echo_channels],
                warmup=args.warmup,
                seconds=window_seconds,
                pids=servers.pids,
            )
            windows["echo"].append(echoed)
            print(
                f"round {round_number}: referee {played.stats.ok / played.seconds:,.0f} moves/s, "
                f"echo {echoed.stats.ok / echoed.seconds:,.0f} messages/s ({len(payload)} B "
                f"requests, {answer_size} B answers); other processes used "
                f"{_others(played):.0%} and {_others(echoed):.0%} of a core",
                flush=True,
            )
    finally:
        await load.close()
        for channel in echo_channels:
            await channel.close(grace=None)
    return Result(
        referee=Phase("referee Play", windows["referee"]),
        echo=Phase("echo stream", windows["echo"]),
        tally=load.tally,
        sizes=load.sizes,
        games=(load.created, load.finished),
        windows=windows,
    )


def _others(window: Window) -> float:
    return max(0.0, (window.machine - sum(window.cpu.values())) / window.seconds)


def run(args: argparse.Namespace, plans: Sequence[Plan]) -> Result:
    """Start Redis, the referee and the echo server, measure, and stop them all."""
    env = child_env()
    env["REFEREE_TOKEN_SECRET"] = secrets.token_hex(32)
    env["REFEREE_LOG_LEVEL"] = args.log_level
    with contextlib.ExitStack() as stack:
        work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="referee-play-")))
        url, redis_pid = stack.enter_context(redis_url(work, args.appendfsync))
        serve = [sys.executable, *serve_arguments(work, url, 1)]
        referee, referee_port = stack.enter_context(
            server_process(serve, env, work / "referee.log")
        )
        echo_server, echo_port = stack.enter_context(
            server_process(
                [sys.executable, "-m", "bench.echo", "--port", "0"], env, work / "echo.log"
            )
        )
        pids = {"referee": referee.pid, "echo": echo_server.pid, "load generator": os.getpid()}
        if redis_pid is not None:
            pids["redis"] = redis_pid
        where = f"embedded, pid {redis_pid}" if redis_pid else "REDIS_URL"
        print(
            f"referee pid {referee.pid} on 127.0.0.1:{referee_port}; echo pid {echo_server.pid} "
            f"on 127.0.0.1:{echo_port}; redis {where}; load generator pid {os.getpid()}",
            flush=True,
        )
        servers = Servers(f"127.0.0.1:{referee_port}", f"127.0.0.1:{echo_port}", pids, where)
        return asyncio.run(measure(servers, args, plans))


def report(phase: Phase, busy: Sequence[str]) -> list[str]:
    return [
        phase.name,
        f"{phase.ok:,}",
        f"{phase.rate:,.0f}",
        *(f"{phase.latency_ms(q):.2f}" for q in (0.5, 0.95, 0.99)),
        f"{sum(phase.errors.values()):,}",
        ", ".join(f"{who} {share:.0%}" for who, share in phase.cpu(busy).items()),
    ]


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--seconds", type=float, default=10.0, help="measured time per phase (all rounds)"
    )
    parser.add_argument("--rounds", type=int, default=2, help="referee/echo alternations")
    parser.add_argument("--warmup", type=float, default=1.0, help="unmeasured time per window")
    parser.add_argument(
        "--tables", type=int, default=16, help="Gang of Four games in play (one stream per seat)"
    )
    parser.add_argument(
        "--seats", type=int, choices=(3, 4), default=SEATS, help="seats (streams) per table"
    )
    parser.add_argument("--plans", type=int, default=8, help="distinct planned games (seeds)")
    add_referee_options(parser)
    parser.add_argument("--py-spy", metavar="FILE", help="sample the referee with py-spy")
    parser.add_argument("--py-spy-native", action="store_true", help="py-spy --native")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0 or args.tables < 1 or args.plans < 1:
        parser.error("--rounds, --seconds, --tables and --plans must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> list[Row]:
    args = parse(argv)
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        return _main(args)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def _main(args: argparse.Namespace) -> list[Row]:
    print(f"play_stream: {machine()}")
    started = time.perf_counter()
    plans = [plan(f"bench-play-{n}".encode(), args.seats) for n in range(args.plans)]
    steps = [len(p.submits) for p in plans]
    print(
        f"{args.tables} Gang of Four tables x {args.seats} Play streams, one connection each; "
        f"{len(plans)} games planned in {time.perf_counter() - started:.1f}s "
        f"({min(steps)}..{max(steps)} moves); {args.rounds} rounds of referee then echo, "
        f"{args.seconds / args.rounds:g}s measured after {args.warmup:g}s warm-up each",
        flush=True,
    )
    result = run(args, plans)
    if args.py_spy:
        merged_py_spy(Path(args.py_spy), args.rounds)
    return summarise(result)


def summarise(result: Result) -> list[Row]:
    referee, baseline, tally = result.referee, result.echo, result.tally
    created, finished = result.games
    print(
        f"Play mean bytes: submit {result.sizes[0]}, acting seat's update + result "
        f"{result.sizes[1]}; updates pushed {tally.updates:,} "
        f"({tally.update_bytes / max(tally.updates, 1):,.0f} B mean); "
        f"games created {created}, played out {finished}"
    )
    print_table(
        ["phase", "ok", "per s", "p50 ms", "p95 ms", "p99 ms", "errors", "CPU, share of one core"],
        [
            report(referee, ["referee", "redis", "load generator"]),
            report(baseline, ["echo", "load generator"]),
        ],
    )
    for what, count in referee.errors.most_common():
        print(f"  referee: {what}: {count:,}")
    for what, count in baseline.errors.most_common():
        print(f"  echo error: {what}: {count:,}")
    referee_cpu = sum(w.cpu["referee"] for w in referee.windows) * 1000
    per_move = referee_cpu / max(referee.ok, 1)
    per_update = referee_cpu / max(tally.updates, 1)
    driver_ms = referee.cpu_ms_per_call("load generator")
    redis_ms = referee.cpu_ms_per_call("redis") if "redis" in referee.windows[0].cpu else math.nan
    echo_ms = baseline.cpu_ms_per_call("echo")
    print(
        f"CPU per accepted move: referee {per_move:.3f} ms (= {per_update:.3f} ms per pushed "
        f"update), redis {redis_ms:.3f} ms, load generator {driver_ms:.3f} ms "
        f"({'cheaper' if driver_ms < per_move else 'NOT cheaper'} than the referee); "
        f"echo {echo_ms:.3f} ms per message"
    )
    ratio = result.ratio
    verdict = "met" if ratio >= GOAL else "NOT met"
    latencies = "/".join(f"{referee.latency_ms(q):.1f}" for q in (0.5, 0.95, 0.99))
    print(
        f"summary: {referee.rate:,.0f} accepted Play moves/s vs {baseline.rate:,.0f} stream "
        f"echo messages/s: ratio {ratio:.2f} (goal >= {GOAL}: {verdict}); "
        f"{tally.rejections} conflicts; move p50/p95/p99 {latencies} ms; referee CPU "
        f"{per_move:.3f} ms per move, {per_update:.3f} ms per pushed update"
    )
    return [
        Row("play_stream", "accepted moves over Play", referee.rate, "moves/s"),
        Row("play_stream", "stream echo baseline", baseline.rate, "messages/s"),
        Row("play_stream", f"ratio Play/echo (goal >= {GOAL})", f"{ratio:.2f} ({verdict})"),
        Row(
            "play_stream",
            "referee CPU per move / per update",
            f"{per_move:.2f} / {per_update:.2f}",
            "ms",
        ),
    ]


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
