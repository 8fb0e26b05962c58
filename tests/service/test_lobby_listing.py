"""The listing's pages (service.storage.lobby_listing) when many tables share one creation
millisecond: every table is shown exactly once, in (created ms, game id) order, newest
first, whatever the page size."""

from __future__ import annotations

import secrets

from redis.asyncio import Redis

from service.domain import records
from service.storage.lobby_listing import Listing, Summary


def summary(game_id: str, created_ms: int, game: str = "pinched") -> Summary:
    return Summary(game_id, game, records.TABLE_OPEN, 4, 1, False, ("Ada",), created_ms)


async def listing_of(raw_redis: Redis, prefix: str) -> Listing:
    return Listing(raw_redis, lambda game_id: f"{prefix}game:{game_id}", prefix=prefix)


async def all_pages(listing: Listing, games: list[str], size: int) -> list[str]:
    seen: list[str] = []
    token = ""
    for _ in range(1000):
        page, token = await listing.page(games, [records.TABLE_OPEN], size, token)
        assert len(page) <= size
        seen += [s.game_id for s in page]
        if not token:
            return seen
    raise AssertionError("the pages never ended")


async def test_many_tables_in_one_millisecond_are_each_shown_once(raw_redis: Redis) -> None:
    prefix = f"t{secrets.token_hex(4)}:"
    listing = await listing_of(raw_redis, prefix)
    tables = [(f"g{n:03d}", 1_000 + (0 if n < 40 else n)) for n in range(50)]
    for game_id, created_ms in tables:
        await raw_redis.set(f"{prefix}game:{game_id}", b"1")
        game = "pinched" if int(game_id[1:]) % 2 == 0 else "the_gang"
        await listing.put(summary(game_id, created_ms, game=game))
    expected = [g for g, _ in sorted(tables, key=lambda t: (t[1], t[0]), reverse=True)]
    for size in (1, 3, 8, 9, 50, 200):
        assert await all_pages(listing, ["pinched", "the_gang"], size) == expected


async def test_a_page_after_its_cursor_left_goes_on_after_it(raw_redis: Redis) -> None:
    prefix = f"t{secrets.token_hex(4)}:"
    listing = await listing_of(raw_redis, prefix)
    for n in range(20):
        await raw_redis.set(f"{prefix}game:g{n:02d}", b"1")
        await listing.put(summary(f"g{n:02d}", 5_000))
    first, token = await listing.page(["pinched"], [records.TABLE_OPEN], 5, "")
    assert [s.game_id for s in first] == ["g19", "g18", "g17", "g16", "g15"]
    await listing.remove("pinched", "g15")  # the cursor's own table started elsewhere
    second, _ = await listing.page(["pinched"], [records.TABLE_OPEN], 5, token)
    assert [s.game_id for s in second] == ["g14", "g13", "g12", "g11", "g10"]
