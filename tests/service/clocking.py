"""Test-side helpers for turn clocks: a referee on the conftest Redis with a fake time
source, its own key prefix (so its deadline index holds its own games only) and a firer
the test steps by hand (no background loop, no real seconds waited)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from referee.v1 import referee_pb2
from service.app.firer import Firer
from service.app.referee import Referee
from service.app.writer import Following, TableWriter
from service.domain.auth import TokenSigner
from service.domain.records import ClockSpec
from service.edge import translate
from service.edge.house_bots import HouseBots
from service.storage.deadlines import DeadlineIndex
from service.storage.lobby_listing import Listing
from service.storage.store import RedisStore
from service.storage.tables import load_table
from tests.app.in_memory import FakeTime
from tests.servers import BOT_SEARCH_SECONDS, SECRET

# One pool of bot workers for every clocked referee of the test process (its workers end
# with the process).
HOUSE_BOTS = HouseBots(BOT_SEARCH_SECONDS)


@dataclass
class Clocked:
    referee: Referee
    index: DeadlineIndex
    time: FakeTime
    prefix: str

    @property
    def writer(self) -> TableWriter:
        return self.referee.writer

    def firer(self, **options: Any) -> Firer:
        return Firer(self.writer, self.index, bots=HOUSE_BOTS, **options)

    def twin(self) -> TableWriter:
        """A second table writer (its own locks and copies) on the same store and time:
        another replica's."""
        return TableWriter(
            self.writer.store,
            deadlines=self.index,
            now_ms=self.time,
            bot_delay_ms=self.writer.bot_delay_ms,
        )


async def clocked_referee(redis_url: str, *, listed: bool = False) -> AsyncIterator[Clocked]:
    """The referee (``listed``: with a lobby listing of its own, as a served one has)."""
    prefix = f"clk{uuid.uuid4().hex[:8]}:"
    store = RedisStore.from_url(redis_url, key_prefix=prefix, finished_ttl_seconds=600)
    index = DeadlineIndex(store.client, key_prefix=prefix)
    time = FakeTime()
    listing = Listing(store.client, lambda game_id: store.keys(game_id).game, prefix)
    following = Following(listing if listed else None)
    writer = TableWriter(store, deadlines=index, now_ms=time, following=following)
    referee = Referee(writer, TokenSigner(SECRET), allow_client_seeds=True)
    try:
        yield Clocked(referee, index, time, prefix)
    finally:
        await store.aclose()


async def create(
    clocked: Clocked, game: str, seats: int, clock: ClockSpec, seed: bytes = b"clock"
) -> tuple[str, list[str]]:
    created = await clocked.referee.create_game(
        game, seats, {"clock": clock}, allow_spectators=True, seed=seed
    )
    return created.game_id, created.tokens


async def full_history(referee: Referee, game_id: str) -> referee_pb2.GetHistoryResponse:
    """Every page of the game's history, as one response (what a client gathers)."""
    page = translate.history_to_proto(await referee.history(game_id, None))
    whole = referee_pb2.GetHistoryResponse()
    whole.CopyFrom(page)
    while page.next_page_token:
        page = translate.history_to_proto(
            await referee.history(game_id, None, page_token=page.next_page_token)
        )
        whole.entries.extend(page.entries)
    whole.next_page_token = ""
    return whole


async def play_others(clocked: Clocked, game_id: str, tokens: list[str], idle: int) -> bool:
    """One player's move (its default move, as a player) by the first awaited seat other
    than ``idle``; False when only ``idle`` is awaited (or the game is over)."""
    table = await load_table(clocked.referee.store, game_id)
    others = [seat for seat in sorted(table.awaited(table.state)) if seat != idle]
    if table.finished or not others:
        return False
    seat = others[0]
    move = table.game.default_move(table.state, seat)
    await clocked.referee.submit_move(
        game_id, tokens[seat], table.game.name, move, f"p{table.version}:{seat}", None
    )
    return True
