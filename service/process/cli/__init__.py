"""`referee` command line: serve, verify, tournaments (:mod:`service.process.cli.tournament`) and
the bot (`referee.bots.cli`)."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import importlib
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import json_format

from referee.client.calls import HistoryPages
from referee.v1 import referee_pb2, referee_pb2_grpc
from service import compiled
from service.process import logs
from service.process.cli import game as cli_game
from service.process.cli import tournament as cli_tournament
from service.settings import DEFAULTS, Settings, env_name


def _serve(args: argparse.Namespace) -> int:
    from service.process.server import serve
    from service.process.workers import supervise, whole_lines_on_stderr, worker_count

    settings = Settings.from_env()
    overrides = {
        "host": args.host,
        "port": args.port,
        "workers": args.workers,
        "worker_port": args.worker_port,
        "http_port": args.http_port,
        "cors_origins": tuple(args.cors_origin) if args.cors_origin else None,
        "redis_url": args.redis_url,
        "data_dir": args.data_dir,
        "allow_client_seeds": args.allow_client_seeds or None,
    }
    settings = dataclasses.replace(
        settings, **{key: value for key, value in overrides.items() if value is not None}
    )
    workers = worker_count(settings)
    if workers > 1:
        whole_lines_on_stderr()
        logs.configure(settings.log_level)
        return supervise(settings, workers)
    logs.configure(settings.log_level)
    asyncio.run(serve(dataclasses.replace(settings, workers=1)))
    return 0


def _verify(args: argparse.Namespace) -> int:
    from service.edge.verify import verify_history

    if args.file:
        history = json_format.Parse(Path(args.file).read_text(), referee_pb2.GetHistoryResponse())
        views = []
    else:
        metadata = (("authorization", f"Bearer {args.token}"),) if args.token else ()
        with grpc.insecure_channel(args.address) as channel:
            stub = referee_pb2_grpc.RefereeServiceStub(channel)
            unfinished = _until_finished(stub, args.game_id, metadata, args.wait)
            if unfinished is not None:
                waited = f" after {args.wait:g} s" if args.wait else ""
                print(f"not finished (version {unfinished}){waited}")
                return NOT_FINISHED
            pages = HistoryPages(args.game_id)
            request: referee_pb2.GetHistoryRequest | None = pages.first()
            while request is not None:
                request = pages.next(stub.GetHistory(request, metadata=metadata))
            history = pages.whole()
            # Every version's view as this caller saw it (or could have), each checked.
            watch = referee_pb2.WatchGameRequest(game_id=args.game_id, after_version=0)
            views = [update.view for update in stub.WatchGame(watch, metadata=metadata)]
            if args.revealed:  # and every version's post-game reveal, checked the same way
                watch.revealed = True
                views += [update.view for update in stub.WatchGame(watch, metadata=metadata)]
    report = verify_history(history, views, game_id=args.game_id or "")
    print(report)
    return 0 if report.ok else 1


def _until_finished(
    stub: referee_pb2_grpc.RefereeServiceStub,
    game_id: str,
    metadata: tuple[tuple[str, str], ...],
    wait: float,
) -> int | None:
    """None once the game is over (at once, or within ``wait`` seconds, following its
    watch); else its version when the time is up."""
    view = stub.GetView(referee_pb2.GetViewRequest(game_id=game_id), metadata=metadata).view
    deadline = time.monotonic() + wait
    while not view.HasField("outcome"):
        left = deadline - time.monotonic()
        if left <= 0:
            return view.version
        watch = referee_pb2.WatchGameRequest(game_id=game_id, after_version=view.version)
        try:
            for update in stub.WatchGame(watch, metadata=metadata, timeout=left):
                view = update.view
                if view.HasField("outcome"):
                    break
        except grpc.RpcError as error:
            if error.code() is not grpc.StatusCode.DEADLINE_EXCEEDED:
                raise
    return None


def _setting(field: str, what: str, default: str | None = None) -> str:
    """The help of a flag that overrides a setting: its variable and its default (from
    :data:`~service.settings.DEFAULTS`, or ``default`` said in words)."""
    shown = str(getattr(DEFAULTS, field)) if default is None else default
    return f"{what} ({env_name(field)}; default {shown})"


NOT_FINISHED = 3  # `referee verify`'s exit code for a game that is not over (yet)


class _Version(argparse.Action):
    """``referee --version``: the package's version and which build runs (compiled by mypyc
    or pure Python: service.compiled), found only when asked (it imports every engine)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(f"referee {metadata.version('referee')}, {compiled.describe()}")
        parser.exit()


# Commands with options of their own, handed their arguments whole: (module, help).
DELEGATED = {
    "bot": ("referee.bots.cli", "play one seat of a game with a bot, as an ordinary client"),
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in DELEGATED:
        delegate: int = importlib.import_module(DELEGATED[argv[0]][0]).main(argv[1:])
        return delegate
    parser = argparse.ArgumentParser(prog="referee", description="Authoritative game referee")
    parser.add_argument(
        "--version", action=_Version, help="print the version and which build runs, and exit"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for name, (_, text) in DELEGATED.items():
        commands.add_parser(name, help=f"{text} (referee {name} --help)")
    serve = commands.add_parser("serve", help="run the gRPC referee")
    serve.add_argument("--host", help=_setting("host", "address to bind"))
    serve.add_argument("--port", type=int, help=_setting("port", "gRPC port, 0 = any free"))
    serve.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help=_setting(
            "workers",
            "referee processes sharing the ports, under a supervisor; 1: one process",
            "0, one per core",
        ),
    )
    serve.add_argument(
        "--worker-port",
        type=int,
        metavar="PORT",
        help=_setting(
            "worker_port",
            "worker i also serves gRPC alone on PORT + i, for a proxy that routes by game; "
            "0 = any free",
            "off",
        ),
    )
    serve.add_argument(
        "--http-port",
        type=int,
        help=_setting("http_port", "HTTP/JSON (Connect) port, 0 = any free"),
    )
    serve.add_argument(
        "--cors-origin",
        action="append",
        help=_setting(
            "cors_origins", "an origin browsers may call the HTTP face from; repeat, or *", "none"
        ),
    )
    serve.add_argument(
        "--redis-url", help=_setting("redis_url", "external Redis", "an embedded one")
    )
    serve.add_argument(
        "--data-dir", type=Path, help=_setting("data_dir", "embedded Redis and secret")
    )
    serve.add_argument(
        "--allow-client-seeds",
        action="store_true",
        help=_setting("allow_client_seeds", "accept CreateGame seeds (tests only)", "off"),
    )
    serve.set_defaults(run=_serve)
    verify = commands.add_parser(
        "verify",
        help="replay a finished game from its seed (exit 1: it does not verify; 3: not finished)",
    )
    verify.add_argument("--address", default=f"{DEFAULTS.host}:{DEFAULTS.port}")
    verify.add_argument("--game-id")
    verify.add_argument("--token", help="a seat token (else as a spectator)")
    verify.add_argument("--file", help="a GetHistoryResponse saved as JSON instead")
    verify.add_argument(
        "--revealed",
        action="store_true",
        help="also check every version's post-game reveal (WatchGame with revealed)",
    )
    verify.add_argument(
        "--wait",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="wait this long for an unfinished game to end (default: answer at once)",
    )
    verify.set_defaults(run=_verify)
    cli_tournament.add_commands(commands, f"{DEFAULTS.host}:{DEFAULTS.port}")
    cli_game.add_commands(commands, f"{DEFAULTS.host}:{DEFAULTS.port}")
    args = parser.parse_args(argv)
    if args.command == "verify" and not (args.file or args.game_id):
        parser.error("verify needs --game-id or --file")
    result: int = args.run(args)
    return result
