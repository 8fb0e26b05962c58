"""ForfeitTableSeat and ReplaceTableSeatByBot with what a hostile caller may hold: another
tournament's admin token or table, the table's own seat token, even its table admin token
(which the referee signs in-process and never hands out): each refused in types, and the
table unchanged."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from referee.v1 import referee_pb2_grpc, tournament_pb2, tournament_pb2_grpc
from service.process.server import Running, running
from tests.servers import settings_for
from tests.tournaments.test_admin_tables import _auth, _hosting, _refused, _started

T = tournament_pb2
C = grpc.StatusCode


@pytest.fixture
async def served(redis_url: str, tmp_path: Path) -> AsyncIterator[Running]:
    settings = dataclasses.replace(settings_for(redis_url, tmp_path), bot_move_delay_ms=0)
    async with running(settings) as handle:
        yield handle


async def test_foreign_tokens_and_tables_are_refused_and_change_nothing(
    served: Running,
) -> None:
    async with grpc.aio.insecure_channel(served.address) as channel:
        await _attack(served, channel)


async def _attack(served: Running, channel: grpc.aio.Channel) -> None:
    stub: Any = tournament_pb2_grpc.TournamentServiceStub(channel)
    games: Any = referee_pb2_grpc.RefereeServiceStub(channel)
    mine, theirs = await _started(stub), await _started(stub)
    before = [await _hosting(games, s.game_id) for s in (mine, theirs)]
    held = await stub.GetTournament(
        T.GetTournamentRequest(tournament_id=mine.tournament_id), metadata=_auth(mine.participant)
    )
    (seat_token,) = held.tournament.round_results[0].tables[0].seat_tokens
    table_admin = served.referee.signer.issue_admin(mine.game_id)

    def ask(tournament_id: str, game_id: str) -> T.ForfeitTableSeatRequest:
        return T.ForfeitTableSeatRequest(
            tournament_id=tournament_id, game_id=game_id, seat=mine.human_seat
        )

    cases = [
        (
            ask(mine.tournament_id, theirs.game_id),
            mine.admin,
            (C.NOT_FOUND, "TABLE_NOT_IN_TOURNAMENT"),
        ),
        (ask(theirs.tournament_id, mine.game_id), mine.admin, (C.UNAUTHENTICATED, "TOKEN_INVALID")),
        (
            ask(theirs.tournament_id, theirs.game_id),
            mine.admin,
            (C.UNAUTHENTICATED, "TOKEN_INVALID"),
        ),
        (
            ask(mine.tournament_id, mine.game_id),
            seat_token.token,
            (C.UNAUTHENTICATED, "TOKEN_INVALID"),
        ),
        (ask(mine.tournament_id, mine.game_id), table_admin, (C.UNAUTHENTICATED, "TOKEN_INVALID")),
    ]
    for request, token, refusal in cases:
        assert await _refused(stub.ForfeitTableSeat, request, token) == refusal
        bot = T.ReplaceTableSeatByBotRequest(
            tournament_id=request.tournament_id, game_id=request.game_id, seat=request.seat
        )
        assert await _refused(stub.ReplaceTableSeatByBot, bot, token) == refusal
    assert [await _hosting(games, s.game_id) for s in (mine, theirs)] == before
