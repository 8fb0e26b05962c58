"""``python -m bench.loadtest``: the command line of the load test."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bench.loadtest.config import BOT_KINDS, TRANSPORTS, LoadConfig, NotLoopback
from service.settings import DEFAULTS, env_name

DESCRIPTION = (
    "Drive N concurrent games with bots through M referee processes sharing one Redis "
    "(all on 127.0.0.1), then check every game: no acknowledged move lost or applied twice, "
    "the stored state equal to the replay, finished games verified from their revealed seed."
)


def parser(prog: str = "python -m bench.loadtest") -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog=prog, description=DESCRIPTION)
    p.add_argument("-n", "--concurrency", type=int, default=20, help="games in play at once")
    p.add_argument("-m", "--referees", type=int, default=2, help="referee processes to start")
    p.add_argument(
        "--seconds", type=float, default=30.0, help="driving time (0: until --games are played)"
    )
    p.add_argument("--games", type=int, default=0, help="games to start at most (0: no limit)")
    p.add_argument("--warmup", type=float, default=0.0, help="seconds not counted in rates")
    p.add_argument(
        "--game",
        action="append",
        help="the_gang, gang_of_four or pinched; repeat to mix (default the_gang)",
    )
    p.add_argument("--seats", type=int, default=4, help="seats per game")
    p.add_argument("--bot", choices=BOT_KINDS, default="heuristic")
    p.add_argument(
        "--transport",
        choices=TRANSPORTS,
        default="unary",
        help="unary: ListLegalMoves/SubmitMove/WatchGame per seat; play: one Play stream",
    )
    p.add_argument("--connections", type=int, default=8, help="gRPC connections per referee")
    p.add_argument("--redis-url", help="a loopback Redis (default: start an embedded one)")
    p.add_argument(
        "--target",
        action="append",
        help="a running referee (loopback host:port) instead of starting them; repeat",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the bots' choices")
    p.add_argument(
        "--log-level", default="warning", help="the referees' REFEREE_LOG_LEVEL (info: per RPC)"
    )
    p.add_argument(
        "--redis-max-connections",
        type=int,
        help="Redis connection pool size of each referee (default: their own "
        f"{env_name('redis_max_connections')}, {DEFAULTS.redis_max_connections} unless set)",
    )
    p.add_argument("--rpc-timeout", type=float, default=30.0, help="deadline of each unary call")
    p.add_argument("--no-check", action="store_true", help="skip the end-of-run replay check")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--json", type=Path, metavar="PATH", help="also write the report as JSON")
    p.add_argument("--work-dir", type=Path, help="keep logs and Redis data here")
    return p


def config_from(args: argparse.Namespace) -> LoadConfig:
    return LoadConfig(
        concurrency=args.concurrency,
        referees=args.referees,
        seconds=args.seconds,
        games=args.games,
        warmup=args.warmup,
        game=tuple(args.game or ["the_gang"]),
        seats=args.seats,
        bot=args.bot,
        transport=args.transport,
        connections=args.connections,
        redis_url=args.redis_url,
        targets=tuple(args.target or ()),
        seed=args.seed,
        log_level=args.log_level,
        rpc_timeout=args.rpc_timeout,
        redis_max_connections=args.redis_max_connections,
        check=not args.no_check,
        progress=not args.no_progress and sys.stderr.isatty(),
        json_path=args.json,
        work_dir=args.work_dir,
    )


def main(argv: list[str] | None = None) -> int:
    """Run a load test; 0 when every check passed, 1 when one failed, 2 on bad arguments."""
    p = parser()
    args = p.parse_args(argv)
    try:
        config = config_from(args)
    except NotLoopback as error:
        p.error(f"refused: {error}")
    except ValueError as error:
        p.error(str(error))
    from bench.loadtest.runner import run  # grpc, Redis and the bots only when running

    report = run(config)
    print(report.table(), flush=True)
    if config.json_path is not None:
        print(f"report written to {config.json_path}")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
