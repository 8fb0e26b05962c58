"""The no-show policy: after `no_show_after` consecutive clock moves a seat is handed to
the referee's bot (MOVE_BY_BOT from then on) or forfeited (played by the clock at once);
The Gang, which has no forfeit, hands it to a bot. Each game still ends and verifies."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from referee.v1 import table_pb2
from service.domain import clocks, records
from service.domain.records import ClockSpec
from service.edge.verify import verify_history
from service.storage.tables import load_table
from tests.service.clocking import Clocked, clocked_referee, create, full_history, play_others


@pytest.fixture
async def clocked(redis_url: str) -> AsyncIterator[Clocked]:
    async for made in clocked_referee(redis_url):
        yield made


@pytest.mark.parametrize(
    ("game", "policy", "after"),
    [
        ("gang_of_four", clocks.NO_SHOW_BOT, "bot"),
        ("pinched", clocks.NO_SHOW_FORFEIT, "forfeited"),
        ("the_gang", clocks.NO_SHOW_FORFEIT, "bot"),  # no forfeit in The Gang: a bot
    ],
)
async def test_a_no_show_is_handed_over_after_k_clock_moves(
    clocked: Clocked, game: str, policy: int, after: str
) -> None:
    spec = ClockSpec(move_seconds=1, no_show_after=2, no_show=policy)
    game_id, tokens = await create(clocked, game, 3, spec)
    firer = clocked.firer()
    for _ in range(20_000):
        if await play_others(clocked, game_id, tokens, idle=0):
            continue
        if (await load_table(clocked.referee.store, game_id)).finished:
            break
        clocked.time.advance(1000)
        await firer.fire_once()
    else:
        pytest.fail("the game did not end")
    table = await load_table(clocked.referee.store, game_id)
    hold = table.hosting.seats[0]
    (action,) = table.hosting.actions[-1:]
    assert action.automatic and action.seat == 0
    history = await full_history(clocked.referee, game_id)
    seat0 = [entry.by for entry in history.entries if entry.seat == 0]
    assert seat0[:2] == [table_pb2.MOVE_BY_CLOCK] * 2
    if after == "bot":
        assert hold.holder == records.BOT
        assert table_pb2.MOVE_BY_BOT in seat0[2:]
    else:
        assert hold.forfeited
        assert set(seat0) == {table_pb2.MOVE_BY_CLOCK}
        outcome = (await clocked.referee.get_view(game_id, None)).outcome
        assert outcome is not None
        assert 0 not in outcome.winners  # a forfeited seat never wins (service.domain.hosting)
    report = verify_history(history)
    assert report.ok, str(report)
