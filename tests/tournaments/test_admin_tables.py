"""The tournament admin's hand on a no-show (ForfeitTableSeat, ReplaceTableSeatByBot): with
the admin token it forfeits an external participant's seat or hands it to the referee's
bot, and the tournament finishes by itself; anyone else, another game, a bot participant's
seat are refused in types, and a refusal changes nothing at the table. On a real referee
and Redis, gRPC face (the HTTP face is built from the same RPC table)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

import grpc
import pytest

from referee.v1 import (
    referee_pb2,
    referee_pb2_grpc,
    table_pb2,
    tournament_pb2,
    tournament_pb2_grpc,
)
from service.process.server import Running, running
from tests.servers import settings_for
from tests.service.table import reason_of

T = tournament_pb2
HUMAN = "Ann"

if TYPE_CHECKING:
    Stub = tournament_pb2_grpc.TournamentServiceAsyncStub
    Games = referee_pb2_grpc.RefereeServiceAsyncStub


@pytest.fixture
async def served(redis_url: str, tmp_path: Path) -> AsyncIterator[Running]:
    """A referee whose deadline firer runs (it plays a forfeited seat and a bot seat), its
    bots moving at once."""
    settings = dataclasses.replace(
        settings_for(redis_url, tmp_path), deadline_firer=True, bot_move_delay_ms=0
    )
    async with running(settings) as handle:
        yield handle


@pytest.fixture
async def channel(served: Running) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(served.address) as opened:
        yield opened


def _auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


@dataclasses.dataclass
class Started:
    tournament_id: str
    admin: str
    participant: str  # the human's participant token
    game_id: str
    human_seat: int


async def _started(stub: Stub) -> Started:
    """Pinched!, one round, one 2-seat table: a human who claimed and never moves, a bot."""
    created = await stub.CreateTournament(
        T.CreateTournamentRequest(
            game="pinched",
            seats_per_table=2,
            participants=[
                T.ParticipantSpec(name=HUMAN),
                T.ParticipantSpec(name="bot", bot=T.BOT_STRATEGY_RANDOM),
            ],
            format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
            rounds=1,
        )
    )
    claimed = await stub.ClaimSeat(T.ClaimSeatRequest(code=created.seat_codes[0].code))
    tid = created.tournament_id
    await stub.StartTournament(
        T.StartTournamentRequest(tournament_id=tid), metadata=_auth(created.admin_token)
    )
    async with asyncio.timeout(30):
        async for update in stub.WatchTournament(T.WatchTournamentRequest(tournament_id=tid)):
            rounds = update.tournament.round_results
            if rounds and rounds[0].tables[0].game_id:
                table = rounds[0].tables[0]
                break
    seat = list(table.participants).index(0)
    return Started(tid, created.admin_token, claimed.participant_token, table.game_id, seat)


async def _finished(stub: Stub, tournament_id: str) -> T.Tournament:
    last = None
    async with asyncio.timeout(90):  # nobody moves for the human: the admin's hand does
        async for update in stub.WatchTournament(
            T.WatchTournamentRequest(tournament_id=tournament_id)
        ):
            last = update.tournament
    assert last is not None and last.status == T.TOURNAMENT_STATUS_FINISHED
    return last


async def _table(games: Games, game_id: str) -> tuple[table_pb2.Table, int]:
    """The table as everyone sees it, and how many table actions it has had."""
    view = (await games.GetView(referee_pb2.GetViewRequest(game_id=game_id))).view
    history = await games.GetHistory(referee_pb2.GetHistoryRequest(game_id=game_id))
    return view.table, len(history.actions)


async def _hosting(games: Games, game_id: str) -> tuple[table_pb2.Table, int]:
    """`_table` without who is present: what a table action changes (presence comes and
    goes with the streams, here the bots' as they start)."""
    table, actions = await _table(games, game_id)
    for seat in table.seats:
        seat.present = False
    return table, actions


async def _refused(call: object, request: object, token: str | None) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call(request, metadata=_auth(token) if token else None)  # type: ignore[operator]
    code, reason, _ = reason_of(caught.value)
    return code, reason


async def test_the_admin_forfeits_a_no_show_and_every_other_caller_is_refused(
    channel: grpc.aio.Channel,
) -> None:
    stub: Stub = tournament_pb2_grpc.TournamentServiceStub(channel)
    games: Games = referee_pb2_grpc.RefereeServiceStub(channel)
    started = await _started(stub)
    before = await _hosting(games, started.game_id)
    bot_seat = 1 - started.human_seat
    forfeit = stub.ForfeitTableSeat

    def ask(
        game_id: str = started.game_id, seat: int = started.human_seat
    ) -> T.ForfeitTableSeatRequest:
        return T.ForfeitTableSeatRequest(
            tournament_id=started.tournament_id, game_id=game_id, seat=seat
        )

    assert await _refused(forfeit, ask(), None) == (
        grpc.StatusCode.UNAUTHENTICATED,
        "TOKEN_MISSING",
    )
    assert await _refused(forfeit, ask(), "t1.forged") == (
        grpc.StatusCode.UNAUTHENTICATED,
        "TOKEN_INVALID",
    )
    assert await _refused(forfeit, ask(), started.participant) == (
        grpc.StatusCode.PERMISSION_DENIED,
        "ADMIN_TOKEN_REQUIRED",
    )
    other = await games.CreateGame(referee_pb2.CreateGameRequest(game="pinched", seats=2))
    assert await _refused(forfeit, ask(game_id=other.game_id), started.admin) == (
        grpc.StatusCode.NOT_FOUND,
        "TABLE_NOT_IN_TOURNAMENT",
    )
    assert await _refused(forfeit, ask(seat=bot_seat), started.admin) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "SEAT_PLAYED_BY_BOT",
    )
    assert await _refused(forfeit, ask(seat=2), started.admin) == (
        grpc.StatusCode.PERMISSION_DENIED,
        "SEAT_NOT_AT_TABLE",
    )
    assert await _hosting(games, started.game_id) == before  # no refusal changed the table
    answer = await forfeit(ask(), metadata=_auth(started.admin))
    assert answer.table.seats[started.human_seat].forfeited
    assert await _refused(forfeit, ask(), started.admin) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "SEAT_FORFEITED",
    )
    final = await _finished(stub, started.tournament_id)
    assert [standing.name for standing in final.final_ranking] == ["bot", HUMAN]
    (table,) = final.round_results[0].tables
    assert table.results[started.human_seat].place == 2


async def test_a_no_show_shows_away_then_the_admin_hands_it_to_a_bot_and_its_token_is_spent(
    channel: grpc.aio.Channel,
) -> None:
    stub: Stub = tournament_pb2_grpc.TournamentServiceStub(channel)
    games: Games = referee_pb2_grpc.RefereeServiceStub(channel)
    started = await _started(stub)
    mine = await stub.GetTournament(
        T.GetTournamentRequest(tournament_id=started.tournament_id),
        metadata=_auth(started.participant),
    )
    (seat_token,) = mine.tournament.round_results[0].tables[0].seat_tokens
    # A person sits at this table, so it shows whether they are there: away until a
    # stream of their seat is open, then present (the admin sees who is a no-show).
    table, _ = await _table(games, started.game_id)
    assert not table.seats[started.human_seat].present
    watch = games.WatchGame(
        referee_pb2.WatchGameRequest(game_id=started.game_id), metadata=_auth(seat_token.token)
    )
    async with asyncio.timeout(15):
        async for update in watch:
            if update.view.table.seats[started.human_seat].present:
                break
    watch.cancel()
    request = T.ReplaceTableSeatByBotRequest(
        tournament_id=started.tournament_id,
        game_id=started.game_id,
        seat=started.human_seat,
        bot=T.BOT_STRATEGY_HEURISTIC,
    )
    assert await _refused(stub.ReplaceTableSeatByBot, request, started.participant) == (
        grpc.StatusCode.PERMISSION_DENIED,
        "ADMIN_TOKEN_REQUIRED",
    )
    answer = await stub.ReplaceTableSeatByBot(request, metadata=_auth(started.admin))
    seat = answer.table.seats[started.human_seat]
    assert (seat.holder, seat.name) == (table_pb2.SEAT_HOLDER_BOT, HUMAN)
    assert await _refused(stub.ReplaceTableSeatByBot, request, started.admin) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "SEAT_ALREADY_BOT",
    )
    assert await _refused(
        games.GetView, referee_pb2.GetViewRequest(game_id=started.game_id), seat_token.token
    ) == (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_REVOKED")
    final = await _finished(stub, started.tournament_id)
    assert HUMAN in [standing.name for standing in final.final_ranking]
    assert all(table.finished for table in final.round_results[0].tables)
