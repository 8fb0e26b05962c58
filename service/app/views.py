"""What the referee's use cases answer with: a viewer's projection of a game at one
version, and the records of a creation, a move, an update and a history page. Pure: no
store, no protobuf (service.edge.translate turns these into messages)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engines.base import Outcome
from service.domain import clocks, hosting, records
from service.storage.tables import Table


@dataclass(frozen=True)
class SeatView:
    """One viewer's projection of a game at one version (``viewer`` None: spectator);
    ``head`` is the log's chain head at that version (service.domain.chain)."""

    game: str
    game_id: str
    version: int
    viewer: int | None
    seats: int
    to_act: frozenset[int]
    outcome: Outcome | None
    body: Any
    head: str
    # The table's clocks at this version (None: no clock; service.domain.clocks).
    clock: clocks.ClockView | None = None
    # The hosting side (service.domain.hosting), public; None in a replayed view (the verifier's).
    table: hosting.TableInfo | None = None
    # The post-game reveal (``viewer`` None, ``body`` the game's revealed_view): only ever
    # of a finished game's states.
    revealed: bool = False


@dataclass(frozen=True)
class Created:
    game_id: str
    version: int
    seed_sha256: str
    tokens: list[str]
    meta: records.GameMeta
    config: Any
    # The table admin token and the hosting record as created (service.domain.hosting).
    admin_token: str = ""
    host: records.HostRecord | None = None


@dataclass(frozen=True)
class FinalResult:
    """How a finished game ended, for in-process callers (the tournament director): its
    :class:`~engines.base.Outcome` carries every seat's score and placing."""

    game: str
    game_id: str
    version: int
    outcome: Outcome


class Submitted:
    """A move's result: the version it made, the mover's view there and the events it
    saw. The view is projected when first asked for: Play answers a move with its
    version alone (the view reaches the seat as the stream's update), and a projection
    is a good part of a move's cost. ``finished`` and ``listed`` say, without it, whether
    the move ended the game and whether its table is in the lobby's listing."""

    __slots__ = ("_project", "_view", "duplicate", "events", "finished", "listed", "version")

    def __init__(
        self,
        version: int,
        view: SeatView | Callable[[], SeatView],
        events: list[Any],
        duplicate: bool,
        *,
        finished: bool,
        listed: bool,
    ) -> None:
        self.version = version
        self._view = view if isinstance(view, SeatView) else None
        self._project = None if isinstance(view, SeatView) else view
        self.events = events
        self.duplicate = duplicate
        self.finished = finished
        self.listed = listed

    @property
    def view(self) -> SeatView:
        if self._view is None:
            assert self._project is not None
            self._view = self._project()
        return self._view


@dataclass(frozen=True)
class Update:
    """One watcher's update; the feed shares one among every stream of its viewer
    (service.app.watching), and so does its message, built once (service.edge.translate)."""

    version: int
    events: list[Any]
    view: SeatView
    snapshot: bool
    built: list[Any] = dataclasses.field(default_factory=list, compare=False, repr=False)


@dataclass(frozen=True)
class HistoryItem:
    """One logged move as the caller may see it; ``log_entry`` (its stored bytes) only
    once the game is over, ``head`` the chain head it made."""

    version: int
    seat: int
    move: Any | None
    events: list[Any]
    head: str
    log_entry: bytes | None
    # Who made the move (table.proto MoveBy), told by its client_move_id.
    by: int = clocks.BY_PLAYER


@dataclass(frozen=True)
class History:
    """One page of a game's history; ``next_page_token`` is empty on the last page."""

    meta: records.GameMeta
    config: Any
    version: int
    items: list[HistoryItem]
    seed: bytes | None
    outcome: Outcome | None
    next_page_token: str = ""
    actions: tuple[records.TableActionRecord, ...] = ()


def project(
    table: Table,
    state: Any,
    version: int,
    viewer: int | None,
    head: str,
    *,
    revealed: bool = False,
) -> SeatView:
    """``viewer``'s view of ``state`` with the table's hosting side; ``revealed``: the
    post-game reveal instead (the caller checked that the game is over)."""
    view = seat_view(
        table.game, table.game_id, table.meta.seats, state, version, viewer, head, revealed=revealed
    )
    host = table.hosting
    clock = table.meta.clock if isinstance(table.meta.clock, records.ClockSpec) else None
    info = hosting.project_table(
        host, finished=view.outcome is not None, present=table.present, clock=clock
    )
    outcome = view.outcome
    if outcome is not None:
        outcome = hosting.adjust_outcome(outcome, hosting.forfeited(host))
    return dataclasses.replace(view, table=info, outcome=outcome)


def outcome_of(table: Table, state: Any) -> Outcome | None:
    """The game's outcome with its forfeits applied (service.domain.hosting.adjust_outcome)."""
    outcome = table.game.outcome(state)
    if outcome is None:
        return None
    return hosting.adjust_outcome(outcome, hosting.forfeited(table.hosting))


def seat_view(
    game: Any,
    game_id: str,
    seats: int,
    state: Any,
    version: int,
    viewer: int | None,
    head: str,
    *,
    revealed: bool = False,
) -> SeatView:
    """What ``viewer`` (a seat, or None for a spectator) sees of ``state`` at ``version``,
    whose chain head is ``head``; ``revealed``: the game's post-game reveal of ``state``
    (nobody's view: ``viewer`` is ignored), which only a finished game may give."""
    return SeatView(
        game=game.name,
        game_id=game_id,
        version=version,
        viewer=None if revealed else viewer,
        seats=seats,
        to_act=game.to_act(state),
        outcome=game.outcome(state),
        body=game.revealed_view(state) if revealed else game.view(state, viewer),
        head=head,
        revealed=revealed,
    )


def redact_events(table: Table, events: list[Any], viewer: int | None) -> list[Any]:
    seen = (table.game.view_event(event, viewer) for event in events)
    return [event for event in seen if event is not None]


def seen_events(table: Table, events: list[Any], viewer: int | None, *, over: bool) -> list[Any]:
    """The events of a move, as ``viewer`` may see them: all of them once the move ended
    the game (``over``: after the end everything is public), else redacted."""
    if over:
        return list(events)
    return redact_events(table, events, viewer)


def with_seat(public: SeatView, game: Any, state: Any, viewer: int) -> SeatView:
    """Seat ``viewer``'s view of ``state``, from the spectators' view of it (``public``):
    everything but the body is the same for every viewer of one version."""
    return dataclasses.replace(public, viewer=viewer, body=game.view(state, viewer))
