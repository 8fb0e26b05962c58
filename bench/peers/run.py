"""bench.peers' run: start every server, check them, alternate their windows, report."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench.common import Row, machine
from bench.e2e import (
    Window,
    add_referee_options,
    child_env,
    redis_url,
    serve_arguments,
    server_process,
)
from bench.peers import node, referee
from bench.peers.report import print_checks, print_round, summarise
from bench.peers.sides import Side, node_window, play_window, unary_window
from bench.play_stream import TableLoad

Measure = Callable[[], Awaitable[tuple[Window, int]]]


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.peers",
        description="The referee beside boardgame.io 0.50 and Colyseus 0.16 on one card game's "
        "shape: moves/s, p50/p99, server CPU per move and per pushed update, and the ratios.",
    )
    parser.add_argument(
        "--seconds", type=float, default=24.0, help="measured time per server (all rounds)"
    )
    parser.add_argument("--rounds", type=int, default=3, help="alternations of all servers")
    parser.add_argument("--warmup", type=float, default=2.0, help="unmeasured time per window")
    parser.add_argument("--tables", type=int, default=16, help="tables, one move in flight each")
    parser.add_argument("--deals", type=int, default=64, help="planned deals of the peers' game")
    parser.add_argument("--plans", type=int, default=8, help="planned Gang of Four games")
    parser.add_argument(
        "--moves-per-game",
        type=int,
        help="moves before a referee table is left for a new one (default: the peers' mean)",
    )
    add_referee_options(parser)
    args = parser.parse_args(argv)
    if min(args.rounds, args.tables, args.deals, args.plans) < 1 or args.seconds <= 0:
        parser.error("--seconds, --rounds, --tables, --deals and --plans must be positive")
    if args.moves_per_game is not None and args.moves_per_game < 1:
        parser.error("--moves-per-game must be positive")
    return args


@dataclass
class Servers:
    """Everything started, by the names their CPU is reported under."""

    pids: dict[str, int]
    drivers: dict[str, node.Driver]
    referee: str  # its gRPC address
    redis: str


def start(stack: contextlib.ExitStack, args: argparse.Namespace) -> Servers:
    """Redis, the referee, both peers and their drivers; all stopped with ``stack``."""
    work = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="referee-peers-")))
    env = child_env()
    env["REFEREE_TOKEN_SECRET"] = secrets.token_hex(32)
    env["REFEREE_LOG_LEVEL"] = args.log_level
    url, redis_pid = stack.enter_context(redis_url(work, args.appendfsync))
    serve = [sys.executable, *serve_arguments(work, url, 1)]
    proc, port = stack.enter_context(server_process(serve, env, work / "referee.log"))
    pids = {"referee": proc.pid}
    if redis_pid is not None:
        pids["redis"] = redis_pid
    drivers = {}
    for peer in ("bgio", "colyseus"):
        pids[peer], peer_port = stack.enter_context(node.peer_server(peer, work))
        drivers[peer] = stack.enter_context(
            node.driver(peer, peer_port, args.tables, args.deals, work)
        )
        pids[f"{peer} driver"] = drivers[peer].pid
    pids["load generator"] = os.getpid()
    where = f"embedded, pid {redis_pid}, appendfsync {args.appendfsync}" if redis_pid else "URL"
    print(
        "pids: " + ", ".join(f"{who} {pid}" for who, pid in pids.items()) + f"; redis {where}",
        flush=True,
    )
    return Servers(pids, drivers, f"127.0.0.1:{port}", where)


async def check_all(servers: Servers) -> None:
    """Each server refuses illegal moves and redacts hands, or the run stops here."""
    failed = 0
    for peer, name in (("bgio", "boardgame.io"), ("colyseus", "Colyseus")):
        answer = servers.drivers[peer].command("check")
        checks = [referee.Check(c["name"], c["ok"], c["detail"]) for c in answer["checks"]]
        failed += print_checks(name, checks, answer["notes"])
    checks = await referee.check(servers.referee)
    failed += print_checks("referee", checks, [])
    if failed:
        raise SystemExit(f"bench.peers: {failed} validation or redaction checks failed")


def game_length(servers: Servers, args: argparse.Namespace) -> int:
    """The referee's moves per table: ``--moves-per-game`` or the peers' planned mean."""
    lengths = servers.drivers["bgio"].ready["moves_per_game"]
    mean = statistics.fmean(lengths)
    moves = args.moves_per_game or round(mean)
    print(
        f"the peers' game: {len(lengths)} planned deals, {min(lengths)}..{max(lengths)} moves, "
        f"mean {mean:.1f}; referee tables (Gang of Four, 4 seats) are left after {moves} moves",
        flush=True,
    )
    return moves


async def measure(
    servers: Servers, args: argparse.Namespace
) -> tuple[list[Side], tuple[TableLoad, referee.UnaryLoad]]:
    """Check every server, then run every side's window in turn, round after round:
    A B C D A B C D ..."""
    await check_all(servers)
    plans = referee.plans(args.plans, game_length(servers, args))
    play = TableLoad(servers.referee, args.tables, plans)
    unary = referee.UnaryLoad(servers.referee, args.tables, plans)
    timing = {"warmup": args.warmup, "seconds": args.seconds / args.rounds, "pids": servers.pids}
    bgio, colyseus = servers.drivers["bgio"], servers.drivers["colyseus"]
    sides: list[tuple[Side, Measure]] = [
        (Side("boardgame.io", ("bgio",), "bgio driver"), lambda: node_window(bgio, **timing)),
        (
            Side("Colyseus", ("colyseus",), "colyseus driver"),
            lambda: node_window(colyseus, **timing),
        ),
        (
            Side("referee Play", ("referee", "redis"), "load generator"),
            lambda: play_window(play, **timing),
        ),
        (
            Side("referee unary", ("referee", "redis"), "load generator"),
            lambda: unary_window(unary, **timing),
        ),
    ]
    try:
        for round_number in range(1, args.rounds + 1):
            for side, window in sides:
                measured, updates = await window()
                side.windows.append(measured)
                side.updates.append(updates)
            print_round(round_number, [side for side, _ in sides])
    finally:
        await play.close()
        await unary.close()
    return [side for side, _ in sides], (play, unary)


def node_version() -> str:
    done = subprocess.run(
        [node.node_binary(), "--version"], capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def run(argv: Sequence[str] | None = None) -> list[Row]:
    args = parse(argv)
    print(f"peers: {machine()}, Node {node_version()}")
    print(node.ensure_packages(), flush=True)
    print(
        f"{args.tables} tables of 4 seats per server, one move in flight each; {args.rounds} "
        f"rounds of boardgame.io, Colyseus, referee Play, referee unary; "
        f"{args.seconds / args.rounds:g}s measured after {args.warmup:g}s warm-up each",
        flush=True,
    )
    with contextlib.ExitStack() as stack:
        servers = start(stack, args)
        sides, (play, unary) = asyncio.run(measure(servers, args))
    games = {
        "referee Play": (play.created, play.finished),
        "referee unary": (unary.created, unary.finished),
    }
    return summarise(sides, games, servers.redis)
