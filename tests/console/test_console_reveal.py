"""The post-game reveal in the console: a finished game's history page, stepped to an early
version, shows every seat's hidden cards as they were then (WatchGame ``revealed``), for
each game; its verification checks those views. Referee bots play the games (no delay).

Screenshots: ``history-revealed.png`` (1280 px) and ``history-revealed-phone.png`` (390 px).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import grpc
import pytest
from google.protobuf.message import Message
from playwright.async_api import Browser, Page, expect

from referee.v1 import game_pb2, lobby_pb2, lobby_pb2_grpc, referee_pb2, referee_pb2_grpc
from referee.v1.tournament_pb2 import BOT_STRATEGY_HEURISTIC
from tests.console.support import (
    DESKTOP,
    PHONE,
    SMALLEST_TAP_PX,
    SMALLEST_TEXT_PX,
    card_key,
    cards_in,
    console_url,
    grpc_channel,
    save_screenshot,
    screenshot_dir,
)
from tests.servers import Served

LONG = 60_000  # ms
# In the order of the tests: Gang of Four, whose game is longest, last.
SEATS = {"the_gang": 3, "pinched": 2, "gang_of_four": 4}
FINISHING_S = 240  # the longest a bot game may take to end on a busy machine
EARLIEST = 2  # the page is stepped to the first version from here on where a seat hides a card
SHOWN_FOR = "gang_of_four"  # the screenshots'


# The reveal panel on a phone: its width, whether anything in it overflows, and any text
# smaller than readable or control smaller than a finger.
PANEL_ON_A_PHONE = """(panel, [tap, text]) => {
  const problems = [];
  for (const el of panel.querySelectorAll('*')) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (own && parseFloat(getComputedStyle(el).fontSize) < text) {
      problems.push(`text ${getComputedStyle(el).fontSize}: ${el.textContent.trim().slice(0, 20)}`);
    }
  }
  for (const el of panel.querySelectorAll('summary, button, a[href]')) {
    const box = el.getBoundingClientRect();
    if (box.height < tap || box.width < tap) problems.push(`tap ${box.width}x${box.height}`);
  }
  const box = panel.getBoundingClientRect();
  return {width: box.width, scroll: panel.scrollWidth, client: panel.clientWidth, problems};
}"""


@pytest.fixture(scope="module")
def started(served: Served) -> dict[str, str]:
    """One game of each, its seats handed to the referee's heuristic bots, all started at
    once so that they play meanwhile (a Gang of Four game takes longest): game -> id."""
    ids: dict[str, str] = {}
    with grpc.insecure_channel(served.grpc) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        lobby = lobby_pb2_grpc.LobbyServiceStub(channel)
        for game, seats in SEATS.items():
            created = stub.CreateGame(
                referee_pb2.CreateGameRequest(
                    game=game, seats=seats, allow_spectators=True, open_seats=seats
                )
            )
            lobby.StartGame(
                lobby_pb2.StartGameRequest(game_id=created.game_id, bot=BOT_STRATEGY_HEURISTIC),
                metadata=(("authorization", f"Bearer {created.admin_token}"),),
            )
            ids[game] = created.game_id
    return ids


async def _finished_game(
    served: Served, started: dict[str, str], game: str
) -> tuple[str, list[game_pb2.View]]:
    """The game of ``game`` once its bots have ended it, and its revealed view of every
    version."""
    game_id = started[game]
    async with grpc_channel(served) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        watch = referee_pb2.WatchGameRequest(game_id=game_id)
        async for update in stub.WatchGame(watch, timeout=FINISHING_S):
            if update.view.HasField("outcome"):
                break
        revealed = referee_pb2.WatchGameRequest(game_id=game_id, after_version=0, revealed=True)
        views = [update.view async for update in stub.WatchGame(revealed, timeout=FINISHING_S)]
    return game_id, views


def _hidden_by_seat(view: game_pb2.View) -> list[Counter[str]]:
    """Per seat, the card keys of its hidden cards in a revealed view."""
    body = getattr(view, view.WhichOneof("game_view") or "")
    if view.HasField("the_gang"):
        rows: list[list[Message]] = [list(r.cards) for r in body.revealed_pockets]
    elif view.HasField("gang_of_four"):
        rows = [list(r.cards) for r in body.revealed_hands]
    else:
        rows = [
            [*h.cards, *s.cards]
            for h, s in zip(body.revealed_hands, body.revealed_sold, strict=True)
        ]
    return [Counter(card_key(card) for card in row) for row in rows]


def _every_revealed_card(view: game_pb2.View) -> Counter[str]:
    body = getattr(view, view.WhichOneof("game_view") or "")
    found: Counter[str] = Counter()
    for field, value in body.ListFields():
        if field.name.startswith("revealed_") and field.message_type is not None:
            for item in value if field.is_repeated else [value]:
                found += cards_in(item)
    return found


async def _keys(page: Page, selector: str) -> Counter[str]:
    keys = await page.locator(f'{selector} [data-testid="card"]').evaluate_all(
        "cards => cards.map(c => c.getAttribute('data-card'))"
    )
    return Counter(str(key) for key in keys)


def _early(views: list[game_pb2.View]) -> game_pb2.View:
    """The first view from version EARLIEST on in which some seat hides a card (Pinched!
    stores its first cards in the open stashes)."""
    return next(v for v in views if v.version >= EARLIEST and any(_hidden_by_seat(v)))


async def _step_to(page: Page, served: Served, game_id: str, step: int, moves: int) -> None:
    await page.goto(f"{console_url(served)}#/game/{game_id}/history")
    await expect(page.get_by_test_id("seed")).to_be_visible(timeout=LONG)
    await page.get_by_test_id("step-first").click()
    await page.get_by_test_id("step-slider").fill(str(step - 1))
    await page.get_by_test_id("step-next").click()
    await expect(page.get_by_test_id("step-position")).to_have_text(f"{step} / {moves}")
    panel = page.get_by_test_id("revealed")
    await expect(panel).to_have_attribute("data-version", str(step), timeout=LONG)
    more = page.get_by_test_id("revealed-more")
    if await more.count():  # what else lay face down (none at 4 seats of Gang of Four)
        await more.locator("summary").click()


@pytest.mark.parametrize("game", list(SEATS))
async def test_a_finished_history_shows_every_hand_at_an_early_step(
    served: Served, started: dict[str, str], browser: Browser, game: str, tmp_path: Path
) -> None:
    game_id, views = await _finished_game(served, started, game)
    moves = len(views)
    assert [v.version for v in views] == list(range(1, moves + 1))
    assert all(view.revealed for view in views)
    early = _early(views)
    context = await browser.new_context(
        viewport={"width": DESKTOP["width"], "height": DESKTOP["height"]}
    )
    page = await context.new_page()
    await _step_to(page, served, game_id, early.version, moves)
    game_view = page.get_by_test_id("game-view")
    await expect(game_view).to_have_attribute("data-version", str(early.version))
    hidden = _hidden_by_seat(early)
    assert len(hidden) == SEATS[game]
    for seat, cards in enumerate(hidden):
        shown = await _keys(page, f'[data-testid="revealed-hand"][data-seat="{seat}"]')
        assert shown == cards, f"seat {seat}"
    assert await _keys(page, '[data-testid="revealed"]') == _every_revealed_card(early)
    if game == SHOWN_FOR:
        await save_screenshot(page, screenshot_dir(tmp_path) / "history-revealed.png")
    # The views the page received are the reveal's: VerifyHistory checks every one.
    await page.get_by_test_id("verify").click()
    result = page.get_by_test_id("verify-result")
    await expect(result).to_have_attribute("data-status", "passed", timeout=LONG)
    await expect(result).to_contain_text(f"{moves} views checked")
    await context.close()


async def test_the_reveal_is_usable_on_a_phone(
    served: Served, started: dict[str, str], browser: Browser, tmp_path: Path
) -> None:
    game_id, views = await _finished_game(served, started, SHOWN_FOR)
    context = await browser.new_context(
        viewport={"width": PHONE["width"], "height": PHONE["height"]}
    )
    page = await context.new_page()
    await _step_to(page, served, game_id, _early(views).version, len(views))
    panel = page.get_by_test_id("revealed")
    await panel.scroll_into_view_if_needed()
    # The panel itself (the page around it is the layout's): it fits a phone's width with
    # nothing overflowing, its text is readable and its one control big enough to tap.
    fit = await panel.evaluate(PANEL_ON_A_PHONE, [SMALLEST_TAP_PX, SMALLEST_TEXT_PX])
    assert fit["width"] <= PHONE["width"] and fit["scroll"] <= fit["client"], fit
    assert fit["problems"] == [], fit["problems"]
    await save_screenshot(panel, screenshot_dir(tmp_path) / "history-revealed-phone.png")
    await context.close()


async def test_the_page_of_a_finished_game_shows_the_hands_at_the_end(
    served: Served, started: dict[str, str], browser: Browser
) -> None:
    """The spectator's table page, once the game is over, draws the final view's reveal."""
    game_id, views = await _finished_game(served, started, "pinched")
    context = await browser.new_context(
        viewport={"width": DESKTOP["width"], "height": DESKTOP["height"]}
    )
    page = await context.new_page()
    await page.goto(f"{console_url(served)}#/game/{game_id}")
    panel = page.get_by_test_id("revealed")
    await expect(panel).to_have_attribute("data-version", str(len(views)), timeout=LONG)
    final = views[-1]
    for seat, cards in enumerate(_hidden_by_seat(final)):
        shown = await _keys(page, f'[data-testid="revealed-hand"][data-seat="{seat}"]')
        assert shown == cards, f"seat {seat}"
    await context.close()
