"""A table's turn clock in table.proto's terms: the Clock option validated on the way in,
and the clock part of every view's Table on the way out (service.domain.clocks computes
them, purely)."""

from __future__ import annotations

from referee.v1 import table_pb2
from service.domain import clocks
from service.domain.records import ClockSpec
from service.errors import BadRequest


def _invalid(message: str) -> BadRequest:
    return BadRequest("CLOCK_INVALID", message)


def _bounded(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise _invalid(f"clock.{name} must be 0 or {max(low, 1)} to {high}, not {value}")


def spec_from_proto(clock: table_pb2.Clock) -> ClockSpec:
    """A set ``TableOptions.clock`` as stored; INVALID_ARGUMENT ``CLOCK_INVALID`` when a
    bound of table.proto is not kept. A set clock must limit something: a Clock with
    neither ``move_seconds`` nor ``bank_seconds`` is refused (unset is "no clock")."""
    _bounded("move_seconds", clock.move_seconds, 0, clocks.MAX_MOVE_SECONDS)
    _bounded("bank_seconds", clock.bank_seconds, 0, clocks.MAX_BANK_SECONDS)
    _bounded("increment_seconds", clock.increment_seconds, 0, clocks.MAX_INCREMENT_SECONDS)
    _bounded("no_show_after", clock.no_show_after, 0, clocks.MAX_NO_SHOW_AFTER)
    if not clock.move_seconds and not clock.bank_seconds:
        raise _invalid("a clock needs move_seconds or bank_seconds (leave it unset for none)")
    if clock.increment_seconds and not clock.bank_seconds:
        raise _invalid("clock.increment_seconds needs bank_seconds")
    if clock.no_show not in table_pb2.NoShow.values():
        raise _invalid(f"clock.no_show {clock.no_show} is not a NoShow")
    if clock.no_show_bot not in table_pb2.NoShowBot.values():
        raise _invalid(f"clock.no_show_bot {clock.no_show_bot} is not a NoShowBot")
    return ClockSpec(
        move_seconds=clock.move_seconds,
        bank_seconds=clock.bank_seconds,
        increment_seconds=clock.increment_seconds,
        no_show_after=clock.no_show_after,
        no_show=clock.no_show,
        no_show_bot=clock.no_show_bot,
    )


def spec_to_proto(spec: ClockSpec) -> table_pb2.Clock:
    return table_pb2.Clock(
        move_seconds=spec.move_seconds,
        bank_seconds=spec.bank_seconds,
        increment_seconds=spec.increment_seconds,
        no_show_after=spec.no_show_after,
        no_show=spec.no_show,  # type: ignore[arg-type]
        no_show_bot=spec.no_show_bot,  # type: ignore[arg-type]
    )


def table_to_proto(view: clocks.ClockView) -> table_pb2.Table:
    """The clock part of a view's ``Table``: the clock as created, since when the table
    waits, and each seat's deadline, bank and clock moves. (The hosting part, holders and
    names, is service.domain.hosting's: it fills the same message.)"""
    return table_pb2.Table(
        clock=spec_to_proto(view.spec) if view.spec is not None else None,
        waiting_since_unix_ms=view.state.waiting_since_ms,
        seats=[
            table_pb2.TableSeat(
                seat=seat,
                deadline_unix_ms=view.deadlines.get(seat, 0),
                bank_ms=clock.bank_ms,
                clock_moves=clock.clock_moves,
            )
            for seat, clock in enumerate(view.state.seats)
        ],
    )


def with_clock(table: table_pb2.Table | None, view: clocks.ClockView) -> table_pb2.Table:
    """``table`` (the hosting part of a view's Table, service.domain.hosting; None: none) with
    the clock fields of ``view`` filled in."""
    clocked = table_to_proto(view)
    if table is None:
        return clocked
    table.waiting_since_unix_ms = clocked.waiting_since_unix_ms
    if view.spec is not None:
        table.clock.CopyFrom(clocked.clock)
    for seat, shown in zip(table.seats, clocked.seats, strict=False):
        seat.deadline_unix_ms = shown.deadline_unix_ms
        seat.bank_ms = shown.bank_ms
        seat.clock_moves = shown.clock_moves
    return table
