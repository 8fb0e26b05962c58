"""The ratings pages end to end: `referee serve` as its own process, chromium.

Seeded by play: rated Gang of Four tables (CreateGame ``rated`` with an operator key), each
of three people joined with a player id and a heuristic bot, every person playing its first
legal move until the game ends; three of them play a second table. A tournament of bots
(its tables are rated) adds ``bot:random``. That rates 21 people and two bots: one
leaderboard page of 20 and a second of 3.

- The leaderboard (`#/ratings/gang_of_four`, reached from the header) lists the players
  by name in the referee's rank order, a bot by its kind ("Heuristic bot"); "More" adds
  the second page and takes the keyboard's focus to its first row; a row opens the
  player's page with its two rated games, newest first, each with its replay link, which
  opens. The heuristic bot's page lists every table it sat at, the tournament's linked.
- A player never rated gets "no rated games yet", an empty game's leaderboard says nobody
  is rated yet.
- On both pages, at 1280 and 390 px: no serious or critical axe-core violation, no seat
  number, no raw bot id, no unfilled sentence; at 390 px nothing a phone cannot use, in
  English and in German (the longer words).
Screenshots: ratings-leaderboard.png, ratings-player.png and, on a phone,
ratings-*-phone-<locale>.png (the test's tmp_path, or REFEREE_SCREENSHOTS).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
import redis
from playwright.async_api import Browser, Page, expect

from referee.v1 import (
    lobby_pb2,
    lobby_pb2_grpc,
    ratings_pb2,
    ratings_pb2_grpc,
    referee_pb2,
    referee_pb2_grpc,
    tournament_pb2_grpc,
)
from referee.v1 import tournament_pb2 as T  # noqa: N812 (as the other console tests)
from tests.console.support import (
    CONSOLE_DB,
    DESKTOP,
    PHONE,
    axe_problems,
    console_url,
    phone_problems,
    save_screenshot,
    screenshot_dir,
)
from tests.servers import Served, referee_process

GAME = "gang_of_four"
PEOPLE_PER_TABLE = 3  # and one heuristic bot: Gang of Four's four seats
NAMES = [
    "Ada", "Bram", "Cleo", "Dirk", "Eva", "Fenna", "Gijs", "Hanna", "Ilse", "Joost", "Kees",
    "Lotte", "Mees", "Noor", "Otto", "Pien", "Quinn", "Ruben", "Sara", "Teun", "Uma",
]  # fmt: skip
TABLES = 8  # of people: seven, and a second one for three of them
PAGE = 20  # the console's leaderboard page (pages/ratings.ts LEADERBOARD_PAGE)
SECRET = "console0123456789abcd"
KEY = (("x-referee-key", SECRET),)
SERVED_ENV = {
    "REFEREE_BOT_MOVE_DELAY_MS": "0",
    "REFEREE_OPERATOR_KEYS": f"console {SECRET}",
}
WAIT = 20_000  # ms: the longest wait for a page
RATED_WITHIN_S = 30.0  # the longest wait for the last tables' ratings
POLL_S = 0.05
BOT_WORDS = {"bot:heuristic": "Heuristic bot", "bot:random": "Random bot"}
# What a page must never show: a seat by number, a raw bot or game id, an unfilled sentence.
NEVER = re.compile(r"\bseat\b|\bbot:|\bgame:|⟦|\{\w+\}", re.IGNORECASE)


@dataclass(frozen=True)
class Seeded:
    """The ratings the tables left: the board as the referee ranks it, a player's games."""

    board: list[tuple[str, str]]  # (player id, name), in rank order
    twice: str  # the player id of the person who played two tables
    twice_games: list[str]  # its game ids, newest first
    tournament_id: str  # a tournament of bots (its table is rated too)


def _player_id(name: str) -> str:
    return f"p-{name.lower()}"


def _auth(token: str) -> tuple[tuple[str, str]]:
    return (("authorization", f"Bearer {token}"),)


async def _rated_table(channel: grpc.aio.Channel, names: list[str]) -> str:
    """A rated table of ``names`` (joined with their player ids) and a heuristic bot, played
    to its end by each person's first legal move: its game id."""
    referee = referee_pb2_grpc.RefereeServiceStub(channel)
    lobby = lobby_pb2_grpc.LobbyServiceStub(channel)
    request = referee_pb2.CreateGameRequest(
        game=GAME,
        seats=len(names) + 1,
        open_seats=len(names) + 1,
        rated=True,
        allow_spectators=True,  # its replay, which the player's page links to, is public
    )
    created = await referee.CreateGame(request, metadata=KEY)
    tokens = {}
    for name in names:
        join = lobby_pb2.JoinGameRequest(
            join_code=created.join_code, display_name=name, player_id=_player_id(name)
        )
        joined = await lobby.JoinGame(join, metadata=KEY)  # the operator vouches for the id
        tokens[joined.seat] = joined.seat_token
    start = lobby_pb2.StartGameRequest(game_id=created.game_id, bot=T.BOT_STRATEGY_HEURISTIC)
    await lobby.StartGame(start, metadata=_auth(created.admin_token))
    await _play(referee, created.game_id, tokens)
    return created.game_id


async def _play(
    referee: referee_pb2_grpc.RefereeServiceAsyncStub, game_id: str, tokens: dict[int, str]
) -> None:
    """Each person to act plays its first legal move, until the game ends. The watch says
    when a person may be to act; the legal moves, read then, say whether it still is."""
    watch = referee_pb2.WatchGameRequest(game_id=game_id)
    first = next(iter(tokens.values()))
    async for update in referee.WatchGame(watch, metadata=_auth(first)):
        if update.view.HasField("outcome"):
            return
        people = [seat for seat in update.view.to_act if seat in tokens]
        if not people:
            continue
        auth = _auth(tokens[people[0]])
        listing = referee_pb2.ListLegalMovesRequest(game_id=game_id)
        legal = await referee.ListLegalMoves(listing, metadata=auth)
        if not legal.moves:
            continue  # the stream is behind: this person is no longer to act
        move = referee_pb2.SubmitMoveRequest(
            game_id=game_id,
            move=legal.moves[0],
            client_move_id=f"{people[0]}-{legal.version}",
            expected_version=legal.version,
        )
        await referee.SubmitMove(move, metadata=auth)
    raise AssertionError("the watch ended before the game")


async def _bot_tournament(channel: grpc.aio.Channel) -> str:
    """A one-table tournament of two heuristic and two random bots, started: its id."""
    stub = tournament_pb2_grpc.TournamentServiceStub(channel)
    bots = [T.BOT_STRATEGY_HEURISTIC, T.BOT_STRATEGY_HEURISTIC, T.BOT_STRATEGY_RANDOM] * 2
    created = await stub.CreateTournament(
        T.CreateTournamentRequest(
            game=GAME,
            seats_per_table=4,
            participants=[
                T.ParticipantSpec(name=f"Bot {number}", bot=bot)
                for number, bot in enumerate(bots[:4], 1)
            ],
            format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
            rounds=1,
        ),
        metadata=KEY,  # a referee that knows operator keys asks every creator for one
    )
    start = T.StartTournamentRequest(tournament_id=created.tournament_id)
    await stub.StartTournament(start, metadata=(*_auth(created.admin_token), *KEY))
    return created.tournament_id


async def _all_rated(ratings: ratings_pb2_grpc.RatingServiceAsyncStub, tables: int) -> None:
    """Wait until every table is rated: the bot sat at each. A game is rated when it ends,
    but a table whose last move was the bot's may be rated just after its watch says it
    ended, and tables rated at once retry when they find the bot's rating changed."""
    bot = ratings_pb2.GetRatingRequest(game=GAME, player_id="bot:heuristic")
    deadline = asyncio.get_running_loop().time() + RATED_WITHIN_S
    while await _games(ratings, bot) < tables:
        assert asyncio.get_running_loop().time() < deadline, "the tables were not all rated"
        await asyncio.sleep(POLL_S)


async def _games(
    ratings: ratings_pb2_grpc.RatingServiceAsyncStub, request: ratings_pb2.GetRatingRequest
) -> int:
    """The player's rated games; 0 while it has none (NOT_FOUND)."""
    try:
        return (await ratings.GetRating(request)).rating.games
    except grpc.aio.AioRpcError as error:
        if error.code() != grpc.StatusCode.NOT_FOUND:
            raise
        return 0


async def _seed(address: str) -> Seeded:
    """Seven tables of three people at once, then a second table for three of them."""
    async with grpc.aio.insecure_channel(address) as channel:
        groups = [
            NAMES[start : start + PEOPLE_PER_TABLE]
            for start in range(0, len(NAMES), PEOPLE_PER_TABLE)
        ]
        tournament_id = await _bot_tournament(channel)
        await asyncio.gather(*(_rated_table(channel, group) for group in groups))
        await _rated_table(channel, NAMES[:PEOPLE_PER_TABLE])
        ratings = ratings_pb2_grpc.RatingServiceStub(channel)
        await _all_rated(ratings, TABLES + 1)  # and the tournament's table
        board: list[tuple[str, str]] = []
        token = ""
        while True:
            listing = ratings_pb2.ListLeaderboardRequest(game=GAME, page_size=100, page_token=token)
            page = await ratings.ListLeaderboard(listing)
            board += [(entry.rating.player_id, entry.rating.name) for entry in page.entries]
            token = page.next_page_token
            if not token:
                break
        twice = _player_id(NAMES[0])
        history = await ratings.ListRatingHistory(
            ratings_pb2.ListRatingHistoryRequest(game=GAME, player_id=twice)
        )
        games = [change.game_id for change in history.changes]
        return Seeded(board, twice, games, tournament_id)


@pytest.fixture(scope="module")
def served(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """The console's referee (conftest.py) that also knows an operator key, which a rated
    table needs."""
    url = f"{redis_url.rstrip('/').rsplit('/', 1)[0]}/{CONSOLE_DB}"
    client = redis.Redis.from_url(url)
    client.flushdb()
    try:
        with referee_process(url, tmp_path_factory.mktemp("ratings"), SERVED_ENV) as process:
            yield process
    finally:
        client.flushdb()
        client.close()


@pytest.fixture(scope="module")
def seeded(served: Served) -> Seeded:
    found = asyncio.run(_seed(served.grpc))
    assert len(found.board) == len(NAMES) + 2 > PAGE  # the people and two bots
    assert len(found.twice_games) == 2
    return found


def _shown(player_id: str, name: str) -> str:
    """The name the console shows for a player: a bot by its kind."""
    return BOT_WORDS.get(player_id, name)


async def _clean(page: Page) -> None:
    """Rule (brief): players by name, never a seat number or a debug code; axe passes."""
    text = await page.inner_text("main")
    assert NEVER.search(text) is None, f"{NEVER.search(text)!r} shown on {page.url}"
    assert await axe_problems(page) == [], page.url


async def test_the_leaderboard_ranks_by_name_pages_and_opens_a_players_history(
    served: Served, seeded: Seeded, browser: Browser, tmp_path: Path
) -> None:
    """Rule (issue 31, item 4): "The console shows a leaderboard page and a player's page":
    the players in the referee's rank order by name (a bot by its kind), paged with "More"
    (the keyboard's focus on the first new row), a row opening the player's rated games."""
    shots = screenshot_dir(tmp_path)
    base = console_url(served)
    context = await browser.new_context(viewport=DESKTOP, locale="en-US")
    page = await context.new_page()
    await page.goto(base)
    await page.get_by_test_id("nav-ratings").click()
    await expect(page.get_by_test_id("rating-empty")).to_be_visible()  # nobody plays The Gang
    await _clean(page)

    await page.locator(f'[data-testid="rating-games"] a[data-game="{GAME}"]').click()
    rows = page.get_by_test_id("leader-row")
    await expect(rows).to_have_count(PAGE, timeout=WAIT)
    expected = [_shown(player_id, name) for player_id, name in seeded.board]
    names = page.locator('[data-testid="leader-name"] a')
    assert await names.all_inner_texts() == expected[:PAGE]
    assert await page.get_by_test_id("leader-rank").all_inner_texts() == [
        str(rank) for rank in range(1, PAGE + 1)
    ]
    await _clean(page)
    await save_screenshot(page, shots / "ratings-leaderboard.png")

    await page.get_by_test_id("rating-more").focus()
    await page.keyboard.press("Enter")
    await expect(rows).to_have_count(len(expected))
    await expect(page.get_by_test_id("rating-more")).to_have_count(0)  # that was the last page
    assert await names.all_inner_texts() == expected
    focused = await page.evaluate(
        "() => document.activeElement?.closest('[data-testid=leader-row]')?.dataset.position"
    )
    assert focused == str(PAGE)

    await page.locator(f'[data-player-id="{seeded.twice}"] a').click()
    await expect(page.get_by_test_id("player-name")).to_have_text(NAMES[0])
    history = page.get_by_test_id("history-row")
    await expect(history).to_have_count(len(seeded.twice_games), timeout=WAIT)
    assert [await row.get_attribute("data-game-id") for row in await history.all()] == (
        seeded.twice_games
    )
    replays = page.locator('[data-testid="history-row"] a', has_text="Replay")
    assert [await link.get_attribute("href") for link in await replays.all()] == [
        f"#/game/{game_id}/history" for game_id in seeded.twice_games
    ]
    for place in await page.get_by_test_id("history-place").all_inner_texts():
        assert re.fullmatch(r"(1st|2nd|3rd|4th) of 4", place), place
    await _clean(page)
    await save_screenshot(page, shots / "ratings-player.png", full_page=True)
    await replays.first.click()  # a table with spectators: its replay opens for anyone
    await expect(page.get_by_test_id("step-move").first).to_be_visible(timeout=WAIT)
    await expect(page.get_by_test_id("problem")).to_have_count(0)

    await page.goto(f"{base}#/ratings/{GAME}/bot%3Aheuristic")
    await expect(page.get_by_test_id("player-name")).to_have_text("Heuristic bot")
    await expect(history).to_have_count(TABLES + 1, timeout=WAIT)  # it sat at every table
    tournament = page.locator('[data-testid="history-row"] a', has_text="Tournament")
    assert [await link.get_attribute("href") for link in await tournament.all()] == [
        f"#/tournament/{seeded.tournament_id}"
    ]
    await _clean(page)

    await page.goto(f"{base}#/ratings/{GAME}/p-nobody")
    await expect(page.get_by_test_id("rating-none")).to_be_visible()
    await expect(page.get_by_test_id("problem")).to_have_count(0)
    await _clean(page)
    await context.close()


async def test_the_ratings_pages_on_a_phone_in_english_and_german(
    served: Served, seeded: Seeded, browser: Browser, tmp_path: Path
) -> None:
    """Rule (issue 30's bar): at 390 px nothing a phone cannot use (no sideways scroll, taps
    of 40 px, text of 13 px) and axe passes; in German (the longer words) every word is
    there and still fits."""
    shots = screenshot_dir(tmp_path)
    base = console_url(served)
    for locale in ("en-US", "de-DE"):
        context = await browser.new_context(viewport=PHONE, locale=locale)
        page = await context.new_page()
        await page.goto(f"{base}#/ratings/{GAME}")
        await expect(page.get_by_test_id("leader-row")).to_have_count(PAGE, timeout=WAIT)
        await _clean(page)
        assert await phone_problems(page) == []
        await save_screenshot(page, shots / f"ratings-leaderboard-phone-{locale}.png")
        await page.goto(f"{base}#/ratings/{GAME}/{seeded.twice}")
        await expect(page.get_by_test_id("history-row")).to_have_count(len(seeded.twice_games))
        await _clean(page)
        assert await phone_problems(page) == []
        await save_screenshot(page, shots / f"ratings-player-phone-{locale}.png", full_page=True)
        await context.close()
