"""The lobby in the browser, against `referee serve` (bots move without a pause):
- two browser contexts: A creates a listed Pinched! table on `#/new` (3 seats, 2 open, a
  name, a clock) and copies the join link; the front page lists the table as open; B opens
  the link, is refused a wrong code in words, joins with a name; A's admin page shows B's
  name; A starts (a bot takes the last seat); the front page lists the table as live; A
  and B each play 10 moves by clicks on their seat pages, then A aborts (a whole game is
  long for the suite's budget) and a second abort is refused in words. No request of A
  carries B's token or the other way round, and no token is ever in a request URL;
- on a phone-sized page, a clock the referee refuses is shown in words on `#/new`; the
  admin's Forfeit, Replace by a bot and Reissue each work by a click, and each refusal (not
  started, already a bot, no player to reissue for, already forfeited, game over) shows in
  words; the lobby's pages have no horizontal scroll at 390 px and pass phone_problems.
Screenshots (in the test's tmp_path): lobby.png, new-table.png, join.png, table-admin.png,
lobby-phone.png.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
from playwright.async_api import Browser, Locator, Page, ViewportSize, expect

from referee.v1 import referee_pb2, referee_pb2_grpc
from tests.console.support import (
    DESKTOP,
    PHONE,
    Sent,
    console_url,
    grpc_channel,
    phone_problems,
)
from tests.servers import Served

WAIT = 30_000  # ms: the longest wait for the page
LISTED = 20_000  # ms: the front page asks again every 5 s
MOVES_EACH = 10
ON_PHONE = ViewportSize(width=PHONE["width"], height=PHONE["height"])
ON_DESKTOP = ViewportSize(width=DESKTOP["width"], height=DESKTOP["height"])

# The seat page is ready for a click: its move, the moves listed, nothing on its way.
READY = """() => {
  const turn = document.querySelector('[data-testid="turn"]');
  return !!turn && turn.textContent.trim() === 'Your move'
    && !!document.querySelector('[data-testid="move"]:not([disabled])')
    && !document.querySelector('[data-testid="sending"]');
}"""
OVER = """() => ['finished', 'aborted'].includes(
  document.querySelector('[data-testid="table-status"]')?.textContent.trim())"""


def _check_sent(sent: Sent, own: set[str], others: set[str]) -> None:
    """One browser context's requests: its own tokens went out, as authorization only."""
    sent.no_token_in_a_url(own | others)
    assert not sent.tokens & others, "another's token"
    assert own <= sent.tokens, "a token of this context was never sent"


async def _kept(page: Page, kind: str, game_id: str) -> str:
    token = await page.evaluate(
        "([kind, id]) => sessionStorage.getItem(`referee:${kind}:${id}`)", [kind, game_id]
    )
    assert isinstance(token, str) and token
    return token


# What sticks out past the right edge of the viewport, described.
WIDE = """() => [...document.querySelectorAll('body *')]
  .filter((el) => el.getBoundingClientRect().right > innerWidth + 1)
  .slice(0, 8).map((el) => `${el.tagName.toLowerCase()}.${el.className}`)"""
# The header, the tournament list, the game's felt and the seats panel are the phone
# layout's and the games' (test_console_phone.py, the seat pages' tests).
OTHERS = "header.top, .lobby-tournaments, .admin-main > .game-view, .admin-page .side"
SHOW = """([sel, display]) => document.querySelectorAll(sel)
  .forEach((el) => { el.style.display = display; })"""


async def _fits_a_phone(page: Page) -> None:
    """No horizontal scroll, and the lobby's own part of the page is usable on a phone."""
    wide = await page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert wide[0] <= wide[1], (
        f"{page.url}: {wide[0]} px wide in {wide[1]}: {await page.evaluate(WIDE)}"
    )
    await page.evaluate(SHOW, [OTHERS, "none"])
    try:
        problems = await phone_problems(page)
        assert not problems, f"{page.url}: {problems}"
    finally:
        await page.evaluate(SHOW, [OTHERS, ""])


async def _create(page: Page, served: Served, name: str, shots: Path | None) -> str:
    """A listed Pinched! table of 3 seats, 2 open, with a clock, made on `#/new`; the form
    is photographed (``shots``) or, on a phone, checked."""
    await page.goto(f"{console_url(served)}#/new")
    await page.get_by_test_id("new-game").select_option("pinched")
    await page.get_by_test_id("new-seats").select_option("3")
    await page.get_by_test_id("new-open-seats").select_option("2")
    await page.get_by_test_id("new-name").fill(name)
    await page.get_by_test_id("clock-move_seconds").fill("600")
    await page.get_by_test_id("clock-bank_seconds").fill("1800")
    await page.get_by_test_id("clock-increment_seconds").fill("5")
    await expect(page.get_by_test_id("new-listed")).to_be_checked()
    if shots is None:
        await _fits_a_phone(page)
    else:
        await page.screenshot(path=str(shots / "new-table.png"), full_page=True)
    await page.get_by_test_id("create-table").click()
    created = page.get_by_test_id("table-created")
    await expect(created).to_be_visible(timeout=WAIT)
    game_id = await created.get_attribute("data-game-id")
    assert game_id
    return game_id


def _listed(page: Page, game_id: str) -> Locator:
    return page.locator(f'[data-testid="lobby-table"][data-game-id="{game_id}"]')


def _admin_seat(page: Page, seat: int) -> Locator:
    return page.locator(f'[data-testid="admin-seat"][data-seat="{seat}"]')


async def _refused(page: Page, reason: str, words: str) -> None:
    refusal = page.get_by_test_id("lobby-refusal")
    await expect(refusal).to_have_attribute("data-reason", reason, timeout=WAIT)
    await expect(refusal).to_contain_text(words)


# The table moved past `v`, or the move was refused (the table moved on before it came).
MOVED_ON = """(v) => Number(document.querySelector('[data-testid="game-view"]')
  .getAttribute('data-version')) > v || !!document.querySelector('[data-testid="refusal"]')"""


async def _click_a_move(page: Page) -> bool:
    """Clicks the first listed move (from the folded list when the game draws its own
    controls); True once the table has moved on with it, False if it was refused."""
    view = page.get_by_test_id("game-view")
    version = int(await view.get_attribute("data-version") or "0")
    folded = page.get_by_test_id("all-moves")
    if await folded.count() and not await folded.evaluate("(d) => d.open"):
        await folded.locator("summary").click()
    await page.get_by_test_id("move").first.click()
    await page.wait_for_function(MOVED_ON, arg=version, timeout=WAIT)
    return not await page.get_by_test_id("refusal").count()


async def _next_to_move(pages: list[Page]) -> Page | None:
    """The page whose seat is to act now (None once the table is over)."""
    waits = {
        asyncio.ensure_future(
            page.wait_for_function(f"() => ({READY})() || ({OVER})()", timeout=WAIT)
        ): page
        for page in pages
    }
    done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    finished = done.pop()
    finished.result()
    page = waits[finished]
    return None if await page.evaluate(OVER) else page


async def _play(pages: list[Page]) -> dict[int, int]:
    """Both seats click moves until each has made MOVES_EACH (or the game is over)."""
    made = dict.fromkeys(range(len(pages)), 0)
    while min(made.values()) < MOVES_EACH:
        page = await _next_to_move(pages)
        if page is None:
            break
        if await _click_a_move(page):
            made[pages.index(page)] += 1
    return made


async def test_a_lobby_flow_across_two_browsers(
    served: Served, browser: Browser, tmp_path: Path
) -> None:
    shots = tmp_path  # docs/console's set: test_console_languages.py
    a_context = await browser.new_context(viewport=ON_DESKTOP)
    b_context = await browser.new_context(viewport=ON_DESKTOP)
    a_sent, b_sent = Sent().follow(a_context), Sent().follow(b_context)
    a, front, b = await a_context.new_page(), await a_context.new_page(), await b_context.new_page()
    # The page in use in front: a background tab's timers and animation frames are throttled.
    await a.bring_to_front()

    # A creates the table and copies the join link.
    game_id = await _create(a, served, "Ann", shots)
    link = await a.get_by_test_id("join-link").input_value()
    assert link.startswith(console_url(served)) and f"#/join/{game_id}/" in link
    a_tokens = {await _kept(a, "seat", game_id), await _kept(a, "table-admin", game_id)}
    await a.get_by_test_id("go-admin").click()
    await expect(a.get_by_test_id("table-status")).to_have_text("open", timeout=WAIT)

    # The front page lists it as open.
    await front.bring_to_front()
    await front.goto(console_url(served))
    await expect(_listed(front, game_id)).to_have_attribute("data-state", "open", timeout=LISTED)
    await expect(_listed(front, game_id)).to_contain_text("1 of 3 seats taken")

    # B opens the link: a wrong code is refused in words, the right one seats B.
    await b.goto(link)
    await expect(b.get_by_test_id("join-summary")).to_contain_text(
        "1 of 3 seats taken", timeout=WAIT
    )
    code = await b.get_by_test_id("join-code").input_value()
    assert code and link.endswith(code)
    await b.get_by_test_id("join-name").fill("Bo")
    await b.screenshot(path=str(shots / "join.png"))
    await b.get_by_test_id("join-code").fill("WRONG-CODE")
    await b.get_by_test_id("join").click()
    await _refused(b, "JOIN_CODE_INVALID", "join code does not work")
    await b.get_by_test_id("join-code").fill(code)
    await b.get_by_test_id("join").click()
    await expect(b.get_by_test_id("game-view")).to_have_attribute("data-seat", "1", timeout=WAIT)
    b_tokens = {await _kept(b, "seat", game_id)}

    # A's admin page shows B's name; A starts; the front page lists the table as live.
    await a.bring_to_front()
    await expect(_admin_seat(a, 1).get_by_test_id("admin-seat-name")).to_have_text(
        "Bo", timeout=WAIT
    )
    await a.screenshot(path=str(shots / "table-admin.png"), full_page=True)
    await a.get_by_test_id("admin-start").click()
    await expect(a.get_by_test_id("table-status")).to_have_text("live", timeout=WAIT)
    await expect(_admin_seat(a, 2)).to_have_attribute("data-holder", "bot")
    await front.bring_to_front()
    await expect(_listed(front, game_id)).to_have_attribute("data-state", "live", timeout=LISTED)
    await expect(_listed(front, game_id)).to_contain_text("Ann")
    await front.screenshot(path=str(shots / "lobby.png"))
    await front.set_viewport_size(ON_PHONE)
    await _fits_a_phone(front)
    await front.screenshot(path=str(shots / "lobby-phone.png"), full_page=True)

    # Both seats play by clicks, then the admin aborts.
    await a.bring_to_front()
    await a.get_by_test_id("play-my-seat").click()
    await expect(a.get_by_test_id("game-view")).to_have_attribute("data-seat", "0", timeout=WAIT)
    made = await _play([a, b])
    assert min(made.values()) >= MOVES_EACH, made
    await a.goto(f"{console_url(served)}#/table/{game_id}/admin")
    await a.get_by_test_id("admin-abort").click()
    await expect(a.get_by_test_id("table-status")).to_have_text("aborted", timeout=WAIT)
    await expect(b.get_by_test_id("table-status")).to_have_text("aborted", timeout=WAIT)
    await a.get_by_test_id("admin-abort").click()
    await _refused(a, "GAME_ABORTED", "aborted")

    _check_sent(a_sent, a_tokens, b_tokens)
    _check_sent(b_sent, b_tokens, a_tokens)
    await a_context.close()
    await b_context.close()


async def _revoked(served: Served, game_id: str, token: str) -> bool:
    async with grpc_channel(served) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        try:
            await stub.GetView(
                referee_pb2.GetViewRequest(game_id=game_id),
                metadata=(("authorization", f"Bearer {token}"),),
            )
        except grpc.aio.AioRpcError as error:
            return error.code() == grpc.StatusCode.UNAUTHENTICATED
    return False


async def test_the_admin_controls_and_their_refusals_on_a_phone(
    served: Served, browser: Browser
) -> None:
    context = await browser.new_context(viewport=ON_PHONE)
    page = await context.new_page()
    # A clock the referee refuses: an increment needs a bank.
    await page.goto(f"{console_url(served)}#/new")
    await page.get_by_test_id("clock-increment_seconds").fill("5")
    await page.get_by_test_id("create-table").click()
    await _refused(page, "CLOCK_INVALID", "clock does not work")
    game_id = await _create(page, served, "Host", None)
    await _fits_a_phone(page)
    old = await _kept(page, "seat", game_id)
    await page.get_by_test_id("go-admin").click()
    await expect(page.get_by_test_id("table-status")).to_have_text("open", timeout=WAIT)

    await _admin_seat(page, 0).get_by_test_id("seat-forfeit").click()
    await _refused(page, "GAME_NOT_STARTED", "not started")
    await page.get_by_test_id("admin-start").click()
    await expect(page.get_by_test_id("table-status")).to_have_text("live", timeout=WAIT)
    await _fits_a_phone(page)

    await _admin_seat(page, 2).get_by_test_id("seat-replace").click()
    await _refused(page, "SEAT_ALREADY_BOT", "already plays")
    await _admin_seat(page, 1).get_by_test_id("seat-reissue").click()
    await _refused(page, "SEAT_NOT_HELD", "no link to reissue")

    # Reissue: the new link is shown once, this tab plays with it, the old token is spent.
    await _admin_seat(page, 0).get_by_test_id("seat-reissue").click()
    new_link = await page.get_by_test_id("reissued-link").input_value()
    new = await _kept(page, "seat", game_id)
    assert new != old and new_link.endswith(f"#/play/{game_id}/{new}")
    assert await _revoked(served, game_id, old)

    await _admin_seat(page, 1).get_by_test_id("seat-forfeit").click()
    await expect(_admin_seat(page, 1)).to_contain_text("forfeited", timeout=WAIT)
    await _admin_seat(page, 1).get_by_test_id("seat-forfeit").click()
    await _refused(page, "SEAT_FORFEITED", "already forfeited")

    # A bot takes this tab's seat: the tab holds no seat any more; the bots finish the game.
    await _admin_seat(page, 0).get_by_test_id("seat-replace").click()
    await expect(_admin_seat(page, 0)).to_have_attribute("data-holder", "bot", timeout=WAIT)
    await expect(page.get_by_test_id("play-my-seat")).to_have_count(0)
    assert await _revoked(served, game_id, new)
    await expect(page.get_by_test_id("table-status")).to_have_text("finished", timeout=60_000)
    await page.get_by_test_id("admin-abort").click()
    await _refused(page, "GAME_OVER", "game is over")
    await _fits_a_phone(page)

    await page.goto(f"{console_url(served)}#/join/{game_id}")
    await expect(page.get_by_test_id("join-summary")).to_be_visible(timeout=WAIT)
    await _fits_a_phone(page)
    await context.close()
