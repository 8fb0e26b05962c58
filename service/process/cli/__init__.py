"""`referee` command line: serve, verify, tournaments (:mod:`service.process.cli.tournament`) and
the bot (`referee.bots.cli`)."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import functools
import importlib
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

import grpc
from google.protobuf import json_format

from referee.client.calls import HistoryPages
from referee.client.errors import from_rpc_error
from referee.v1 import game_pb2, referee_pb2, referee_pb2_grpc
from service import compiled
from service.process import logs
from service.process.cli import game as cli_game
from service.process.cli import tournament as cli_tournament
from service.process.cli.common import (
    EXIT_CODES_HELP,
    Asked,
    ExitCode,
    Parser,
    UsageError,
    at_least,
    check,
    fail,
)
from service.process.stopping import EXIT_FORCED, EXIT_STEP_CUT
from service.settings import DEFAULTS, Settings, env_name


def _serve(args: argparse.Namespace) -> int:
    from service.process.server import serve
    from service.process.workers import bindable, supervise, whole_lines_on_stderr, worker_count

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
    for port in (settings.port, settings.http_port, settings.worker_port):
        if port:  # a port in use: one line and exit 1, before Redis or anything starts
            bindable(settings.host, port)
    logs.configure(settings.log_level)
    asyncio.run(serve(dataclasses.replace(settings, workers=1)))
    return 0


def _verify(args: argparse.Namespace) -> int:
    """Verify a game from its history (at ``--address``, or ``--file``); its exit code."""
    from service.edge.verify import verify_history

    if args.file:
        history = _history_file(args.file)
        views: list[game_pb2.View] = []
    else:
        asked = Asked("referee verify", args.address, f"game {args.game_id}", NO_SPECTATORS)
        try:
            fetched = _fetch(args)
        except grpc.RpcError as error:
            return fail(from_rpc_error(error), asked)
        if isinstance(fetched, int):
            waited = f" after {args.wait:g} s" if args.wait else ""
            print(
                f"referee verify: the game is not over yet{waited} (version {fetched}); "
                "try again when it ends, or pass --wait SECONDS",
                file=sys.stderr,
            )
            return ExitCode.NOT_FINISHED
        history, views = fetched
    report = verify_history(history, views, game_id=args.game_id or "")
    print(report)
    if report.ok:
        return ExitCode.OK
    print(
        f"referee verify: the game does not verify (first at move "
        f"{report.first_differing_version}; the problems are on stdout)",
        file=sys.stderr,
    )
    return ExitCode.NOT_VERIFIED


NO_SPECTATORS = "this table allows no spectators: pass --token with a seat token"


def _history_file(path: str) -> referee_pb2.GetHistoryResponse:
    """``--file``: a GetHistoryResponse as JSON; a usage error (exit 2) if it is not one."""
    try:
        return json_format.Parse(Path(path).read_text(), referee_pb2.GetHistoryResponse())
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror}") from None
    except (json_format.ParseError, UnicodeDecodeError) as error:
        raise UsageError(f"{path} is not a GetHistoryResponse as JSON: {error}") from None


def _fetch(
    args: argparse.Namespace,
) -> tuple[referee_pb2.GetHistoryResponse, list[game_pb2.View]] | int:
    """The game's history and every version's view as this caller saw it (or could have),
    each to be checked; or its version when it is not over (within ``--wait``)."""
    metadata = (("authorization", f"Bearer {args.token}"),) if args.token else ()
    with grpc.insecure_channel(args.address) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        unfinished = _until_finished(stub, args.game_id, metadata, args.wait)
        if unfinished is not None:
            return unfinished
        pages = HistoryPages(args.game_id)
        request: referee_pb2.GetHistoryRequest | None = pages.first()
        while request is not None:
            request = pages.next(stub.GetHistory(request, metadata=metadata))
        watch = referee_pb2.WatchGameRequest(game_id=args.game_id, after_version=0)
        views = [update.view for update in stub.WatchGame(watch, metadata=metadata)]
        if args.revealed:  # and every version's post-game reveal, checked the same way
            watch.revealed = True
            views += [update.view for update in stub.WatchGame(watch, metadata=metadata)]
        return pages.whole(), views


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
ADDRESS = f"{DEFAULTS.host}:{DEFAULTS.port}"


def main(argv: list[str] | None = None) -> int:
    """Run one ``referee`` command; its exit code (:class:`~referee.client.exits.ExitCode`)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in DELEGATED:
        delegate: int = importlib.import_module(DELEGATED[argv[0]][0]).main(argv[1:])
        return delegate
    args = parser().parse_args(argv)
    check(args)
    try:
        result: int = args.run(args)
    except UsageError as error:
        print(f"referee {args.command}: {error}", file=sys.stderr)
        return ExitCode.USAGE
    return result


def parser() -> argparse.ArgumentParser:
    """The ``referee`` command's parser, every verb's but the delegated ones."""
    parse = Parser(
        prog="referee",
        description="Authoritative game referee: serve it, verify its games, host tables "
        "and tournaments from a shell.",
        epilog=EXIT_CODES_HELP,
    )
    parse.add_argument(
        "--version", action=_Version, help="print the version and which build runs, and exit"
    )
    commands = parse.add_subparsers(
        dest="command", required=True, metavar="COMMAND", help="referee COMMAND --help says more"
    )
    for name, (_, text) in DELEGATED.items():
        commands.add_parser(name, help=f"{text} (referee {name} --help)")
    _serve_parser(commands)
    _verify_parser(commands)
    cli_tournament.add_commands(commands, ADDRESS)
    cli_game.add_commands(commands, ADDRESS)
    return parse


# serve runs until stopped, so its codes are its own (service.process.stopping).
SERVE_EXIT_CODES = (
    f"exit codes: 0 stopped; 1 cannot start (a port in use, a Redis that would lose "
    f"moves under REFEREE_REQUIRE_DURABILITY); 2 usage; {EXIT_STEP_CUT} a step of the stop "
    f"was cut at its deadline; {EXIT_FORCED} the stop was forced (its watchdog, or a second "
    f"signal). Every failure to start is one line on stderr."
)


def _serve_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    serve = commands.add_parser(
        "serve",
        help="serve the referee: gRPC, and HTTP/JSON (Connect) with the web console at "
        "/console/ on the HTTP port",
        description="Serve the referee: gRPC on --port, HTTP/JSON (Connect) and the web "
        "console (/console/) on --http-port. Each flag overrides its environment variable.",
        epilog=SERVE_EXIT_CODES,
    )
    serve.add_argument("--host", help=_setting("host", "address to bind"))
    serve.add_argument("--port", type=at_least(0), help=_setting("port", "gRPC port, 0 = any free"))
    serve.add_argument(
        "--workers",
        type=at_least(0),
        metavar="N",
        help=_setting(
            "workers",
            "referee processes sharing the ports, under a supervisor; 1: one process",
            "0, one per core",
        ),
    )
    serve.add_argument(
        "--worker-port",
        type=at_least(0),
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
        type=at_least(0),
        help=_setting("http_port", "HTTP/JSON (Connect) and console port, 0 = any free"),
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


def _verify_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    verify = commands.add_parser(
        "verify",
        help="replay a finished game from its seed and check every view "
        "(exit 1: it does not verify; 3: not finished)",
        description="Replay a finished game from its seed and check its history and every "
        "version's view.",
        epilog=EXIT_CODES_HELP,
    )
    verify.add_argument(
        "--address", default=ADDRESS, help="the referee's gRPC address (default %(default)s)"
    )
    verify.add_argument("--game-id", metavar="ID", help="the game to verify")
    verify.add_argument(
        "--token", help="a seat token (else as a spectator, if the table allows spectators)"
    )
    verify.add_argument(
        "--file", help="a GetHistoryResponse saved as JSON instead of --address (no views)"
    )
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
    verify.set_defaults(run=_verify, check=functools.partial(_check_verify, verify))


def _check_verify(verify: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if not (args.file or args.game_id):
        verify.error("verify needs --game-id or --file")
    if not args.wait >= 0:  # also refuses nan
        verify.error(f"--wait must be 0 or more seconds, not {args.wait:g}")
