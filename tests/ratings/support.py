"""Playing rated tables through the referee's gRPC face, for the rating tests."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import grpc

from referee.v1 import lobby_pb2, lobby_pb2_grpc, referee_pb2, referee_pb2_grpc

OPERATOR_SECRET = "0123456789abcdef0123"
OPERATOR_KEYS = f"lab {OPERATOR_SECRET}"
KEY = (("x-referee-key", OPERATOR_SECRET),)
GAME = "pinched"


@contextlib.asynccontextmanager
async def channel(address: str) -> AsyncIterator[grpc.aio.Channel]:
    async with grpc.aio.insecure_channel(address) as opened:
        yield opened


async def seated_rated_table(address: str, players: list[str]) -> tuple[str, list[str]]:
    """A rated Pinched! table of ``players`` (their ids, also their names), joined by its
    join code with the operator's key (which vouches for a rated seat's player id): its id
    and the seats' tokens."""
    async with channel(address) as opened:
        referee = referee_pb2_grpc.RefereeServiceStub(opened)
        lobby = lobby_pb2_grpc.LobbyServiceStub(opened)
        seats = len(players)
        created = await referee.CreateGame(
            referee_pb2.CreateGameRequest(game=GAME, seats=seats, open_seats=seats, rated=True),
            metadata=KEY,
        )
        assert created.table.rated
        tokens = []
        for player_id in players:
            request = lobby_pb2.JoinGameRequest(
                join_code=created.join_code, display_name=player_id, player_id=player_id
            )
            tokens.append((await lobby.JoinGame(request, metadata=KEY)).seat_token)
        return created.game_id, tokens


async def play_first_moves(address: str, game_id: str, tokens: list[str]) -> bool:
    """Each seat to act plays its first legal move until the game ends (True), or until a
    move gets no answer because its referee died (False: the move that finished the game,
    whose process died at its failpoint)."""
    async with channel(address) as opened:
        stub = referee_pb2_grpc.RefereeServiceStub(opened)
        for _ in range(1000):
            for token in tokens:
                auth = (("authorization", f"Bearer {token}"),)
                try:
                    legal = await stub.ListLegalMoves(
                        referee_pb2.ListLegalMovesRequest(game_id=game_id), metadata=auth
                    )
                    if not legal.moves:
                        continue
                    request = referee_pb2.SubmitMoveRequest(
                        game_id=game_id, move=legal.moves[0], client_move_id=f"m{legal.version}"
                    )
                    answer = await stub.SubmitMove(request, metadata=auth)
                except grpc.aio.AioRpcError as error:
                    if error.code() != grpc.StatusCode.UNAVAILABLE:
                        raise
                    return False
                if answer.view.HasField("outcome"):
                    return True
    raise AssertionError("the game never ended")
