"""Fairness check: replay a finished game from its revealed seed and compare everything.

:func:`verify_history` takes the ``GetHistoryResponse`` of a finished game (from any seat
or spectator) and checks that the seed matches the commitment published at creation, that
every logged move is legal when replayed, that every event the referee reported is what the
replay produces, and that the outcome matches. Views recorded by a client (for example
from WatchGame) can be checked too: each must equal the replay's view for that viewer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engines.base import replay
from engines.errors import InvalidConfigError, MoveError
from engines.registry import GAMES
from engines.rng import commitment
from referee.v1 import game_pb2, referee_pb2
from service.codecs import CODECS
from service.errors import RefereeError
from service.referee import SeatView


@dataclass
class VerifyReport:
    game: str
    moves: int
    views: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

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
    from service.api import view_to_proto  # the one projection to protobuf

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
    try:
        config = game.make_config(
            history.setup.seats, codec.options_from_proto(history.setup.options)
        )
        moves = [(entry.seat, codec.move_from_proto(entry.move)) for entry in history.entries]
    except (InvalidConfigError, RefereeError) as error:
        report.problems.append(f"unreadable setup or move: {error}")
        return report
    try:
        initial, steps = replay(game, config, history.seed, moves)
    except MoveError as error:
        report.problems.append(f"a logged move is illegal on replay: {error.reason}")
        return report
    for entry, step in zip(history.entries, steps, strict=True):
        expected = [codec.event_to_proto(event) for event in step.events]
        if entry.version != step.version or list(entry.events) != expected:
            report.problems.append(f"version {entry.version}: events differ from the replay")
    final = steps[-1].state if steps else initial
    outcome = game.outcome(final)
    if outcome is None:
        report.problems.append("the replayed game is not over")
    elif (list(outcome.winners), outcome.summary) != (
        list(history.outcome.winners),
        history.outcome.summary,
    ):
        report.problems.append("the outcome differs from the replay")
    states = {0: initial} | {step.version: step.state for step in steps}
    report.views = len(views)
    for view in views:
        state = states.get(view.version)
        if state is None:
            report.problems.append(f"a view at unknown version {view.version}")
            continue
        viewer = view.seat if view.HasField("seat") else None
        expected_view = view_to_proto(
            SeatView(
                game=name,
                game_id=game_id or view.game_id,
                version=view.version,
                viewer=viewer,
                seats=history.setup.seats,
                to_act=game.to_act(state),
                outcome=game.outcome(state),
                body=game.view(state, viewer),
            )
        )
        if expected_view != view:
            report.problems.append(f"view at version {view.version} differs from the replay")
    return report
