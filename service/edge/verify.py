"""Fairness check: replay a finished game from its revealed seed and compare everything.

:func:`verify_history` takes the ``GetHistoryResponse`` of a finished game (from any seat
or spectator) and checks that the seed matches the commitment published at creation, that
every logged move is legal when replayed, that every event the referee reported is what the
replay produces, and that the outcome matches. Views recorded by a client (for example
from WatchGame) can be checked too: each must equal the replay's view for that viewer, or,
a view marked ``revealed`` (WatchGame's post-game reveal), the replay's revealed view of
its version.
The replay stops at the first move that differs, and the report names its version: that is
why it steps through the moves itself rather than calling :func:`engines.base.replay`, which
only says that some move failed.

It checks the log's hash chain (:mod:`service.domain.chain`) on the way: each entry's stored bytes
hold its version, seat and move, each head follows from the one before (the seed
commitment first), and each view carries the head at its version. A history recorded
before the chain existed (no heads, ``setup.rules_revision`` 0) is replayed without it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from engines.base import RULES_REVISION_OPTION, GameDefinition
from engines.errors import InvalidConfigError, MoveError
from engines.registry import GAMES
from engines.rng import commitment
from referee.codecs import CODECS, DerivedCodec
from referee.codecs.errors import Malformed
from referee.v1 import game_pb2, referee_pb2, table_pb2
from service.app.views import seat_view
from service.domain import chain, clocks, hosting, records
from service.edge.translate import view_to_proto  # the one projection to protobuf
from service.errors import RefereeError, echo
from service.storage.tables import formats

AnyGame = GameDefinition[Any, Any, Any, Any, Any]


@dataclass
class VerifyReport:
    game: str
    moves: int
    replayed: int = 0
    views: int = 0
    first_differing_version: int = 0
    problems: list[str] = field(default_factory=list)
    # True once the history's hash chain was found and checked (see the module).
    chained: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems

    def differs(self, version: int, problem: str) -> None:
        self.first_differing_version = version
        self.problems.append(f"move {version}: {problem}")

    def __str__(self) -> str:
        if self.ok:
            chained = "the log's hash chain checked" if self.chained else "no hash chain"
            return (
                f"verified: {self.game}, {self.moves} moves replayed from the seed, "
                f"{self.views} views checked, {chained}"
                + ("" if self.chained else " (recorded before the chain existed)")
            )
        return "NOT verified:\n  " + "\n  ".join(self.problems)


def verify_history(
    history: referee_pb2.GetHistoryResponse,
    views: Sequence[game_pb2.View] = (),
    *,
    game_id: str = "",
) -> VerifyReport:
    name = history.setup.game
    report = VerifyReport(name, len(history.entries))
    game, codec = GAMES.get(name), CODECS.get(name)
    if game is None or codec is None:
        report.problems.append(f"unknown game {echo(name)}")
        return report
    if not history.seed:
        report.problems.append("the seed is not revealed: the game is not over")
        return report
    if commitment(history.seed) != history.seed_sha256:
        report.problems.append("the revealed seed does not match the published sha256")
        return report
    try:
        options = {
            **codec.options_from_proto(history.setup.options),
            RULES_REVISION_OPTION: history.setup.rules_revision or 1,
        }
        config = game.make_config(history.setup.seats, options)
    except (InvalidConfigError, RefereeError, Malformed) as error:
        report.problems.append(f"unreadable setup: {error}")
        return report
    chained = _carries_chain(report, history)
    if chained is None or _beyond_limit(report, history):
        return report
    report.chained = chained
    state = game.new_game(config, history.seed)
    head = history.seed_sha256 if chained else ""
    # Only the states some view is compared with are kept: a long game's every state
    # would cost far more memory than the request it came in.
    wanted = {view.version for view in views}
    states: dict[int, tuple[Any, str]] = {0: (state, head)} if 0 in wanted else {}
    for version, entry in enumerate(history.entries, start=1):
        stepped = _step(report, game, codec, (state, head), version, entry, history.setup.seats)
        if stepped is None:
            return report
        state, head = stepped
        if version in wanted:
            states[version] = stepped
        report.replayed = version
    outcome = game.outcome(state)
    gone = _forfeited(history)
    if outcome is not None and gone:  # placed last, as the referee does (service.domain.hosting)
        outcome = hosting.adjust_outcome(outcome, gone)
    if outcome is None:
        report.problems.append("the replayed game is not over")
    elif (list(outcome.winners), outcome.summary) != (
        list(history.outcome.winners),
        history.outcome.summary,
    ):
        report.problems.append("the outcome differs from the replay")
    report.views = len(views)
    expected: dict[tuple[int, int | None, str, bool], game_pb2.View] = {}
    for view in views:
        _check_view(report, game, history, states, view, game_id, expected)
    return report


def _beyond_limit(report: VerifyReport, history: referee_pb2.GetHistoryResponse) -> bool:
    """Whether the history holds more moves than its table's limit (reported if so; a
    history recorded before limits existed has none)."""
    limit = history.setup.move_limit
    if limit and len(history.entries) > limit:
        report.problems.append(f"the history has more moves than its limit of {limit}")
        return True
    return False


def _carries_chain(report: VerifyReport, history: referee_pb2.GetHistoryResponse) -> bool | None:
    """Whether every entry carries its head and log entry (True) or none does in a history
    recorded before the chain (False); None, with the problem reported, otherwise."""
    entries = history.entries
    heads = sum(1 for entry in entries if entry.head)
    logged = sum(1 for entry in entries if entry.log_entry)
    if heads == logged == len(entries):
        return True
    if heads == logged == 0 and history.setup.rules_revision == 0:
        return False
    if heads == logged == 0:
        report.problems.append("the history carries no hash chain, yet it names a rules revision")
    else:
        report.problems.append(
            f"only some entries carry the hash chain ({heads} heads and {logged} log entries "
            f"of {len(entries)})"
        )
    return None


def _linked(
    report: VerifyReport,
    game: AnyGame,
    head: str,
    version: int,
    entry: game_pb2.HistoryEntry,
    move: Any,
) -> str | None:
    """The head after ``entry`` if its log entry holds its move and its head follows from
    ``head``; None, with the problem reported, otherwise."""
    try:
        logged = records.log_decoder.decode(entry.log_entry)
        logged_move = formats(game.name).move.decode(logged.move)
    except msgspec.DecodeError as error:
        report.differs(version, f"unreadable log entry: {error}")
        return None
    if (logged.version, logged.seat) != (version, entry.seat) or logged_move != move:
        report.differs(version, "its log entry holds another version, seat or move")
        return None
    following = chain.link(head, entry.log_entry)
    if entry.head != following:
        report.differs(version, "its head does not follow from the head before it")
        return None
    return following


def _step(
    report: VerifyReport,
    game: AnyGame,
    codec: DerivedCodec,
    before: tuple[Any, str],
    version: int,
    entry: game_pb2.HistoryEntry,
    seats: int,
) -> tuple[Any, str] | None:
    """The state and chain head after ``entry`` (head "" without a chain), or None (with
    the problem reported) if it differs."""
    state, head = before
    if entry.version != version:
        report.differs(version, f"logged as version {entry.version}")
        return None
    if not 0 <= entry.seat < seats:
        report.differs(version, f"seat {entry.seat} is not at this table")
        return None
    try:
        move = codec.move_from_proto(entry.move)
    except (RefereeError, Malformed) as error:
        report.differs(version, f"unreadable move: {error}")
        return None
    if head:
        linked = _linked(report, game, head, version, entry, move)
        if linked is None:
            return None
        head = linked
    clocked = _clock_problem(game, state, entry, move)
    if clocked is not None:
        report.differs(version, clocked)
        return None
    try:
        state, events = game.apply(state, entry.seat, move)
    except MoveError as error:
        report.differs(version, f"seat {entry.seat}'s move is illegal on replay ({error.reason})")
        return None
    if list(entry.events) != [codec.event_to_proto(event) for event in events]:
        report.differs(version, "its events differ from the replay")
        return None
    return state, head


def _clock_problem(
    game: AnyGame, state: Any, entry: game_pb2.HistoryEntry, move: Any
) -> str | None:
    """What is wrong with who made ``entry`` (HistoryEntry.by), if anything: it must be
    what its log entry's move id says, and a clock's move must be the game's default move
    for its seat there (docs/rules/<game>.md, "Default move")."""
    if entry.log_entry:  # readable: the chain check decoded it already
        logged = records.log_decoder.decode(entry.log_entry)
        if clocks.move_by(logged.client_move_id) != entry.by:
            return "its `by` is not what its log entry's move id says"
    if entry.by != clocks.BY_CLOCK:
        return None
    try:
        expected = game.default_move(state, entry.seat)
    except MoveError:
        return f"the clock moved for seat {entry.seat}, which had nothing to do"
    if expected != move:
        return f"seat {entry.seat}'s clock move is not the game's default move"
    return None


def _check_view(
    report: VerifyReport,
    game: AnyGame,
    history: referee_pb2.GetHistoryResponse,
    states: dict[int, tuple[Any, str]],
    view: game_pb2.View,
    game_id: str,
    expected: dict[tuple[int, int | None, str, bool], game_pb2.View],
) -> None:
    """Compare one recorded view with the replay's view for its viewer at its version,
    its head first: a view kept from the game pins the history up to its version.

    ``expected`` keeps each replayed view, so a request repeating views costs comparisons,
    not projections (the projection lists every seat's legal moves for ``to_act``).
    """
    replayed = states.get(view.version)
    if replayed is None:
        report.problems.append(f"a view at unknown version {view.version}")
        return
    state, head = replayed
    if view.head != head:
        report.problems.append(
            f"the view at version {view.version} carries another head than the history's chain"
        )
        return
    viewer = view.seat if view.HasField("seat") else None
    if viewer is not None and not 0 <= viewer < history.setup.seats:
        report.problems.append(f"a view for seat {viewer}, who is not at this table")
        return
    key = (view.version, viewer, game_id or view.game_id, view.revealed)
    if key not in expected:
        expected[key] = _replayed_view(game, history, state, key, head)
    if expected[key] != _without_table(view):
        report.problems.append(f"the view at version {view.version} differs from the replay")


def _replayed_view(
    game: AnyGame,
    history: referee_pb2.GetHistoryResponse,
    state: Any,
    key: tuple[int, int | None, str, bool],
    head: str,
) -> game_pb2.View:
    """The replay's view for ``key`` (version, viewer, game id, revealed): a revealed one
    is nobody's, so a recorded revealed view that names a seat differs from it."""
    version, viewer, game_id, revealed = key
    seats = history.setup.seats
    view = seat_view(game, game_id, seats, state, version, viewer, head, revealed=revealed)
    gone = _forfeited(history)
    if view.outcome is not None and gone:
        view = dataclasses.replace(view, outcome=hosting.adjust_outcome(view.outcome, gone))
    return view_to_proto(view)


def _forfeited(history: referee_pb2.GetHistoryResponse) -> frozenset[int]:
    """The seats the history's table actions forfeited."""
    return frozenset(
        a.seat for a in history.actions if a.kind == table_pb2.TableAction.KIND_FORFEITED
    )


def _without_table(view: game_pb2.View) -> game_pb2.View:
    """A recorded view less its hosting side (names, presence: View.table), which the
    game's history does not fix and a replay cannot reproduce."""
    if not view.HasField("table"):
        return view
    bare = game_pb2.View()
    bare.CopyFrom(view)
    bare.ClearField("table")
    return bare
