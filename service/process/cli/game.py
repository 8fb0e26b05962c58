"""`referee game create|join|start|list|abort`: tables from a shell.

``create`` calls RefereeService.CreateGame and prints the game id, the table admin token,
the join code and any seat tokens; the others call LobbyService. Output and errors as the
other commands (:mod:`service.process.cli.common`): rich tables for a person, one JSON document with
``--json`` (so ``jq -r .admin_token`` works), a refused call on stderr with exit code 1.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import grpc
from google.protobuf import json_format
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
    tournament_pb2,
)
from service.process.cli.common import (
    admin_token,
    common_flags,
    metadata,
    print_json,
    run_on_channel,
)

BOTS = {
    "random": tournament_pb2.BOT_STRATEGY_RANDOM,
    "heuristic": tournament_pb2.BOT_STRATEGY_HEURISTIC,
}
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


def table_options(args: argparse.Namespace) -> game_pb2.TableOptions | None:
    """``--options`` (TableOptions as JSON), with the ``--clock-*`` flags set on it."""
    options = json_format.Parse(args.options, game_pb2.TableOptions()) if args.options else None
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
        lobby_pb2.StartGameRequest(game_id=args.game_id, bot=BOTS[args.bot]),
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
    """Run the parsed ``referee game`` command; 0, or 1 when the referee refused."""
    command: Command = args.game_run
    return run_on_channel(args, lambda channel, out: command(channel, args, out))


def _create_parser(actions: argparse._SubParsersAction) -> argparse.ArgumentParser:  # type: ignore[type-arg]
    create: argparse.ArgumentParser = actions.add_parser(
        "create", help="create a table (prints its admin token)"
    )
    create.add_argument("--game", required=True, help=f"one of {', '.join(GAMES)}")
    create.add_argument("--seats", type=int, required=True)
    create.add_argument("--open-seats", type=int, default=0, help="seats left for JoinGame")
    create.add_argument("--name", action="append", help="a held seat's display name; repeat")
    create.add_argument("--listed", action="store_true", help="list it in ListGames")
    create.add_argument("--allow-spectators", action="store_true")
    create.add_argument("--options", help="TableOptions as JSON, e.g. '{\"theGang\": {...}}'")
    create.add_argument("--move-seconds", type=int, default=0, help="clock: per move")
    create.add_argument("--bank-seconds", type=int, default=0, help="clock: time bank")
    create.add_argument("--increment-seconds", type=int, default=0, help="clock: per move")
    create.add_argument("--no-show-after", type=int, default=0, help="clock moves in a row")
    create.add_argument("--no-show", choices=NO_SHOWS, default="keep")
    create.set_defaults(game_run=_create)
    return create


def add_commands(commands: argparse._SubParsersAction, default_address: str) -> None:  # type: ignore[type-arg]
    """``referee game ...`` on the ``referee`` parser's sub-commands."""
    game = commands.add_parser("game", help="create, join, start, list, abort tables")
    actions = game.add_subparsers(dest="action", required=True)
    create = _create_parser(actions)
    join = actions.add_parser("join", help="take an open seat (prints its seat token)")
    join.add_argument("--code", help="the table's join code")
    join.add_argument("--game-id", help="or a listed table's id")
    join.add_argument("--name", required=True, help="your display name (public)")
    join.add_argument("--player-id", default="", help="your id in your own accounts (public)")
    join.set_defaults(game_run=_join)
    start = actions.add_parser("start", help="start it now, bots in the open seats")
    start.add_argument("--bot", choices=BOTS, default="random")
    abort = actions.add_parser("abort", help="end it without an outcome")
    for action, handler in ((start, _start), (abort, _abort)):
        action.add_argument("game_id")
        action.add_argument("--token", help="the admin token (default $REFEREE_ADMIN_TOKEN)")
        action.set_defaults(game_run=handler)
    listing = actions.add_parser("list", help="listed tables, newest first")
    listing.add_argument("--game")
    listing.add_argument("--status", choices=LISTED, help="default: both")
    listing.add_argument("--page-size", type=int, default=0, help="0: 50")
    listing.add_argument("--page-token")
    listing.set_defaults(game_run=_list)
    for action in (create, join, start, abort, listing):
        common_flags(action, default_address)
    game.set_defaults(run=run)
