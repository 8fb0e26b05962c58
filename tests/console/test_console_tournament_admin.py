"""The tournament admin pages end to end: `referee serve` as its own process, chromium.

- A tournament made on `#/tournaments/new` (Pinched!, 2 seats, 1 round: a person and a
  bot) and started from its admin page; the person, in a second browser context, claims
  by the claim link, is taken to its table and plays every move of it by clicks on the seat
  page; the tournament finishes and its standings show the person's name. The admin page
  shows when the person claimed; the tournament page links the admin page only in the tab
  that holds the admin token; no request carries another context's token.
- On a phone (390 px), the admin page of a tournament whose people never move hands one
  seat to a bot and forfeits the other by clicks, and shows a refusal in words; the three
  pages have no horizontal scroll, small tap targets or small text.
Screenshots: tournament-new.png, tournament-admin.png (1280x800; the test's tmp_path),
tournament-admin-phone.png (REFEREE_SCREENSHOTS).
"""

from __future__ import annotations

import random
from pathlib import Path

import grpc
from playwright.async_api import Browser, Page, expect

from referee.v1 import tournament_pb2, tournament_pb2_grpc
from tests.console.support import (
    DESKTOP,
    PHONE,
    Sent,
    console_url,
    phone_problems,
    save_screenshot,
    screenshot_dir,
)
from tests.servers import Served

T = tournament_pb2
HUMAN = "Hanna"
LONG = 60_000  # ms: the longest wait for a table or a tournament to move on
MOST_MOVES = 600  # the person's moves in one Pinched! game, at most

# What the seat page asks of the person now: "over", "move:<version>:<moves>" when listed
# moves can be clicked, null while it waits (for the others, the listing, a move on its way).
SEAT_STATE = """() => {
  if (document.querySelector('[data-testid="outcome"]')) return 'over';
  const turn = document.querySelector('[data-testid="turn"]');
  if (!turn || turn.textContent.trim() !== 'Your move') return null;
  if (document.querySelector('[data-testid="sending"]')) return null;
  const moves = document.querySelectorAll('[data-testid="move"]:not([disabled])').length;
  if (!moves) return null;
  return `move:${document.querySelector('[data-testid="game-view"]').dataset.version}:${moves}`;
}"""
MOVED_ON = """(version) => {
  const view = document.querySelector('[data-testid="game-view"]');
  return document.querySelector('[data-testid="outcome"]')
    || document.querySelector('[data-testid="refusal"]')
    || (view && Number(view.dataset.version) > version);
}"""


async def _session_token(page: Page, kind: str, id_: str) -> str:
    token = await page.evaluate("([k]) => sessionStorage.getItem(k)", [f"referee:{kind}:{id_}"])
    assert isinstance(token, str) and token
    return token


async def _play_by_clicks(page: Page, rng: random.Random) -> int:
    """Play the seat page's table to its end by clicks on listed moves: how many were made."""
    for made in range(MOST_MOVES):
        state = await (await page.wait_for_function(SEAT_STATE, timeout=LONG)).json_value()
        if state == "over":
            return made
        _, version, moves = str(state).split(":")
        folded = page.locator('[data-testid="all-moves"]:not([open]) > summary')
        if await folded.count():
            await folded.first.click()
        await page.locator('[data-testid="move"]').nth(rng.randrange(int(moves))).click()
        await page.wait_for_function(MOVED_ON, arg=int(version), timeout=LONG)
    raise AssertionError(f"no end after {MOST_MOVES} moves")


async def test_a_tournament_made_on_the_page_with_a_person_playing_by_clicks_finishes(
    served: Served, browser: Browser, tmp_path: Path
) -> None:
    shots = tmp_path  # docs/console's set: test_console_languages.py
    base = console_url(served)
    admin_context = await browser.new_context(viewport=DESKTOP)
    human_context = await browser.new_context(viewport=DESKTOP)
    sent_admin, sent_human = Sent().follow(admin_context), Sent().follow(human_context)
    admin = await admin_context.new_page()
    await admin.goto(f"{base}#/tournaments/new")
    await admin.get_by_test_id("participant-name").first.fill(HUMAN)
    await expect(admin.get_by_test_id("participant-row")).to_have_count(2)
    await admin.screenshot(path=str(shots / "tournament-new.png"))
    await admin.get_by_test_id("nt-create").click()
    claim = admin.get_by_test_id("claim-link")
    link = await claim.input_value()
    code = await admin.get_by_test_id("seat-code-value").inner_text()
    tid = await admin.get_by_test_id("created").get_attribute("data-tournament-id")
    assert tid and link == f"{base}#/claim/{tid}/{code}"
    admin_token = await _session_token(admin, "tournament-admin", tid)

    await admin.get_by_test_id("admin-link").click()
    await expect(admin.get_by_test_id("admin-status")).to_have_attribute("data-status", "created")
    await expect(admin.get_by_test_id("unclaimed")).to_have_count(1)
    human = await human_context.new_page()
    await human.goto(link)
    assert code not in human.url  # the code left the address bar at once
    await human.get_by_test_id("claim-submit").click()
    await expect(human.get_by_test_id("no-tables")).to_be_visible()
    await expect(admin.get_by_test_id("claimed")).to_have_count(1)  # the admin sees the claim
    participant_token = await _session_token(human, "participant", tid)

    await admin.get_by_test_id("start-tournament").click()
    await expect(admin.get_by_test_id("admin-status")).to_have_attribute("data-status", "running")
    await expect(admin.get_by_test_id("admin-table")).to_have_count(1)
    await expect(admin.get_by_test_id("forfeit-seat")).to_have_count(1)  # the person's seat only
    await admin.screenshot(path=str(shots / "tournament-admin.png"))

    await human.wait_for_url(f"{base}#/play/*", timeout=LONG)  # its table opened by itself
    assert await _play_by_clicks(human, random.Random(18)) > 0
    await human.goto(f"{base}#/claim/{tid}")
    await expect(human.get_by_test_id("my-table")).to_have_attribute("data-state", "finished")

    await admin.goto(f"{base}#/tournament/{tid}")
    status = admin.get_by_test_id("tournament-status")
    await expect(status).to_contain_text("finished", timeout=LONG)
    await expect(admin.get_by_test_id("standing-name").filter(has_text=HUMAN)).to_have_count(1)
    await expect(admin.get_by_test_id("tournament-admin-link")).to_be_visible()
    await human.goto(f"{base}#/tournament/{tid}")
    await expect(human.get_by_test_id("standing-name").filter(has_text=HUMAN)).to_have_count(1)
    await expect(human.get_by_test_id("tournament-admin-link")).to_have_count(0)

    assert sent_admin.tokens == {admin_token}
    assert admin_token not in sent_human.tokens and participant_token in sent_human.tokens
    for url in [*sent_admin.urls, *sent_human.urls]:
        assert code not in url and admin_token not in url and participant_token not in url
        assert not any(token in url for token in sent_human.tokens)
    await admin_context.close()
    await human_context.close()


async def _no_shows(served: Served) -> tuple[str, str]:
    """A started Pinched! tournament: one 3-seat table, two people who never move, a bot."""
    async with grpc.aio.insecure_channel(served.grpc) as channel:
        stub = tournament_pb2_grpc.TournamentServiceStub(channel)
        created = await stub.CreateTournament(
            T.CreateTournamentRequest(
                game="pinched",
                seats_per_table=3,
                participants=[
                    T.ParticipantSpec(name="Ola"),
                    T.ParticipantSpec(name="Pim"),
                    T.ParticipantSpec(name="Bot Bo", bot=T.BOT_STRATEGY_RANDOM),
                ],
                format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
                rounds=1,
            )
        )
        auth = (("authorization", f"Bearer {created.admin_token}"),)
        await stub.StartTournament(
            T.StartTournamentRequest(tournament_id=created.tournament_id), metadata=auth
        )
    return created.tournament_id, created.admin_token


async def test_on_a_phone_the_admin_hands_a_seat_to_a_bot_and_forfeits_another(
    served: Served, browser: Browser, tmp_path: Path
) -> None:
    shots = screenshot_dir(tmp_path)
    base = console_url(served)
    tid, admin_token = await _no_shows(served)
    context = await browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True)
    page = await context.new_page()
    await page.goto(f"{base}#/tournaments/new")
    await expect(page.get_by_test_id("new-tournament-form")).to_be_visible()
    assert await phone_problems(page) == []
    await page.goto(f"{base}#/claim/{tid}")
    await expect(page.get_by_test_id("claim-form")).to_be_visible()
    assert await phone_problems(page) == []
    await page.evaluate(
        "([k, v]) => sessionStorage.setItem(k, v)", [f"referee:tournament-admin:{tid}", admin_token]
    )
    await page.goto(f"{base}#/tournament/{tid}/admin")
    ola = page.locator('[data-testid="admin-seat"][data-participant="0"]')
    pim = page.locator('[data-testid="admin-seat"][data-participant="1"]')
    await expect(ola.get_by_test_id("bot-seat")).to_be_visible(timeout=LONG)
    assert await phone_problems(page) == []
    await save_screenshot(page, shots / "tournament-admin-phone.png")

    await ola.get_by_test_id("bot-seat").click()
    await expect(page.get_by_test_id("admin-done")).to_have_text("A bot plays for Ola now.")
    await expect(ola.get_by_test_id("admin-seat-mark")).to_have_text("a bot plays it")
    await ola.get_by_test_id("bot-seat").click()  # again: the referee says no, in words
    refusal = page.get_by_test_id("admin-refusal")
    await expect(refusal).to_have_attribute("data-reason", "SEAT_ALREADY_BOT")
    await expect(refusal).to_contain_text("A bot already plays that seat.")
    await pim.get_by_test_id("forfeit-seat").click()
    await expect(page.get_by_test_id("admin-done")).to_have_text("Pim forfeited.")
    await expect(page.get_by_test_id("admin-status")).to_have_attribute(
        "data-status", "finished", timeout=LONG
    )
    await page.goto(f"{base}#/tournament/{tid}")
    names = page.get_by_test_id("standing-name")
    await expect(names).to_have_count(3)
    await expect(names.last).to_have_text("Pim")  # forfeited: last
    await context.close()
