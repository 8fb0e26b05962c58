"""Every page of the console in every language, and axe-core on each.

One referee and one browser: a table of each game with a person's seat (the other seats
the referee's bots), a finished bot game of each, an open table, and a tournament with a
person and a bot. For English (chosen with the switch) at 1280 and 390 px, Dutch at 390 px
and German at 1280 px, every page is visited in one loop: no missing key (``⟦key⟧``), no
``{placeholder}`` left, and no serious or critical axe-core violation. The browser's own
language (a context with locale nl-NL or de-DE) picks the page's language by itself. A seat
whose token the host handed to a bot says so in words and offers no more moves.

With ``REFEREE_SCREENSHOTS=docs/console`` the loop also takes the screenshots of
docs/console (English at both sizes, Dutch on a phone, German on a desktop).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from playwright.async_api import Browser, BrowserContext, Page, ViewportSize, expect

from referee.v1 import lobby_pb2, lobby_pb2_grpc, referee_pb2, referee_pb2_grpc, tournament_pb2_grpc
from referee.v1 import tournament_pb2 as T  # noqa: N812 (as the other console tests)
from tests.console.support import DESKTOP, PHONE, ROOT, axe_problems, console_url, save_screenshot
from tests.servers import Served

GAMES = {"the_gang": 3, "pinched": 2, "gang_of_four": 4}
WAIT = 30_000  # ms
FINISHING_S = 240  # the longest a bot game may take to end on a busy machine
BOT = T.BOT_STRATEGY_HEURISTIC

# Text a page shows that a translation left unfinished: a key the catalogue lacks is drawn
# as ⟦key⟧, a parameter nobody filled stays as {name}. Also in the attributes people hear.
LEFTOVERS = """() => {
  const found = [];
  const bad = (text) => text && (text.includes('\u27e6') || /\\{\\w+\\}/.test(text));
  if (bad(document.body.innerText)) found.push(document.body.innerText.slice(0, 400));
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
    for (const name of ['title', 'aria-label', 'placeholder']) {
      const value = el.getAttribute(name);
      if (bad(value)) found.push(`${name}="${value}"`);
    }
  }
  return found;
}"""


@dataclass(frozen=True)
class Tables:
    """What the pages show: ids and the secrets a tab would hold."""

    seats: dict[str, tuple[str, str]]  # game -> (game id, seat 0's token)
    finished: dict[str, str]  # game -> id of a bot game (finished once `finish` returned)
    open_id: str
    open_admin: str
    tournament_id: str
    tournament_admin: str
    claim_code: str


def _auth(token: str) -> tuple[tuple[str, str]]:
    return (("authorization", f"Bearer {token}"),)


@pytest.fixture(scope="module")
def tables(served: Served) -> Iterator[Tables]:
    with grpc.insecure_channel(served.grpc) as channel:
        referee = referee_pb2_grpc.RefereeServiceStub(channel)
        lobby = lobby_pb2_grpc.LobbyServiceStub(channel)
        seats: dict[str, tuple[str, str]] = {}
        finished: dict[str, str] = {}
        for game, count in GAMES.items():
            bots = referee.CreateGame(
                referee_pb2.CreateGameRequest(
                    game=game, seats=count, allow_spectators=True, open_seats=count
                )
            )
            lobby.StartGame(
                lobby_pb2.StartGameRequest(game_id=bots.game_id, bot=BOT),
                metadata=_auth(bots.admin_token),
            )
            finished[game] = bots.game_id
            mine = referee.CreateGame(
                referee_pb2.CreateGameRequest(
                    game=game,
                    seats=count,
                    allow_spectators=True,
                    open_seats=count - 1,
                    names=["Ann"],
                )
            )
            lobby.StartGame(
                lobby_pb2.StartGameRequest(game_id=mine.game_id, bot=BOT),
                metadata=_auth(mine.admin_token),
            )
            seats[game] = (mine.game_id, mine.seat_tokens[0].token)
        waiting = referee.CreateGame(
            referee_pb2.CreateGameRequest(
                game="pinched",
                seats=3,
                allow_spectators=True,
                open_seats=2,
                names=["Ann"],
                listed=True,
            )
        )
        tournaments = tournament_pb2_grpc.TournamentServiceStub(channel)
        tournament = tournaments.CreateTournament(
            T.CreateTournamentRequest(
                game="pinched",
                seats_per_table=2,
                participants=[
                    T.ParticipantSpec(name="Ola"),
                    T.ParticipantSpec(name="Bot Bo", bot=BOT),
                ],
                format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
                rounds=1,
            )
        )
        yield Tables(
            seats=seats,
            finished=finished,
            open_id=waiting.game_id,
            open_admin=waiting.admin_token,
            tournament_id=tournament.tournament_id,
            tournament_admin=tournament.admin_token,
            claim_code=tournament.seat_codes[0].code,
        )


async def _finish(served: Served, tables: Tables) -> None:
    """Wait until every bot game is over."""
    async with grpc.aio.insecure_channel(served.grpc) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)

        async def over(game_id: str) -> None:
            watch = referee_pb2.WatchGameRequest(game_id=game_id)
            async for update in stub.WatchGame(watch, timeout=FINISHING_S):
                if update.view.HasField("outcome"):
                    return

        await asyncio.gather(*(over(game_id) for game_id in tables.finished.values()))


def _pages(tables: Tables) -> list[tuple[str, str, str]]:
    """(name, route, what shows the page is drawn) for every page of the console."""
    pages = [
        ("lobby", "#/", '[data-testid="tournament-row"]'),
        ("new-table", "#/new", '[data-testid="new-table"]'),
        ("join", f"#/join/{tables.open_id}", '[data-testid="join-summary"][data-state]'),
        ("table-admin", f"#/table/{tables.open_id}/admin", '[data-testid="admin-seat"]'),
        ("tournaments", "#/tournaments", '[data-testid="tournament-row"]'),
        ("tournament-new", "#/tournaments/new", '[data-testid="new-tournament-form"]'),
        ("tournament", f"#/tournament/{tables.tournament_id}", '[data-testid="standings"]'),
        (
            "tournament-admin",
            f"#/tournament/{tables.tournament_id}/admin",
            '[data-testid="admin-participant"]',
        ),
        (
            "claim",
            f"#/claim/{tables.tournament_id}/{tables.claim_code}",
            '[data-testid="claim-form"]',
        ),
        ("no-seat", "#/play/no-such-table", '[data-testid="no-seat"]'),
        ("not-found", "#/game/no-such-table", '[data-testid="problem"]'),
    ]
    for game, (game_id, _) in tables.seats.items():
        pages.append((f"seat-{game}", f"#/play/{game_id}", '[data-testid="prompt"]:not(:empty)'))
    for game, game_id in tables.finished.items():
        pages.append((f"game-{game}", f"#/game/{game_id}", '[data-testid="outcome"]'))
        pages.append((f"history-{game}", f"#/game/{game_id}/history", '[data-testid="step-move"]'))
    return pages


async def _hold_secrets(page: Page, base: str, tables: Tables) -> None:
    """The tab holds what the tabs that created the tables hold: admin and seat tokens."""
    held = {
        f"referee:table-admin:{tables.open_id}": tables.open_admin,
        f"referee:tournament-admin:{tables.tournament_id}": tables.tournament_admin,
        **{f"referee:seat:{game_id}": token for game_id, token in tables.seats.values()},
    }
    await page.goto(base)
    await page.evaluate(
        "(held) => { for (const [k, v] of Object.entries(held)) sessionStorage.setItem(k, v); }",
        held,
    )


async def _visit_all(
    browser: Browser,
    base: str,
    tables: Tables,
    run: tuple[str, ViewportSize],
    finished: asyncio.Future[None],
    shots: Path | None,
) -> list[str]:
    """Every page in ``lang`` (chosen with the switch) at ``viewport``: what is wrong. The
    pages of the bot games wait for ``finished``."""
    lang, viewport = run
    phone = viewport["width"] < 500
    context = await browser.new_context(
        viewport=viewport, device_scale_factor=1, is_mobile=phone, locale="en-GB"
    )
    page = await context.new_page()
    await _hold_secrets(page, base, tables)
    await page.get_by_test_id("language").select_option(lang)
    await expect(page.locator("html")).to_have_attribute("lang", lang)
    problems: list[str] = []
    for name, route, drawn in _pages(tables):
        if name.startswith(("game-", "history-")):
            await asyncio.shield(finished)
        await page.goto(f"{base}{route}")
        await expect(page.locator(drawn).first).to_be_visible(timeout=WAIT)
        await expect(page.get_by_test_id("language")).to_have_value(lang)
        if name.startswith(("game-", "seat-")):
            # A finished game's first screen says who won; a seat's, what it may do.
            first = "outcome" if name.startswith("game-") else "prompt"
            await expect(page.get_by_test_id(first)).to_be_in_viewport()
        if name == "not-found":  # in words; the code and the reason only behind Details
            shown = await page.get_by_test_id("problem").inner_text()
            assert "not_found" not in shown and "GAME_NOT_FOUND" not in shown, shown
        problems += [f"{lang} {name}: {text}" for text in await page.evaluate(LEFTOVERS)]
        problems += [
            f"{lang} {viewport['width']} {name}: {axe}" for axe in await axe_problems(page)
        ]
        size = "phone" if phone else "desktop"
        if shots is not None and name in SHOTS[(lang, size)]:
            await save_screenshot(page, shots / f"{lang}-{size}-{name}.png")
    await context.close()
    return problems


# The pages photographed for docs/console, per (language, size): every kind of page in
# English on a desktop, the players' pages on a phone, and one set each in Dutch and German.
GAME_PAGES = [f"{kind}-{game}" for kind in ("seat", "game") for game in GAMES]
SHOTS = {
    ("en", "desktop"): {
        "lobby",
        "new-table",
        "join",
        "table-admin",
        "tournament",
        "tournament-new",
        "tournament-admin",
        "claim",
        "history-pinched",
        *GAME_PAGES,
    },
    ("en", "phone"): {"lobby", "join", "history-the_gang", *GAME_PAGES},
    ("nl", "phone"): {"lobby", "seat-pinched", "game-the_gang"},
    ("de", "desktop"): {"lobby", "seat-gang_of_four", "game-gang_of_four"},
}

# Each language once, English at both sizes: (language, viewport).
RUNS = (("en", DESKTOP), ("en", PHONE), ("nl", PHONE), ("de", DESKTOP))


async def test_every_page_in_every_language_has_no_missing_text_and_passes_axe(
    served: Served, browser: Browser, tables: Tables
) -> None:
    base = console_url(served)
    # The bot games play on while the other pages are visited; their pages come last.
    finished = asyncio.ensure_future(_finish(served, tables))
    chosen = os.environ.get("REFEREE_SCREENSHOTS")
    shots = ROOT / chosen if chosen else None
    # The four runs side by side, each in a context of its own (own storage, own language).
    found = await asyncio.gather(
        *(
            _visit_all(browser, base, tables, (lang, viewport), finished, shots)
            for lang, viewport in RUNS
        )
    )
    problems = [problem for run in found for problem in run]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("locale", ["nl-NL", "de-DE"])
async def test_the_browsers_language_chooses_the_pages_language(
    served: Served, browser: Browser, locale: str
) -> None:
    context: BrowserContext = await browser.new_context(locale=locale)
    page = await context.new_page()
    await page.goto(console_url(served))
    lang = locale[:2]
    await expect(page.locator("html")).to_have_attribute("lang", lang)
    await expect(page.get_by_test_id("language")).to_have_value(lang)
    heading = {"nl": "Tafels", "de": "Tische"}[lang]
    await expect(page.get_by_role("heading", level=1).first).to_have_text(heading)
    assert await page.evaluate(LEFTOVERS) == []
    await context.close()


async def test_a_seat_handed_to_a_bot_says_so_and_offers_no_more_moves(
    served: Served, browser: Browser, tables: Tables
) -> None:
    base = console_url(served)
    with grpc.insecure_channel(served.grpc) as channel:
        referee = referee_pb2_grpc.RefereeServiceStub(channel)
        created = referee.CreateGame(
            referee_pb2.CreateGameRequest(
                game="gang_of_four", seats=3, allow_spectators=True, names=["Ann", "Bo", "Cy"]
            )
        )
    game_id = created.game_id
    context = await browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True)
    page = await context.new_page()
    await page.goto(f"{base}#/play/{game_id}/{created.seat_tokens[0].token}")
    await expect(page.get_by_test_id("prompt")).not_to_be_empty(timeout=WAIT)
    with grpc.insecure_channel(served.grpc) as channel:
        lobby = lobby_pb2_grpc.LobbyServiceStub(channel)
        lobby.ReplaceSeatByBot(
            lobby_pb2.ReplaceSeatByBotRequest(game_id=game_id, seat=0, bot=BOT),
            metadata=_auth(created.admin_token),
        )
    lost = page.get_by_test_id("seat-lost")
    await expect(lost).to_contain_text(
        "ask the host for a new link", ignore_case=True, timeout=WAIT
    )
    assert "TOKEN_REVOKED" not in await lost.inner_text()  # the reason only behind Details
    await expect(page.get_by_test_id("turn")).not_to_have_text("Your move")
    await expect(page.get_by_test_id("prompt")).to_contain_text("new link")
    await expect(page.get_by_test_id("move")).to_have_count(0)
    await expect(page.locator('[data-testid="game-view"] button:not([disabled])')).to_have_count(0)
    assert await axe_problems(page) == []
    await context.close()
