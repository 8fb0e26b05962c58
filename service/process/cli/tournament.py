"""`referee tournament create|start|watch|list`: TournamentService from a shell.

Each command calls one referee over gRPC (``--address``) and prints what it got, for a
person (rich tables, and a live progress bar of rounds and tables while ``watch`` runs) or,
with ``--json``, as one JSON document on stdout (the response, field names as in the
.proto, so ``jq -r .tournament_id`` works). The operator key is ``--key`` or the
``REFEREE_KEY`` variable, sent as ``x-referee-key``; the admin token of ``start`` is
``--token`` or ``REFEREE_ADMIN_TOKEN``. A tournament is named by ``--tournament-id`` (the
older positional form is still accepted). A failure is one line on stderr, with its exit
code (:class:`~service.process.cli.common.ExitCode`).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn
from rich.table import Table

from engines.registry import GAMES
from referee.v1 import tournament_pb2, tournament_pb2_grpc
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

T = tournament_pb2
Stub = tournament_pb2_grpc.TournamentServiceStub
FORMATS = {"round_robin": T.TOURNAMENT_FORMAT_ROUND_ROBIN, "swiss": T.TOURNAMENT_FORMAT_SWISS}
STATUSES = {
    "created": T.TOURNAMENT_STATUS_CREATED,
    "running": T.TOURNAMENT_STATUS_RUNNING,
    "finished": T.TOURNAMENT_STATUS_FINISHED,
}
STATUS_NAMES = {value: name for name, value in STATUSES.items()}


def participant(text: str) -> T.ParticipantSpec:
    """``NAME`` (an external player, who claims a seat with a code) or ``NAME:STRATEGY``
    (a bot: random, heuristic or search)."""
    name, _, strategy = text.rpartition(":") if ":" in text else (text, "", "")
    if not strategy:
        return T.ParticipantSpec(name=name)
    if strategy not in BOT_STRATEGIES:
        raise argparse.ArgumentTypeError(f"bots: {', '.join(BOT_STRATEGIES)} (NAME:STRATEGY)")
    return T.ParticipantSpec(name=name, bot=BOT_STRATEGIES[strategy])


def _create(stub: Stub, args: argparse.Namespace, out: Console) -> None:
    created = stub.CreateTournament(
        T.CreateTournamentRequest(
            game=args.game,
            seats_per_table=args.seats_per_table,
            participants=args.participant,
            format=FORMATS[args.format],
            rounds=args.rounds,
            bot_move_delay_ms=args.bot_move_delay_ms,
            options=args.options,
        ),
        metadata=metadata(args),
    )
    if args.json:
        print_json(created)
        return
    out.print(f"tournament {created.tournament_id}")
    out.print(f"admin token {created.admin_token}  (keep it: it starts the tournament)")
    names = {p.index: p.name for p in created.tournament.participants}
    for code in created.seat_codes:
        out.print(f"seat code for {names[code.participant]}: {code.code}")


def _start(stub: Stub, args: argparse.Namespace, out: Console) -> None:
    token = admin_token(args)
    started = stub.StartTournament(
        T.StartTournamentRequest(tournament_id=args.tournament_id), metadata=metadata(args, token)
    )
    if args.json:
        print_json(started)
        return
    tournament = started.tournament
    out.print(f"tournament {tournament.tournament_id}: round {tournament.current_round} started")


def standings(tournament: T.Tournament) -> Table:
    """The final ranking, or the standings after the last complete round."""
    table = Table("rank", "participant", "points", "tables", "byes", "rating (mu - 3 sigma)")
    ranking = list(tournament.final_ranking)
    if not ranking:
        complete = [r for r in tournament.round_results if r.complete]
        ranking = list(complete[-1].standings) if complete else []
    for standing in ranking:
        table.add_row(
            str(standing.rank),
            standing.name,
            f"{standing.points:g}",
            str(standing.tables_played),
            str(standing.byes),
            f"{standing.rating.ordinal:.2f}",
        )
    return table


class Bars:
    """Two bars: rounds complete of the rounds to play, and the current round's tables."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.rounds: TaskID | None = None
        self.tables: TaskID | None = None

    def show(self, tournament: T.Tournament) -> None:
        complete = sum(1 for r in tournament.round_results if r.complete)
        if self.rounds is None:
            self.rounds = self.progress.add_task("rounds", total=tournament.rounds)
        self.progress.update(self.rounds, completed=complete, total=tournament.rounds)
        current = next((r for r in tournament.round_results if not r.complete), None)
        if current is None:  # finished: the last round's tables are all played
            if self.tables is not None:
                self.progress.update(self.tables, completed=self.progress.tasks[-1].total)
            return
        done = sum(1 for table in current.tables if table.finished)
        label = f"round {current.number} tables"
        if self.tables is None:
            self.tables = self.progress.add_task(label, total=len(current.tables))
        self.progress.update(
            self.tables, description=label, completed=done, total=len(current.tables)
        )


def _snapshots(stub: Stub, args: argparse.Namespace) -> Iterator[T.Tournament]:
    request = T.WatchTournamentRequest(tournament_id=args.tournament_id)
    for update in stub.WatchTournament(request, metadata=metadata(args, args.token)):
        yield update.tournament


def _watch(stub: Stub, args: argparse.Namespace, out: Console) -> None:
    last: T.Tournament | None = None
    if args.json:
        for snapshot in _snapshots(stub, args):
            last = snapshot
    else:
        snapshots = _snapshots(stub, args)
        last = next(snapshots, None)  # the bars only once the referee answered
        if last is None:
            return
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
        with Progress(*columns, console=Console(stderr=True), transient=False) as progress:
            bars = Bars(progress)
            bars.show(last)
            for last in snapshots:
                bars.show(last)
    if last is None:
        return
    if args.json:
        print_json(last)
        return
    out.print(f"tournament {last.tournament_id}: {STATUS_NAMES.get(last.status, 'unknown')}")
    out.print(standings(last))


def _list(stub: Stub, args: argparse.Namespace, out: Console) -> None:
    found = stub.ListTournaments(
        T.ListTournamentsRequest(
            limit=args.limit, status=STATUSES.get(args.status, T.TOURNAMENT_STATUS_UNSPECIFIED)
        ),
        metadata=metadata(args),
    )
    if args.json:
        print_json(found)
        return
    table = Table("tournament", "game", "status", "round", "participants")
    for tournament in found.tournaments:
        table.add_row(
            tournament.tournament_id,
            tournament.game,
            STATUS_NAMES.get(tournament.status, "unknown"),
            f"{tournament.current_round}/{tournament.rounds}",
            str(len(tournament.participants)),
        )
    out.print(table)


Command = Callable[[Stub, argparse.Namespace, Console], None]


# Where a command's failure for want of a token says which token to pass.
NO_TOKEN = "this needs the tournament's admin token: pass --token or set $REFEREE_ADMIN_TOKEN"


def run(args: argparse.Namespace) -> int:
    """Run the parsed ``referee tournament`` command; its exit code."""
    command: Command = args.tournament_run
    tournament_id = getattr(args, "tournament_id", None)
    asked = Asked(
        f"referee tournament {args.action}",
        args.address,
        f"tournament {tournament_id}" if tournament_id else "the tournament",
        NO_TOKEN,
    )
    return run_on_channel(
        args,
        asked,
        lambda channel, out: command(tournament_pb2_grpc.TournamentServiceStub(channel), args, out),
    )


def add_commands(commands: argparse._SubParsersAction, default_address: str) -> None:  # type: ignore[type-arg]
    """``referee tournament ...`` on the ``referee`` parser's sub-commands."""
    tournament = commands.add_parser("tournament", help="create, start, watch, list tournaments")
    actions = tournament.add_subparsers(
        dest="action",
        required=True,
        metavar="ACTION",
        help="referee tournament ACTION --help says more",
    )
    create = actions.add_parser("create", help="create a tournament (prints its admin token)")
    create.add_argument("--game", required=True, choices=GAMES, help="the game its tables play")
    create.add_argument(
        "--seats-per-table", type=at_least(1), required=True, help="players at each table"
    )
    create.add_argument(
        "--participant",
        type=participant,
        action="append",
        required=True,
        help="NAME (an external player) or NAME:random / NAME:heuristic / NAME:search (a bot); "
        "repeat",
    )
    create.add_argument(
        "--format", choices=FORMATS, default="round_robin", help="default round_robin"
    )
    create.add_argument("--rounds", type=at_least(0), default=0, help="0: the format's default")
    create.add_argument(
        "--bot-move-delay-ms",
        type=at_least(0),
        default=0,
        help="a pause before each bot move, in ms (default 0)",
    )
    create.add_argument(
        "--options",
        type=options_json,
        help="TableOptions as JSON for every table, e.g. '{\"theGang\": {...}}'",
    )
    create.set_defaults(tournament_run=_create)
    start = actions.add_parser("start", help="start it (pairs round 1, runs its bots)")
    id_flags(start, "tournament", "the tournament's id (from tournament create or list)")
    start.add_argument("--token", help="the admin token (default $REFEREE_ADMIN_TOKEN)")
    start.set_defaults(tournament_run=_start)
    watch = actions.add_parser("watch", help="follow it to its end, then its standings")
    id_flags(watch, "tournament", "the tournament's id (from tournament create or list)")
    watch.add_argument("--token", help="a participant or admin token (else as a spectator)")
    watch.set_defaults(tournament_run=_watch)
    listing = actions.add_parser("list", help="the most recently changed tournaments")
    listing.add_argument("--status", choices=STATUSES, help="default: any")
    listing.add_argument("--limit", type=at_least(0), default=0, help="0: 20")
    listing.set_defaults(tournament_run=_list)
    for action in (create, start, watch, listing):
        common_flags(action, default_address)
    tournament.set_defaults(run=run)
