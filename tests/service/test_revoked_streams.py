"""A stream opened with a seat token ends when that token is revoked (the seat's token
reissued, its player gone, its seat handed to a bot, a tournament's by its admin too):
UNAUTHENTICATED TOKEN_REVOKED, as every call of that token is from then on. Left open, it
would go on showing the seat's hidden cards to whoever holds the old token (the next
person to take the seat's), and hold the seat present for a player who is no longer
there."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from referee.v1 import (
    lobby_pb2,
    lobby_pb2_grpc,
    referee_pb2,
    referee_pb2_grpc,
    table_pb2,
    tournament_pb2,
    tournament_pb2_grpc,
)
from service.process.server import running
from tests.servers import settings_for
from tests.service.table import COLOURS, auth, reason_of, take
from tests.tournaments.test_admin_tables import _started

WAIT = 10  # seconds: the stream must end (or a push come) well within this

R = referee_pb2
L = lobby_pb2
T = tournament_pb2
BOT = table_pb2.SEAT_HOLDER_BOT


@pytest.fixture
async def channel(redis_url: str, tmp_path: Path) -> AsyncIterator[grpc.aio.Channel]:
    async with (
        running(settings_for(redis_url, tmp_path)) as handle,
        grpc.aio.insecure_channel(handle.address) as opened,
    ):
        yield opened


async def _read_all(stream: Any, seen: list[Any]) -> None:
    async with asyncio.timeout(WAIT):
        while (message := await stream.read()) is not grpc.aio.EOF:  # type: ignore[attr-defined]
            seen.append(message)


async def _until_revoked(stream: Any) -> list[Any]:
    """Every message the stream sends before it ends, which it must do TOKEN_REVOKED."""
    seen: list[Any] = []
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await _read_all(stream, seen)
    assert reason_of(caught.value)[:2] == (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_REVOKED")
    return seen


async def test_a_leavers_watch_ends_before_it_shows_the_next_holder_of_the_seat(
    channel: grpc.aio.Channel,
) -> None:
    games: Any = referee_pb2_grpc.RefereeServiceStub(channel)
    lobby: Any = lobby_pb2_grpc.LobbyServiceStub(channel)
    created = await games.CreateGame(
        R.CreateGameRequest(game="the_gang", seats=3, open_seats=2, listed=True)
    )
    gid = created.game_id
    cy = await lobby.JoinGame(L.JoinGameRequest(game_id=gid, display_name="Cy"))
    watch = games.WatchGame(R.WatchGameRequest(game_id=gid), metadata=auth(cy.seat_token))
    assert (await asyncio.wait_for(watch.read(), WAIT)).view.seat == cy.seat
    await lobby.LeaveGame(L.LeaveGameRequest(game_id=gid), metadata=auth(cy.seat_token))
    di = await lobby.JoinGame(L.JoinGameRequest(game_id=gid, display_name="Di"))
    assert di.seat == cy.seat  # Di's pocket is the seat's now
    await lobby.JoinGame(L.JoinGameRequest(game_id=gid, display_name="Ed"))  # it starts
    first = created.seat_tokens[0].token
    await games.SubmitMove(
        R.SubmitMoveRequest(game_id=gid, move=take(COLOURS[0], 1), client_move_id="m1"),
        metadata=auth(first),
    )
    seen = await _until_revoked(watch)
    assert all(m.version == 0 and m.view.table.seats[cy.seat].name == "Cy" for m in seen)


async def test_a_play_stream_of_a_reissued_token_ends_and_its_seat_is_away(
    channel: grpc.aio.Channel,
) -> None:
    games: Any = referee_pb2_grpc.RefereeServiceStub(channel)
    lobby: Any = lobby_pb2_grpc.LobbyServiceStub(channel)
    created = await games.CreateGame(R.CreateGameRequest(game="the_gang", seats=3, listed=True))
    gid, old = created.game_id, created.seat_tokens[0].token
    play = games.Play(None, metadata=auth(old))
    await play.write(R.PlayRequest(join=R.PlayRequest.Join(game_id=gid)))
    other = games.WatchGame(
        R.WatchGameRequest(game_id=gid), metadata=auth(created.seat_tokens[1].token)
    )
    async with asyncio.timeout(WAIT):  # seat 0's Play stream holds its presence
        while not (await other.read()).view.table.seats[0].present:
            pass
    await lobby.ReissueSeatToken(
        L.ReissueSeatTokenRequest(game_id=gid, seat=0), metadata=auth(created.admin_token)
    )
    seen = await _until_revoked(play)
    assert all(m.update.version == 0 for m in seen if m.HasField("update"))
    async with asyncio.timeout(WAIT):  # the old token holds the seat present no more
        while (await other.read()).view.table.seats[0].present:
            pass
    other.cancel()


async def test_a_participants_watch_ends_when_the_tournament_admin_hands_the_seat_to_a_bot(
    channel: grpc.aio.Channel,
) -> None:
    games: Any = referee_pb2_grpc.RefereeServiceStub(channel)
    tournaments: Any = tournament_pb2_grpc.TournamentServiceStub(channel)
    started = await _started(tournaments)
    mine = await tournaments.GetTournament(
        T.GetTournamentRequest(tournament_id=started.tournament_id),
        metadata=auth(started.participant),
    )
    (seat_token,) = mine.tournament.round_results[0].tables[0].seat_tokens
    watch = games.WatchGame(
        R.WatchGameRequest(game_id=started.game_id), metadata=auth(seat_token.token)
    )
    assert (await asyncio.wait_for(watch.read(), WAIT)).view.seat == started.human_seat
    await tournaments.ReplaceTableSeatByBot(
        T.ReplaceTableSeatByBotRequest(
            tournament_id=started.tournament_id, game_id=started.game_id, seat=started.human_seat
        ),
        metadata=auth(started.admin),
    )
    seen = await _until_revoked(watch)
    assert all(m.view.table.seats[started.human_seat].holder != BOT for m in seen)
