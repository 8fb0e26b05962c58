"""RatingService's reads (service.app.ratings): pages and their tokens, on a real Redis."""

from __future__ import annotations

import pytest
from redis.asyncio import Redis

from service.app.ratings import Ratings
from service.errors import BadRequest
from service.storage.ratings import RatingStore
from tests.ratings.test_rating_store import GAME, T0, update


async def played(store: RatingStore, player_id: str, games: range) -> None:
    for number in games:
        await store.apply(GAME, f"g{number}", [update(player_id, number, 25.0, f"g{number}")], T0)


async def test_a_history_read_page_by_page_holds_each_game_once_while_new_ones_land(
    client: Redis, prefix: str
) -> None:
    """Rule (service.app.ratings): "A history's position is a game number of the player's
    ..., which does not move when newer games are rated": a game rated between two pages
    is not on the later page, and no game is read twice or skipped."""
    big = RatingStore(client, key_prefix=prefix)  # keeps every entry
    await played(big, "alice", range(5))
    reads = Ratings(big, b"secret")
    first = await reads.history(GAME, "alice", 2, "")
    await played(big, "alice", range(5, 7))  # two newer games
    second = await reads.history(GAME, "alice", 2, first.next_page_token)
    third = await reads.history(GAME, "alice", 2, second.next_page_token)
    shown = [c.game_id for page in (first, second, third) for c in page.changes]
    assert shown == ["g4", "g3", "g2", "g1", "g0"]
    assert third.next_page_token == ""


async def test_a_history_token_is_good_for_its_own_listing_only(ratings: RatingStore) -> None:
    """Rule (ratings.proto): PAGE_TOKEN_INVALID for "a token that is not the next_page_token
    of the same listing": another player's, or one signed with another secret."""
    await played(ratings, "alice", range(3))
    await played(ratings, "bob", range(3))
    token = (await Ratings(ratings, b"secret").history(GAME, "alice", 1, "")).next_page_token
    for reads, player_id in (
        (Ratings(ratings, b"secret"), "bob"),
        (Ratings(ratings, b"other"), "alice"),
    ):
        with pytest.raises(BadRequest) as refused:
            await reads.history(GAME, player_id, 1, token)
        assert refused.value.reason == "PAGE_TOKEN_INVALID"
