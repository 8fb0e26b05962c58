"""The seat page's own promises, whatever the game draws (`#/play/<id>`):
- a seat link's token moves into session storage and out of the address bar, a tab with no
  token says so, and the token goes out only as `authorization`, never in a request URL;
- a move whose answer is lost on the way is sent again with the same move id and applies
  once ("nothing acknowledged is ever lost", and nothing applied twice);
- a move the table has moved past (the same seat moved from another device) is refused in
  words, and the page shows the table as it is;
- a cut connection (streams dropped, calls failing) loses no move: it goes through once
  the connection is back, and the stream follows the table again.
Gang of Four, as the test plays every other seat by API.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from playwright.async_api import Browser, Page, Route, expect

from referee.client import AsyncRefereeClient, AsyncSeat
from tests.console.support import Sent, console_url
from tests.servers import Served

SUBMIT = "**/referee.v1.RefereeService/SubmitMove"
WATCH = "**/referee.v1.RefereeService/WatchGame"
WAIT_MS = 30_000


@dataclass
class Table:
    game_id: str
    seats: list[AsyncSeat]
    tokens: list[str]


def _check_sent(sent: Sent, tokens: list[str], seat: int) -> None:
    """The seat page's requests: its seat's token in every call, in no URL."""
    sent.no_token_in_a_url(tokens)
    for request in sent.requests:
        if "/referee.v1." in request.url:
            assert request.authorization == f"Bearer {tokens[seat]}", request


@pytest.fixture
async def table(served: Served) -> AsyncIterator[Table]:
    async with AsyncRefereeClient(served.grpc) as client:
        created = await client.create_game(
            "gang_of_four", 4, allow_spectators=True, names=["Ann", "Bo", "Cy", "Di"]
        )
        yield Table(created.game_id, client.seats(created), [t.token for t in created.seat_tokens])


async def _seat_to_act(table: Table) -> int:
    view = await table.seats[0].view()
    assert len(view.to_act) == 1
    return view.to_act[0]


async def _open_seat(
    browser: Browser, served: Served, table: Table, seat: int
) -> tuple[Page, Sent]:
    page = await browser.new_page()
    sent = Sent()
    sent.follow(page)
    await page.goto(f"{console_url(served)}#/play/{table.game_id}/{table.tokens[seat]}")
    await expect(page.get_by_test_id("game-view")).to_have_attribute(
        "data-seat", str(seat), timeout=WAIT_MS
    )
    return page, sent


async def _click_a_listed_move(page: Page) -> None:
    """The first listed move, from the folded list when the game draws its own controls."""
    folded = page.get_by_test_id("all-moves")
    if await folded.count():
        await folded.locator("summary").click()
    await page.get_by_test_id("move").first.click(timeout=WAIT_MS)


async def test_a_seat_link_keeps_its_token_out_of_urls(
    browser: Browser, served: Served, table: Table
) -> None:
    blank = await browser.new_page()
    await blank.goto(f"{console_url(served)}#/play/{table.game_id}")
    await expect(blank.get_by_test_id("no-seat")).to_be_visible(timeout=WAIT_MS)

    seat = await _seat_to_act(table)
    page, sent = await _open_seat(browser, served, table, seat)
    assert table.tokens[seat] not in page.url
    assert page.url.endswith(f"#/play/{table.game_id}")
    kept = await page.evaluate(
        "(id) => sessionStorage.getItem(`referee:seat:${id}`)", table.game_id
    )
    assert kept == table.tokens[seat]
    await expect(page.get_by_test_id("turn")).to_have_text("Your move", timeout=WAIT_MS)
    # A reload plays the same seat from session storage.
    await page.reload()
    await expect(page.get_by_test_id("game-view")).to_have_attribute("data-seat", str(seat))
    _check_sent(sent, table.tokens, seat)


async def test_a_lost_answer_is_sent_again_with_the_same_move_id(
    browser: Browser, served: Served, table: Table
) -> None:
    seat = await _seat_to_act(table)
    page, sent = await _open_seat(browser, served, table, seat)
    ids: list[str] = []

    async def lose_the_first_answer(route: Route) -> None:
        ids.append(json.loads(route.request.post_data or "{}")["clientMoveId"])
        if len(ids) == 1:
            await route.fetch()  # the referee applies the move; its answer never arrives
            await route.abort("connectionreset")
        else:
            await route.continue_()

    await page.route(SUBMIT, lose_the_first_answer)
    await _click_a_listed_move(page)
    game_view = page.get_by_test_id("game-view")
    await expect(game_view).to_have_attribute("data-version", "1", timeout=WAIT_MS)
    await expect(page.get_by_test_id("sending")).to_have_count(0)
    await expect(page.get_by_test_id("refusal")).to_have_count(0)
    assert len(ids) == 2 and ids[0] == ids[1], ids
    history = await table.seats[seat].history()
    assert [entry.version for entry in history.entries] == [1]
    assert (await table.seats[seat].view()).version == 1
    _check_sent(sent, table.tokens, seat)


async def test_a_move_the_table_moved_past_is_refused_in_words(
    browser: Browser, served: Served, table: Table
) -> None:
    seat = await _seat_to_act(table)
    page, sent = await _open_seat(browser, served, table, seat)
    await expect(page.get_by_test_id("turn")).to_have_text("Your move", timeout=WAIT_MS)

    async def move_elsewhere_first(route: Route) -> None:
        # The same seat moves from another device while the page's move is on its way.
        legal = await table.seats[seat].legal_moves()
        await table.seats[seat].submit(legal.moves[-1], expected_version=legal.version)
        await route.continue_()

    await page.route(SUBMIT, move_elsewhere_first)
    await _click_a_listed_move(page)
    refusal = page.get_by_test_id("refusal")
    await expect(refusal).to_have_attribute("data-reason", "NOT_YOUR_TURN", timeout=WAIT_MS)
    await expect(refusal).to_contain_text("It is not your turn.")
    await expect(page.get_by_test_id("game-view")).to_have_attribute("data-version", "1")
    await expect(page.get_by_test_id("turn")).not_to_have_text("Your move")
    assert (await table.seats[seat].view()).version == 1
    _check_sent(sent, table.tokens, seat)


class Cable:
    """A TCP relay between the browser and the referee's HTTP port that the test can cut:
    `cut` drops every open connection (the page's streams with them, as a proxy timeout or
    a lost network would) and refuses new ones until `mend`."""

    def __init__(self, target: str) -> None:
        host, port = target.removeprefix("http://").rsplit(":", 1)
        self.host, self.port = host, int(port)
        self.down = False
        self.writers: set[asyncio.StreamWriter] = set()
        self.server: asyncio.Server | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.down:
            writer.close()
            return
        upstream_reader, upstream = await asyncio.open_connection(self.host, self.port)
        self.writers |= {writer, upstream}

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError, OSError):
                while chunk := await source.read(65536):
                    sink.write(chunk)
                    await sink.drain()
            sink.close()

        await asyncio.gather(pipe(reader, upstream), pipe(upstream_reader, writer))
        self.writers -= {writer, upstream}

    def cut(self) -> None:
        self.down = True
        for writer in self.writers:
            writer.transport.abort()

    def mend(self) -> None:
        self.down = False

    async def close(self) -> None:
        self.cut()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


async def test_a_cut_connection_loses_no_move_and_the_stream_comes_back(
    browser: Browser, served: Served, table: Table
) -> None:
    cable = Cable(served.http)
    base = await cable.start()
    try:
        seat = await _seat_to_act(table)
        page = await browser.new_page()
        sent = Sent()
        sent.follow(page)
        await page.goto(f"{base}/console/#/play/{table.game_id}/{table.tokens[seat]}")
        await expect(page.get_by_test_id("turn")).to_have_text("Your move", timeout=WAIT_MS)
        # The moves are listed (ListLegalMoves answered) before the cable is cut.
        await expect(page.get_by_test_id("move").first).to_be_attached(timeout=WAIT_MS)

        cable.cut()  # the stream drops, and the move below cannot get through
        await _click_a_listed_move(page)
        await expect(page.get_by_test_id("sending")).to_contain_text(
            "trying again", timeout=WAIT_MS
        )
        assert (await table.seats[seat].view()).version == 0
        cable.mend()

        game_view = page.get_by_test_id("game-view")
        await expect(game_view).to_have_attribute("data-version", "1", timeout=WAIT_MS)
        await expect(page.get_by_test_id("sending")).to_have_count(0)
        history = await table.seats[seat].history()
        assert [entry.version for entry in history.entries] == [1]
        # The stream is live again: the next seat's move reaches the page by itself.
        following = (await table.seats[seat].view()).to_act[0]
        legal = await table.seats[following].legal_moves()
        await table.seats[following].submit(legal.moves[0], expected_version=legal.version)
        await expect(game_view).to_have_attribute("data-version", "2", timeout=WAIT_MS)
        _check_sent(sent, table.tokens, seat)
    finally:
        await cable.close()
