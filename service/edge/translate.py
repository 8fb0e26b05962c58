"""Protobuf in, engine values out, and back: the edge's one translation.

Every game's own messages go through its codec (``CODECS[game]``: options, moves, views,
events); this module builds the messages the service itself defines around them. It is
the one projection to protobuf: the verifier builds the views it compares with through
:func:`view_to_proto` too, so a replayed view equals a served one byte for byte.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import Any

from google.rpc import code_pb2

from engines.base import Outcome, rules_revision
from engines.registry import GAMES
from referee.codecs import CODECS
from referee.codecs.derive import Contract, Deriver
from referee.codecs.errors import Malformed
from referee.v1 import game_pb2, referee_pb2, table_pb2
from service.app.views import Created, History, SeatView, Submitted, Update
from service.domain import clocks, hosting, records
from service.domain.move_limits import MOVE_LIMIT_OPTION, move_limit
from service.domain.records import GameMeta
from service.edge import clock_proto
from service.errors import BadRequest, RefereeError


def options_from_proto(game: str, options: game_pb2.TableOptions) -> Any:
    """A table's options for ``game``'s engine, and its ``move_limit`` when given (the
    referee splits it off: service.domain.move_limits); none for a game the referee does not know
    (creating it then fails with ``GAME_UNKNOWN``)."""
    codec = CODECS.get(game)
    if codec is None:
        return {}
    with decoding():
        engine: dict[str, object] = codec.options_from_proto(options)
    if options.HasField("clock"):  # validated here: CLOCK_INVALID before anything else
        engine = {**engine, clocks.CLOCK_OPTION: clock_proto.spec_from_proto(options.clock)}
    if options.HasField("move_limit"):
        return {**engine, MOVE_LIMIT_OPTION: options.move_limit}
    return engine


def move_from_proto(move: game_pb2.Move) -> tuple[str, Any]:
    """The game a move is for (its oneof) and the engine move."""
    game = move.WhichOneof("game")
    if game is None:
        raise BadRequest("MOVE_EMPTY", "the move names no game")
    with decoding():
        return game, CODECS[game].move_from_proto(move)


@contextlib.contextmanager
def decoding() -> Iterator[None]:
    """A codec's refusal (:class:`~referee.codecs.errors.Malformed`) as the referee answers
    it: INVALID_ARGUMENT with the codec's reason. Every decoding of a client's message goes
    through here."""
    try:
        yield
    except Malformed as error:
        raise BadRequest.of(error) from None


def moves_to_proto(game: str, moves: list[Any]) -> list[game_pb2.Move]:
    codec = CODECS[game]
    return [codec.move_to_proto(move) for move in moves]


def _outcome_encoder() -> Callable[[Outcome], Any]:
    deriver = Deriver(Contract())
    encode = deriver.encoder(Outcome, game_pb2.Outcome.DESCRIPTOR)
    deriver.check()
    return encode


_OUTCOME = _outcome_encoder()


def outcome_to_proto(outcome: Outcome) -> game_pb2.Outcome:
    """The engine's Outcome field by field (the same names: derived, like a game's views)."""
    message: game_pb2.Outcome = _OUTCOME(outcome)
    return message


def view_to_proto(view: SeatView) -> game_pb2.View:
    """The envelope and the game's own view, built in one constructor (no copies)."""
    body: dict[str, Any] = {view.game: CODECS[view.game].view_message(view.body)}
    if view.table is not None:
        body["table"] = _table_message(view.table)  # shared: View(...) copies it
    if view.clock is not None:  # the clock fields of the same Table (service.domain.clocks)
        body["table"] = clock_proto.with_clock(_copy(body.get("table")), view.clock)
    return game_pb2.View(
        game=view.game,
        game_id=view.game_id,
        version=view.version,
        seat=view.viewer,
        seats=view.seats,
        to_act=sorted(view.to_act),
        outcome=outcome_to_proto(view.outcome) if view.outcome is not None else None,
        head=view.head,
        revealed=view.revealed,
        **body,
    )


def events_to_proto(game: str, events: list[Any]) -> list[game_pb2.Event]:
    codec = CODECS[game]
    return [codec.event_to_proto(event) for event in events]


def update_to_proto(update: Update) -> referee_pb2.WatchGameResponse:
    """The update's message, built once however many streams of its viewer send it (the
    streams only serialise or copy it; nobody may change it)."""
    if update.built:
        message: referee_pb2.WatchGameResponse = update.built[0]
        return message
    message = referee_pb2.WatchGameResponse(
        version=update.version,
        events=events_to_proto(update.view.game, update.events),
        view=view_to_proto(update.view),
        snapshot=update.snapshot,
    )
    update.built.append(message)
    return message


def setup_to_proto(meta: GameMeta, config: Any) -> game_pb2.GameSetup:
    """How a table was set up: its game, seats, options (as the engine read them)."""
    return game_pb2.GameSetup(
        game=meta.game,
        seats=meta.seats,
        options=CODECS[meta.game].options_to_proto(config),
        allow_spectators=meta.allow_spectators,
        rules_revision=rules_revision(config.rules_revision),
        move_limit=move_limit(meta, GAMES[meta.game].default_move_limit),
    )


# --- hosting (table.proto) ------------------------------------------------------------------


def _ms(seconds: float) -> int:
    return int(seconds * 1000)


def clock_to_proto(clock: records.ClockSpec | None) -> table_pb2.Clock | None:
    if clock is None:
        return None
    return table_pb2.Clock(
        move_seconds=clock.move_seconds,
        bank_seconds=clock.bank_seconds,
        increment_seconds=clock.increment_seconds,
        no_show_after=clock.no_show_after,
        no_show=clock.no_show,  # type: ignore[arg-type]
    )


def table_to_proto(table: hosting.TableInfo) -> table_pb2.Table:
    """The public hosting side of a view (clock fields stay 0 here: service.domain.clocks)."""
    return table_pb2.Table(
        status=table.status,  # type: ignore[arg-type]
        seats=[
            table_pb2.TableSeat(
                seat=seat.seat,
                holder=seat.holder,  # type: ignore[arg-type]
                name=seat.name,
                player_id=seat.player_id,
                present=seat.present,
                forfeited=seat.forfeited,
            )
            for seat in table.seats
        ],
        clock=clock_to_proto(table.clock),
        listed=table.listed,
        created_at_unix_ms=_ms(table.created_at),
        rated=table.rated,
    )


# A table's hosting side repeats from version to version (it changes with a join, a leave
# or presence, not with a move): its message is built once per distinct TableInfo.
_table_message = functools.lru_cache(maxsize=4096)(table_to_proto)


def _copy(table: table_pb2.Table | None) -> table_pb2.Table | None:
    """A message of one's own to fill in (the cached one is shared)."""
    if table is None:
        return None
    copied = table_pb2.Table()
    copied.CopyFrom(table)
    return copied


def action_to_proto(action: records.TableActionRecord) -> table_pb2.TableAction:
    return table_pb2.TableAction(
        kind=action.kind,  # type: ignore[arg-type]
        version=action.version,
        seat=action.seat,
        name=action.name,
        at_unix_ms=_ms(action.at),
        automatic=action.automatic,
    )


def host_to_proto(meta: GameMeta, host: records.HostRecord, *, finished: bool) -> table_pb2.Table:
    """A table's Table message straight from its record (the lobby's answers)."""
    clock = meta.clock if isinstance(meta.clock, records.ClockSpec) else None
    return table_to_proto(hosting.project_table(host, finished=finished, clock=clock))


def created_to_proto(created: Created) -> referee_pb2.CreateGameResponse:
    return referee_pb2.CreateGameResponse(
        game_id=created.game_id,
        version=created.version,
        seed_sha256=created.seed_sha256,
        seat_tokens=[
            referee_pb2.SeatToken(seat=seat, token=token)
            for seat, token in enumerate(created.tokens)
        ],
        setup=setup_to_proto(created.meta, created.config),
        admin_token=created.admin_token,
        table=host_to_proto(created.meta, created.host, finished=False) if created.host else None,
    )


def submitted_to_proto(game: str, done: Submitted) -> referee_pb2.SubmitMoveResponse:
    return referee_pb2.SubmitMoveResponse(
        version=done.version,
        view=view_to_proto(done.view),
        events=events_to_proto(game, done.events),
        duplicate=done.duplicate,
    )


def validated_to_proto(
    version: int, error: RefereeError | None
) -> referee_pb2.ValidateMoveResponse:
    if error is None:
        return referee_pb2.ValidateMoveResponse(version=version, legal=True)
    return referee_pb2.ValidateMoveResponse(
        version=version, legal=False, reason=error.reason, message=error.message
    )


def history_to_proto(history: History) -> referee_pb2.GetHistoryResponse:
    game = history.meta.game
    codec = CODECS[game]
    outcome = history.outcome
    return referee_pb2.GetHistoryResponse(
        setup=setup_to_proto(history.meta, history.config),
        version=history.version,
        seed_sha256=history.meta.seed_sha256,
        seed=history.seed or b"",
        entries=[
            game_pb2.HistoryEntry(
                version=item.version,
                seat=item.seat,
                move=codec.move_to_proto(item.move) if item.move is not None else None,
                events=events_to_proto(game, item.events),
                head=item.head,
                log_entry=item.log_entry or b"",
                by=item.by,  # type: ignore[arg-type]
            )
            for item in history.items
        ],
        outcome=outcome_to_proto(outcome) if outcome is not None else None,
        next_page_token=history.next_page_token,
        actions=[action_to_proto(action) for action in history.actions],
    )


def rejection(client_move_id: str, error: RefereeError) -> referee_pb2.PlayResponse:
    """A refused Play request, in-band: what its unary call's status would have said."""
    return referee_pb2.PlayResponse(
        rejection=referee_pb2.PlayResponse.Rejection(
            client_move_id=client_move_id,
            code=getattr(code_pb2, error.code.name),
            reason=error.reason,
            message=error.message,
            metadata=error.metadata,
        )
    )
