"""The clock against everybody else: a player's move and the clock at the same version,
two replicas firing one deadline, stale members, and the firer's bounds. Redis is the
witness: one log entry per version, never a version applied twice."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from service.app.firer import Firer
from service.domain import clocks, records
from service.domain.records import ClockSpec
from service.errors import RefereeError
from service.storage.deadlines import Due, member, shard_of
from service.storage.tables import load_table
from tests.service.clocking import Clocked, clocked_referee, create


@pytest.fixture
async def clocked(redis_url: str) -> AsyncIterator[Clocked]:
    async for made in clocked_referee(redis_url):
        yield made


async def witness(clocked: Clocked, game_id: str) -> list[records.LogEntry]:
    """The log as stored: contiguous versions, each once."""
    raw = await clocked.referee.store.log(game_id)
    entries = [records.log_decoder.decode(item) for item in raw]
    assert [entry.version for entry in entries] == list(range(1, len(entries) + 1))
    table = await load_table(clocked.referee.store, game_id)
    assert table.version == len(entries)
    return entries


def due_of(game_id: str, version: int, host_version: int = 0) -> Due:
    return Due(
        game_id, version, host_version, member(game_id, version, host_version), shard_of(game_id)
    )


@pytest.mark.parametrize("rounds", [6])
async def test_a_players_move_and_the_clock_at_the_same_version_apply_once(
    clocked: Clocked, rounds: int
) -> None:
    """Each round: the seat's time is up and, at once, its player moves (through one
    replica) while the clock fires (through another): exactly one of them is version+1."""
    game_id, tokens = await create(clocked, "pinched", 2, ClockSpec(move_seconds=1))
    other = clocked.twin()
    firer = Firer(other, clocked.index)
    outcomes = set()
    for _ in range(rounds):
        table = await load_table(clocked.referee.store, game_id)
        if table.finished:
            break
        seat = min(table.awaited(table.state))
        legal = table.game.legal_moves(table.state, seat)
        move = legal[-1]  # a player's own choice, often not the default move
        clocked.time.advance(1000)
        player = clocked.referee.submit_move(
            game_id, tokens[seat], "pinched", move, f"p{table.version}", table.version
        )
        results = await asyncio.gather(
            player, firer.fire(due_of(game_id, table.version)), return_exceptions=True
        )
        entries = await witness(clocked, game_id)
        ids = [entry.client_move_id for entry in entries[table.version :]]
        contenders = {f"p{table.version}", f"~clock:{table.version}:{seat}"}
        assert ids[0] in contenders  # version + 1 is the player's move or the clock's
        assert len(contenders & set(ids)) == 1  # one of the two, never both
        # A clock that won may go on with the other seats whose time is up too (a
        # simultaneous phase); the player's move never comes after it.
        assert all(later.startswith("~clock:") for later in ids[1:])
        won = ids[0]
        outcomes.add("clock" if won.startswith("~clock:") else "player")
        if won.startswith("~clock:"):
            assert isinstance(results[0], RefereeError)  # refused: its version is gone
            assert results[0].reason == "VERSION_MISMATCH"
    assert outcomes  # at least one round ran; which side wins is the race's


async def test_two_replicas_firing_one_deadline_apply_it_once(clocked: Clocked) -> None:
    game_id, _ = await create(clocked, "gang_of_four", 3, ClockSpec(move_seconds=1))
    firers = [Firer(clocked.writer, clocked.index), Firer(clocked.twin(), clocked.index)]
    for _ in range(5):
        table = await load_table(clocked.referee.store, game_id)
        clocked.time.advance(1000)
        due = due_of(game_id, table.version)
        await asyncio.gather(*(firer.fire(due) for firer in firers))
        entries = await witness(clocked, game_id)
        assert len(entries) == table.version + 1
        assert entries[-1].client_move_id == clocks.move_id(
            clocks.BY_CLOCK, table.version, entries[-1].seat
        )


async def test_two_firers_claim_each_member_once(clocked: Clocked) -> None:
    """Claims lease: of two firers' concurrent passes, each due member goes to one."""
    games = [
        (await create(clocked, "pinched", 2, ClockSpec(move_seconds=1), seed=bytes([n])))[0]
        for n in range(12)
    ]
    clocked.time.advance(1000)
    one, two = clocked.firer(), Firer(clocked.twin(), clocked.index)
    claimed = await asyncio.gather(
        one.index.claim(clocked.time.now, 10_000, 100),
        two.index.claim(clocked.time.now, 10_000, 100),
    )
    members = [due.member for batch in claimed for due in batch]
    assert sorted(members) == sorted(member(game_id, 0, 0) for game_id in games)


async def test_a_stale_member_is_dropped_without_a_move(clocked: Clocked) -> None:
    game_id, tokens = await create(clocked, "pinched", 2, ClockSpec(move_seconds=1))
    table = await load_table(clocked.referee.store, game_id)
    seat = min(table.awaited(table.state))
    await clocked.referee.submit_move(
        game_id, tokens[seat], "pinched", table.game.default_move(table.state, seat), "m", None
    )
    stale = due_of(game_id, 0)
    clocked.time.advance(1000)
    await clocked.firer().fire(stale)
    entries = await witness(clocked, game_id)
    assert [entry.client_move_id for entry in entries] == ["m"]
    assert await clocked.index.score(game_id, 0, 0) is None  # dropped


async def test_the_firer_stays_within_its_claims_and_concurrency_under_many_deadlines(
    clocked: Clocked,
) -> None:
    games = 80
    ids = [
        (await create(clocked, "pinched", 2, ClockSpec(move_seconds=1), seed=n.to_bytes(2, "big")))[
            0
        ]
        for n in range(games)
    ]
    clocked.time.advance(1000)
    firer = clocked.firer(per_shard=2, concurrency=3)
    passes = []
    while True:
        claimed = await firer.fire_once()
        if not claimed:
            break
        passes.append(claimed)
        assert len(passes) < games  # every pass makes progress
    assert max(passes) <= 2 * clocked.index.shards
    assert firer.most_busy <= 3
    assert sum(passes) >= games
    for game_id in ids:  # every game moved by the clock; its next deadline a second ahead
        entries = await witness(clocked, game_id)
        assert entries
        assert all(entry.client_move_id.startswith("~clock:") for entry in entries)
        table = await load_table(clocked.referee.store, game_id)
        assert await clocked.index.score(game_id, table.version, 0) == clocked.time.now + 1000
