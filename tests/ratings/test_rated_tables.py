"""Rated lobby tables through the referee's faces: CreateGame ``rated`` needs an operator key
(always), the table says it is rated, a rated table's JoinGame refuses the referee's own
player ids, and the players' ratings are read on both faces once the game ends."""

from __future__ import annotations

import grpc
import httpx
import pytest

from referee.v1 import (
    lobby_pb2,
    lobby_pb2_grpc,
    ratings_pb2,
    ratings_pb2_grpc,
    referee_pb2,
    referee_pb2_grpc,
)
from service.process.server import Running
from tests.ratings.support import (
    GAME,
    KEY,
    channel,
    play_first_moves,
    seated_rated_table,
)
from tests.service.table import reason_of


async def test_a_rated_table_needs_an_operator_key_even_where_creating_needs_none(
    referee_server: Running, keyed: Running
) -> None:
    """Rule (referee.proto, CreateGameRequest.rated): "Only with an operator key
    (x-referee-key), even where creating games needs none: without one, UNAUTHENTICATED
    OPERATOR_KEY_REQUIRED"."""
    request = referee_pb2.CreateGameRequest(game=GAME, seats=2, rated=True)
    async with channel(referee_server.address) as opened:  # a referee without keys
        stub = referee_pb2_grpc.RefereeServiceStub(opened)
        unrated = await stub.CreateGame(referee_pb2.CreateGameRequest(game=GAME, seats=2))
        assert not unrated.table.rated
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await stub.CreateGame(request)
        code, reason, _ = reason_of(refused.value)
        assert (code, reason) == (grpc.StatusCode.UNAUTHENTICATED, "OPERATOR_KEY_REQUIRED")
    async with channel(keyed.address) as opened:
        rated = await referee_pb2_grpc.RefereeServiceStub(opened).CreateGame(request, metadata=KEY)
        assert rated.table.rated


async def test_a_rated_tables_join_refuses_the_ids_the_referee_rates_under_itself(
    keyed: Running,
) -> None:
    """Rule (rating_math.check_own_player_id): "an operator's player cannot take a bot's or a
    game's rating": a rated table's JoinGame refuses ids starting with ``bot:`` or ``game:``."""
    async with channel(keyed.address) as opened:
        referee = referee_pb2_grpc.RefereeServiceStub(opened)
        lobby = lobby_pb2_grpc.LobbyServiceStub(opened)
        created = await referee.CreateGame(
            referee_pb2.CreateGameRequest(game=GAME, seats=2, open_seats=2, rated=True),
            metadata=KEY,
        )
        for taken in ("bot:search", f"game:{GAME}"):
            request = lobby_pb2.JoinGameRequest(
                join_code=created.join_code, display_name="Mallory", player_id=taken
            )
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await lobby.JoinGame(request)
            code, reason, _ = reason_of(refused.value)
            assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "PLAYER_ID_INVALID")
        joined = await lobby.JoinGame(
            lobby_pb2.JoinGameRequest(
                join_code=created.join_code, display_name="Bo", player_id="bot-fan"
            ),
            metadata=KEY,
        )
        assert joined.table.rated
        assert joined.table.seats[0].player_id == "bot-fan"
        seen = await referee.GetView(
            referee_pb2.GetViewRequest(game_id=created.game_id),
            metadata=(("authorization", f"Bearer {joined.seat_token}"),),
        )
        assert seen.view.table.rated  # every view of the table says so, not only the lobby's


async def test_a_player_id_at_a_rated_table_needs_the_operators_key(keyed: Running) -> None:
    """Rule (lobby.proto, JoinGameRequest.player_id): "At a rated table, only with an
    operator key (x-referee-key) ...: without one, UNAUTHENTICATED OPERATOR_KEY_REQUIRED.
    Without a player_id anyone may join (that seat is not rated)"."""
    async with channel(keyed.address) as opened:
        referee = referee_pb2_grpc.RefereeServiceStub(opened)
        lobby = lobby_pb2_grpc.LobbyServiceStub(opened)
        created = await referee.CreateGame(
            referee_pb2.CreateGameRequest(game=GAME, seats=3, open_seats=3, rated=True),
            metadata=KEY,
        )
        code = created.join_code
        alice = lobby_pb2.JoinGameRequest(join_code=code, display_name="A", player_id="alice")
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await lobby.JoinGame(alice)
        reason = reason_of(refused.value)[:2]
        assert reason == (grpc.StatusCode.UNAUTHENTICATED, "OPERATOR_KEY_REQUIRED")
        vouched = await lobby.JoinGame(alice, metadata=KEY)
        guest = await lobby.JoinGame(lobby_pb2.JoinGameRequest(join_code=code, display_name="G"))
        seats = guest.table.seats
        assert (seats[vouched.seat].player_id, seats[guest.seat].player_id) == ("alice", "")


async def test_a_rated_tables_players_are_rated_and_read_on_both_faces(keyed: Running) -> None:
    """Rule (ratings.proto): a rated table's seats with a player_id are rated when its game
    ends (before the last move is answered, by the process that took it); their rating,
    history and the game's leaderboard are public, on both faces."""
    game_id, tokens = await seated_rated_table(keyed.address, ["ann-1", "ben-1"])
    assert await play_first_moves(keyed.address, game_id, tokens)
    async with channel(keyed.address) as opened:
        ratings = ratings_pb2_grpc.RatingServiceStub(opened)
        found = await ratings.GetRating(ratings_pb2.GetRatingRequest(game=GAME, player_id="ann-1"))
        assert (found.rating.games, found.rating.name) == (1, "ann-1")
        board = await ratings.ListLeaderboard(ratings_pb2.ListLeaderboardRequest(game=GAME))
        ranked = [(e.rank, e.rating.player_id) for e in board.entries]
        assert {"ann-1", "ben-1"} <= {player_id for _, player_id in ranked}
        assert [rank for rank, _ in ranked] == list(range(1, len(ranked) + 1))
    async with httpx.AsyncClient(base_url=keyed.http_url) as http:
        answer = await http.post(
            "/referee.v1.RatingService/ListRatingHistory",
            json={"game": GAME, "playerId": "ben-1"},
        )
        assert answer.status_code == 200, answer.text
        assert [change["gameId"] for change in answer.json()["changes"]] == [game_id]
