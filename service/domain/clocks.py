"""Turn clocks, purely: a table's clock spec, the clock state stored with each move, and
every seat's deadline. No I/O and no wall clock: every function is given ``now_ms``.

A seat's clock runs while the game waits for it (``GameDefinition.waiting_for``: in a
simultaneous phase every awaited seat at once, which makes a phase clock). The state is
stored with every move of a clocked table (``store.commit(clock=...)``) and holds, per
seat, since when it has been awaited (the per-move limit counts from there) and its bank
as of the state's ``waiting_since_ms`` (the time of the last move or of the start): every
running bank is charged up to each commit, so a seat's bank runs on from
``waiting_since_ms`` whoever moved last, as table.proto tells frontends.

Deadlines: a running seat's is the earlier of its per-move limit and its bank running
out; a forfeited seat's is at once (the clock plays for it); a bot seat's a short delay
after it became awaited (the referee's bot plays for it). Who made a move is told by its
``client_move_id``: ids the referee makes start with ``~`` (:func:`move_by`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import msgspec

from service.domain.records import BOT, ClockSpec, HostRecord

MAX_MOVE_SECONDS = 86_400
MAX_BANK_SECONDS = 86_400
MAX_INCREMENT_SECONDS = 3_600
MAX_NO_SHOW_AFTER = 1_000

# HistoryEntry.by values (table.proto ``MoveBy``) and the client_move_id prefixes that
# mark them; clients may not send an id starting with RESERVED_PREFIX.
BY_PLAYER, BY_CLOCK, BY_BOT = 0, 1, 2
RESERVED_PREFIX = "~"
CLOCK_PREFIX = "~clock:"
BOT_PREFIX = "~bot:"
NO_SHOW_KEEP, NO_SHOW_BOT, NO_SHOW_FORFEIT = 0, 1, 2


class SeatClock(msgspec.Struct, frozen=True, array_like=True):
    """One seat's clock: since when it has been awaited (0: it is not), its bank left as
    of :attr:`ClockState.waiting_since_ms`, and the clock's consecutive moves for it."""

    since_ms: int = 0
    bank_ms: int = 0
    clock_moves: int = 0


class ClockState(msgspec.Struct, frozen=True, array_like=True):
    """A table's clocks at one version (stored MessagePack beside the game)."""

    seats: tuple[SeatClock, ...]
    waiting_since_ms: int


encode = msgspec.msgpack.Encoder().encode
_decoder = msgspec.msgpack.Decoder(ClockState)


def decode(raw: bytes | None) -> ClockState | None:
    return None if not raw else _decoder.decode(raw)


def move_by(client_move_id: str) -> int:
    """Who made a logged move (``MoveBy``), from the id the referee gave it."""
    if client_move_id.startswith(CLOCK_PREFIX):
        return BY_CLOCK
    if client_move_id.startswith(BOT_PREFIX):
        return BY_BOT
    return BY_PLAYER


def move_id(by: int, version: int, seat: int) -> str:
    """The id of the clock's or the bot's move for ``seat`` at ``version`` (the version it
    was decided on): the same in every replica, so the move applies once."""
    prefix = CLOCK_PREFIX if by == BY_CLOCK else BOT_PREFIX
    return f"{prefix}{version}:{seat}"


def at_start(spec: ClockSpec, seats: int, awaited: Collection[int], now_ms: int) -> ClockState:
    """The clocks when the game starts: full banks, the awaited seats running."""
    bank = spec.bank_seconds * 1000
    return ClockState(
        seats=tuple(
            SeatClock(since_ms=now_ms if seat in awaited else 0, bank_ms=bank)
            for seat in range(seats)
        ),
        waiting_since_ms=now_ms,
    )


def after_move(
    spec: ClockSpec,
    before: ClockState,
    awaited_before: Collection[int],
    awaited_after: Collection[int],
    seat: int,
    by: int,
    now_ms: int,
) -> ClockState:
    """The clocks after ``seat``'s move (made ``by`` whom) at ``now_ms``: every running
    bank charged to now, the mover's increment added, its count of consecutive clock moves
    raised by a clock move and reset by any other; a seat still awaited that did not move
    keeps running since when it started, the others start now (or stop)."""
    elapsed = max(0, now_ms - before.waiting_since_ms)
    clocks = []
    for number, old in enumerate(before.seats):
        bank = old.bank_ms
        if spec.bank_seconds and number in awaited_before:
            bank = max(0, bank - elapsed)
        moves = old.clock_moves
        if number == seat:
            bank += spec.increment_seconds * 1000 if spec.bank_seconds else 0
            moves = moves + 1 if by == BY_CLOCK else 0
        since = 0
        if number in awaited_after:
            running = number in awaited_before and number != seat and old.since_ms
            since = old.since_ms if running else now_ms
        clocks.append(SeatClock(since_ms=since, bank_ms=bank, clock_moves=moves))
    return ClockState(seats=tuple(clocks), waiting_since_ms=max(now_ms, before.waiting_since_ms))


@dataclass(frozen=True)
class Roles:
    """Seats the referee plays by itself: bots, and forfeited seats (by the clock); and
    seats programs hold (``SeatHold.program``), which the no-show policy spares."""

    bots: frozenset[int] = frozenset()
    forfeited: frozenset[int] = frozenset()
    programs: frozenset[int] = frozenset()

    @property
    def any(self) -> bool:
        return bool(self.bots or self.forfeited)


def roles(host: HostRecord | None) -> Roles:
    if host is None:
        return Roles()
    return Roles(
        bots=frozenset(n for n, hold in enumerate(host.seats) if hold.holder == BOT),
        forfeited=frozenset(n for n, hold in enumerate(host.seats) if hold.forfeited),
        programs=frozenset(n for n, hold in enumerate(host.seats) if hold.program),
    )


def deadline(
    spec: ClockSpec | None, state: ClockState, seat: int, who: Roles, bot_delay_ms: int
) -> int | None:
    """When ``seat``'s time runs out (Unix ms); None while it is not awaited or nothing
    limits it (a player's seat at a table without a clock)."""
    clock = state.seats[seat]
    if not clock.since_ms:
        return None
    if seat in who.forfeited:
        return clock.since_ms
    if seat in who.bots:
        return clock.since_ms + bot_delay_ms
    limits = []
    if spec is not None and spec.move_seconds:
        limits.append(clock.since_ms + spec.move_seconds * 1000)
    if spec is not None and spec.bank_seconds:
        limits.append(state.waiting_since_ms + clock.bank_ms)
    return min(limits) if limits else None


def deadlines(
    spec: ClockSpec | None, state: ClockState, who: Roles, bot_delay_ms: int
) -> dict[int, int]:
    """Every seat's deadline that is set, by seat."""
    found = {}
    for seat in range(len(state.seats)):
        due = deadline(spec, state, seat, who, bot_delay_ms)
        if due is not None:
            found[seat] = due
    return found


def by_for(seat: int, who: Roles) -> int:
    """Who plays ``seat`` when its deadline passes: its bot, else the clock (a forfeited
    seat, even a bot's, is the clock's: its default move)."""
    return BY_BOT if seat in who.bots and seat not in who.forfeited else BY_CLOCK


def no_show_due(spec: ClockSpec | None, state: ClockState, seat: int, who: Roles) -> bool:
    """Whether the no-show policy now applies to ``seat``: the clock has made its
    ``no_show_after`` consecutive moves, the policy does something, and the seat is still
    a person's (not a bot's, a forfeited seat or a program's)."""
    if spec is None or not spec.no_show_after or spec.no_show == NO_SHOW_KEEP:
        return False
    if seat in who.bots or seat in who.forfeited or seat in who.programs:
        return False
    return state.seats[seat].clock_moves >= spec.no_show_after


# The key under which the edge hands a validated clock to Referee.create_game among the
# table's options (beside the engine's own; service.edge.translate.options_from_proto).
CLOCK_OPTION = "clock"


@dataclass(frozen=True)
class ClockView:
    """What every view shows of a table's clocks at its version (table.proto ``Table``)."""

    spec: ClockSpec | None
    state: ClockState
    deadlines: dict[int, int]
