"""Turn clocks, purely (service.domain.clocks): the spec's bounds, the state after each move and
every seat's deadline, on a fake time (plain integers of Unix ms)."""

from __future__ import annotations

import pytest

from referee.v1 import table_pb2
from service.domain import clocks
from service.domain.clocks import BY_BOT, BY_CLOCK, BY_PLAYER, Roles
from service.domain.records import BOT, PLAYER, ClockSpec, HostRecord, SeatHold
from service.edge import clock_proto
from service.errors import BadRequest

T0 = 1_700_000_000_000
MOVE = ClockSpec(move_seconds=30)
BANK = ClockSpec(bank_seconds=60, increment_seconds=5)
BOTH = ClockSpec(move_seconds=30, bank_seconds=60)


def reason(clock: table_pb2.Clock) -> str:
    with pytest.raises(BadRequest) as caught:
        clock_proto.spec_from_proto(clock)
    return caught.value.reason


@pytest.mark.parametrize(
    "clock",
    [
        table_pb2.Clock(),  # set, but limits nothing: 0 everywhere
        table_pb2.Clock(move_seconds=365 * 24 * 3600),  # a year
        table_pb2.Clock(bank_seconds=365 * 24 * 3600),
        table_pb2.Clock(move_seconds=-1),
        table_pb2.Clock(bank_seconds=10, increment_seconds=3601),
        table_pb2.Clock(move_seconds=10, increment_seconds=5),  # an increment needs a bank
        table_pb2.Clock(move_seconds=10, no_show_after=1001),
        table_pb2.Clock(move_seconds=10, no_show_after=-1),
        table_pb2.Clock(move_seconds=10, no_show=7),  # type: ignore[arg-type]
    ],
)
def test_a_clock_out_of_bounds_is_clock_invalid(clock: table_pb2.Clock) -> None:
    assert reason(clock) == "CLOCK_INVALID"


def test_the_bounds_themselves_are_valid() -> None:
    spec = clock_proto.spec_from_proto(
        table_pb2.Clock(
            move_seconds=86_400,
            bank_seconds=86_400,
            increment_seconds=3_600,
            no_show_after=1_000,
            no_show=table_pb2.NO_SHOW_FORFEIT,
        )
    )
    assert spec == ClockSpec(86_400, 86_400, 3_600, 1_000, 2)
    assert clock_proto.spec_from_proto(table_pb2.Clock(move_seconds=1)) == ClockSpec(move_seconds=1)
    assert clock_proto.spec_to_proto(spec) == table_pb2.Clock(
        move_seconds=86_400,
        bank_seconds=86_400,
        increment_seconds=3_600,
        no_show_after=1_000,
        no_show=table_pb2.NO_SHOW_FORFEIT,
    )


def test_move_ids_tell_who_moved() -> None:
    assert clocks.move_id(BY_CLOCK, 7, 2) == "~clock:7:2"
    assert clocks.move_id(BY_BOT, 7, 2) == "~bot:7:2"
    assert clocks.move_by("~clock:7:2") == BY_CLOCK
    assert clocks.move_by("~bot:0:1") == BY_BOT
    assert clocks.move_by("a1b2") == BY_PLAYER
    assert clocks.move_by("clock:1:1") == BY_PLAYER


def test_at_start_the_awaited_seats_run_with_full_banks() -> None:
    state = clocks.at_start(BANK, 3, {1}, T0)
    assert state.waiting_since_ms == T0
    assert [seat.since_ms for seat in state.seats] == [0, T0, 0]
    assert {seat.bank_ms for seat in state.seats} == {60_000}
    assert clocks.deadlines(BANK, state, Roles(), 300) == {1: T0 + 60_000}


def test_a_per_move_limit_counts_from_when_the_seat_became_to_act() -> None:
    state = clocks.at_start(MOVE, 2, {0}, T0)
    assert clocks.deadlines(MOVE, state, Roles(), 300) == {0: T0 + 30_000}
    after = clocks.after_move(MOVE, state, {0}, {1}, 0, BY_PLAYER, T0 + 12_000)
    assert clocks.deadlines(MOVE, after, Roles(), 300) == {1: T0 + 42_000}
    assert after.waiting_since_ms == T0 + 12_000


def test_a_bank_is_spent_while_awaited_and_the_increment_added_after_each_own_move() -> None:
    state = clocks.at_start(BANK, 2, {0}, T0)
    state = clocks.after_move(BANK, state, {0}, {1}, 0, BY_PLAYER, T0 + 20_000)
    assert [seat.bank_ms for seat in state.seats] == [60_000 - 20_000 + 5_000, 60_000]
    state = clocks.after_move(BANK, state, {1}, {0}, 1, BY_PLAYER, T0 + 70_000)
    assert [seat.bank_ms for seat in state.seats] == [45_000, 10_000 + 5_000]
    # Seat 0 runs again from the last move: its bank runs out 45 s after it.
    assert clocks.deadlines(BANK, state, Roles(), 300) == {0: T0 + 115_000}


def test_a_spent_bank_stops_at_zero() -> None:
    state = clocks.at_start(BANK, 2, {0}, T0)
    state = clocks.after_move(BANK, state, {0}, {1}, 0, BY_CLOCK, T0 + 99_000)
    assert state.seats[0].bank_ms == 5_000  # zero, then its increment


def test_the_earlier_of_move_limit_and_bank_is_the_deadline() -> None:
    state = clocks.at_start(BOTH, 2, {0}, T0)
    assert clocks.deadline(BOTH, state, 0, Roles(), 300) == T0 + 30_000
    state = clocks.after_move(BOTH, state, {0}, {1}, 0, BY_PLAYER, T0 + 29_000)
    state = clocks.after_move(BOTH, state, {1}, {0}, 1, BY_PLAYER, T0 + 30_000)
    # Seat 0 has 31 s of bank left: its 30 s per move come first. Then it spends 29 s more.
    assert clocks.deadline(BOTH, state, 0, Roles(), 300) == T0 + 60_000
    state = clocks.after_move(BOTH, state, {0}, {1}, 0, BY_PLAYER, T0 + 59_000)
    state = clocks.after_move(BOTH, state, {1}, {0}, 1, BY_PLAYER, T0 + 60_000)
    assert clocks.deadline(BOTH, state, 0, Roles(), 300) == T0 + 62_000  # 2 s of bank


def test_a_phase_clock_runs_every_awaited_seat_at_once() -> None:
    """A simultaneous phase: seats 0-2 awaited; seat 1 moves, the others keep running
    from the phase's start (their per-move limit does not restart), and their banks are
    charged to the move so a frontend counts on from waiting_since."""
    spec = ClockSpec(move_seconds=30, bank_seconds=100)
    state = clocks.at_start(spec, 3, {0, 1, 2}, T0)
    state = clocks.after_move(spec, state, {0, 1, 2}, {0, 2}, 1, BY_PLAYER, T0 + 10_000)
    assert [seat.since_ms for seat in state.seats] == [T0, 0, T0]
    assert [seat.bank_ms for seat in state.seats] == [90_000, 90_000, 90_000]
    assert clocks.deadlines(spec, state, Roles(), 300) == {0: T0 + 30_000, 2: T0 + 30_000}


def test_a_seat_awaited_again_after_its_own_move_starts_anew() -> None:
    state = clocks.at_start(MOVE, 2, {0}, T0)
    state = clocks.after_move(MOVE, state, {0}, {0}, 0, BY_PLAYER, T0 + 5_000)
    assert state.seats[0].since_ms == T0 + 5_000


def test_clock_moves_count_consecutively_and_any_other_move_resets_them() -> None:
    state = clocks.at_start(MOVE, 2, {0}, T0)
    state = clocks.after_move(MOVE, state, {0}, {1}, 0, BY_CLOCK, T0 + 30_000)
    state = clocks.after_move(MOVE, state, {1}, {0}, 1, BY_PLAYER, T0 + 31_000)
    state = clocks.after_move(MOVE, state, {0}, {1}, 0, BY_CLOCK, T0 + 61_000)
    assert [seat.clock_moves for seat in state.seats] == [2, 0]
    state = clocks.after_move(MOVE, state, {1}, {0}, 1, BY_PLAYER, T0 + 62_000)
    state = clocks.after_move(MOVE, state, {0}, {1}, 0, BY_PLAYER, T0 + 63_000)
    assert [seat.clock_moves for seat in state.seats] == [0, 0]


def test_a_forfeited_seat_is_due_at_once_and_a_bot_seat_after_the_bot_delay() -> None:
    state = clocks.at_start(MOVE, 3, {0, 1, 2}, T0)
    who = Roles(bots=frozenset({1, 2}), forfeited=frozenset({0, 2}))
    assert clocks.deadlines(MOVE, state, who, 300) == {0: T0, 1: T0 + 300, 2: T0}
    assert clocks.by_for(0, who) == BY_CLOCK
    assert clocks.by_for(1, who) == BY_BOT
    assert clocks.by_for(2, who) == BY_CLOCK  # a forfeited bot seat: the clock's


def test_a_table_without_a_clock_times_only_the_referees_own_seats() -> None:
    state = clocks.at_start(ClockSpec(), 2, {0, 1}, T0)
    assert clocks.deadlines(None, state, Roles(), 300) == {}
    assert clocks.deadlines(None, state, Roles(bots=frozenset({1})), 300) == {1: T0 + 300}


def test_roles_come_from_the_hosting_record() -> None:
    host = HostRecord(
        status=2,
        seats=(
            SeatHold(PLAYER),
            SeatHold(BOT, bot=1),
            SeatHold(PLAYER, forfeited=True),
            SeatHold(PLAYER, program=True),
        ),
        created_at=0.0,
    )
    assert clocks.roles(host) == Roles(
        bots=frozenset({1}), forfeited=frozenset({2}), programs=frozenset({3})
    )
    assert clocks.roles(None) == Roles()


def test_the_no_show_policy_applies_after_k_consecutive_clock_moves_of_a_players_seat() -> None:
    spec = ClockSpec(move_seconds=1, no_show_after=2, no_show=clocks.NO_SHOW_BOT)
    state = clocks.at_start(spec, 2, {0}, T0)
    state = clocks.after_move(spec, state, {0}, {1}, 0, BY_CLOCK, T0 + 1_000)
    assert not clocks.no_show_due(spec, state, 0, Roles())
    state = clocks.after_move(spec, state, {1}, {0}, 1, BY_PLAYER, T0 + 1_100)
    state = clocks.after_move(spec, state, {0}, {1}, 0, BY_CLOCK, T0 + 2_100)
    assert clocks.no_show_due(spec, state, 0, Roles())
    assert not clocks.no_show_due(spec, state, 0, Roles(bots=frozenset({0})))
    # A program (a tournament's bot participant) that is slow gets clock moves, never the
    # policy: it is for people who do not show up.
    assert not clocks.no_show_due(spec, state, 0, Roles(programs=frozenset({0})))
    keep = ClockSpec(move_seconds=1, no_show_after=2)
    assert not clocks.no_show_due(keep, state, 0, Roles())


def test_the_clock_state_round_trips_and_projects_to_the_table() -> None:
    state = clocks.at_start(BOTH, 2, {1}, T0)
    assert clocks.decode(clocks.encode(state)) == state
    assert clocks.decode(None) is None
    view = clocks.ClockView(BOTH, state, clocks.deadlines(BOTH, state, Roles(), 300))
    table = clock_proto.table_to_proto(view)
    assert table.clock.move_seconds == 30
    assert table.waiting_since_unix_ms == T0
    assert [(s.seat, s.deadline_unix_ms, s.bank_ms) for s in table.seats] == [
        (0, 0, 60_000),
        (1, T0 + 30_000, 60_000),
    ]
