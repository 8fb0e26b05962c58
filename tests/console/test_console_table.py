"""The console's table page hosts people: names, presence, a running clock, a stalled seat.

Against the referee: a Gang of Four table created with names and a turn clock, whose seat 0
never moves: the other seats play until it is seat 0's turn, one of them holding a WatchGame
stream. The page shows every name (on the board and in the seats panel), seat 0's countdown
going down, "waiting for Ann · 09:58 left" (counting down) instead of "to act: seat 0", and
the seat with a stream present while seat 0 is away. Everything comes from the view's
`table`. Screenshot: table.png (REFEREE_SCREENSHOTS).

Drawn from the table alone: WatchGame answered by the test with a view whose `table` it
wrote (a bot, a forfeited seat, a clock running low, then an aborted table), so each mark
is checked whatever the referee fills today. Screenshot: table_marks.png (that made-up table).
"""

from __future__ import annotations

import json
import random
import re
import struct
import time
from pathlib import Path

from google.protobuf import json_format
from playwright.async_api import Browser, Route, expect

from referee.bots import bot_for
from referee.client import AsyncRefereeClient, AsyncSeat
from referee.v1 import game_pb2, referee_pb2, referee_pb2_grpc, table_pb2
from tests.console.support import console_url, grpc_channel, save_screenshot, screenshot_dir
from tests.servers import Served

GAME = "gang_of_four"
NAMES = ["Ann", "Bram", "Cleo <3", "Dirk"]  # markup in a name is text, not markup
MOVE_SECONDS = 600  # the clock never fires while the test runs
BANK_SECONDS = 1800
WATCHER = 1  # the seat that holds a WatchGame stream
WAIT = 20_000  # ms: the longest wait for the page
PLAYER, BOT = table_pb2.SEAT_HOLDER_PLAYER, table_pb2.SEAT_HOLDER_BOT


def _seconds(clock: str) -> int:
    """ "09:58" or "1:04:37" as seconds."""
    total = 0
    for part in clock.strip().split(":"):
        total = total * 60 + int(part)
    return total


def _left(line: str) -> str:
    """The time left in a waiting line: "waiting for Ann · 09:58 left" -> "09:58"."""
    return line.rsplit("·", 1)[1].removesuffix("left").strip()


async def _create(client: AsyncRefereeClient) -> referee_pb2.CreateGameResponse:
    clock = table_pb2.Clock(
        move_seconds=MOVE_SECONDS, bank_seconds=BANK_SECONDS, increment_seconds=5
    )
    request = referee_pb2.CreateGameRequest(
        game=GAME,
        seats=len(NAMES),
        names=NAMES,
        listed=True,  # a lobby table: its seats show their presence (docs/hosting.md)
        allow_spectators=True,
        options=game_pb2.TableOptions(clock=clock),
    )
    created: referee_pb2.CreateGameResponse = await client.call(client.stub.CreateGame, request)
    return created


async def _until_seat_0_alone(seats: list[AsyncSeat]) -> game_pb2.View:
    """The other seats play (heuristic bots) until only seat 0 is to act."""
    rng = random.Random(17)
    bots = [bot_for(GAME, "heuristic") for _ in seats]
    for _ in range(40):
        view = await seats[0].view()
        if list(view.to_act) == [0]:
            return view
        others = [seat for seat in view.to_act if seat != 0]
        assert others, f"seat 0 shares its turn at version {view.version}"
        seat = seats[others[0]]
        legal = await seat.legal_moves()
        move = bots[others[0]].choose(await seat.view(), legal.moves, rng)
        assert move is not None
        await seat.submit(move, expected_version=legal.version)
    raise AssertionError("seat 0 never came to act alone")


def _check_the_referee_fills_the_table(view: game_pb2.View) -> None:
    """What the page draws from: fail at once, and clearly, when the referee lacks it."""
    assert view.HasField("table"), "View.table is not filled (branch i17-lobby)"
    table = view.table
    assert [seat.name for seat in table.seats] == NAMES, "TableSeat.name (branch i17-lobby)"
    assert table.seats[0].deadline_unix_ms > 0, "TableSeat.deadline_unix_ms (branch i17-clocks)"
    assert table.waiting_since_unix_ms > 0, "Table.waiting_since_unix_ms (branch i17-clocks)"


async def test_a_stalled_seat_shows_its_name_its_clock_and_how_long_it_keeps_the_table(
    served: Served, browser: Browser, tmp_path: Path
) -> None:
    async with AsyncRefereeClient(served.grpc) as client, grpc_channel(served) as channel:
        created = await _create(client)
        seats = client.seats(created)
        # Seat 1 holds a stream for the whole test; seat 0 and the others hold none.
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        token = created.seat_tokens[WATCHER].token
        stream = stub.WatchGame(
            referee_pb2.WatchGameRequest(game_id=created.game_id),
            metadata=(("authorization", f"Bearer {token}"),),
        )
        try:
            await stream.read()  # its snapshot: the stream is open
            view = await _until_seat_0_alone(seats)
            _check_the_referee_fills_the_table(view)
            await _watch_the_stalled_table(browser, served, created.game_id, tmp_path)
        finally:
            stream.cancel()


async def _watch_the_stalled_table(
    browser: Browser, served: Served, game_id: str, tmp_path: Path
) -> None:
    page = await browser.new_page(viewport={"width": 1280, "height": 860})
    try:
        await page.goto(f"{console_url(served)}#/game/{game_id}")
        panel = page.get_by_test_id("table-seats")
        await expect(panel).to_be_visible(timeout=WAIT)

        # Every name, on the board and in the panel, as text.
        await expect(page.get_by_test_id("seat-label")).to_have_text(NAMES)
        await expect(panel.get_by_test_id("seat-name")).to_have_text(NAMES)

        # The status line names the stalled seat and counts her time down.
        line = page.get_by_test_id("to-act")
        await expect(line).to_have_text(re.compile(r"^waiting for Ann · \d\d:\d\d left$"))
        await expect(line).not_to_contain_text("seat 0")
        waited = await line.inner_text()
        await expect(line).not_to_have_text(waited, timeout=5_000)
        assert _seconds(_left(await line.inner_text())) < _seconds(_left(waited))

        # Seat 0's clock counts down, every second, without a new view.
        version = await page.get_by_test_id("game-view").get_attribute("data-version")
        seat_0 = panel.locator('[data-testid="table-seat"][data-seat="0"]')
        clock = seat_0.get_by_test_id("seat-clock")
        before = await clock.inner_text()
        assert MOVE_SECONDS - 60 < _seconds(before) <= MOVE_SECONDS, before
        await expect(clock).not_to_have_text(before, timeout=5_000)
        after = await clock.inner_text()
        assert _seconds(after) < _seconds(before), (before, after)
        assert await page.get_by_test_id("game-view").get_attribute("data-version") == version
        # Only the seat to act has a running clock; every seat shows its bank.
        await expect(panel.get_by_test_id("seat-clock")).to_have_count(1)
        await expect(panel.get_by_test_id("seat-bank")).to_have_count(len(NAMES))

        # Presence: the seat with a stream is present, seat 0 (no stream) away.
        watcher = panel.locator(f'[data-testid="table-seat"][data-seat="{WATCHER}"]')
        await expect(watcher).to_have_attribute("data-present", "true", timeout=WAIT)
        await expect(watcher.get_by_test_id("seat-presence")).to_have_text("present")
        await expect(seat_0).to_have_attribute("data-present", "false")
        await expect(seat_0.get_by_test_id("seat-presence")).to_have_text("away")
        await expect(panel.get_by_test_id("seat-bot")).to_have_count(0)

        await save_screenshot(page, screenshot_dir(tmp_path) / "table.png")
    finally:
        await page.close()


def _envelopes(*messages: referee_pb2.WatchGameResponse) -> bytes:
    """A Connect server stream's body: each message as JSON in an envelope, then the end."""
    body = b""
    for message in messages:
        data = json_format.MessageToJson(message, indent=None).encode()
        body += struct.pack(">BI", 0, len(data)) + data
    end = json.dumps({}).encode()
    return body + struct.pack(">BI", 2, len(end)) + end


# The made-up table's seats, from the seat to act on: Ann (to act, 20 s left), a bot, Cleo
# (forfeited after three clock moves), Dirk (away).
ROLES = ["Ann", "random bot", "Cleo", "Dirk"]


def _hosted(view: game_pb2.View, now_ms: int) -> tuple[game_pb2.View, dict[str, int]]:
    """``view`` with a table the test wrote (ROLES from the seat the game has to act on;
    the table has waited 185 s), and the seat of each name."""
    first = view.to_act[0]
    seat_of = {name: (first + offset) % len(ROLES) for offset, name in enumerate(ROLES)}
    seats = {
        "Ann": table_pb2.TableSeat(
            holder=PLAYER, present=True, deadline_unix_ms=now_ms + 20_000, bank_ms=300_000
        ),
        "random bot": table_pb2.TableSeat(holder=BOT, bank_ms=240_000),
        "Cleo": table_pb2.TableSeat(holder=PLAYER, forfeited=True, clock_moves=3),
        "Dirk": table_pb2.TableSeat(holder=PLAYER, bank_ms=60_000),
    }
    for name, seat in seats.items():
        seat.seat, seat.name = seat_of[name], name
    hosted = game_pb2.View()
    hosted.CopyFrom(view)
    del hosted.to_act[:]
    hosted.to_act.append(first)
    hosted.table.CopyFrom(
        table_pb2.Table(
            status=table_pb2.TABLE_STATUS_LIVE,
            seats=sorted(seats.values(), key=lambda seat: seat.seat),
            clock=table_pb2.Clock(move_seconds=60, bank_seconds=300),
            waiting_since_unix_ms=now_ms - 185_000,
        )
    )
    return hosted, seat_of


class Feed:
    """A WatchGame route: every call is answered with ``message`` (which the test may
    change between calls), as a stream that ends after it, so the page calls again."""

    def __init__(self, message: referee_pb2.WatchGameResponse) -> None:
        self.message = message

    async def answer(self, route: Route) -> None:
        await route.fulfill(
            status=200, content_type="application/connect+json", body=_envelopes(self.message)
        )


async def test_the_table_page_draws_bots_forfeits_clocks_and_an_abort_from_the_table_alone(
    served: Served, browser: Browser, tmp_path: Path
) -> None:
    async with AsyncRefereeClient(served.grpc) as client:
        created = await client.create_game(GAME, len(NAMES), allow_spectators=True)
        view = await client.seat(created.game_id).view()  # a spectator's
    live, seat_of = _hosted(view, int(time.time() * 1000))
    aborted = game_pb2.View()
    aborted.CopyFrom(live)
    aborted.table.status = table_pb2.TABLE_STATUS_ABORTED
    for seat in aborted.table.seats:
        seat.deadline_unix_ms = 0
    feed = Feed(referee_pb2.WatchGameResponse(version=0, view=live, snapshot=True))
    page = await browser.new_page(viewport={"width": 1280, "height": 860})
    try:
        await page.route("**/referee.v1.RefereeService/WatchGame", feed.answer)
        await page.goto(f"{console_url(served)}#/game/{created.game_id}")
        panel = page.get_by_test_id("table-seats")
        in_seat_order = sorted(ROLES, key=lambda name: seat_of[name])
        await expect(panel.get_by_test_id("seat-name")).to_have_text(in_seat_order, timeout=WAIT)
        await expect(page.get_by_test_id("seat-label")).to_have_text(in_seat_order)
        await expect(page.get_by_test_id("to-act")).to_have_text(
            re.compile(r"^waiting for Ann · 00:[0-2]\d left$")
        )
        ann, bot, cleo, dirk = (
            panel.locator(f'[data-testid="table-seat"][data-seat="{seat_of[name]}"]')
            for name in ROLES
        )
        await expect(bot.get_by_test_id("seat-bot")).to_have_text("bot")
        await expect(bot.get_by_test_id("seat-presence")).to_have_count(0)
        await expect(cleo.get_by_test_id("seat-forfeited")).to_have_text("forfeited")
        await expect(cleo.get_by_test_id("seat-clock-moves")).to_have_text("3 by clock")
        await expect(dirk.get_by_test_id("seat-presence")).to_have_text("away")
        clock = ann.get_by_test_id("seat-clock")
        await expect(clock).to_have_text(re.compile(r"^00:[0-2]\d$"))
        await expect(clock).to_have_class(re.compile(r"\blow\b"))
        # Ann's bank runs while she is to act; the others' stand still.
        await expect(ann.get_by_test_id("seat-bank")).to_have_text(re.compile(r"^bank 0[12]:\d\d$"))
        await expect(dirk.get_by_test_id("seat-bank")).to_have_text("bank 01:00")
        await save_screenshot(page, screenshot_dir(tmp_path) / "table_marks.png")
        # The stream ends and is called again: the table was aborted meanwhile.
        feed.message = referee_pb2.WatchGameResponse(version=0, view=aborted, snapshot=True)
        await expect(page.get_by_test_id("to-act")).to_have_text(
            "aborted by the host: no more moves", timeout=WAIT
        )
        await expect(page.get_by_test_id("table-status")).to_have_text("aborted")
        await expect(panel.get_by_test_id("seat-clock")).to_have_count(0)
        await expect(ann).not_to_have_class(re.compile(r"\bacting\b"))
    finally:
        await page.close()
