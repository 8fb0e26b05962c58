"""The Referee use cases a tournament director plays games through, on a real referee and
Redis: issue a seat token, read a finished game's result, discard a game. The director
(and the rest of the tournament package) reaches games through nothing else."""

from __future__ import annotations

import ast
from pathlib import Path

import grpc
import pytest
from redis.asyncio import Redis

from referee.v1 import referee_pb2_grpc
from service.errors import GameNotFound, RuleViolation
from service.process.server import Running
from service.storage.store import RedisStore
from tests.service.players import play_to_end
from tests.service.table import Table, take

PACKAGE = Path(__file__).resolve().parents[2] / "service" / "tournaments"
# What the director may ask of the Referee: its use cases, nothing of its insides.
USE_CASES = {"create_game", "seat_token", "watch", "final_result", "discard_game"}


async def test_a_seat_token_is_the_one_create_game_hands_out(referee_server: Running) -> None:
    referee = referee_server.referee
    created = await referee.create_game("the_gang", 3, {}, allow_spectators=False, seed=None)
    assert [referee.seat_token(created.game_id, seat) for seat in range(3)] == created.tokens
    for seat in range(3):
        view = await referee.get_view(created.game_id, referee.seat_token(created.game_id, seat))
        assert view.viewer == seat


async def test_the_result_of_a_running_or_missing_game_is_refused(
    referee_server: Running,
) -> None:
    referee = referee_server.referee
    created = await referee.create_game("the_gang", 3, {}, allow_spectators=True, seed=None)
    with pytest.raises(RuleViolation) as running:
        await referee.final_result(created.game_id)
    assert (running.value.code, running.value.reason) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "GAME_NOT_FINISHED",
    )
    with pytest.raises(GameNotFound) as missing:
        await referee.final_result("no-such-game")
    assert missing.value.reason == "GAME_NOT_FOUND"


async def test_the_result_of_a_finished_game_is_its_outcome(
    referee_server: Running, stub: referee_pb2_grpc.RefereeServiceAsyncStub
) -> None:
    table = await Table.create(stub, 3)
    last = await play_to_end(table, 3, win=True)
    final = await referee_server.referee.final_result(table.game_id)
    spectator = await referee_server.referee.get_view(table.game_id, None)
    assert (final.game, final.game_id, final.version) == (
        "the_gang",
        table.game_id,
        spectator.version,
    )
    assert final.outcome == spectator.outcome
    assert final.outcome.summary == last.outcome.summary
    assert final.outcome.winners == (0, 1, 2)  # the gang won together
    assert final.outcome.scores == (3, 3, 3)  # every seat scores the gang's vaults


async def test_discarding_a_game_removes_it_everywhere(
    referee_server: Running, stub: referee_pb2_grpc.RefereeServiceAsyncStub, raw_redis: Redis
) -> None:
    """Every key goes, and so does this process's cached copy: a move on it is refused as
    on any unknown game. Discarding it again is no error."""
    referee = referee_server.referee
    table = await Table.create(stub, 3)
    view = await table.view(None)
    await table.submit(0, take(view.the_gang.round, 1))  # the referee caches the table now
    store: RedisStore = referee.feed.store
    keys = store.keys(table.game_id).all
    assert await raw_redis.exists(*keys) >= 1
    _, _, moves = await referee.legal_moves(table.game_id, table.tokens[1])

    await referee.discard_game(table.game_id)

    assert await raw_redis.exists(*keys) == 0
    with pytest.raises(GameNotFound):
        await referee.get_view(table.game_id, None)
    with pytest.raises(GameNotFound):
        await referee.submit_move(table.game_id, table.tokens[1], "the_gang", moves[0], "m2", None)
    await referee.discard_game(table.game_id)


def _referee_uses(path: Path) -> set[str]:
    """Names used on ``self.referee`` / ``referee`` in a module of the package."""
    used = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Attribute):
            continue
        owner = node.value
        if (isinstance(owner, ast.Attribute) and owner.attr == "referee") or (
            isinstance(owner, ast.Name) and owner.id == "referee"
        ):
            used.add(node.attr)
    return used


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    } | {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }


@pytest.mark.parametrize("module", ["director", "host", "rounds", "model"])
def test_the_tournament_package_reaches_games_only_through_use_cases(module: str) -> None:
    path = PACKAGE / f"{module}.py"
    reached = _referee_uses(path) - USE_CASES - {"allow_client_seeds"}
    assert not reached, f"{module}.py reaches past the Referee use cases: {sorted(reached)}"
    forbidden = _imports(path) & {
        "service.storage.tables",
        "service.storage.store",
        "service.storage.feed",
    }
    assert not forbidden, f"{module}.py reads games behind the Referee: {sorted(forbidden)}"
