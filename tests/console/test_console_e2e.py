"""The web console end to end: `referee serve`, short bot tournaments, headless chromium.

For each game:
- the front page lists a bot tournament; its page shows standings once round 1 is complete
  and updates them by itself (no reload) when round 2 is;
- a table the test plays move by move follows every move without a reload, draws a card
  that was not there at the start, and every card it draws is in the spectator view of
  that version while the cards the seats hide are not;
- a finished tournament table's history steps move by move, shows the revealed seed and
  verifies with every view it showed;
- the page never sends a token and calls nothing but the referee.
A history altered in transit fails at the altered move. Its screenshots stay in the test's
tmp_path (docs/console's come from test_console_languages.py).
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, Route, expect

from referee.bots import bot_for
from referee.client import AsyncRefereeClient, AsyncSeat
from referee.client.calls import gathered_history
from referee.v1 import referee_pb2_grpc, tournament_pb2, tournament_pb2_grpc
from tests.console.support import (
    DRAWN,
    Sent,
    cards_in,
    console_url,
    grpc_channel,
    hidden_cards,
    view_at,
)
from tests.servers import Served

T = tournament_pb2
LONG = 90_000  # ms: the longest wait for a round of bot games
NAMES = ["Ada", "Bram", "Cleo", "Dirk", "Eva", "Floor"]
PLAYED = 30  # versions the test plays at its own table before the screenshot, at least
MOST_PLAYED = 120
PAGES_SHOWN_FOR = "gang_of_four"  # the README's tournament page and history


@dataclass(frozen=True)
class Setup:
    game: str
    seats: int
    bots: list[T.BotStrategy.ValueType]  # one strategy per participant
    delay_ms: int


def _bots(heuristic: int, random_: int) -> list[T.BotStrategy.ValueType]:
    return [T.BOT_STRATEGY_HEURISTIC] * heuristic + [T.BOT_STRATEGY_RANDOM] * random_


# The bots pause before each move so that round 2 lasts a while: the standings page shows
# the standings after round 1 in between.
SETUPS = {
    "the_gang": Setup("the_gang", 3, _bots(3, 3), 40),
    "gang_of_four": Setup("gang_of_four", 4, _bots(2, 2), 10),
    "pinched": Setup("pinched", 2, _bots(2, 2), 40),
}


def _check_sent(sent: Sent, base: str) -> None:
    """The spectator pages called their own origin only, never with a token."""
    for request in sent.requests:
        assert request.url.startswith(base), f"called another origin: {request.url}"
        assert request.authorization is None, f"sent a token to {request.url}"
    assert any("/referee.v1.TournamentService/ListTournaments" in url for url in sent.urls)
    # A whole game goes up as binary protobuf (smaller and faster to read than JSON).
    assert any(
        request.url.endswith("/referee.v1.RefereeService/VerifyHistory")
        and request.content_type.startswith("application/proto")
        for request in sent.requests
    )


async def _tournament(served: Served, setup: Setup) -> str:
    async with grpc_channel(served) as channel:
        stub = tournament_pb2_grpc.TournamentServiceStub(channel)
        created = await stub.CreateTournament(
            T.CreateTournamentRequest(
                game=setup.game,
                seats_per_table=setup.seats,
                participants=[
                    T.ParticipantSpec(name=name, bot=bot)
                    for name, bot in zip(NAMES, setup.bots, strict=False)
                ],
                format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
                rounds=2,
                bot_move_delay_ms=setup.delay_ms,
            )
        )
        await stub.StartTournament(
            T.StartTournamentRequest(tournament_id=created.tournament_id),
            metadata=(("authorization", f"Bearer {created.admin_token}"),),
        )
    return created.tournament_id


async def _tables_played(page: Page) -> int:
    cells = await page.get_by_test_id("standing-tables").all_inner_texts()
    return sum(int(cell) for cell in cells)


async def _drawn(page: Page) -> tuple[int, Counter[str]]:
    drawn = await page.evaluate(DRAWN)
    assert drawn is not None, "no table drawn"
    return int(drawn["version"]), Counter(drawn["cards"])


async def _only_public_cards(
    served: Served, game_id: str, seats: int, version: int, on_page: Counter[str]
) -> Counter[str]:
    """Every card drawn is in the spectator view at ``version`` (as many times at most);
    returns the cards the seats hide then."""
    async with grpc_channel(served) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        public = cards_in(await view_at(stub, game_id, version))
        hidden = await hidden_cards(stub, game_id, version, seats)
    assert on_page <= public, f"drawn but not in the spectator view: {on_page - public}"
    return hidden


@dataclass
class Players:
    """The test at a table: one heuristic bot per seat, moving one seat at a time (a seat
    drawn among those whose turn it is, so simultaneous phases move on as in a real game)."""

    game: str
    seats: list[AsyncSeat]
    rng: random.Random

    def __post_init__(self) -> None:
        self.bots = [bot_for(self.game, "heuristic") for _ in self.seats]

    async def move(self) -> int:
        """One move; the new version."""
        view = await self.seats[0].view()
        for number in self.rng.sample(list(view.to_act), len(view.to_act)):
            seat = self.seats[number]
            seat_view, legal = await seat.view(), await seat.legal_moves()
            move = self.bots[number].choose(seat_view, legal.moves, self.rng)
            if move is not None:
                reply = await seat.submit(move, expected_version=legal.version)
                return reply.version
        raise AssertionError(f"nobody moves at version {view.version}")

    async def over(self) -> bool:
        return (await self.seats[0].view()).HasField("outcome")


async def _play_and_watch(page: Page, served: Served, setup: Setup, shots: Path) -> None:
    """The test plays a table move by move; the page follows each move and draws nothing a
    spectator may not see."""
    async with AsyncRefereeClient(served.grpc) as client:
        created = await client.create_game(setup.game, setup.seats, allow_spectators=True)
        seats = client.seats(created)
        await page.goto(f"{console_url(served)}#/game/{created.game_id}")
        table = page.get_by_test_id("game-view")
        await expect(table).to_have_attribute("data-version", "0", timeout=LONG)
        _, at_start = await _drawn(page)
        players = Players(setup.game, seats, random.Random(setup.game))
        new_card_at = hidden_at = 0
        for _ in range(MOST_PLAYED):
            version = await players.move()
            await expect(table).to_have_attribute("data-version", str(version))
            drawn_version, on_page = await _drawn(page)
            assert drawn_version == version
            new_card_at = new_card_at or (version if on_page - at_start else 0)
            if new_card_at:  # from then on, every version
                hidden = await _only_public_cards(
                    served, created.game_id, setup.seats, version, on_page
                )
                hidden_at = hidden_at or (version if hidden else 0)
            if (new_card_at and hidden_at and version >= PLAYED) or await players.over():
                break
        assert new_card_at, "a card appeared after a move"
        assert hidden_at, "the seats hid cards while the page was checked"
        await page.screenshot(path=str(shots / f"{setup.game}.png"))


async def _step_and_verify(page: Page, served: Served, game_id: str) -> None:
    """History: step through the moves, see the seed, and get 'verified' with every view."""
    async with grpc_channel(served) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        history = await gathered_history(stub.GetHistory, game_id)
    moves = len(history.entries)
    await page.goto(f"{console_url(served)}#/game/{game_id}/history")
    position = page.get_by_test_id("step-position")
    await expect(page.get_by_test_id("seed")).to_contain_text(history.seed.hex(), timeout=LONG)
    await page.get_by_test_id("step-first").click()
    await expect(position).to_have_text(f"0 / {moves}")
    for step in (1, 2, 3):
        await page.get_by_test_id("step-next").click()
        await expect(position).to_have_text(f"{step} / {moves}")
        await expect(page.get_by_test_id("game-view")).to_have_attribute("data-version", str(step))
    await page.get_by_test_id("step-prev").click()
    await expect(position).to_have_text(f"2 / {moves}")
    await page.get_by_test_id("step-last").click()
    await expect(position).to_have_text(f"{moves} / {moves}")
    await page.get_by_test_id("verify").click()
    result = page.get_by_test_id("verify-result")
    await expect(result).to_have_attribute("data-status", "passed", timeout=LONG)
    await expect(result).to_contain_text(
        f"verified: {moves} moves replayed from the seed, {moves} views checked"
    )


@pytest.mark.parametrize("game", list(SETUPS))
async def test_a_bot_tournament_and_a_played_table_in_the_console(
    served: Served, browser: Browser, game: str, tmp_path: Path
) -> None:
    setup = SETUPS[game]
    shots = tmp_path  # docs/console's set: test_console_languages.py
    tournament_id = await _tournament(served, setup)
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    sent = Sent()
    standings_page, table_page = await context.new_page(), await context.new_page()
    for page in (standings_page, table_page):
        sent.follow(page)

    # The front page lists the tournament; its page shows standings after round 1.
    await standings_page.goto(console_url(served))
    row = standings_page.locator(
        f'[data-testid="tournament-row"][data-tournament-id="{tournament_id}"]'
    )
    await expect(row).to_be_visible(timeout=LONG)
    await row.get_by_role("link").first.click()
    await standings_page.evaluate("() => { window.__notReloaded = true; }")
    standings = standings_page.get_by_test_id("standings")
    await expect(standings).to_have_attribute("data-after-round", "1", timeout=LONG)
    await expect(standings_page.get_by_test_id("standing-row")).to_have_count(len(setup.bots))
    after_round_1 = await _tables_played(standings_page)
    assert after_round_1 > 0

    # Meanwhile, in another tab, a table moves with every move the test makes.
    await _play_and_watch(table_page, served, setup, shots)

    # The standings page updates by itself when round 2 is complete.
    await expect(standings).to_have_attribute("data-after-round", "2", timeout=LONG)
    await expect(standings_page.get_by_test_id("tournament-status")).to_contain_text("finished")
    assert await _tables_played(standings_page) > after_round_1
    assert await standings_page.evaluate("() => window.__notReloaded === true")
    if game == PAGES_SHOWN_FOR:
        await standings_page.screenshot(path=str(shots / "tournament.png"))

    # A finished table is linked from the tournament; its history steps and verifies.
    link = standings_page.get_by_test_id("table-link").first
    finished_id = await link.get_attribute("data-game-id")
    assert finished_id
    await link.click()
    await expect(standings_page.get_by_test_id("outcome")).to_be_visible(timeout=LONG)
    await _step_and_verify(table_page, served, finished_id)
    if game == PAGES_SHOWN_FOR:
        await table_page.screenshot(path=str(shots / "history.png"))
    _check_sent(sent, served.http)
    await context.close()


async def test_a_tampered_history_names_the_first_move_that_differs(
    served: Served, browser: Browser
) -> None:
    """The page verifies what it was given: events changed in transit fail at that move."""
    async with AsyncRefereeClient(served.grpc) as client:
        created = await client.create_game("gang_of_four", 4, allow_spectators=True)
        players = Players("gang_of_four", client.seats(created), random.Random(4))
        while not await players.over():
            await players.move()

    async def tamper(route: Route) -> None:
        response = await route.fetch()
        history = await response.json()
        history["entries"][2]["events"] = []
        await route.fulfill(response=response, json=history)

    page = await browser.new_page()
    await page.route("**/referee.v1.RefereeService/GetHistory", tamper)
    await page.goto(f"{console_url(served)}#/game/{created.game_id}/history")
    await page.get_by_test_id("verify").click()
    result = page.get_by_test_id("verify-result")
    await expect(result).to_have_attribute("data-status", "failed", timeout=LONG)
    await expect(result).to_contain_text("differs at move 3")
    await page.close()


async def test_a_live_history_keeps_up_without_fetching_the_log_at_every_move(
    served: Served, browser: Browser
) -> None:
    """A game still being played: its history page reaches every new move, fetching the
    whole log again at most every two seconds rather than once per move."""
    async with AsyncRefereeClient(served.grpc) as client:
        created = await client.create_game("gang_of_four", 4, allow_spectators=True)
        players = Players("gang_of_four", client.seats(created), random.Random(5))
        page = await browser.new_page()
        fetches: list[str] = []
        page.on(
            "request",
            lambda request: fetches.append(request.url) if "GetHistory" in request.url else None,
        )
        began = asyncio.get_running_loop().time()
        await page.goto(f"{console_url(served)}#/game/{created.game_id}/history")
        position = page.get_by_test_id("step-position")
        await expect(position).to_have_text("0 / 0", timeout=LONG)
        for _ in range(20):  # over about two seconds, as a game played by people would
            version = await players.move()
            await asyncio.sleep(0.1)
        await expect(position).to_have_text(f"{version} / {version}", timeout=LONG)
        await expect(page.get_by_test_id("verify")).to_be_disabled()  # not over yet
        # The first fetch, then at most one per REFRESH_MS (2 s) of the time it took (more
        # on a busy machine), plus one that a move may start: never one per move.
        took = asyncio.get_running_loop().time() - began
        assert len(fetches) <= 2 + int(took / 2.0), (took, fetches)
        assert len(fetches) < 20, fetches
        await page.close()
