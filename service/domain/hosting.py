"""Hosting a table: its seats, holders, names and token generations, as pure transitions.

A table's :class:`~service.domain.records.HostRecord` changes only through the functions here,
each taking the record and returning the next one with a
:class:`~service.domain.records.TableActionRecord` appended, or raising a typed refusal. The
lobby (service.app.lobby) stores the result with ``store.change_host``'s compare-and-set; the
referee reads the record to check a token's generation, refuse moves of a table not
started or aborted, and project the public :class:`TableInfo` of every view.

A game stored without a record is a live table of players at generation 0 named "Seat N"
(:func:`default_host`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import msgspec

from engines.base import Outcome
from service.domain import records
from service.domain.records import BOT, OPEN_SEAT, PLAYER, HostRecord, SeatHold, TableActionRecord
from service.errors import (
    BadRequest,
    PermissionDenied,
    QuotaExceeded,
    RuleViolation,
    Unauthenticated,
)

MAX_NAME_CHARACTERS = 64  # as a tournament participant's name: one display name, one rule
MAX_PLAYER_ID_CHARACTERS = 128
# Table actions one record holds at most (a join/leave loop must not grow it unbounded).
DEFAULT_MAX_ACTIONS = 256
# TableStatus numbers (table.proto) beyond the stored ones.
TABLE_FINISHED = 3
# TableAction.Kind numbers (table.proto).
JOINED, LEFT, STARTED, TOKEN_REISSUED, FORFEITED, BOT_REPLACED, ABORTED = range(1, 8)
# BotStrategy numbers (tournament.proto): StartGame's open seats get the random bot unless
# it names one; a seat handed over (ReplaceSeatByBot, a no-show) the search bot.
BOT_RANDOM, BOT_HEURISTIC, BOT_SEARCH = 1, 2, 3
BOT_STRATEGIES: Final = {BOT_RANDOM: "random", BOT_HEURISTIC: "heuristic", BOT_SEARCH: "search"}
"""Each BotStrategy number's strategy name (the bots' ``referee.search.registry`` names,
the rating ids' ``bot:<name>``); a stored seat always names one (0 is never stored)."""
BOT_KINDS = {BOT_HEURISTIC: " (heuristic)", BOT_SEARCH: " (search)"}


class GameNotStarted(RuleViolation):
    def __init__(self) -> None:
        super().__init__("GAME_NOT_STARTED", "the table is still open: the game has not started")


class GameAborted(RuleViolation):
    def __init__(self) -> None:
        super().__init__("GAME_ABORTED", "the table admin aborted this game")


class GameAlreadyStarted(RuleViolation):
    def __init__(self) -> None:
        super().__init__("GAME_ALREADY_STARTED", "the game has already started")


@dataclass(frozen=True)
class SeatInfo:
    """One seat as every viewer sees it (table.proto ``TableSeat``, clock fields aside)."""

    seat: int
    holder: int
    name: str
    player_id: str
    present: bool
    forfeited: bool


@dataclass(frozen=True)
class TableInfo:
    """The public hosting side of a table at one version (table.proto ``Table``)."""

    status: int
    seats: tuple[SeatInfo, ...]
    listed: bool
    created_at: float
    clock: records.ClockSpec | None = None
    rated: bool = False


def seat_name(seat: int) -> str:
    return f"Seat {seat}"


def default_host(seats: int, created_at: float) -> HostRecord:
    """The record of a game stored without one: live, every seat a player's."""
    holds = tuple(SeatHold(PLAYER, seat_name(seat)) for seat in range(seats))
    return HostRecord(records.TABLE_LIVE, holds, created_at)


def decode(raw: bytes | None, seats: int, created_at: float) -> HostRecord:
    return default_host(seats, created_at) if raw is None else records.host_decoder.decode(raw)


def check_text(value: str, limit: int, reason: str, what: str, *, empty: bool) -> str:
    """``value`` if it is 1 (0 when ``empty``) to ``limit`` printable characters without
    surrounding whitespace; else INVALID_ARGUMENT ``reason``."""
    bad = (
        (not value and not empty)
        or len(value) > limit
        or value != value.strip()
        or any(unicodedata.category(char).startswith("C") for char in value)
    )
    if bad:
        raise BadRequest(
            reason,
            f"a {what} has {0 if empty else 1} to {limit} printable characters, "
            "without surrounding spaces",
        )
    return value


def check_name(name: str) -> str:
    return check_text(name, MAX_NAME_CHARACTERS, "NAME_INVALID", "display name", empty=False)


def check_player_id(player_id: str) -> str:
    return check_text(
        player_id, MAX_PLAYER_ID_CHARACTERS, "PLAYER_ID_INVALID", "player id", empty=True
    )


def new_host(
    seats: int,
    open_seats: int,
    names: Sequence[str],
    *,
    listed: bool,
    created_at: float,
    presence: bool = False,
    programs: frozenset[int] = frozenset(),
) -> HostRecord:
    """A new table's record: the first ``seats - open_seats`` seats held by the creator's
    players (named by ``names``, else "Seat N"; ``programs`` are held by programs, see
    ``SeatHold.program``), the rest open. Live when none is open."""
    if not 0 <= open_seats <= seats:
        raise BadRequest("OPEN_SEATS_INVALID", f"open_seats must be between 0 and {seats}")
    held = seats - open_seats
    if len(names) > held:
        raise BadRequest("NAME_INVALID", f"at most {held} names: one per seat not left open")
    holds = [
        SeatHold(
            PLAYER,
            check_name(names[seat]) if seat < len(names) else seat_name(seat),
            program=seat in programs,
        )
        for seat in range(held)
    ]
    holds += [SeatHold() for _ in range(open_seats)]
    status = records.TABLE_OPEN if open_seats else records.TABLE_LIVE
    return HostRecord(status, tuple(holds), created_at, listed=listed, presence=presence)


def tracks_presence(host: HostRecord) -> bool:
    """Whether the table's seats show their presence: a table where people sit, i.e. a
    lobby table (listed, or joined through a code) or a tournament's table with a person
    at it. A table whose creator handed out every token to programs (a tournament of bots,
    a load test) keeps none, and its streams write no leases."""
    return host.presence or host.listed or any(action.kind == JOINED for action in host.actions)


def status_of(host: HostRecord, finished: bool) -> int:
    """The table's TableStatus: finished is told by the outcome, never stored."""
    if host.status == records.TABLE_ABORTED:
        return records.TABLE_ABORTED
    return TABLE_FINISHED if finished else host.status


def check_movable(host: HostRecord) -> None:
    """Moves are refused while the table is open or after it was aborted."""
    if host.status == records.TABLE_OPEN:
        raise GameNotStarted()
    if host.status == records.TABLE_ABORTED:
        raise GameAborted()


def check_generation(host: HostRecord, seat: int | None, generation: int) -> None:
    """A token of another generation than its seat's (or the admin's) is revoked: the
    seat's token was reissued, or its player left or was replaced by a bot."""
    current = host.admin_generation if seat is None else host.seats[seat].generation
    if generation != current:
        raise Unauthenticated(
            "TOKEN_REVOKED", "this token was reissued, or its seat was left or handed over"
        )


def _act(host: HostRecord, limit: int, action: TableActionRecord, **changes: object) -> HostRecord:
    """``host`` with ``changes`` and ``action`` appended, unless it holds ``limit`` already."""
    if len(host.actions) >= limit:
        raise QuotaExceeded(
            "TABLE_ACTIONS_EXCEEDED",
            f"this table has had its {limit} table actions; no more are accepted",
            60.0,
            {"limit": str(limit)},
        )
    return msgspec.structs.replace(host, actions=(*host.actions, action), **changes)


def _seat(host: HostRecord, seat: int) -> SeatHold:
    if not 0 <= seat < len(host.seats):
        raise PermissionDenied("SEAT_NOT_AT_TABLE", f"there is no seat {seat} at this table")
    return host.seats[seat]


def _with_seat(host: HostRecord, seat: int, hold: SeatHold) -> tuple[SeatHold, ...]:
    return (*host.seats[:seat], hold, *host.seats[seat + 1 :])


def _require_open(host: HostRecord) -> None:
    if host.status == records.TABLE_ABORTED:
        raise GameAborted()
    if host.status != records.TABLE_OPEN:
        raise GameAlreadyStarted()


def _require_running(host: HostRecord, finished: bool) -> None:
    if host.status == records.TABLE_ABORTED:
        raise GameAborted()
    if finished:
        raise RuleViolation("GAME_OVER", "the game is over")
    if host.status == records.TABLE_OPEN:
        raise GameNotStarted()


@dataclass(frozen=True)
class When:
    """Where a transition happens: the game's version, the time, the actions cap."""

    version: int
    at: float
    limit: int = DEFAULT_MAX_ACTIONS


def join(host: HostRecord, name: str, player_id: str, when: When) -> tuple[HostRecord, int]:
    """A player takes the first open seat; the table starts when it was the last."""
    _require_open(host)
    free = [seat for seat, hold in enumerate(host.seats) if hold.holder == OPEN_SEAT]
    if not free:
        raise RuleViolation("TABLE_FULL", "every seat of this table is taken")
    seat = free[0]
    hold = msgspec.structs.replace(host.seats[seat], holder=PLAYER, name=name, player_id=player_id)
    action = TableActionRecord(JOINED, when.version, seat, name, when.at)
    host = _act(host, when.limit, action, seats=_with_seat(host, seat, hold))
    if len(free) == 1:
        started = TableActionRecord(STARTED, when.version, -1, "", when.at, automatic=True)
        host = _act(host, when.limit + 1, started, status=records.TABLE_LIVE)
    return host, seat


def leave(host: HostRecord, seat: int, when: When) -> HostRecord:
    """A player gives its seat up before the start; its token is revoked with it."""
    _require_open(host)
    hold = _seat(host, seat)
    if hold.holder != PLAYER:
        raise RuleViolation("SEAT_OPEN", f"seat {seat} is not held")
    opened = SeatHold(generation=hold.generation + 1)
    action = TableActionRecord(LEFT, when.version, seat, "", when.at)
    return _act(host, when.limit, action, seats=_with_seat(host, seat, opened))


def bot_name(bot: int, seat: int) -> str:
    """A bot's name at ``seat``, numbered as people count seats (from 1, as "Player 2")."""
    number = seat + 1
    return f"Bot {number}{BOT_KINDS.get(bot, '')}"


def start(host: HostRecord, bot: int, when: When) -> HostRecord:
    """The admin starts the game: the referee's bot in every open seat."""
    _require_open(host)
    bot = bot or BOT_RANDOM
    seats = tuple(
        SeatHold(BOT, bot_name(bot, seat), generation=hold.generation + 1, bot=bot)
        if hold.holder == OPEN_SEAT
        else hold
        for seat, hold in enumerate(host.seats)
    )
    action = TableActionRecord(STARTED, when.version, -1, "", when.at)
    return _act(host, when.limit, action, seats=seats, status=records.TABLE_LIVE)


def reissue(host: HostRecord, seat: int, finished: bool, when: When) -> HostRecord:
    """A new generation for a player's seat: its earlier token is refused from then on."""
    if host.status == records.TABLE_ABORTED:
        raise GameAborted()
    if finished:
        raise RuleViolation("GAME_OVER", "the game is over")
    hold = _seat(host, seat)
    if hold.holder != PLAYER:
        raise RuleViolation("SEAT_NOT_HELD", f"seat {seat} is not held by a player")
    renewed = msgspec.structs.replace(hold, generation=hold.generation + 1)
    action = TableActionRecord(TOKEN_REISSUED, when.version, seat, hold.name, when.at)
    return _act(host, when.limit, action, seats=_with_seat(host, seat, renewed))


def forfeit(
    host: HostRecord,
    forfeitable: bool,
    seat: int,
    finished: bool,
    when: When,
    *,
    automatic: bool = False,
) -> HostRecord:
    """The seat forfeits: placed last, never a winner (:func:`adjust_outcome`).

    ``forfeitable`` is the game's trait (``GameDefinition.forfeitable``): a game without a
    forfeit (a cooperative one: nobody loses alone) refuses with ``FORFEIT_NOT_IN_GAME``."""
    if not forfeitable:
        raise RuleViolation(
            "FORFEIT_NOT_IN_GAME",
            "this game has no forfeit (in a cooperative game nobody loses alone); "
            "hand the seat to a bot or abort",
        )
    _require_running(host, finished)
    hold = _seat(host, seat)
    if hold.forfeited:
        raise RuleViolation("SEAT_FORFEITED", f"seat {seat} has already forfeited")
    gone = msgspec.structs.replace(hold, forfeited=True)
    action = TableActionRecord(FORFEITED, when.version, seat, hold.name, when.at, automatic)
    return _act(host, when.limit, action, seats=_with_seat(host, seat, gone))


def replace_by_bot(
    host: HostRecord, seat: int, bot: int, finished: bool, when: When, *, automatic: bool = False
) -> HostRecord:
    """The referee's bot plays the seat from now on; the player's token is revoked. The
    seat keeps its player's name (its holder says a bot plays it): it is still that
    player's seat in the standings and to everyone at the table."""
    _require_running(host, finished)
    hold = _seat(host, seat)
    if hold.holder == BOT:
        raise RuleViolation("SEAT_ALREADY_BOT", f"a bot already plays seat {seat}")
    bot = bot or BOT_SEARCH
    name = hold.name or bot_name(bot, seat)
    replaced = msgspec.structs.replace(
        hold, holder=BOT, name=name, generation=hold.generation + 1, bot=bot
    )
    action = TableActionRecord(BOT_REPLACED, when.version, seat, name, when.at, automatic)
    return _act(host, when.limit, action, seats=_with_seat(host, seat, replaced))


def abort(host: HostRecord, finished: bool, when: When) -> HostRecord:
    """The admin ends the game without an outcome."""
    if host.status == records.TABLE_ABORTED:
        raise GameAborted()
    if finished:
        raise RuleViolation("GAME_OVER", "the game is over")
    action = TableActionRecord(ABORTED, when.version, -1, "", when.at)
    return _act(host, when.limit, action, status=records.TABLE_ABORTED)


def forfeited(host: HostRecord) -> frozenset[int]:
    return frozenset(seat for seat, hold in enumerate(host.seats) if hold.forfeited)


def adjust_outcome(outcome: Outcome, gone: frozenset[int]) -> Outcome:
    """The outcome with the forfeited seats ``gone`` sharing the last place, never winning.

    Generic over games: the others keep their order among themselves (their places
    recounted without the forfeited seats) and the winners are the best of them. A team
    game (cooperative: never forfeitable) has no forfeit, so it is never adjusted."""
    if not gone or outcome.team:
        return outcome
    stay = [seat for seat in range(len(outcome.placings)) if seat not in gone]
    placings = [
        1 + sum(1 for other in stay if outcome.placings[other] < outcome.placings[seat])
        if seat not in gone
        else len(stay) + 1
        for seat in range(len(outcome.placings))
    ]
    winners = tuple(seat for seat in outcome.winners if seat not in gone)
    if outcome.winners and not winners:
        winners = tuple(seat for seat in stay if placings[seat] == 1)
    names = ", ".join(str(seat) for seat in sorted(gone))
    return msgspec.structs.replace(
        outcome,
        winners=winners,
        placings=tuple(placings),
        summary=f"{outcome.summary} Forfeited (placed last): seat {names}.",
    )


def project_table(
    host: HostRecord,
    *,
    finished: bool,
    present: frozenset[int] = frozenset(),
    clock: records.ClockSpec | None = None,
) -> TableInfo:
    """The public hosting side of a table (View.table): the same for every viewer. The
    clock fields (deadlines, banks) are the clocks' (service.domain.clocks) to add."""
    seats = tuple(
        SeatInfo(seat, hold.holder, hold.name, hold.player_id, seat in present, hold.forfeited)
        for seat, hold in enumerate(host.seats)
    )
    return TableInfo(
        status_of(host, finished), seats, host.listed, host.created_at, clock, host.rated
    )
