"""A read that answers from the referee's copy of a game (Referee._current) never puts an
older copy back over the one a move made meanwhile in this process: the next move would
decide on the older state and lose a round trip to a conflict and a fresh load."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from engines.the_gang import GAME
from service.app.referee import Referee
from service.app.writer import TableWriter
from service.domain.auth import TokenSigner
from service.storage.store import RedisStore
from tests.app.in_memory import Stats


@pytest.fixture
async def referee(redis_url: str) -> AsyncIterator[Referee]:
    store = RedisStore.from_url(redis_url, key_prefix=f"race{uuid.uuid4().hex[:8]}:")
    referee = Referee(
        TableWriter(store, stats=Stats()), TokenSigner(b"k" * 32), allow_client_seeds=True
    )
    try:
        yield referee
    finally:
        await referee.feed.aclose()
        await store.aclose()


@pytest.mark.parametrize("copied", [True, False], ids=["from-copy", "loaded"])
async def test_a_read_racing_a_move_keeps_the_moves_copy(
    referee: Referee, monkeypatch: pytest.MonkeyPatch, copied: bool
) -> None:
    seed = b"read-race"
    created = await referee.create_game("the_gang", 3, {}, allow_spectators=True, seed=seed)
    gid, tokens = created.game_id, list(created.tokens)
    state = GAME.new_game(created.config, seed)
    rng = random.Random(seed)

    def next_move() -> tuple[int, Any]:
        seat = min(GAME.to_act(state))
        return seat, rng.choice(GAME.legal_moves(state, seat))

    async def move(seat: int, chosen: Any) -> int:
        done = await referee.submit_move(
            gid, tokens[seat], "the_gang", chosen, uuid.uuid4().hex, None
        )
        return done.version

    if copied:
        await referee.get_view(gid, tokens[0])  # the copy at version 0
    # The read takes its stamp (or its load) at version 0, then a move here commits
    # version 1 before the read goes on.
    read_at, go_on = asyncio.Event(), asyncio.Event()
    store = referee.feed.store
    name = "stamp" if copied else "load_with_presence"
    original = getattr(store, name)

    async def held(game_id: str) -> object:
        answer = await original(game_id)
        if not read_at.is_set():
            read_at.set()
            await go_on.wait()
        return answer

    monkeypatch.setattr(store, name, held)
    read = asyncio.create_task(referee.get_view(gid, tokens[0]))
    await read_at.wait()
    monkeypatch.setattr(store, name, original)
    seat, chosen = next_move()
    assert await move(seat, chosen) == 1
    state, _ = GAME.apply(state, seat, chosen)
    go_on.set()
    assert (await read).version == 0  # read before the move: its answer is the older one
    stats = referee.writer.stats
    assert isinstance(stats, Stats)
    seat, chosen = next_move()
    assert await move(seat, chosen) == 2
    assert (stats.conflicts, stats.retries) == (0, 0)  # decided on the move's own copy
