"""The Python clients' lobby calls against a real referee: open tables, joins by code and
by game id, the listing's pager, the admin controls, typed refusals, and which calls are
sent again after a transport failure (list_games yes; join_game on UNAVAILABLE only, never
on DEADLINE_EXCEEDED)."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from typing import Any

import grpc
import grpc.aio
import pytest

from referee.client import (
    AsyncRefereeClient,
    Backoff,
    DeadlineExceeded,
    GameNotFound,
    IllegalMove,
    InvalidArgument,
    PermissionDenied,
    RefereeClient,
    Retry,
    Unauthenticated,
    Unavailable,
)
from referee.client.calls import create_request
from referee.v1 import referee_pb2, table_pb2, tournament_pb2
from service.process.server import Running
from tests.clients.python_client_faults import AsyncTries, _method, lost_answer

T = table_pb2
QUICK = Retry(attempts=3, backoff=Backoff(initial=0.01, maximum=0.05))


async def open_table(client: AsyncRefereeClient, game: str = "pinched") -> Any:
    created = await client.create_game(
        game, 4, open_seats=2, names=["Ada", "Bo"], listed=True, seed=b"lobby-client"
    )
    assert created.admin_token and created.join_code and len(created.seat_tokens) == 2
    assert [s.name for s in created.table.seats] == ["Ada", "Bo", "", ""]
    return created


async def test_the_async_client_hosts_a_table(referee_server: Running) -> None:
    async with AsyncRefereeClient(referee_server.address) as client:
        created = await open_table(client)
        gid, admin = created.game_id, created.admin_token
        first = await client.join_game(join_code=created.join_code, display_name="Cy")
        assert first.game_id == gid and first.seat == 2
        assert first.table.status == T.TABLE_STATUS_OPEN
        newer = await open_table(client)
        # Newest first, a page of one at a time: the newer table, then this one (the listing
        # is the whole session's, so stop there: each page is a ListGames call).
        listed: list[Any] = []
        async for game in client.iter_games("pinched", T.TABLE_STATUS_OPEN, page_size=1):
            listed.append(game)
            if game.game_id == gid or len(listed) == 6:
                break
        ids = [g.game_id for g in listed]
        assert gid in ids and newer.game_id in ids and ids.index(newer.game_id) < ids.index(gid)
        mine = listed[-1]
        assert mine.seats_taken == 3 and list(mine.names) == ["Ada", "Bo", "Cy", ""]
        with pytest.raises(PermissionDenied) as denied:
            await client.start_game(gid, first.seat_token)
        assert denied.value.reason == "ADMIN_TOKEN_REQUIRED"
        table = await client.start_game(gid, admin, tournament_pb2.BOT_STRATEGY_RANDOM)
        assert table.status == T.TABLE_STATUS_LIVE
        assert table.seats[3].holder == T.SEAT_HOLDER_BOT
        reissued = await client.reissue_seat_token(gid, admin, 2)
        assert reissued.seat == 2 and reissued.seat_token != first.seat_token
        with pytest.raises(Unauthenticated) as revoked:
            await client.seat(gid, first.seat_token).view()
        assert revoked.value.reason == "TOKEN_REVOKED"
        forfeited = await client.forfeit_seat(gid, reissued.seat_token, 2)
        assert forfeited.seats[2].forfeited
        replaced = await client.replace_seat_by_bot(gid, admin, 1)
        assert replaced.seats[1].holder == T.SEAT_HOLDER_BOT
        aborted = await client.abort_game(gid, admin)
        assert aborted.status == T.TABLE_STATUS_ABORTED
        with pytest.raises(IllegalMove) as again:
            await client.abort_game(gid, admin)
        assert again.value.reason == "GAME_ABORTED"
        listed_after = await client.list_games("pinched", page_size=200)
        assert gid not in {g.game_id for g in listed_after.games}


async def test_the_sync_client_hosts_a_table(referee_server: Running) -> None:
    def host() -> None:
        with RefereeClient(referee_server.address) as client:
            created = client.create_game("gang_of_four", 4, open_seats=1, listed=False)
            gid = created.game_id
            with pytest.raises(PermissionDenied) as unlisted:
                client.join_game(game_id=gid, display_name="Cy")
            assert unlisted.value.reason == "TABLE_NOT_LISTED"
            with pytest.raises(GameNotFound) as unknown:
                client.join_game(join_code="ZZZZ-ZZZZ", display_name="Cy")
            assert unknown.value.reason == "JOIN_CODE_INVALID"
            with pytest.raises(InvalidArgument) as bad_name:
                client.join_game(join_code=created.join_code, display_name="x" * 10_000)
            assert bad_name.value.reason == "NAME_INVALID"
            joined = client.join_game(join_code=created.join_code, display_name="Cy")
            assert joined.table.status == T.TABLE_STATUS_LIVE  # the last open seat
            assert client.seat(gid, joined.seat_token).view().table.seats[3].name == "Cy"
            assert client.abort_game(gid, created.admin_token).status == T.TABLE_STATUS_ABORTED
            second = client.create_game("gang_of_four", 4, open_seats=2, listed=True)
            other = client.join_game(game_id=second.game_id, display_name="Di")
            left = client.leave_game(second.game_id, other.seat_token)
            assert left.seats[other.seat].holder == T.SEAT_HOLDER_UNSPECIFIED  # open
            pages = list(itertools.islice(client.iter_games("gang_of_four", page_size=2), 6))
            assert second.game_id in {g.game_id for g in pages}
            assert len(pages) == len({g.game_id for g in pages})
            table = client.start_game(second.game_id, second.admin_token)
            assert table.status == T.TABLE_STATUS_LIVE
            new = client.reissue_seat_token(second.game_id, second.admin_token, 0)
            assert client.seat(second.game_id, new.seat_token).view().seat == 0

    await asyncio.to_thread(host)


class FailFirst(grpc.aio.UnaryUnaryClientInterceptor):  # type: ignore[type-arg]  # generic in stubs only
    """Fails the first try of ``method`` with ``code``: before it is sent (``sent`` False,
    the referee never saw it) or after the referee answered (``sent`` True: a lost answer);
    counts every try."""

    def __init__(self, method: str, code: grpc.StatusCode, *, sent: bool) -> None:
        self.method, self.code, self.sent = method, code, sent
        self.tries = 0

    async def intercept_unary_unary(
        self,
        continuation: Callable[[grpc.aio.ClientCallDetails, Any], Any],
        client_call_details: grpc.aio.ClientCallDetails,
        request: Any,
    ) -> Any:
        if _method(client_call_details) != self.method:
            return await continuation(client_call_details, request)
        self.tries += 1
        if self.tries > 1:
            return await continuation(client_call_details, request)
        if self.sent:
            await (await continuation(client_call_details, request))
        raise lost_answer(self.code)


async def test_a_join_is_not_sent_again_after_a_deadline(referee_server: Running) -> None:
    lose = FailFirst("JoinGame", grpc.StatusCode.DEADLINE_EXCEEDED, sent=True)
    async with (
        AsyncRefereeClient(referee_server.address) as direct,
        AsyncRefereeClient(referee_server.address, retry=QUICK, interceptors=[lose]) as client,
    ):
        created = await open_table(direct)
        with pytest.raises(DeadlineExceeded):
            await client.join_game(join_code=created.join_code, display_name="Cy")
        assert lose.tries == 1
        view = await direct.seat(created.game_id, created.admin_token).view()
        assert [s.name for s in view.table.seats] == ["Ada", "Bo", "Cy", ""]  # joined once


async def test_a_join_the_referee_never_saw_is_sent_again(referee_server: Running) -> None:
    cut = FailFirst("JoinGame", grpc.StatusCode.UNAVAILABLE, sent=False)
    async with (
        AsyncRefereeClient(referee_server.address) as direct,
        AsyncRefereeClient(referee_server.address, retry=QUICK, interceptors=[cut]) as client,
    ):
        created = await open_table(direct)
        joined = await client.join_game(join_code=created.join_code, display_name="Cy")
        assert cut.tries == 2 and joined.seat == 2


async def test_a_listing_page_is_read_again_after_a_lost_answer(referee_server: Running) -> None:
    tries = AsyncTries()
    async with (
        AsyncRefereeClient(referee_server.address) as direct,
        AsyncRefereeClient(referee_server.address, retry=QUICK, interceptors=[tries]) as client,
    ):
        created = await open_table(direct, game="the_gang")
        tries.lose["ListGames"] = 2
        page = await client.list_games("the_gang", T.TABLE_STATUS_OPEN, page_size=200)
        assert created.game_id in {g.game_id for g in page.games}
        assert tries.tries["ListGames"] == 3
        tries.lose["StartGame"] = 1
        with pytest.raises(Unavailable):  # a change is not sent again by default...
            await client.start_game(created.game_id, created.admin_token)
        assert tries.tries["StartGame"] == 1
        with pytest.raises(IllegalMove) as again:  # ...since one that landed is done
            await client.start_game(created.game_id, created.admin_token)
        assert again.value.reason == "GAME_ALREADY_STARTED"


def test_create_request_carries_the_lobby_fields() -> None:
    request = create_request("pinched", 4, None, False, None, 2, ["Ada"], True)
    assert request == referee_pb2.CreateGameRequest(
        game="pinched", seats=4, open_seats=2, names=["Ada"], listed=True
    )
