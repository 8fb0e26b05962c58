"""The web console end to end: `referee serve`, a short bot tournament, headless chromium.

For each game: the front page lists the tournament; its page shows standings once round 1
is complete and updates them, without a reload, when round 2 is; a live table of round 2
opened beside it draws a card that was not there when it opened, and every card it draws
is in the spectator view of that version, while the seats' hidden cards are not; a
finished table's history steps move by move, shows the revealed seed and verifies. The
page never sends a token. A screenshot of each game's table is kept (REFEREE_SCREENSHOTS).
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, Request, Route, expect

from referee.v1 import game_pb2, referee_pb2, referee_pb2_grpc, tournament_pb2, tournament_pb2_grpc
from tests.console.support import (
    Served,
    cards_in,
    grpc_channel,
    hidden_cards,
    screenshot_dir,
    view_at,
)

T = tournament_pb2
LONG = 90_000  # ms: a round of bot games, at the delay below
NAMES = ["Ada", "Bram", "Cleo", "Dirk", "Eva", "Floor"]
# The README shows each game's table, and one tournament page and one history.
PAGES_SHOWN_FOR = "gang_of_four"


@dataclass(frozen=True)
class Setup:
    game: str
    seats: int
    bots: list[int]  # strategies, one per participant
    delay_ms: int
    options: game_pb2.TableOptions | None = None


SETUPS = {
    "the_gang": Setup(
        "the_gang", 3, [T.BOT_STRATEGY_HEURISTIC] * 3 + [T.BOT_STRATEGY_RANDOM] * 3, 40
    ),
    "gang_of_four": Setup(
        "gang_of_four", 4, [T.BOT_STRATEGY_HEURISTIC] * 2 + [T.BOT_STRATEGY_RANDOM] * 2, 15
    ),
    "pinched": Setup(
        "pinched", 2, [T.BOT_STRATEGY_HEURISTIC] * 2 + [T.BOT_STRATEGY_RANDOM] * 2, 40
    ),
}

# Reads the table the page shows in one go, so the version and the cards belong together.
DRAWN = """() => {
  const view = document.querySelector('[data-testid="game-view"]');
  if (!view) return null;
  return {
    version: Number(view.getAttribute('data-version')),
    cards: [...view.querySelectorAll('[data-testid="card"]')].map(c => c.getAttribute('data-card')),
  };
}"""


def _no_tokens(page: Page, base: str, seen: list[str]) -> None:
    """Every request the page makes goes to the referee, without an Authorization header.
    ``seen`` gets "<url> <content-type>" of each."""

    def check(request: Request) -> None:
        seen.append(f"{request.url} {request.headers.get('content-type', '')}")
        assert request.url.startswith(base), f"the console called {request.url}"
        assert "authorization" not in request.headers, f"a token was sent to {request.url}"

    page.on("request", check)


async def _tournament(served: Served, setup: Setup) -> tuple[str, str]:
    async with grpc_channel(served) as channel:
        stub = tournament_pb2_grpc.TournamentServiceStub(channel)
        created = await stub.CreateTournament(
            T.CreateTournamentRequest(
                game=setup.game,
                seats_per_table=setup.seats,
                options=setup.options,
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
    return created.tournament_id, created.admin_token


async def _get(served: Served, tournament_id: str) -> T.Tournament:
    async with grpc_channel(served) as channel:
        stub = tournament_pb2_grpc.TournamentServiceStub(channel)
        reply = await stub.GetTournament(T.GetTournamentRequest(tournament_id=tournament_id))
    return reply.tournament


async def _live_table(served: Served, tournament_id: str) -> str:
    """A game of round 2 that is still being played."""
    async with asyncio.timeout(LONG / 1000):
        while True:
            tournament = await _get(served, tournament_id)
            if tournament.current_round == 2:
                live = [t.game_id for t in tournament.round_results[1].tables if not t.finished]
                if live and live[0]:
                    return live[0]
            await asyncio.sleep(0.1)


async def _watch_a_card_appear(page: Page, served: Served, setup: Setup, game_id: str) -> None:
    """The table moves without a reload, a new card appears, and nothing hidden is drawn."""
    view = page.get_by_test_id("game-view")
    await expect(view).to_have_attribute("data-game", setup.game, timeout=LONG)
    first: dict[str, Any] = await page.evaluate(DRAWN)
    await page.wait_for_function(
        f"""() => {{
          const before = new Set({json.dumps(first["cards"])});
          const view = document.querySelector('[data-testid="game-view"]');
          return view && Number(view.getAttribute('data-version')) > {first["version"]}
            && [...view.querySelectorAll('[data-testid="card"]')]
                 .some(c => !before.has(c.getAttribute('data-card')));
        }}""",
        timeout=LONG,
    )
    drawn: dict[str, Any] = await page.evaluate(DRAWN)
    version, on_page = drawn["version"], Counter(drawn["cards"])
    async with grpc_channel(served) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        public = cards_in(await view_at(stub, game_id, version))
        hidden = await hidden_cards(stub, game_id, version, setup.seats)
    assert on_page, "the table shows cards"
    assert on_page <= public, f"drawn but not in the spectator view: {on_page - public}"
    assert hidden, "some cards are hidden from spectators at this point"
    for key in hidden:
        assert on_page[key] <= public[key], f"a hidden card is drawn: {key}"


async def _step_and_verify(page: Page, served: Served, game_id: str) -> None:
    """History: step through the moves, see the seed, and get 'verified'."""
    async with grpc_channel(served) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        history = await stub.GetHistory(referee_pb2.GetHistoryRequest(game_id=game_id))
    moves = len(history.entries)
    await page.goto(f"{served.console}#/game/{game_id}/history")
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
    await expect(result).to_contain_text("verified")


@pytest.mark.parametrize("game", list(SETUPS))
async def test_a_bot_tournament_in_the_console(
    served: Served, browser: Browser, game: str, tmp_path: Path
) -> None:
    setup = SETUPS[game]
    shots = screenshot_dir(tmp_path)
    tournament_id, _admin = await _tournament(served, setup)
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    requests: list[str] = []
    standings_page, table_page = await context.new_page(), await context.new_page()
    for page in (standings_page, table_page):
        _no_tokens(page, served.http, requests)

    # The front page lists it; its page shows standings once round 1 is complete.
    await standings_page.goto(served.console)
    row = standings_page.locator(
        f'[data-testid="tournament-row"][data-tournament-id="{tournament_id}"]'
    )
    await expect(row).to_be_visible(timeout=LONG)
    await row.get_by_role("link").first.click()
    await standings_page.evaluate("() => { window.__notReloaded = true; }")
    rows = standings_page.get_by_test_id("standing-row")
    await expect(rows).to_have_count(len(setup.bots), timeout=LONG)
    after_round_1 = await standings_page.get_by_test_id("standings").inner_text()

    # Beside it, a live table of round 2: it moves, and draws only what spectators see.
    game_id = await _live_table(served, tournament_id)
    await table_page.goto(f"{served.console}#/game/{game_id}")
    await _watch_a_card_appear(table_page, served, setup, game_id)
    await table_page.screenshot(path=str(shots / f"{game}.png"))

    # The standings page changes by itself when round 2 is complete.
    await expect(standings_page.get_by_test_id("tournament-status")).to_contain_text(
        "finished", timeout=LONG
    )
    await expect(standings_page.get_by_test_id("standings")).not_to_have_text(after_round_1)
    assert await standings_page.evaluate("() => window.__notReloaded === true")
    if game == PAGES_SHOWN_FOR:
        await standings_page.screenshot(path=str(shots / "tournament.png"))

    # A finished table: the tournament page links it; its history verifies.
    link = standings_page.get_by_test_id("table-link").first
    finished_id = await link.get_attribute("data-game-id")
    assert finished_id
    await link.click()
    await expect(standings_page.get_by_test_id("outcome")).to_be_visible(timeout=LONG)
    await _step_and_verify(table_page, served, finished_id)
    if game == PAGES_SHOWN_FOR:
        await table_page.screenshot(path=str(shots / "history.png"))
    assert any("/referee.v1.TournamentService/ListTournaments" in url for url in requests)
    # A whole game goes up as binary protobuf (smaller, faster to read than JSON).
    assert any(
        "/referee.v1.RefereeService/VerifyHistory application/proto" in seen for seen in requests
    )
    await context.close()


async def test_a_tampered_history_names_the_first_move_that_differs(
    served: Served, browser: Browser
) -> None:
    """The page verifies what it was given: events changed in transit fail at that move."""
    setup = SETUPS["gang_of_four"]
    tournament_id, _admin = await _tournament(served, Setup(setup.game, 4, setup.bots, 0))
    async with asyncio.timeout(LONG / 1000):
        while not (tables := (await _get(served, tournament_id)).round_results[0].tables)[
            0
        ].finished:
            await asyncio.sleep(0.2)
    game_id = tables[0].game_id

    async def tamper(route: Route) -> None:
        response = await route.fetch()
        history = await response.json()
        history["entries"][2]["events"] = []
        await route.fulfill(response=response, json=history)

    page = await browser.new_page()
    await page.route("**/referee.v1.RefereeService/GetHistory", tamper)
    await page.goto(f"{served.console}#/game/{game_id}/history")
    await page.get_by_test_id("verify").click()
    result = page.get_by_test_id("verify-result")
    await expect(result).to_have_attribute("data-status", "failed", timeout=LONG)
    await expect(result).to_contain_text("differs at move 3")
    await page.close()
