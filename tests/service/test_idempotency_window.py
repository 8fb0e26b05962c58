"""Idempotency records live while a game does; a finished game's retries are answered from
its log (issue 19, goal 5: the records were half of a finished game's bytes in Redis).

A retry with the same ``client_move_id`` gets the first submission's result and applies
nothing, whether its game is live (the moves hash answers) or finished (the finishing move
dropped the hash; the log holds each entry's seat and move id, and answers the same).
"""

from __future__ import annotations

import random
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from redis.asyncio import Redis

from engines.the_gang import GAME
from engines.the_gang.moves import TakeChip
from service.app.referee import Referee
from service.app.views import Submitted
from service.app.writer import TableWriter
from service.domain import records
from service.domain.auth import TokenSigner
from service.errors import BadRequest
from service.storage.store import RedisStore


@dataclass
class Played:
    game_id: str
    tokens: list[str]
    # (seat, move, client_move_id, first result) of every accepted move, in order
    moves: list[tuple[int, Any, str, Submitted]] = field(default_factory=list)


@pytest.fixture
async def referee(redis_url: str) -> AsyncIterator[Referee]:
    store = RedisStore.from_url(redis_url, key_prefix=f"idem{uuid.uuid4().hex[:8]}:")
    referee = Referee(TableWriter(store), TokenSigner(b"k" * 32), allow_client_seeds=True)
    try:
        yield referee
    finally:
        await referee.feed.aclose()
        await store.aclose()


async def play(referee: Referee, moves: int | None, seed: bytes = b"idem") -> Played:
    """A game of The Gang through the referee: to the end (None) or ``moves`` moves in."""
    created = await referee.create_game("the_gang", 4, {}, allow_spectators=True, seed=seed)
    played = Played(created.game_id, list(created.tokens))
    state = GAME.new_game(created.config, seed)
    rng = random.Random(seed)
    while not state.finished and (moves is None or len(played.moves) < moves):
        holders = state.chips[state.round]
        waiting = [s for s in sorted(GAME.to_act(state)) if s not in holders]
        seat = rng.choice(waiting or sorted(GAME.to_act(state)))
        legal = GAME.legal_moves(state, seat)
        centre = [m for m in legal if isinstance(m, TakeChip) and holders[m.stars - 1] is None]
        move = rng.choice(centre or legal)
        move_id = str(uuid.UUID(int=rng.getrandbits(128)))
        first = await referee.submit_move(
            played.game_id, played.tokens[seat], "the_gang", move, move_id, None
        )
        played.moves.append((seat, move, move_id, first))
        state, _ = GAME.apply(state, seat, move)
    return played


async def retry(referee: Referee, played: Played, number: int, move: Any = None) -> Submitted:
    seat, first_move, move_id, _ = played.moves[number]
    return await referee.submit_move(
        played.game_id,
        played.tokens[seat],
        "the_gang",
        first_move if move is None else move,
        move_id,
        None,
    )


def assert_first_result(again: Submitted, first: Submitted) -> None:
    assert again.duplicate and not first.duplicate
    assert (again.version, again.view, again.events) == (first.version, first.view, first.events)


async def test_a_late_retry_of_a_finished_games_move_gets_its_first_result(
    referee: Referee, raw_redis: Redis
) -> None:
    played = await play(referee, None)
    keys = referee.feed.store.keys(played.game_id)
    assert await raw_redis.exists(keys.moves) == 0  # dropped by the finishing move
    assert await raw_redis.llen(keys.log) == 1  # packed by it (RedisStore.log unpacks)
    length = len(await referee.feed.store.log(played.game_id))
    # The first move, one in the middle and the finishing one: each gets its first result
    # (rebuilt from the log), and nothing is applied again.
    for number in (0, len(played.moves) // 2, len(played.moves) - 1):
        assert_first_result(await retry(referee, played, number), played.moves[number][3])
    assert len(await referee.feed.store.log(played.game_id)) == length == len(played.moves)
    assert await raw_redis.llen(keys.log) == 1
    assert (await referee.feed.store.load(played.game_id)) is not None
    assert await raw_redis.xlen(keys.events) <= 4  # the stream keeps the last moves only


async def test_a_late_retry_with_another_move_is_refused_as_a_reused_id(
    referee: Referee,
) -> None:
    played = await play(referee, None, seed=b"idem-reused")
    first_move, other = played.moves[0][1], played.moves[1][1]
    assert first_move != other
    with pytest.raises(BadRequest) as refused:
        await retry(referee, played, 0, other)
    assert refused.value.reason == "MOVE_ID_REUSED"


async def test_a_retry_in_a_live_game_gets_its_first_result(
    referee: Referee, raw_redis: Redis
) -> None:
    played = await play(referee, 12, seed=b"idem-live")
    keys = referee.feed.store.keys(played.game_id)
    stored = await raw_redis.hgetall(keys.moves)
    assert len(stored) == 12
    # The record is the version alone: small enough for Redis's compact hash encoding.
    assert all(len(value) <= 3 for value in stored.values())
    assert await raw_redis.object("encoding", keys.moves) in (b"ziplist", b"listpack")
    for number in (0, 11):
        assert_first_result(await retry(referee, played, number), played.moves[number][3])
    assert await raw_redis.llen(keys.log) == 12
    assert (await referee.feed.store.load(played.game_id)).version == 12  # type: ignore[union-attr]


async def test_a_record_stored_with_its_digest_still_answers(
    referee: Referee, raw_redis: Redis
) -> None:
    """Records written before issue 19 carry the move's digest, under the move key as text
    (not its short key); they answer as before."""
    played = await play(referee, 3, seed=b"idem-legacy")
    seat, move, move_id, first = played.moves[1]
    legacy = records.MoveRecord(first.version, records.move_digest(records.encode(move)))
    key = referee.feed.store.keys(played.game_id).moves
    text_key = records.move_key(seat, move_id)
    assert await raw_redis.hdel(key, records.short_key(text_key)) == 1
    await raw_redis.hset(key, text_key, records.encode(legacy))
    assert_first_result(await retry(referee, played, 1), first)
    with pytest.raises(BadRequest) as refused:
        await retry(referee, played, 1, played.moves[0][1])
    assert refused.value.reason == "MOVE_ID_REUSED"
