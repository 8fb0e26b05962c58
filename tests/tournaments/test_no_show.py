"""A tournament with a human who never moves finishes by itself (issue 17, "Done when"):
the tournament's clock plays the human's seat, its no-show policy hands the seat to a bot
(The Gang) or forfeits it (Gang of Four, Pinched!: placed last at its table), the clock's
moves are in the table's history, and the history verifies."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest

from referee.client import AsyncRefereeClient
from referee.client.calls import gathered_history
from referee.v1 import referee_pb2, table_pb2, tournament_pb2, tournament_pb2_grpc
from service.edge.verify import verify_history
from service.process.server import Running, running
from tests.servers import settings_for

T = tournament_pb2
# (game, the human seat's policy after two clock moves in a row, what then plays it)
GAMES = [
    ("the_gang", table_pb2.NO_SHOW_FORFEIT, table_pb2.MOVE_BY_BOT),  # no forfeit: a bot
    ("gang_of_four", table_pb2.NO_SHOW_FORFEIT, table_pb2.MOVE_BY_CLOCK),
    ("pinched", table_pb2.NO_SHOW_BOT, table_pb2.MOVE_BY_BOT),
]
HUMAN = "Ann"


@pytest.fixture
async def clocked_server(redis_url: str, tmp_path: Path) -> AsyncIterator[Running]:
    """A referee whose deadline firer runs, as every `referee serve` does; its bots (the
    seats the no-show policy hands over) move at once."""
    settings = dataclasses.replace(
        settings_for(redis_url, tmp_path), deadline_firer=True, bot_move_delay_ms=0
    )
    async with running(settings) as handle:
        yield handle


@pytest.fixture
async def tournaments(
    clocked_server: Running,
) -> AsyncIterator[tournament_pb2_grpc.TournamentServiceAsyncStub]:
    async with grpc.aio.insecure_channel(clocked_server.address) as channel:
        yield tournament_pb2_grpc.TournamentServiceStub(channel)


async def _played(
    stub: tournament_pb2_grpc.TournamentServiceAsyncStub,
    game: str,
    no_show: table_pb2.NoShow.ValueType,
) -> T.Tournament:
    """One round, one 4-seat table: three heuristic bots and a human who never shows up."""
    created = await stub.CreateTournament(
        T.CreateTournamentRequest(
            game=game,
            seats_per_table=4,
            participants=[T.ParticipantSpec(name=HUMAN)]
            + [T.ParticipantSpec(name=f"bot {i}", bot=T.BOT_STRATEGY_HEURISTIC) for i in (1, 2, 3)],
            format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
            rounds=1,
            clock=table_pb2.Clock(move_seconds=1, no_show_after=2, no_show=no_show),
        )
    )
    assert created.tournament.clock.no_show_after == 2
    auth = (("authorization", f"Bearer {created.admin_token}"),)
    await stub.StartTournament(
        T.StartTournamentRequest(tournament_id=created.tournament_id), metadata=auth
    )
    last = None
    async with asyncio.timeout(90):  # no call after the start: the clock unblocks the table
        async for update in stub.WatchTournament(
            T.WatchTournamentRequest(tournament_id=created.tournament_id)
        ):
            last = update.tournament
    assert last is not None and last.status == T.TOURNAMENT_STATUS_FINISHED
    return last


@pytest.mark.parametrize(("game", "no_show", "then"), GAMES)
async def test_a_tournament_with_a_human_who_never_moves_finishes_by_itself(
    clocked_server: Running,
    tournaments: tournament_pb2_grpc.TournamentServiceAsyncStub,
    game: str,
    no_show: table_pb2.NoShow.ValueType,
    then: table_pb2.MoveBy.ValueType,
) -> None:
    final = await _played(tournaments, game, no_show)
    (table,) = final.round_results[0].tables
    seat = list(table.participants).index(0)  # the human's seat at the table
    async with AsyncRefereeClient(clocked_server.address) as client:
        history = await gathered_history(client.stub.GetHistory, table.game_id)
        view = await client.stub.GetView(referee_pb2.GetViewRequest(game_id=table.game_id))
    marks = [entry.by for entry in history.entries if entry.seat == seat]
    clock_moves = marks.index(then) if then == table_pb2.MOVE_BY_BOT else len(marks)
    assert marks[:2] == [table_pb2.MOVE_BY_CLOCK] * 2, "two clock moves, then the policy"
    assert set(marks[:clock_moves]) == {table_pb2.MOVE_BY_CLOCK}
    assert set(marks[clock_moves:]) <= {then}
    # The bots play through the API; one late on a busy machine may get a clock move (a
    # default move, which verify_history checks), but never the no-show policy.
    others = {entry.by for entry in history.entries if entry.seat != seat}
    assert table_pb2.MOVE_BY_UNSPECIFIED in others
    assert others <= {table_pb2.MOVE_BY_UNSPECIFIED, table_pb2.MOVE_BY_CLOCK}
    bots = [held for held in view.view.table.seats if held.seat != seat]
    assert all(b.holder == table_pb2.SEAT_HOLDER_PLAYER and not b.forfeited for b in bots)
    report = verify_history(history)
    assert report.ok, str(report)
    human = view.view.table.seats[seat]
    assert human.name == HUMAN
    if game == "gang_of_four":  # forfeited: last at the table, in the standings too
        assert human.forfeited
        assert view.view.outcome.placings[seat] == max(view.view.outcome.placings)
        assert seat not in view.view.outcome.winners
        ranking = [standing.name for standing in final.final_ranking]
        assert ranking[-1] == HUMAN
    else:
        assert human.holder == table_pb2.SEAT_HOLDER_BOT and not human.forfeited
