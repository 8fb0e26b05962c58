"""The rating store and the games to rate, on a real Redis (service.storage.ratings,
service.storage.pending_ratings)."""

from __future__ import annotations

from redis.asyncio import Redis

from service.storage.pending_ratings import PendingRatings
from service.storage.ratings import Applied, PlayerRating, RatingChange, RatingStore, Skill, Update

GAME = "pinched"
T0 = 1_700_000_000_000


def update(player_id: str, games: int, mu: float, game_id: str, *, listed: bool = True) -> Update:
    before, after = Skill(), Skill(mu, 8.0)
    change = RatingChange(game_id, T0, before, after, 1, 2, 0)
    return Update(player_id, games, after, f"name of {player_id}", change, listed)


async def snapshot(client: Redis, prefix: str) -> dict[bytes, object]:
    found: dict[bytes, object] = {}
    async for key in client.scan_iter(match=f"{prefix}*"):
        found[key] = await client.dump(key)
    return found


async def test_an_apply_writes_every_rating_history_entry_and_score_and_its_marker(
    ratings: RatingStore,
) -> None:
    """Rule (rating_apply.lua): on OK "every player's rating, history entry and leaderboard
    score, and the game's marker, at once"; a player not ``listed`` (a game's
    pseudo-player) gets no leaderboard score."""
    updates = [update("alice", 0, 27.0, "g1"), update("game:x", 0, 23.0, "g1", listed=False)]
    assert await ratings.apply(GAME, "g1", updates, T0) is Applied.OK
    alice = await ratings.rating(GAME, "alice")
    assert alice == PlayerRating(GAME, "alice", Skill(27.0, 8.0), 1, T0, "name of alice")
    assert (await ratings.history(GAME, "alice", 0, 10)) == (1, [updates[0].change])
    assert [r.player_id for r in await ratings.board(GAME, 0, 10)] == ["alice"]
    assert (await ratings.rating(GAME, "game:x")).games == 1
    assert await ratings.rated(GAME, "g1")


async def test_a_game_rated_before_is_done_and_writes_nothing(
    ratings: RatingStore, client: Redis, prefix: str
) -> None:
    """Rule: "{"DONE"} the game was rated before ... Nothing is written but on OK"."""
    assert await ratings.apply(GAME, "g1", [update("alice", 0, 27.0, "g1")], T0) is Applied.OK
    before = await snapshot(client, prefix)
    again = [update("alice", 1, 29.0, "g1")]  # computed from the rating after g1
    assert await ratings.apply(GAME, "g1", again, T0 + 1) is Applied.DONE
    assert await snapshot(client, prefix) == before


async def test_a_rating_changed_since_it_was_read_is_a_conflict_and_writes_nothing(
    ratings: RatingStore, client: Redis, prefix: str
) -> None:
    """Rule: "{"CONFLICT", i} player i was rated by another game since its rating was read"."""
    await ratings.apply(GAME, "g1", [update("alice", 0, 27.0, "g1")], T0)
    before = await snapshot(client, prefix)
    stale = [update("bob", 0, 26.0, "g2"), update("alice", 0, 26.0, "g2")]  # alice read at 0
    assert await ratings.apply(GAME, "g2", stale, T0) is Applied.CONFLICT
    assert await snapshot(client, prefix) == before
    fresh = [update("bob", 0, 26.0, "g2"), update("alice", 1, 26.0, "g2")]
    assert await ratings.apply(GAME, "g2", fresh, T0) is Applied.OK
    assert (await ratings.rating(GAME, "alice")).games == 2


async def test_the_leaderboard_is_by_ordinal_highest_first_and_equal_ordinals_by_player_id(
    ratings: RatingStore,
) -> None:
    """Rule (ratings.proto): "1-based position by ordinal (highest first; equal ordinals by
    player_id)"."""
    for number, (player_id, mu) in enumerate(
        [("cy", 30.0), ("bo", 25.0), ("al", 25.0), ("di", 20.0)]
    ):
        await ratings.apply(GAME, f"g{number}", [update(player_id, 0, mu, f"g{number}")], T0)
    assert [r.player_id for r in await ratings.board(GAME, 0, 10)] == ["cy", "al", "bo", "di"]
    assert [r.player_id for r in await ratings.board(GAME, 1, 2)] == ["al", "bo"]


async def test_a_history_is_newest_first_and_a_page_is_asked_by_game_number(
    ratings: RatingStore,
) -> None:
    """Rule (storage.ratings): the entry at index i is the player's game number games - i,
    "which is what a page of it is asked from", so a newer game does not move the older
    pages; past ``history_kept`` (5 here) the oldest entries go."""
    for games in range(7):
        await ratings.apply(
            GAME, f"g{games}", [update("alice", games, 25.0 + games, f"g{games}")], T0
        )
    games, newest = await ratings.history(GAME, "alice", 0, 2)
    assert games == 7
    assert [c.game_id for c in newest] == ["g6", "g5"]
    _, older = await ratings.history(GAME, "alice", 5, 2)  # game number 5 is g4
    assert [c.game_id for c in older] == ["g4", "g3"]
    await ratings.apply(GAME, "g7", [update("alice", 7, 33.0, "g7")], T0)
    _, same = await ratings.history(GAME, "alice", 5, 2)
    assert [c.game_id for c in same] == ["g4", "g3"]
    _, last = await ratings.history(GAME, "alice", 3, 10)  # g2 and older: trimmed away
    assert last == []


async def test_a_game_to_rate_is_leased_to_one_claim_and_comes_back_when_the_lease_ends(
    pending: PendingRatings,
) -> None:
    """Rule (pending_ratings): claiming "leases the due members of a shard by moving their
    score a lease ahead ... a member of a rater that died comes back due when its lease runs
    out"; a member is added once (NX) and dropped by name."""
    await pending.add("game-a", 12, T0)
    await pending.add("game-a", 12, T0 + 50_000)  # the first score stays
    await pending.add("game-b", 3, T0 + 10_000)
    claimed = await pending.claim(T0, 1000, 8)
    assert [(p.game_id, p.version) for p in claimed] == [("game-a", 12)]
    assert await pending.claim(T0 + 999, 1000, 8) == []  # leased
    again = await pending.claim(T0 + 1000, 1000, 8)
    assert [p.game_id for p in again] == ["game-a"]
    await pending.drop("game-a", 12)
    assert [p.game_id for p in await pending.claim(T0 + 10_000, 1000, 8)] == ["game-b"]
    assert await pending.waiting() == 1
