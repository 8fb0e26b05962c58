"""The Python client's ratings (referee.client.ratings): both clients read a rated table's
ratings, its players' histories and the game's leaderboard, and a refusal is typed."""

from __future__ import annotations

import asyncio
import dataclasses
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from referee.client import AsyncRefereeClient, GameNotFound, InvalidArgument, RefereeClient
from service.process.server import running
from tests.ratings.support import GAME, OPERATOR_KEYS, play_first_moves, seated_rated_table
from tests.servers import settings_for


@pytest.fixture
async def rated(redis_url: str, tmp_path: Path) -> AsyncIterator[Rated]:
    """A referee with one finished rated table of two players of the test's own."""
    settings = dataclasses.replace(settings_for(redis_url, tmp_path), operator_keys=OPERATOR_KEYS)
    players = [f"cli-{uuid.uuid4().hex[:8]}" for _ in range(2)]
    async with running(settings) as handle:
        game_id, tokens = await seated_rated_table(handle.address, players)
        assert await play_first_moves(handle.address, game_id, tokens)
        yield Rated(handle.address, game_id, *players)


@dataclasses.dataclass(frozen=True)
class Rated:
    address: str
    game_id: str
    first: str
    second: str


async def test_the_asyncio_client_reads_ratings_histories_and_the_leaderboard(
    rated: Rated,
) -> None:
    """Rule (referee.client.ratings): ``get_rating``, ``rating_history`` and ``leaderboard``
    (and ``iter_leaderboard``, page after page) read RatingService."""
    async with AsyncRefereeClient(rated.address) as client:
        rating = await client.get_rating(GAME, rated.first)
        assert (rating.player_id, rating.games) == (rated.first, 1)
        history = await client.rating_history(GAME, rated.second, page_size=5)
        assert [change.game_id for change in history.changes] == [rated.game_id]
        page = await client.leaderboard(GAME, page_size=1)
        assert len(page.entries) == 1 and page.next_page_token
        everyone = [entry.rating.player_id async for entry in client.iter_leaderboard(GAME, 1)]
        assert {rated.first, rated.second} <= set(everyone)
        with pytest.raises(GameNotFound) as missing:  # NOT_FOUND, the client's one type of it
            await client.get_rating(GAME, "never-played")
        assert missing.value.reason == "RATING_NOT_FOUND"


async def test_the_blocking_client_reads_the_same_and_its_refusals_are_typed(
    rated: Rated,
) -> None:
    """The blocking twins (referee.client.derive) answer as the asyncio calls do."""

    def read() -> tuple[int, list[str], type[Exception]]:
        with RefereeClient(rated.address) as client:
            games = client.get_rating(GAME, rated.second).games
            history = client.rating_history(GAME, rated.first)
            try:
                client.leaderboard("no-such-game")
            except InvalidArgument as error:  # INVALID_ARGUMENT GAME_UNKNOWN
                refused: type[Exception] = type(error)
            return games, [change.game_id for change in history.changes], refused

    games, history, refused = await asyncio.to_thread(read)  # the referee runs on this loop
    assert (games, history, refused) == (1, [rated.game_id], InvalidArgument)
