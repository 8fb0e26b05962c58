"""`referee game create|join|start|list|abort`: tables from a shell.

``create`` calls RefereeService.CreateGame and prints the game id, the table admin token,
the join code and any seat tokens; the others call LobbyService. Output and errors as the
other commands (:mod:`service.process.cli.common`): rich tables for a person, one JSON document with
``--json`` (so ``jq -r .admin_token`` works), a failure in one line on stderr with its exit
code (:class:`~service.process.cli.common.ExitCode`). A table is named by ``--game-id`` (the
older positional form of ``start`` and ``abort`` is still accepted).
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable

import grpc
from rich.console import Console
from rich.table import Table

from engines.registry import GAMES
from referee.v1 import (
    game_pb2,
    lobby_pb2,
    lobby_pb2_grpc,
    referee_pb2,
    referee_pb2_grpc,
    table_pb2,
)
from service.process.cli.common import (
    BOT_STRATEGIES,
    Asked,
    admin_token,
    at_least,
    common_flags,
    id_flags,
    metadata,
    options_json,
    print_json,
    run_on_channel,
)

NO_SHOWS = {
    "keep": table_pb2.NO_SHOW_UNSPECIFIED,
    "bot": table_pb2.NO_SHOW_BOT,
    "forfeit": table_pb2.NO_SHOW_FORFEIT,
}
STATUSES = {
    "open": table_pb2.TABLE_STATUS_OPEN,
    "live": table_pb2.TABLE_STATUS_LIVE,
    "finished": table_pb2.TABLE_STATUS_FINISHED,
    "aborted": table_pb2.TABLE_STATUS_ABORTED,
}
STATUS_NAMES = {value: name for name, value in STATUSES.items()}
# ListGames lists open and live tables only (a finished or aborted one leaves the listing).
LISTED = {name: STATUSES[name] for name in ("open", "live")}


# Where a command's failure for want of a token says which token to pass.
NO_TOKEN = "this needs the table's admin token: pass --token or set $REFEREE_ADMIN_TOKEN"


def table_options(args: argparse.Namespace) -> game_pb2.TableOptions | None:
    """``--options``, with the clock flags set on it."""
    options: game_pb2.TableOptions | None = args.options
    if args.move_seconds or args.bank_seconds:
        options = options or game_pb2.TableOptions()
        options.clock.CopyFrom(
            table_pb2.Clock(
                move_seconds=args.move_seconds,
                bank_seconds=args.bank_seconds,
                increment_seconds=args.increment_seconds,
                no_show_after=args.no_show_after,
                no_show=NO_SHOWS[args.no_show],
            )
        )
    return options


def _create(channel: grpc.Channel, args: argparse.Namespace, out: Console) -> None:
    created = referee_pb2_grpc.RefereeServiceStub(channel).CreateGame(
        referee_pb2.CreateGameRequest(
            game=args.game,
            seats=args.seats,
            options=table_options(args),
            allow_spectators=args.allow_spectators,
            open_seats=args.open_seats,
            names=args.name or [],
            listed=args.listed,
        ),
        metadata=metadata(args),
    )
    if args.json:
        print_json(created)
        return
    out.print(f"game {created.game_id}")
    out.print(f"admin token {created.admin_token}  (keep it: start, reissue, forfeit, abort)")
    if created.join_code:
        out.print(f"join code {created.join_code}  (one join per open seat)")
    for seat in created.seat_tokens:
        out.print(f"seat {seat.seat} token {seat.token}")


def _join(channel: grpc.Channel, args: argparse.Namespace, out: Console) -> None:
    joined = lobby_pb2_grpc.LobbyServiceStub(channel).JoinGame(
        lobby_pb2.JoinGameRequest(
            join_code=args.code or "",
            game_id=args.game_id or "",
            display_name=args.name,
            player_id=args.player_id,
        ),
        metadata=metadata(args),
    )
    if args.json:
        print_json(joined)
        return
    out.print(f"game {joined.game_id}: seat {joined.seat}")
    out.print(f"seat token {joined.seat_token}  (shown once: keep it)")


def _start(channel: grpc.Channel, args: argparse.Namespace, out: Console) -> None:
    started = lobby_pb2_grpc.LobbyServiceStub(channel).StartGame(
        lobby_pb2.StartGameRequest(game_id=args.game_id, bot=BOT_STRATEGIES[args.bot]),
        metadata=metadata(args, admin_token(args)),
    )
    if args.json:
        print_json(started)
        return
    out.print(f"game {args.game_id}: {STATUS_NAMES.get(started.table.status, 'unknown')}")


def _list(channel: grpc.Channel, args: argparse.Namespace, out: Console) -> None:
    found = lobby_pb2_grpc.LobbyServiceStub(channel).ListGames(
        lobby_pb2.ListGamesRequest(
            game=args.game or "",
            status=LISTED.get(args.status or "", table_pb2.TABLE_STATUS_UNSPECIFIED),
            page_size=args.page_size,
            page_token=args.page_token or "",
        ),
        metadata=metadata(args),
    )
    if args.json:
        print_json(found)
        return
    table = Table()
    # The game id whole, however narrow the terminal: it is what the other commands take.
    table.add_column("game id", no_wrap=True, min_width=24)
    for column in ("game", "status", "seats"):
        table.add_column(column, no_wrap=True)
    table.add_column("names", overflow="fold")
    for listed in found.games:
        table.add_row(
            listed.game_id,
            listed.game,
            STATUS_NAMES.get(listed.status, "unknown"),
            f"{listed.seats_taken}/{listed.seats}",
            ", ".join(name for name in listed.names if name),
        )
    out.print(table)
    if found.next_page_token:
        out.print(f"more: --page-token {found.next_page_token}")


def _abort(channel: grpc.Channel, args: argparse.Namespace, out: Console) -> None:
    aborted = lobby_pb2_grpc.LobbyServiceStub(channel).AbortGame(
        lobby_pb2.AbortGameRequest(game_id=args.game_id),
        metadata=metadata(args, admin_token(args)),
    )
    if args.json:
        print_json(aborted)
        return
    out.print(f"game {args.game_id}: {STATUS_NAMES.get(aborted.table.status, 'unknown')}")


Command = Callable[[grpc.Channel, argparse.Namespace, Console], None]


def run(args: argparse.Namespace) -> int:
    """Run the parsed ``referee game`` command; its exit code."""
    command: Command = args.game_run
    game_id = getattr(args, "game_id", None)
    asked = Asked(
        f"referee game {args.action}",
        args.address,
        f"game {game_id}" if game_id else "the game",
        NO_TOKEN,
    )
    return run_on_channel(args, asked, lambda channel, out: command(channel, args, out))


def _check_join(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if not (args.code or args.game_id):
        parser.error("join needs --code or --game-id")


def _check_clock(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Usage errors for clock flags that would do nothing (the referee would never see
    them): an increment without a bank, a no-show rule without a clock."""
    if args.increment_seconds and not args.bank_seconds:
        parser.error("--increment-seconds needs --bank-seconds (it is added to the bank)")
    if (args.no_show_after or args.no_show != "keep") and not (
        args.move_seconds or args.bank_seconds
    ):
        parser.error("--no-show-after and --no-show need a clock (--move-seconds/--bank-seconds)")
    if args.no_show != "keep" and not args.no_show_after:
        parser.error("--no-show needs --no-show-after")


def _create_parser(actions: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    create: argparse.ArgumentParser = actions.add_parser(
        "create", help="create a table (prints its admin token)"
    )
    create.add_argument("--game", required=True, choices=GAMES, help="the game to play")
    create.add_argument("--seats", type=at_least(1), required=True, help="how many seats")
    create.add_argument(
        "--open-seats", type=at_least(0), default=0, help="seats left for JoinGame (default 0)"
    )
    create.add_argument("--name", action="append", help="a held seat's display name; repeat")
    create.add_argument("--listed", action="store_true", help="list it in ListGames")
    create.add_argument(
        "--allow-spectators", action="store_true", help="let anyone watch it without a token"
    )
    create.add_argument(
        "--options",
        type=options_json,
        help="TableOptions as JSON, e.g. '{\"theGang\": {...}}'",
    )
    clock = create.add_argument_group("clock (table.proto Clock; 0: off)")
    clock.add_argument(
        "--move-seconds",
        type=at_least(0),
        default=0,
        help="each move must come within this many seconds of the seat's turn",
    )
    clock.add_argument(
        "--bank-seconds",
        type=at_least(0),
        default=0,
        help="a time bank per seat (chess-style), spent while it is to act",
    )
    clock.add_argument(
        "--increment-seconds",
        type=at_least(0),
        default=0,
        help="seconds added to a seat's bank after each of its own moves (needs --bank-seconds)",
    )
    clock.add_argument(
        "--no-show-after",
        type=at_least(0),
        default=0,
        metavar="MOVES",
        help="after this many clock moves in a row for a seat, --no-show applies to it",
    )
    clock.add_argument(
        "--no-show",
        choices=NO_SHOWS,
        default="keep",
        help="then: keep (the clock plays on), bot (a bot takes the seat) or forfeit "
        "(default keep)",
    )
    create.set_defaults(game_run=_create, check=functools.partial(_check_clock, create))
    return create


def add_commands(commands: argparse._SubParsersAction, default_address: str) -> None:  # type: ignore[type-arg]
    """``referee game ...`` on the ``referee`` parser's sub-commands."""
    game = commands.add_parser("game", help="create, join, start, list, abort tables")
    actions = game.add_subparsers(
        dest="action", required=True, metavar="ACTION", help="referee game ACTION --help says more"
    )
    create = _create_parser(actions)
    join = actions.add_parser("join", help="take an open seat (prints its seat token)")
    join.add_argument("--code", help="the table's join code")
    join.add_argument("--game-id", metavar="ID", help="or a listed table's id")
    join.add_argument("--name", required=True, help="your display name (public)")
    join.add_argument("--player-id", default="", help="your id in your own accounts (public)")
    join.set_defaults(game_run=_join, check=functools.partial(_check_join, join))
    start = actions.add_parser("start", help="start it now, bots in the open seats")
    start.add_argument(
        "--bot", choices=BOT_STRATEGIES, default="random", help="the bots (default random)"
    )
    abort = actions.add_parser("abort", help="end it without an outcome")
    for action, handler in ((start, _start), (abort, _abort)):
        id_flags(action, "game", "the table's id (from game create or game list)")
        action.add_argument("--token", help="the admin token (default $REFEREE_ADMIN_TOKEN)")
        action.set_defaults(game_run=handler)
    listing = actions.add_parser("list", help="listed tables, newest first")
    listing.add_argument("--game", choices=GAMES, help="only this game's tables")
    listing.add_argument("--status", choices=LISTED, help="default: both")
    listing.add_argument("--page-size", type=at_least(0), default=0, help="0: 50")
    listing.add_argument("--page-token", help="from the previous page's last line")
    listing.set_defaults(game_run=_list)
    for action in (create, join, start, abort, listing):
        common_flags(action, default_address)
    game.set_defaults(run=run)
