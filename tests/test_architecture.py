"""docs/ARCHITECTURE.md's "Adding a game" checklist holds for every registered game.

Each test is one place of the checklist: a game missing from any of them fails here by
name, instead of at the first request that needs it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from engines.base import GameDefinition
from engines.errors import InvalidConfigError
from engines.registry import GAMES
from referee.bots.strategies import STRATEGIES
from referee.codecs import CODECS, DerivedCodec
from referee.v1 import game_pb2
from service.domain.move_limits import MAX_MOVE_LIMIT
from tests.clock_driver import by_clock

ROOT = Path(__file__).resolve().parent.parent
SERVICE = ROOT / "service"
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
CONSOLE_GAMES = ROOT / "clients" / "console" / "src" / "games"
SCORING = ROOT / "service" / "tournaments" / "scoring.py"
ENVELOPES = (game_pb2.TableOptions, game_pb2.Move, game_pb2.Event, game_pb2.View)


def test_games_are_registered_under_their_own_names() -> None:
    assert GAMES, "no game registered"
    for name, game in GAMES.items():
        assert game.name == name
        assert (ROOT / "engines" / name / "__init__.py").is_file()


def test_every_game_declares_its_traits() -> None:
    """The traits the service reads (engines.base.GameDefinition) are set, and of a kind
    the service can use: a cooperative game has no forfeit, and a default move limit is
    one a table could also ask for."""
    for name, game in GAMES.items():
        assert type(game.forfeitable) is bool, name
        assert type(game.cooperative) is bool, name
        assert not (game.cooperative and game.forfeitable), f"{name}: nobody loses alone"
        assert type(game.default_move_limit) is int, name
        assert 1 <= game.default_move_limit <= MAX_MOVE_LIMIT, name


def _fewest_seats(game: GameDefinition[Any, Any, Any, Any, Any]) -> int:
    for players in range(1, 13):
        try:
            game.make_config(players, {})
        except InvalidConfigError:
            continue
        return players
    raise AssertionError(f"{game.name} seats no table of 1 to 12 players")


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_by_the_clock_ends_within_its_limit_as_its_traits_say(name: str) -> None:
    """Played by default moves alone (engines.base's progress rule), the game ends within
    its default move limit, in an outcome that is a team's exactly when it is cooperative
    (tournament scoring and forfeits read ``Outcome.team``)."""
    game = GAMES[name]
    config = game.make_config(_fewest_seats(game), {})
    final, _ = by_clock(game, game.new_game(config, b"traits"), game.default_move_limit)
    outcome = game.outcome(final)
    assert outcome is not None
    assert outcome.team == game.cooperative


def _service_modules() -> list[Path]:
    """The service's modules (the codecs, per game by design, live in the client package)."""
    return sorted(SERVICE.rglob("*.py"))


def test_the_service_names_no_game() -> None:
    """What the service needs to know of a game is a trait of its GameDefinition, read
    from the game it serves: no module keys on a game's name."""
    named = [
        f"{path.relative_to(ROOT)}:{node.lineno}: {node.value!r}"
        for path in _service_modules()
        for node in ast.walk(ast.parse(path.read_text(), str(path)))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in GAMES
    ]
    assert not named, "\n".join(named)


@pytest.mark.parametrize("envelope", ENVELOPES, ids=lambda e: e.DESCRIPTOR.name)
def test_every_game_has_its_member_in_each_envelope_oneof(envelope: type) -> None:
    descriptor = envelope.DESCRIPTOR  # type: ignore[attr-defined]
    (oneof,) = [o for o in descriptor.oneofs if not o.name.startswith("_")]  # not `optional`s
    assert {field.name for field in oneof.fields} == set(GAMES)
    for name in GAMES:
        assert (ROOT / "proto" / "referee" / "v1" / f"{name}.proto").is_file()


def test_every_game_has_a_derived_codec_with_its_contract_module() -> None:
    assert set(CODECS) == set(GAMES)
    for name, codec in CODECS.items():
        assert isinstance(codec, DerivedCodec)
        assert (ROOT / "clients" / "python" / "referee" / "codecs" / f"{name}.py").is_file()


def test_tournament_scoring_has_no_place_for_a_game() -> None:
    """Scoring reads only the Outcome: no game's name, no engine package of a game."""
    source = SCORING.read_text()
    for name in GAMES:
        assert name not in source, f"scoring.py names {name}"
    imported = {
        node.module
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert not {module for module in imported if module.startswith("engines.")} - {"engines.base"}


def test_every_game_has_a_random_and_a_heuristic_bot() -> None:
    assert set(STRATEGIES) == set(GAMES)
    for name, strategies in STRATEGIES.items():
        assert {"random", "heuristic"} <= set(strategies), name
        assert (ROOT / "clients" / "python" / "referee" / "bots" / f"{name}.py").is_file()


def test_every_game_has_a_console_renderer() -> None:
    index = (CONSOLE_GAMES / "index.ts").read_text()
    for name in GAMES:
        renderer = CONSOLE_GAMES / f"{name}.ts"
        assert renderer.is_file(), f"no renderer {renderer.name}"
        assert re.search(rf'game:\s*"{name}"', renderer.read_text()), renderer.name
        assert f'from "./{name}.js"' in index, f"index.ts does not register {name}"


def test_every_game_is_exported_by_the_typescript_client() -> None:
    index = (ROOT / "clients" / "typescript" / "src" / "index.ts").read_text()
    for name in GAMES:
        assert f'from "./gen/referee/v1/{name}_pb.js"' in index, name


def test_every_game_has_an_engine_benchmark() -> None:
    """A playout benchmark ``bench/<game>*.py``, run by ``python -m bench``."""
    runner = (ROOT / "bench" / "__main__.py").read_text()
    for name in GAMES:
        modules = [path.stem for path in (ROOT / "bench").glob(f"{name}*.py")]
        assert any(f"{module}.main(" in runner for module in modules), name


def test_the_checklist_names_every_place_checked_here() -> None:
    text = ARCHITECTURE.read_text()
    for place in (
        "engines/base.py",
        "engines/registry.py",
        "proto/referee/v1/game.proto",
        "clients/python/referee/codecs/__init__.py",
        "service/tournaments/scoring.py",
        "clients/python/referee/bots/strategies.py",
        "clients/console/src/games/index.ts",
        "clients/typescript/src/index.ts",
        "bench/__main__.py",
        "clients/python/referee/codecs/__init__.py",
    ):
        assert place in text, place
        assert (ROOT / place).is_file(), place
