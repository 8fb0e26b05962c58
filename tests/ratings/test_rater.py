"""The rater on a real Redis, in this process: a finished rated table is rated once, by the
process that finished it or by any process's sweep, whatever dies in between
(service.app.rater). Two raters on one store are two processes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass

import pytest

from service.app.rater import Rater
from service.app.referee import RatedTable, Referee
from service.app.writer import Following, HostChange, TableWriter, wall_ms
from service.domain import hosting
from service.storage.ratings import Applied, RatingStore, Update
from service.storage.store import RATING_GRACE_MS, RedisStore
from service.storage.tables import Table
from tests.app.in_memory import default_move, referee_on

GAME = "pinched"


class Died(Exception):
    """A process that ended at a step of the rater (a failpoint)."""


def dying_at(step: str) -> Callable[[str], None]:
    def on_step(reached: str) -> None:
        if reached == step:
            raise Died(step)

    return on_step


@dataclass
class Process:
    """One referee process's part: its writer (and referee on it) and its rater."""

    writer: TableWriter
    referee: Referee
    rater: Rater


@dataclass
class Shared:
    store: RedisStore
    ratings: RatingStore

    def process(
        self, *, hook: bool = True, on_step: Callable[[str], None] | None = None
    ) -> Process:
        """A process on the shared store; ``hook`` False: it dies before rating what it
        finishes (its writer tells nobody of a game's end)."""
        holder: list[TableWriter] = []
        rater = Rater(
            lambda game_id: holder[0].current(game_id),
            self.ratings,
            self.store.pending,
            now_ms=lambda: wall_ms() + RATING_GRACE_MS,  # the sweep sees members at once
            on_step=on_step or (lambda _step: None),
        )
        ended = (rater.ended,) if hook else ()
        writer = TableWriter(self.store, following=Following(ended=ended))
        holder.append(writer)
        return Process(writer, referee_on(writer), rater)


@pytest.fixture
async def shared(redis_url: str, prefix: str) -> AsyncIterator[Shared]:
    async with RedisStore.from_url(redis_url, key_prefix=prefix) as store:
        yield Shared(store, RatingStore(store.client, key_prefix=prefix))


async def rated_table(process: Process, *player_ids: str, game: str = GAME) -> str:
    created = await process.referee.create_game(
        game,
        len(player_ids),
        {},
        allow_spectators=True,
        seed=b"ratings",
        rated=RatedTable(player_ids),
    )
    return created.game_id


async def play_to_the_end(process: Process, game_id: str) -> Table:
    """Default moves until the game is over; the table as its last write left it."""
    while True:
        written = await process.writer.write(game_id, default_move())
        if written.table.finished:
            return written.table


async def test_the_process_that_finishes_a_rated_table_rates_it_once(shared: Shared) -> None:
    """Rule (rater): "the process that committed it rates it at once (the table writer's
    ended hook)" and drops its member: each player has one rated game and one history
    entry placed as the outcome says, and nothing is left to rate."""
    one = shared.process()
    game_id = await rated_table(one, "alice", "bob")
    table = await play_to_the_end(one, game_id)
    outcome = table.game.outcome(table.state)
    assert outcome is not None
    places = outcome.placings
    for seat, player_id in enumerate(("alice", "bob")):
        rating = await shared.ratings.rating(GAME, player_id)
        games, history = await shared.ratings.history(GAME, player_id, 0, 10)
        assert (rating.games, games, len(history)) == (1, 1, 1)
        assert (history[0].game_id, history[0].seat, history[0].place) == (
            game_id,
            seat,
            places[seat],
        )
        assert history[0].after == rating.skill
    assert await shared.store.pending.waiting() == 0


async def test_an_unrated_table_and_an_aborted_rated_one_rate_nobody(shared: Shared) -> None:
    """Rule: only a rated table is rated, and "an aborted game is not rated"."""
    one = shared.process()
    created = await one.referee.create_game(GAME, 2, {}, allow_spectators=True, seed=b"x")
    await play_to_the_end(one, created.game_id)
    aborted = await rated_table(one, "carol", "dave")
    await one.writer.write(aborted, default_move())

    def aborting(table: Table) -> HostChange:
        return HostChange(
            hosting.abort(table.hosting, table.finished, hosting.When(table.version, 0.0))
        )

    await one.writer.write(aborted, aborting)
    assert await shared.ratings.board(GAME, 0, 10) == []
    assert await shared.store.pending.waiting() == 0


async def test_only_a_rated_tables_finishing_move_adds_a_game_to_rate(shared: Shared) -> None:
    """Rule (store.commit): "A move that finishes a rated table's game first puts the game
    among those to rate ... An unrated game costs nothing there": finished by a process
    that tells nobody of a game's end, the unrated game leaves no member, the rated one
    does."""
    silent = shared.process(hook=False)
    unrated = await silent.referee.create_game(GAME, 2, {}, allow_spectators=True, seed=b"u")
    await play_to_the_end(silent, unrated.game_id)
    assert await shared.store.pending.waiting() == 0
    await play_to_the_end(silent, await rated_table(silent, "alice", "bob"))
    assert await shared.store.pending.waiting() == 1


async def test_a_game_whose_process_died_before_rating_it_is_rated_once_by_two_sweeps(
    shared: Shared,
) -> None:
    """Rule: the finishing move's member is added "before it is committed ... so a process
    that dies after the commit cannot lose the rating", and "every process sweeps the
    games to rate": two sweeps at once rate it once; a later sweep finds nothing."""
    dead = shared.process(hook=False)
    game_id = await rated_table(dead, "alice", "bob")
    await play_to_the_end(dead, game_id)
    assert await shared.store.pending.waiting() == 1
    first, second = shared.process(), shared.process()
    claimed = await asyncio.gather(first.rater.sweep(), second.rater.sweep())
    assert sorted(claimed) == [0, 1]  # one member, leased to one sweep
    assert (await shared.ratings.rating(GAME, "alice")).games == 1
    assert await shared.store.pending.waiting() == 0
    assert await first.rater.sweep() == 0


@pytest.mark.parametrize("step", ["before_apply", "after_apply"])
async def test_a_rater_that_dies_mid_way_leaves_the_game_to_a_sweep_which_rates_it_once(
    shared: Shared, step: str
) -> None:
    """Rule: "only then is the game's member dropped: a crash before that leaves it to a
    sweep, which finds the marker" (after the apply) or rates it (before)."""
    dying = shared.process(on_step=dying_at(step))
    game_id = await rated_table(dying, "alice", "bob")
    with pytest.raises(Died):
        await play_to_the_end(dying, game_id)
    assert await shared.store.pending.waiting() == 1
    rated = (await shared.ratings.rating(GAME, "alice")).games
    assert rated == (1 if step == "after_apply" else 0)
    assert await shared.process().rater.sweep() == 1
    assert (await shared.ratings.rating(GAME, "alice")).games == 1
    _, history = await shared.ratings.history(GAME, "alice", 0, 10)
    assert [change.game_id for change in history] == [game_id]
    assert await shared.store.pending.waiting() == 0


class HeldApplies:
    """A spy on ``RatingStore.apply``: the first two applies wait for each other (so both
    games' ratings were read before either is written), and every result is kept."""

    def __init__(self, ratings: RatingStore) -> None:
        self._apply = ratings.apply
        self._arrived = 0
        self._both = asyncio.Event()
        self.results: list[Applied] = []

    async def apply(self, game: str, game_id: str, updates: Sequence[Update], now: int) -> Applied:
        self._arrived += 1
        if self._arrived == 2:
            self._both.set()
        if self._arrived <= 2:
            await self._both.wait()
        applied = await self._apply(game, game_id, updates, now)
        self.results.append(applied)
        return applied


async def test_two_games_of_one_player_ending_at_once_both_count_one_after_the_other(
    shared: Shared, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: a game's ratings are computed from the players' ratings as read; another game
    rated first is a CONFLICT, read again and computed again: both count, and the
    later entry starts where the earlier one ended."""
    spy = HeldApplies(shared.ratings)
    monkeypatch.setattr(shared.ratings, "apply", spy.apply)
    one = shared.process(hook=False)
    first = await rated_table(one, "alice", "bob")
    second = await rated_table(one, "alice", "carol")
    tables = [await play_to_the_end(one, game_id) for game_id in (first, second)]
    raters = [shared.process().rater, shared.process().rater]
    await asyncio.gather(*(rater.rate(table) for rater, table in zip(raters, tables, strict=True)))
    games, history = await shared.ratings.history(GAME, "alice", 0, 10)
    assert games == 2 and {change.game_id for change in history} == {first, second}
    assert history[0].before == history[1].after
    assert sorted(applied.value for applied in spy.results) == ["CONFLICT", "OK", "OK"]


async def test_a_member_whose_move_is_not_stored_yet_waits_and_a_gone_game_is_dropped(
    shared: Shared,
) -> None:
    """Rule (pending_ratings): a member whose game "never reached its version" is kept until
    the game moved past it or is gone."""
    one = shared.process()
    game_id = await rated_table(one, "alice", "bob")
    await shared.store.pending.add(game_id, 5, 0)
    await shared.store.pending.add("no-such-game", 5, 0)
    assert await one.rater.sweep() == 2
    assert await shared.store.pending.waiting() == 1  # leased, back when its lease ends
    assert (await shared.ratings.rating(GAME, "alice")).games == 0


async def test_a_team_game_is_rated_against_the_games_own_pseudo_player(shared: Shared) -> None:
    """Rule: "a team game ... is rated as a match of two: the table's team against the game's
    own pseudo-player game:<game>", which is no one on the leaderboard."""
    one = shared.process()
    game_id = await rated_table(one, "alice", "bob", "", game="the_gang")
    table = await play_to_the_end(one, game_id)
    outcome = table.game.outcome(table.state)
    assert outcome is not None
    won = bool(outcome.winners)
    pseudo = await shared.ratings.rating("the_gang", "game:the_gang")
    alice = await shared.ratings.rating("the_gang", "alice")
    assert pseudo.games == alice.games == 1
    assert (alice.skill.mu > 25.0) == won == (pseudo.skill.mu < 25.0)
    board = await shared.ratings.board("the_gang", 0, 10)
    assert sorted(rating.player_id for rating in board) == ["alice", "bob"]
    _, history = await shared.ratings.history("the_gang", "bob", 0, 10)
    assert history[0].place == (1 if won else 2)


async def test_two_processes_rating_one_game_at_once_apply_it_once(shared: Shared) -> None:
    """Rule (rating_apply.lua): the apply is "DONE" for a game rated before: of two raters
    that both see the end, one writes and the other writes nothing."""
    one = shared.process(hook=False)
    game_id = await rated_table(one, "alice", "bob")
    table = await play_to_the_end(one, game_id)
    outcomes = await asyncio.gather(shared.process().rater.rate(table), one.rater.rate(table))
    assert sorted(applied.value for applied in outcomes if applied is not None) == ["DONE", "OK"]
    assert (await shared.ratings.rating(GAME, "bob")).games == 1
