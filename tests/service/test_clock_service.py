"""Turn clocks in the service: a seat that never moves is played by the clock to the end
of each game, the clock's moves are in the history as MOVE_BY_CLOCK and verify; the views
carry deadlines; bad clocks and reserved move ids are refused and change nothing.

Time is a fake (tests.service.clocking.FakeTime) and the firer is stepped by hand, so a
1 s clock costs no real second."""

from __future__ import annotations

from collections.abc import AsyncIterator

import grpc
import pytest
from redis.asyncio import Redis

from referee.v1 import game_pb2, referee_pb2, table_pb2
from service.domain import clocks
from service.domain.records import ClockSpec
from service.edge import translate
from service.edge.verify import verify_history
from service.errors import BadRequest
from service.storage.tables import load_table
from tests.service.clocking import Clocked, clocked_referee, create, full_history, play_others
from tests.service.table import Stub, reason_of

GAMES = [("the_gang", 3), ("gang_of_four", 3), ("pinched", 3)]


@pytest.fixture
async def clocked(redis_url: str) -> AsyncIterator[Clocked]:
    async for made in clocked_referee(redis_url):
        yield made


@pytest.mark.parametrize(("game", "seats"), GAMES)
async def test_the_clock_plays_a_seat_that_never_moves_to_the_end(
    clocked: Clocked, game: str, seats: int
) -> None:
    game_id, tokens = await create(clocked, game, seats, ClockSpec(move_seconds=1))
    firer = clocked.firer()
    for _ in range(20_000):
        if await play_others(clocked, game_id, tokens, idle=0):
            continue
        table = await load_table(clocked.referee.store, game_id)
        if table.finished:
            break
        clocked.time.advance(1000)
        assert await firer.fire_once() >= 1
    else:
        pytest.fail("the game did not end")
    history = await full_history(clocked.referee, game_id)
    by_seat0 = {entry.by for entry in history.entries if entry.seat == 0}
    assert by_seat0 == {table_pb2.MOVE_BY_CLOCK}
    others = {entry.by for entry in history.entries if entry.seat != 0}
    assert others == {table_pb2.MOVE_BY_UNSPECIFIED}
    report = verify_history(history)
    assert report.ok, str(report)
    clocked.time.advance(1000)  # members of states a player's move left behind: dropped
    await firer.fire_once()
    assert await clocked.index.pending() == 0


async def test_a_clock_move_that_is_not_the_default_move_fails_verification(
    clocked: Clocked,
) -> None:
    game_id, tokens = await create(clocked, "pinched", 2, ClockSpec(move_seconds=1))
    firer = clocked.firer()
    while not (await load_table(clocked.referee.store, game_id)).finished:
        if not await play_others(clocked, game_id, tokens, idle=0):
            clocked.time.advance(1000)
            await firer.fire_once()
    history = await full_history(clocked.referee, game_id)
    forged = referee_pb2.GetHistoryResponse()
    forged.CopyFrom(history)
    for entry in forged.entries:
        if entry.seat == 1:  # a player's move claimed for the clock
            entry.by = table_pb2.MOVE_BY_CLOCK
            break
    report = verify_history(forged)
    assert not report.ok
    assert any("by" in problem or "clock" in problem for problem in report.problems)


async def test_views_carry_each_seats_deadline_bank_and_waiting_time(clocked: Clocked) -> None:
    spec = ClockSpec(move_seconds=30, bank_seconds=60, increment_seconds=2)
    game_id, tokens = await create(clocked, "gang_of_four", 4, spec)
    start = clocked.time.now
    view = translate.view_to_proto(await clocked.referee.get_view(game_id, tokens[0]))
    (first,) = view.to_act
    assert view.table.clock.move_seconds == 30
    assert view.table.waiting_since_unix_ms == start
    deadlines = {seat.seat: seat.deadline_unix_ms for seat in view.table.seats}
    assert deadlines == {s: (start + 30_000 if s == first else 0) for s in range(4)}
    assert {seat.bank_ms for seat in view.table.seats} == {60_000}
    clocked.time.advance(10_000)
    table = await load_table(clocked.referee.store, game_id)
    move = table.game.default_move(table.state, first)
    done = await clocked.referee.submit_move(
        game_id, tokens[first], "gang_of_four", move, "m1", None
    )
    shown = translate.view_to_proto(done.view).table
    assert shown.waiting_since_unix_ms == start + 10_000
    assert shown.seats[first].bank_ms == 60_000 - 10_000 + 2_000
    assert shown.seats[first].deadline_unix_ms == 0
    assert shown.seats[first].clock_moves == 0


async def test_an_open_tables_clocks_do_not_run_before_it_starts(clocked: Clocked) -> None:
    spec = ClockSpec(move_seconds=30, bank_seconds=60)
    created = await clocked.referee.create_game(
        "gang_of_four", 4, {"clock": spec}, allow_spectators=True, seed=b"open", open_seats=1
    )
    view = translate.view_to_proto(await clocked.referee.get_view(created.game_id, None))
    assert view.table.status == table_pb2.TABLE_STATUS_OPEN
    assert [seat.deadline_unix_ms for seat in view.table.seats] == [0, 0, 0, 0]
    assert {seat.bank_ms for seat in view.table.seats} == {60_000}


async def test_a_table_without_a_clock_shows_none(clocked: Clocked) -> None:
    created = await clocked.referee.create_game(
        "pinched", 2, {}, allow_spectators=True, seed=b"none"
    )
    view = translate.view_to_proto(await clocked.referee.get_view(created.game_id, None))
    assert not view.table.HasField("clock")
    assert {seat.deadline_unix_ms for seat in view.table.seats} == {0}
    assert await clocked.index.pending() == 0


async def test_clients_may_not_send_the_referees_move_ids(clocked: Clocked) -> None:
    game_id, tokens = await create(clocked, "pinched", 2, ClockSpec(move_seconds=5))
    table = await load_table(clocked.referee.store, game_id)
    seat = min(table.awaited(table.state))
    move = table.game.default_move(table.state, seat)
    for move_id in ("~clock:0:0", "~bot:0:0", "~"):
        with pytest.raises(BadRequest) as caught:
            await clocked.referee.submit_move(game_id, tokens[seat], "pinched", move, move_id, None)
        assert caught.value.reason == "MOVE_ID_INVALID"
    assert (await load_table(clocked.referee.store, game_id)).version == 0


@pytest.mark.parametrize(
    "clock",
    [
        table_pb2.Clock(),
        table_pb2.Clock(move_seconds=365 * 24 * 3600),
        table_pb2.Clock(bank_seconds=365 * 24 * 3600),
    ],
    ids=["zero", "a-year-per-move", "a-year-bank"],
)
async def test_create_game_refuses_a_clock_of_0_or_a_year_and_stores_nothing(
    stub: Stub, raw_redis: Redis, clock: table_pb2.Clock
) -> None:
    before = await raw_redis.dbsize()
    request = referee_pb2.CreateGameRequest(
        game="gang_of_four", seats=4, options=game_pb2.TableOptions(clock=clock)
    )
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.CreateGame(request)
    assert reason_of(caught.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "CLOCK_INVALID")
    assert await raw_redis.dbsize() == before


async def test_a_clocked_game_over_grpc_shows_its_clock(stub: Stub) -> None:
    request = referee_pb2.CreateGameRequest(
        game="pinched",
        seats=2,
        allow_spectators=True,
        options=game_pb2.TableOptions(clock=table_pb2.Clock(move_seconds=60)),
    )
    created = await stub.CreateGame(request)
    view = (await stub.GetView(referee_pb2.GetViewRequest(game_id=created.game_id))).view
    assert view.table.clock.move_seconds == 60
    assert any(seat.deadline_unix_ms for seat in view.table.seats)
    assert clocks.move_by("~clock:1:0") == table_pb2.MOVE_BY_CLOCK


async def test_watched_updates_carry_the_clocks_getview_shows_at_their_version(
    clocked: Clocked,
) -> None:
    """Deadlines are "visible in every view and pushed on the streams" (issue 17): the
    feed derives each update's clocks from its log entry as the commit stored them."""
    spec = ClockSpec(move_seconds=30, bank_seconds=60, increment_seconds=2)
    game_id, tokens = await create(clocked, "gang_of_four", 4, spec)
    updates = await clocked.referee.watch(game_id, None, None)
    snapshot = await anext(updates)
    assert translate.view_to_proto(snapshot.view).table.seats[0].bank_ms == 60_000
    for number in range(6):
        clocked.time.advance(1_500)
        table = await load_table(clocked.referee.store, game_id)
        (seat,) = table.game.to_act(table.state)
        move = table.game.default_move(table.state, seat)
        await clocked.referee.submit_move(
            game_id, tokens[seat], "gang_of_four", move, f"m{number}", None
        )
        pushed = translate.view_to_proto((await anext(updates)).view)
        read = translate.view_to_proto(await clocked.referee.get_view(game_id, None))
        assert pushed.version == read.version == number + 1
        assert pushed.table == read.table
        assert any(s.deadline_unix_ms for s in pushed.table.seats)
    await updates.aclose()  # type: ignore[attr-defined]
