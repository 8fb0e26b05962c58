"""GetHistory in pages: sizes, tokens, heads on every page, and the clients that follow them.

Every page's entries, put together, are exactly the entries a single page of the whole
game holds (moves, events, heads and log entries alike), for seats and spectators, before
and after the end; a token that is not one the referee gave is INVALID_ARGUMENT
PAGE_TOKEN_INVALID and a negative size PAGE_SIZE_INVALID.
"""

from __future__ import annotations

import base64

import grpc
import pytest

from referee.client import AsyncRefereeClient
from referee.client.calls import HistoryPages
from referee.v1 import referee_pb2
from service.app import history
from service.app.history import DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, page_start, page_token
from service.edge.verify import verify_history
from service.errors import BadRequest
from service.process.server import Running
from tests.service.players import play_to_end
from tests.service.table import COLOURS, Stub, Table, reason_of, take

R = referee_pb2
WHITE = COLOURS[0]


async def pages(table: Table, seat: int | None, size: int) -> list[R.GetHistoryResponse]:
    found = [await page(table, seat, size, "")]
    while found[-1].next_page_token:
        found.append(await page(table, seat, size, found[-1].next_page_token))
    return found


async def page(table: Table, seat: int | None, size: int, token: str) -> R.GetHistoryResponse:
    request = R.GetHistoryRequest(game_id=table.game_id, page_size=size, page_token=token)
    return await table.stub.GetHistory(request, metadata=table.md(seat))


async def swapped_table(stub: Stub, moves: int) -> Table:
    table = await Table.create(stub, 3)
    for number in range(moves):
        await table.submit(0, take(WHITE, 1 + number % 2))
    return table


def test_sizes_and_tokens() -> None:
    assert history.page_size(0) == DEFAULT_PAGE_SIZE
    assert history.page_size(7) == 7
    assert history.page_size(MAX_PAGE_SIZE * 10) == MAX_PAGE_SIZE
    with pytest.raises(BadRequest) as caught:
        history.page_size(-1)
    assert caught.value.reason == "PAGE_SIZE_INVALID"
    token = page_token("game1", 5)
    assert page_start("game1", token, 9) == 5
    for bad in ("", "x", token + "A", page_token("other", 5), page_token("game1", 10), "!!!!"):
        with pytest.raises(BadRequest) as caught:
            page_start("game1", bad, 9)
        assert caught.value.reason == "PAGE_TOKEN_INVALID"


async def test_pages_of_a_running_game_add_up_to_the_whole(stub: Stub) -> None:
    table = await swapped_table(stub, 23)
    for seat in (None, 0, 1):
        whole = await page(table, seat, MAX_PAGE_SIZE, "")
        assert not whole.next_page_token and len(whole.entries) == 23
        split = await pages(table, seat, 5)
        assert [len(p.entries) for p in split] == [5, 5, 5, 5, 3]
        assert [e for p in split for e in p.entries] == list(whole.entries)
        assert all(p.version == 23 and p.setup == whole.setup for p in split)
        assert not split[-1].next_page_token


async def test_pages_of_a_finished_game_verify_and_carry_every_head(stub: Stub) -> None:
    table = await Table.create(stub, 3, seed=b"pages-finished")
    await play_to_end(table, 3, win=True)
    whole = await page(table, None, MAX_PAGE_SIZE, "")
    assert whole.seed and whole.HasField("outcome")
    for size in (1, 3, 7):
        split = await pages(table, None, size)
        assert [e for p in split for e in p.entries] == list(whole.entries)
    gathered = HistoryPages(table.game_id, 4)
    request: R.GetHistoryRequest | None = gathered.first()
    while request is not None:
        request = gathered.next(await table.stub.GetHistory(request))
    assert gathered.whole() == whole
    assert verify_history(gathered.whole(), game_id=table.game_id).ok


async def test_bad_tokens_and_sizes_are_refused(stub: Stub) -> None:
    table = await swapped_table(stub, 3)
    first = await page(table, None, 1, "")
    forged = base64.urlsafe_b64encode(b"not a token").decode()
    other = await swapped_table(stub, 3)
    foreign = (await page(other, None, 1, "")).next_page_token
    for token in (forged, foreign, first.next_page_token[:-2], "x" * 300):
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await page(table, None, 1, token)
        code, reason, _ = reason_of(caught.value)
        assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "PAGE_TOKEN_INVALID")
        assert "x" * 100 not in (caught.value.details() or "")
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await page(table, None, -1, "")
    assert reason_of(caught.value)[1] == "PAGE_SIZE_INVALID"


async def test_a_client_without_page_size_gets_the_default_page(
    stub: Stub, referee_server: Running
) -> None:
    table = await swapped_table(stub, DEFAULT_PAGE_SIZE + 2)
    # No page_size, no token (Table.history follows the pages; this is one raw call).
    first = await stub.GetHistory(referee_pb2.GetHistoryRequest(game_id=table.game_id))
    assert len(first.entries) == DEFAULT_PAGE_SIZE and first.next_page_token
    async with AsyncRefereeClient(referee_server.address) as client:
        whole = await client.seat(table.game_id).history()
    assert len(whole.entries) == DEFAULT_PAGE_SIZE + 2 and not whole.next_page_token
    assert [e.version for e in whole.entries] == list(range(1, DEFAULT_PAGE_SIZE + 3))
    assert list(whole.entries[:DEFAULT_PAGE_SIZE]) == list(first.entries)


async def test_a_page_reads_and_replays_only_its_own_moves(
    stub: Stub, referee_server: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Page after page from one referee, each call reads (and so replays) only its own
    page's log entries: the state where the page before ended is kept. Another referee,
    without that checkpoint, reads from the seed (bounded by the move limit)."""
    table = await swapped_table(stub, 90)
    store = referee_server.referee.store
    reads: list[tuple[int, int]] = []
    log = store.log

    async def recorded(game_id: str, start: int, stop: int) -> list[bytes]:
        reads.append((start, stop))
        return await log(game_id, start, stop)

    monkeypatch.setattr(store, "log", recorded)
    split = await pages(table, None, 10)
    assert len(split) == 9
    assert reads == [(first, first + 9) for first in range(0, 90, 10)]
    reads.clear()
    referee_server.referee._checkpoints = history.Checkpoints()  # as another replica
    late = await page(table, None, 10, split[-2].next_page_token)
    assert reads == [(0, 89)]
    assert list(late.entries) == list(split[-1].entries)
