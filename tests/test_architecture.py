"""docs/ARCHITECTURE.md's "Adding a game" checklist holds for every registered game.

Each test is one place of the checklist: a game missing from any of them fails here by
name, instead of at the first request that needs it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from engines.registry import GAMES
from referee.bots.strategies import STRATEGIES
from referee.v1 import game_pb2
from service.edge.codecs import CODECS, DerivedCodec

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = ROOT / "docs" / "ARCHITECTURE.md"
CONSOLE_GAMES = ROOT / "clients" / "console" / "src" / "games"
SCORING = ROOT / "service" / "tournaments" / "scoring.py"
ENVELOPES = (game_pb2.TableOptions, game_pb2.Move, game_pb2.Event, game_pb2.View)


def test_games_are_registered_under_their_own_names() -> None:
    assert GAMES, "no game registered"
    for name, game in GAMES.items():
        assert game.name == name
        assert (ROOT / "engines" / name / "__init__.py").is_file()


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
        assert (ROOT / "service" / "edge" / "codecs" / f"{name}.py").is_file()


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


def test_the_checklist_names_every_place_checked_here() -> None:
    text = ARCHITECTURE.read_text()
    for place in (
        "engines/registry.py",
        "proto/referee/v1/game.proto",
        "service/edge/codecs/__init__.py",
        "service/tournaments/scoring.py",
        "clients/python/referee/bots/strategies.py",
        "clients/console/src/games/index.ts",
    ):
        assert place in text, place
        assert (ROOT / place).is_file(), place
