"""Every spectator page of the console on a phone: 390 px wide, and at 1280 px.

Against `referee serve`: a short bot tournament of each game (one round, bots without a
pause) and a live table of each game that the test plays a few moves into (names, a turn
clock). The front page, the tournaments list, each tournament page, each live table and
the history of a finished one are opened at 390x844 and 1280x800; at 390 px
`phone_problems` must find nothing anywhere on the page, the games' felts included (no
horizontal scroll, tap targets of 40 px, text of 13 px).
Screenshots: phone-<page>.png and desktop-<page>.png, in the test's tmp_path.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import Browser, Page, expect

from referee.bots import bot_for
from referee.client import AsyncRefereeClient
from referee.v1 import game_pb2, referee_pb2, table_pb2, tournament_pb2, tournament_pb2_grpc
from tests.console.support import (
    DESKTOP,
    PHONE,
    console_url,
    grpc_channel,
    phone_problems,
)
from tests.servers import Served

T = tournament_pb2
LONG = 90_000  # ms: the longest wait for a tournament of bots
WAIT = 20_000  # ms: the longest wait for a page
SEATS = {"the_gang": 3, "gang_of_four": 4, "pinched": 2}
NAMES = ["Ann", "Bram", "Cleo", "Dirk"]
MOVES = 6  # moves the test makes at each live table: enough for cards on the felt
HISTORY_OF = "pinched"  # one history page: the shortest whole game of the three


@dataclass
class Shown:
    """One game's pages: its tournament, a live table of it, its finished table."""

    game: str
    tournament_id: str
    live_id: str
    live_version: int
    finished_id: str


async def _tournament(served: Served, game: str) -> str:
    """A started round robin of one table of heuristic bots, one round, no pauses."""
    async with grpc_channel(served) as channel:
        stub = tournament_pb2_grpc.TournamentServiceStub(channel)
        created = await stub.CreateTournament(
            T.CreateTournamentRequest(
                game=game,
                seats_per_table=SEATS[game],
                participants=[
                    T.ParticipantSpec(name=name, bot=T.BOT_STRATEGY_HEURISTIC)
                    for name in NAMES[: SEATS[game]]
                ],
                format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
                rounds=1,
                bot_move_delay_ms=0,
            )
        )
        await stub.StartTournament(
            T.StartTournamentRequest(tournament_id=created.tournament_id),
            metadata=(("authorization", f"Bearer {created.admin_token}"),),
        )
    return created.tournament_id


async def _live_table(client: AsyncRefereeClient, game: str) -> tuple[str, int]:
    """A named table with a turn clock, MOVES moves in (heuristic bots): its id, version."""
    seats = SEATS[game]
    request = referee_pb2.CreateGameRequest(
        game=game,
        seats=seats,
        names=NAMES[:seats],
        allow_spectators=True,
        options=game_pb2.TableOptions(clock=table_pb2.Clock(move_seconds=600)),
    )
    created: referee_pb2.CreateGameResponse = await client.call(client.stub.CreateGame, request)
    players = client.seats(created)
    bots = [bot_for(game, "heuristic") for _ in players]
    rng = random.Random(game)
    version = 0
    for _ in range(MOVES):
        # A seat among those to act that has a move (simultaneous phases: not all do).
        to_act = (await players[0].view()).to_act
        for number in rng.sample(list(to_act), len(to_act)):
            seat = players[number]
            legal = await seat.legal_moves()
            move = bots[number].choose(await seat.view(), legal.moves, rng)
            if move is not None:
                version = (await seat.submit(move, expected_version=legal.version)).version
                break
        else:
            raise AssertionError(f"nobody moves at version {version}")
    return created.game_id, version


Ready = Callable[[Page], Awaitable[None]]


def _pages(shown: list[Shown]) -> dict[str, tuple[str, Ready]]:
    """Every page to check: its name, its route, and what says it is drawn."""

    async def listed(page: Page) -> None:
        await expect(page.get_by_test_id("tournament-row")).to_have_count(len(shown), timeout=WAIT)

    pages: dict[str, tuple[str, Ready]] = {
        "front": ("#/", listed),
        "tournaments": ("#/tournaments", listed),
    }
    for one in shown:

        async def standings(page: Page) -> None:
            await expect(page.get_by_test_id("tournament-status")).to_contain_text(
                "finished", timeout=WAIT
            )
            await expect(page.get_by_test_id("table-link")).to_have_count(1)

        async def live(page: Page, version: int = one.live_version) -> None:
            view = page.get_by_test_id("game-view")
            await expect(view).to_have_attribute("data-version", str(version), timeout=WAIT)
            await expect(page.get_by_test_id("seat-clock").first).to_be_visible()

        async def history(page: Page) -> None:
            # The seed (a finished game) and the board at the last step.
            await expect(page.get_by_test_id("seed")).to_be_visible(timeout=WAIT)
            await expect(page.get_by_test_id("game-view")).to_be_visible(timeout=WAIT)

        pages[f"tournament-{one.game}"] = (f"#/tournament/{one.tournament_id}", standings)
        pages[f"table-{one.game}"] = (f"#/game/{one.live_id}", live)
        if one.game == HISTORY_OF:
            pages[f"history-{one.game}"] = (f"#/game/{one.finished_id}/history", history)
    return pages


async def _finished_game(page: Page, served: Served, tournament_id: str) -> str:
    """The finished table of a tournament, once it is over (from its page)."""
    await page.goto(f"{console_url(served)}#/tournament/{tournament_id}")
    await expect(page.get_by_test_id("tournament-status")).to_contain_text("finished", timeout=LONG)
    game_id = await page.get_by_test_id("table-link").first.get_attribute("data-game-id")
    assert game_id
    return game_id


async def test_every_spectator_page_fits_a_phone(
    served: Served, browser: Browser, tmp_path: Path
) -> None:
    shots = tmp_path  # docs/console's set: test_console_languages.py
    tournaments = {game: await _tournament(served, game) for game in SEATS}
    async with AsyncRefereeClient(served.grpc) as client:
        live = {game: await _live_table(client, game) for game in SEATS}
    context = await browser.new_context(viewport=DESKTOP)
    page = await context.new_page()
    shown = [
        Shown(
            game,
            tournaments[game],
            *live[game],
            await _finished_game(page, served, tournaments[game]),
        )
        for game in SEATS
    ]
    problems: list[str] = []
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        await page.set_viewport_size(viewport)
        for name, (route, ready) in _pages(shown).items():
            await page.goto(f"{console_url(served)}{route}")
            await ready(page)
            if size == "phone":
                found = await phone_problems(page)
                problems += [f"{name}: {problem}" for problem in found]
            # The whole length of a phone's page; a desktop's first screen.
            path = str(shots / f"{size}-{name}.png")
            await page.screenshot(path=path, full_page=size == "phone")
    await context.close()
    assert not problems, "\n".join(problems)
