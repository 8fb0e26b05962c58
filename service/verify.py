"""Fairness check: replay a finished game from its revealed seed and compare everything.

:func:`verify_history` takes the ``GetHistoryResponse`` of a finished game (from any seat
or spectator) and checks that the seed matches the commitment published at creation, that
every logged move is legal when replayed, that every event the referee reported is what the
replay produces, and that the outcome matches. Views recorded by a client (for example
from WatchGame) can be checked too: each must equal the replay's view for that viewer.
The replay stops at the first move that differs, and the report names its version: that is
why it steps through the moves itself rather than calling :func:`engines.base.replay`, which
only says that some move failed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.base import RULES_REVISION_OPTION, GameDefinition
from engines.errors import InvalidConfigError, MoveError
from engines.registry import GAMES
from engines.rng import commitment
from referee.v1 import game_pb2, referee_pb2
from service.codecs import CODECS, DerivedCodec
from service.errors import RefereeError
from service.referee import seat_view
from service.translate import view_to_proto  # the one projection to protobuf

AnyGame = GameDefinition[Any, Any, Any, Any, Any]


@dataclass
class VerifyReport:
    game: str
    moves: int
    replayed: int = 0
    views: int = 0
    first_differing_version: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def differs(self, version: int, problem: str) -> None:
        self.first_differing_version = version
        self.problems.append(f"move {version}: {problem}")

    def __str__(self) -> str:
        if self.ok:
            return (
                f"verified: {self.game}, {self.moves} moves replayed from the seed, "
                f"{self.views} views checked"
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
        report.problems.append(f"unknown game {name!r}")
        return report
    if not history.seed:
        report.problems.append("the seed is not revealed: the game is not over")
        return report
    if commitment(history.seed) != history.seed_sha256:
        report.problems.append("the revealed seed does not match the published sha256")
        return report
    options = {
        **codec.options_from_proto(history.setup.options),
        RULES_REVISION_OPTION: history.setup.rules_revision or 1,
    }
    try:
        config = game.make_config(history.setup.seats, options)
    except (InvalidConfigError, RefereeError) as error:
        report.problems.append(f"unreadable setup: {error}")
        return report
    state = game.new_game(config, history.seed)
    # Only the states some view is compared with are kept: a long game's every state
    # would cost far more memory than the request it came in.
    wanted = {view.version for view in views}
    states: dict[int, Any] = {0: state} if 0 in wanted else {}
    for version, entry in enumerate(history.entries, start=1):
        state = _step(report, game, codec, state, version, entry, history.setup.seats)
        if state is None:
            return report
        if version in wanted:
            states[version] = state
        report.replayed = version
    outcome = game.outcome(state)
    if outcome is None:
        report.problems.append("the replayed game is not over")
    elif (list(outcome.winners), outcome.summary) != (
        list(history.outcome.winners),
        history.outcome.summary,
    ):
        report.problems.append("the outcome differs from the replay")
    report.views = len(views)
    expected: dict[tuple[int, int | None, str], game_pb2.View] = {}
    for view in views:
        _check_view(report, game, history, states, view, game_id, expected)
    return report


def _step(
    report: VerifyReport,
    game: AnyGame,
    codec: DerivedCodec,
    state: Any,
    version: int,
    entry: game_pb2.HistoryEntry,
    seats: int,
) -> Any:
    """The state after ``entry``, or None (with the problem reported) if it differs."""
    if entry.version != version:
        report.differs(version, f"logged as version {entry.version}")
        return None
    if not 0 <= entry.seat < seats:
        report.differs(version, f"seat {entry.seat} is not at this table")
        return None
    try:
        move = codec.move_from_proto(entry.move)
    except RefereeError as error:
        report.differs(version, f"unreadable move: {error}")
        return None
    try:
        state, events = game.apply(state, entry.seat, move)
    except MoveError as error:
        report.differs(version, f"seat {entry.seat}'s move is illegal on replay ({error.reason})")
        return None
    if list(entry.events) != [codec.event_to_proto(event) for event in events]:
        report.differs(version, "its events differ from the replay")
        return None
    return state


def _check_view(
    report: VerifyReport,
    game: AnyGame,
    history: referee_pb2.GetHistoryResponse,
    states: dict[int, Any],
    view: game_pb2.View,
    game_id: str,
    expected: dict[tuple[int, int | None, str], game_pb2.View],
) -> None:
    """Compare one recorded view with the replay's view for its viewer at its version.

    ``expected`` keeps each replayed view, so a request repeating views costs comparisons,
    not projections (the projection lists every seat's legal moves for ``to_act``).
    """
    state = states.get(view.version)
    if state is None:
        report.problems.append(f"a view at unknown version {view.version}")
        return
    viewer = view.seat if view.HasField("seat") else None
    if viewer is not None and not 0 <= viewer < history.setup.seats:
        report.problems.append(f"a view for seat {viewer}, who is not at this table")
        return
    key = (view.version, viewer, game_id or view.game_id)
    if key not in expected:
        expected[key] = _replayed_view(game, history, state, view.version, viewer, key[2])
    if expected[key] != view:
        report.problems.append(f"the view at version {view.version} differs from the replay")


def _replayed_view(
    game: AnyGame,
    history: referee_pb2.GetHistoryResponse,
    state: Any,
    version: int,
    viewer: int | None,
    game_id: str,
) -> game_pb2.View:
    return view_to_proto(seat_view(game, game_id, history.setup.seats, state, version, viewer))
