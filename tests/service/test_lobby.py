"""The lobby (LobbyService) end to end on a real referee: open seats, join codes, names,
the listing, token generations, the admin controls, and every refusal typed and changing
nothing stored."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import grpc
import msgspec
import pytest
from redis.asyncio import Redis

from referee.v1 import (
    game_pb2,
    lobby_pb2,
    lobby_pb2_grpc,
    referee_pb2,
    referee_pb2_grpc,
    table_pb2,
    the_gang_pb2,
)
from service.domain import hosting
from service.errors import QuotaExceeded, Unauthenticated
from service.process.server import Running, running
from service.storage.store import RedisStore
from tests.servers import settings_for
from tests.service.table import auth, reason_of, take
from tests.store.test_store_commit import snapshot

C = grpc.StatusCode
L = lobby_pb2
T = table_pb2


@dataclasses.dataclass
class Stubs:
    referee: Any
    lobby: Any
    server: Running


@pytest.fixture
async def stubs(redis_url: str, tmp_path: Path) -> AsyncIterator[Stubs]:
    settings = dataclasses.replace(
        settings_for(redis_url, tmp_path),
        joins_per_minute=0,
        list_games_per_second=0,
        seat_code_attempts_per_minute=0,  # the bounds have their abuse test
    )
    async with running(settings) as handle, grpc.aio.insecure_channel(handle.address) as channel:
        yield Stubs(
            referee_pb2_grpc.RefereeServiceStub(channel),
            lobby_pb2_grpc.LobbyServiceStub(channel),
            handle,
        )


async def refused(call: Awaitable[Any]) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call
    code, reason, _ = reason_of(caught.value)
    return code, reason


async def create(
    stubs: Stubs, *, open_seats: int = 2, listed: bool = True, game: str = "gang_of_four"
) -> referee_pb2.CreateGameResponse:
    reply: referee_pb2.CreateGameResponse = await stubs.referee.CreateGame(
        referee_pb2.CreateGameRequest(
            game=game,
            seats=4,
            open_seats=open_seats,
            names=["Ada", "Bo"][: 4 - open_seats],
            listed=listed,
            allow_spectators=False,
        )
    )
    return reply


def store_of(stubs: Stubs) -> RedisStore:
    return stubs.server.referee.feed.store


async def test_an_open_table_fills_by_code_and_starts_by_itself(stubs: Stubs) -> None:
    created = await create(stubs)
    assert len(created.seat_tokens) == 2 and created.admin_token and created.join_code
    assert created.join_code_expires_at_unix_ms > 0
    assert created.table.status == T.TABLE_STATUS_OPEN
    assert [s.name for s in created.table.seats] == ["Ada", "Bo", "", ""]
    view = await stubs.referee.GetView(
        referee_pb2.GetViewRequest(game_id=created.game_id),
        metadata=auth(created.seat_tokens[0].token),
    )
    assert view.view.table.status == T.TABLE_STATUS_OPEN
    moves = await stubs.referee.ListLegalMoves(
        referee_pb2.ListLegalMovesRequest(game_id=created.game_id),
        metadata=auth(created.seat_tokens[0].token),
    )
    assert not moves.moves
    first = await stubs.lobby.JoinGame(
        L.JoinGameRequest(join_code=created.join_code.lower(), display_name="Cy", player_id="u-1")
    )
    assert first.seat == 2 and first.table.status == T.TABLE_STATUS_OPEN
    last = await stubs.lobby.JoinGame(L.JoinGameRequest(game_id=created.game_id, display_name="Di"))
    assert last.seat == 3 and last.table.status == T.TABLE_STATUS_LIVE
    assert [s.player_id for s in last.table.seats] == ["", "", "u-1", ""]
    # The code is spent once the table starts.
    assert await refused(
        stubs.lobby.JoinGame(L.JoinGameRequest(join_code=created.join_code, display_name="Ed"))
    ) == (C.NOT_FOUND, "JOIN_CODE_INVALID")
    assert await refused(
        stubs.lobby.JoinGame(L.JoinGameRequest(game_id=created.game_id, display_name="Ed"))
    ) == (C.FAILED_PRECONDITION, "GAME_ALREADY_STARTED")
    history = await stubs.referee.GetHistory(
        referee_pb2.GetHistoryRequest(game_id=created.game_id),
        metadata=auth(created.admin_token),
    )
    kinds = [a.kind for a in history.actions]
    assert kinds == [T.TableAction.KIND_JOINED] * 2 + [T.TableAction.KIND_STARTED]
    assert history.actions[-1].automatic


async def test_a_full_table_is_live_at_once_as_before(stubs: Stubs) -> None:
    created = await create(stubs, open_seats=0, listed=False)
    assert len(created.seat_tokens) == 4 and not created.join_code
    assert created.table.status == T.TABLE_STATUS_LIVE


async def test_moves_wait_for_the_start(stubs: Stubs, raw_redis: Redis) -> None:
    created = await create(stubs, game="the_gang")
    store = store_of(stubs)
    before = await snapshot(raw_redis, store, created.game_id)
    request = referee_pb2.SubmitMoveRequest(
        game_id=created.game_id, move=take(the_gang_pb2.CHIP_COLOUR_WHITE, 1), client_move_id="m1"
    )
    assert await refused(
        stubs.referee.SubmitMove(request, metadata=auth(created.seat_tokens[0].token))
    ) == (C.FAILED_PRECONDITION, "GAME_NOT_STARTED")
    assert await snapshot(raw_redis, store, created.game_id) == before


async def test_the_join_race_seats_exactly_four(stubs: Stubs) -> None:
    created = await create(stubs, open_seats=4)

    async def join(n: int) -> Any:
        try:
            return await stubs.lobby.JoinGame(
                L.JoinGameRequest(join_code=created.join_code, display_name=f"P{n}")
            )
        except grpc.aio.AioRpcError as error:
            return reason_of(error)[:2]

    results = await asyncio.gather(*(join(n) for n in range(50)))
    seated = [r for r in results if isinstance(r, L.JoinGameResponse)]
    refusals = {r for r in results if isinstance(r, tuple)}
    assert sorted(r.seat for r in seated) == [0, 1, 2, 3]
    assert refusals <= {
        (C.NOT_FOUND, "JOIN_CODE_INVALID"),
        (C.FAILED_PRECONDITION, "GAME_ALREADY_STARTED"),
        (C.FAILED_PRECONDITION, "TABLE_FULL"),
    }
    assert len(seated) + sum(isinstance(r, tuple) for r in results) == 50
    view = await stubs.referee.GetView(
        referee_pb2.GetViewRequest(game_id=created.game_id), metadata=auth(seated[0].seat_token)
    )
    names = {s.name for s in view.view.table.seats}
    assert names == {r.table.seats[r.seat].name for r in seated}
    assert view.view.table.status == T.TABLE_STATUS_LIVE
    listed = await stubs.lobby.ListGames(L.ListGamesRequest(game="gang_of_four", page_size=200))
    mine = [g for g in listed.games if g.game_id == created.game_id]
    assert mine and mine[0].seats_taken == 4 and mine[0].status == T.TABLE_STATUS_LIVE


async def test_bad_joins_are_typed_and_change_nothing(stubs: Stubs, raw_redis: Redis) -> None:
    created = await create(stubs, listed=False)
    store = store_of(stubs)
    before = await snapshot(raw_redis, store, created.game_id)
    code = created.join_code
    cases = [
        (L.JoinGameRequest(join_code=code, display_name="x" * 10_000), "NAME_INVALID"),
        (L.JoinGameRequest(join_code=code, display_name="bad\x07"), "NAME_INVALID"),
        (L.JoinGameRequest(join_code=code, display_name="\u202eevil"), "NAME_INVALID"),
        (L.JoinGameRequest(join_code=code, display_name=" pad"), "NAME_INVALID"),
        (L.JoinGameRequest(join_code=code, display_name=""), "NAME_INVALID"),
        (L.JoinGameRequest(join_code=code, display_name="ok", player_id="\n"), "PLAYER_ID_INVALID"),
        (L.JoinGameRequest(join_code="ZZZZZ-ZZZZZ", display_name="ok"), "JOIN_CODE_INVALID"),
        (L.JoinGameRequest(game_id=created.game_id, display_name="ok"), "TABLE_NOT_LISTED"),
        (L.JoinGameRequest(display_name="ok"), "JOIN_TARGET_INVALID"),
    ]
    for request, reason in cases:
        assert (await refused(stubs.lobby.JoinGame(request)))[1] == reason, request
    assert await snapshot(raw_redis, store, created.game_id) == before
    bad_names = referee_pb2.CreateGameRequest(
        game="gang_of_four", seats=4, open_seats=1, names=["a\x00"]
    )
    assert await refused(stubs.referee.CreateGame(bad_names)) == (
        C.INVALID_ARGUMENT,
        "NAME_INVALID",
    )
    too_open = referee_pb2.CreateGameRequest(game="gang_of_four", seats=4, open_seats=5)
    assert await refused(stubs.referee.CreateGame(too_open)) == (
        C.INVALID_ARGUMENT,
        "OPEN_SEATS_INVALID",
    )


async def test_an_expired_code_is_refused(stubs: Stubs, raw_redis: Redis) -> None:
    created = await create(stubs)
    lobby = stubs.server.referee  # the code's key lives beside the game
    key = await raw_redis.get(f"{lobby.feed.store.keys(created.game_id).game}:joincode")
    assert key is not None and await raw_redis.delete(key) == 1  # as its TTL would
    assert await refused(
        stubs.lobby.JoinGame(L.JoinGameRequest(join_code=created.join_code, display_name="A"))
    ) == (C.NOT_FOUND, "JOIN_CODE_INVALID")


async def test_leave_reopens_the_seat_and_revokes_its_token(stubs: Stubs) -> None:
    created = await create(stubs)
    joined = await stubs.lobby.JoinGame(
        L.JoinGameRequest(join_code=created.join_code, display_name="Cy")
    )
    left = await stubs.lobby.LeaveGame(
        L.LeaveGameRequest(game_id=created.game_id), metadata=auth(joined.seat_token)
    )
    assert left.table.seats[2].holder == T.SEAT_HOLDER_UNSPECIFIED
    assert await refused(
        stubs.referee.GetView(
            referee_pb2.GetViewRequest(game_id=created.game_id), metadata=auth(joined.seat_token)
        )
    ) == (C.UNAUTHENTICATED, "TOKEN_REVOKED")
    again = await stubs.lobby.JoinGame(
        L.JoinGameRequest(join_code=created.join_code, display_name="Dee")
    )
    assert again.seat == 2 and again.seat_token != joined.seat_token


async def test_start_with_bots_and_the_admin_controls(stubs: Stubs) -> None:
    created = await create(stubs)
    gid, admin = created.game_id, auth(created.admin_token)
    seat0 = auth(created.seat_tokens[0].token)
    assert await refused(
        stubs.lobby.StartGame(L.StartGameRequest(game_id=gid), metadata=seat0)
    ) == (
        C.PERMISSION_DENIED,
        "ADMIN_TOKEN_REQUIRED",
    )
    assert await refused(
        stubs.lobby.ForfeitSeat(L.ForfeitSeatRequest(game_id=gid, seat=0), metadata=admin)
    ) == (C.FAILED_PRECONDITION, "GAME_NOT_STARTED")
    started = await stubs.lobby.StartGame(L.StartGameRequest(game_id=gid), metadata=admin)
    assert started.table.status == T.TABLE_STATUS_LIVE
    assert [s.holder for s in started.table.seats[2:]] == [T.SEAT_HOLDER_BOT] * 2
    assert await refused(
        stubs.lobby.ReissueSeatToken(L.ReissueSeatTokenRequest(game_id=gid, seat=2), metadata=admin)
    ) == (C.FAILED_PRECONDITION, "SEAT_NOT_HELD")
    assert await refused(
        stubs.lobby.ReissueSeatToken(L.ReissueSeatTokenRequest(game_id=gid, seat=9), metadata=admin)
    ) == (C.PERMISSION_DENIED, "SEAT_NOT_AT_TABLE")
    other = auth(created.seat_tokens[1].token)
    assert await refused(
        stubs.lobby.ForfeitSeat(L.ForfeitSeatRequest(game_id=gid, seat=0), metadata=other)
    ) == (C.PERMISSION_DENIED, "SEAT_NOT_YOURS")
    gone = await stubs.lobby.ForfeitSeat(L.ForfeitSeatRequest(game_id=gid, seat=1), metadata=other)
    assert gone.table.seats[1].forfeited
    bot = await stubs.lobby.ReplaceSeatByBot(
        L.ReplaceSeatByBotRequest(game_id=gid, seat=0), metadata=admin
    )
    assert bot.table.seats[0].holder == T.SEAT_HOLDER_BOT
    assert await refused(
        stubs.referee.GetView(referee_pb2.GetViewRequest(game_id=gid), metadata=seat0)
    ) == (C.UNAUTHENTICATED, "TOKEN_REVOKED")
    aborted = await stubs.lobby.AbortGame(L.AbortGameRequest(game_id=gid), metadata=admin)
    assert aborted.table.status == T.TABLE_STATUS_ABORTED
    assert await refused(
        stubs.lobby.AbortGame(L.AbortGameRequest(game_id=gid), metadata=admin)
    ) == (
        C.FAILED_PRECONDITION,
        "GAME_ABORTED",
    )
    history = await stubs.referee.GetHistory(
        referee_pb2.GetHistoryRequest(game_id=gid), metadata=admin
    )
    assert history.seed  # public, as for a finished game
    listed = await stubs.lobby.ListGames(L.ListGamesRequest(page_size=200))
    assert gid not in {g.game_id for g in listed.games}


async def test_the_gang_has_no_forfeit(stubs: Stubs) -> None:
    created = await create(stubs, open_seats=0, game="the_gang")
    assert await refused(
        stubs.lobby.ForfeitSeat(
            L.ForfeitSeatRequest(game_id=created.game_id, seat=0),
            metadata=auth(created.admin_token),
        )
    ) == (C.FAILED_PRECONDITION, "FORFEIT_NOT_IN_GAME")


async def test_a_reissued_token_retires_its_predecessor(stubs: Stubs) -> None:
    created = await create(stubs, open_seats=0, game="the_gang")
    gid, old = created.game_id, created.seat_tokens[0].token
    # The admin token watches as a spectator even without allow_spectators; never moves.
    view = await stubs.referee.GetView(
        referee_pb2.GetViewRequest(game_id=gid), metadata=auth(created.admin_token)
    )
    assert not view.view.HasField("seat")
    move = referee_pb2.SubmitMoveRequest(
        game_id=gid, move=take(the_gang_pb2.CHIP_COLOUR_WHITE, 1), client_move_id="a"
    )
    assert await refused(stubs.referee.SubmitMove(move, metadata=auth(created.admin_token))) == (
        C.PERMISSION_DENIED,
        "ADMIN_HOLDS_NO_SEAT",
    )
    # Seat 0's token is cached in the referee by a first move.
    await stubs.referee.SubmitMove(move, metadata=auth(old))
    reissued = await stubs.lobby.ReissueSeatToken(
        L.ReissueSeatTokenRequest(game_id=gid, seat=0), metadata=auth(created.admin_token)
    )
    nxt = referee_pb2.SubmitMoveRequest(
        game_id=gid, move=take(the_gang_pb2.CHIP_COLOUR_WHITE, 1), client_move_id="b"
    )
    nxt.move.the_gang.return_chip.colour = the_gang_pb2.CHIP_COLOUR_WHITE
    nxt.move.the_gang.return_chip.stars = 1
    assert await refused(stubs.referee.SubmitMove(nxt, metadata=auth(old))) == (
        C.UNAUTHENTICATED,
        "TOKEN_REVOKED",
    )
    done = await stubs.referee.SubmitMove(nxt, metadata=auth(reissued.seat_token))
    assert done.version == 2


async def test_a_move_decided_on_a_cached_record_is_decided_again(
    stubs: Stubs, redis_url: str, tmp_path: Path
) -> None:
    """A reissue on another referee process: this one's cached table still holds the old
    generation, and the commit's host-version check sends the move back to be decided on
    the new record, which refuses the old token."""
    created = await create(stubs, open_seats=0, game="the_gang")
    gid, old = created.game_id, created.seat_tokens[0].token
    referee = stubs.server.referee
    await referee.submit_move(gid, old, "the_gang", _chip(), "a", None)  # caches the table
    other = settings_for(redis_url, tmp_path / "b")
    async with running(other) as second, grpc.aio.insecure_channel(second.address) as channel:
        lobby = lobby_pb2_grpc.LobbyServiceStub(channel)
        await lobby.ReissueSeatToken(
            L.ReissueSeatTokenRequest(game_id=gid, seat=0), metadata=auth(created.admin_token)
        )
    with pytest.raises(Unauthenticated) as caught:
        await referee.submit_move(gid, old, "the_gang", _chip(back=True), "b", None)
    assert getattr(caught.value, "reason", None) == "TOKEN_REVOKED"


def _chip(*, back: bool = False) -> Any:
    from service.edge.translate import move_from_proto

    move = take(the_gang_pb2.CHIP_COLOUR_WHITE, 1)
    if back:
        move = game_pb2.Move()
        move.the_gang.return_chip.colour = the_gang_pb2.CHIP_COLOUR_WHITE
        move.the_gang.return_chip.stars = 1
    return move_from_proto(move)[1]


async def test_listing_pages_newest_first(stubs: Stubs) -> None:
    made = [(await create(stubs, game="pinched")).game_id for _ in range(5)]
    seen: list[str] = []
    token = ""
    while True:
        page = await stubs.lobby.ListGames(
            L.ListGamesRequest(
                game="pinched", status=T.TABLE_STATUS_OPEN, page_size=2, page_token=token
            )
        )
        assert len(page.games) <= 2
        seen += [g.game_id for g in page.games]
        token = page.next_page_token
        if not token:
            break
    assert [g for g in seen if g in made] == list(reversed(made))
    assert len(seen) == len(set(seen))
    assert await refused(stubs.lobby.ListGames(L.ListGamesRequest(game="chess"))) == (
        C.INVALID_ARGUMENT,
        "GAME_UNKNOWN",
    )
    assert await refused(stubs.lobby.ListGames(L.ListGamesRequest(page_token="x"))) == (
        C.INVALID_ARGUMENT,
        "PAGE_TOKEN_INVALID",
    )


async def test_an_expired_table_leaves_the_listing(stubs: Stubs) -> None:
    created = await create(stubs, game="pinched")
    await store_of(stubs).delete(created.game_id)  # as its idle TTL would
    listed = await stubs.lobby.ListGames(L.ListGamesRequest(game="pinched", page_size=200))
    assert created.game_id not in {g.game_id for g in listed.games}


async def next_table(stream: Any, wanted: Callable[[T.Table], bool]) -> Any:
    """The stream's next message whose Table is ``wanted``; the ones before it are
    same-version snapshots (presence pushes, service.storage.feed)."""
    async with asyncio.timeout(10):
        while True:
            message = await stream.read()
            if wanted(message.view.table):
                return message
            assert message.snapshot and message.version == 0


async def test_host_changes_reach_open_streams(stubs: Stubs) -> None:
    created = await create(stubs)
    gid = created.game_id
    stream = stubs.referee.WatchGame(
        referee_pb2.WatchGameRequest(game_id=gid), metadata=auth(created.seat_tokens[0].token)
    )
    first = await stream.read()
    assert first.view.table.status == T.TABLE_STATUS_OPEN
    await stubs.lobby.JoinGame(L.JoinGameRequest(join_code=created.join_code, display_name="Cy"))
    pushed = await next_table(stream, lambda table: table.seats[2].name == "Cy")
    assert pushed.snapshot and pushed.version == 0
    # Presence: seat 0's stream is open, and a lobby table shows it.
    view = await stubs.referee.GetView(
        referee_pb2.GetViewRequest(game_id=gid), metadata=auth(created.seat_tokens[1].token)
    )
    assert view.view.table.seats[0].present and not view.view.table.seats[1].present
    await stubs.lobby.AbortGame(L.AbortGameRequest(game_id=gid), metadata=auth(created.admin_token))
    ended = await next_table(stream, lambda table: table.status == T.TABLE_STATUS_ABORTED)
    assert ended.snapshot
    assert await asyncio.wait_for(stream.read(), 10) is grpc.aio.EOF  # type: ignore[attr-defined]


def test_forfeited_seats_share_the_last_place_and_never_win() -> None:
    from engines.base import Outcome

    outcome = Outcome((0,), "Seat 0 won.", (1, 5, 3, 9), (1, 3, 2, 4), (0, 0, 0, 0))
    adjusted = hosting.adjust_outcome(outcome, frozenset({0, 2}))
    assert adjusted.placings == (3, 1, 3, 2)
    assert adjusted.winners == (1,)
    assert hosting.adjust_outcome(outcome, frozenset()) == outcome
    team = msgspec.structs.replace(outcome, team=True)
    assert hosting.adjust_outcome(team, frozenset({0})) == team


def test_table_actions_are_capped() -> None:
    host = hosting.new_host(4, 2, (), listed=True, created_at=0.0)
    when = hosting.When(0, 0.0, limit=4)
    for _ in range(2):
        host, seat = hosting.join(host, "A", "", dataclasses.replace(when, limit=10**6))
        host = hosting.leave(host, seat, dataclasses.replace(when, limit=10**6))
    with pytest.raises(QuotaExceeded) as caught:
        hosting.join(host, "A", "", when)
    assert getattr(caught.value, "reason", None) == "TABLE_ACTIONS_EXCEEDED"
