"""Games recorded under rules revision 1 still replay, move for move.

``golden/revision1/`` holds the golden transcripts as they were before rules revisions
existed (commit f20484c): their configs carry no ``rules_revision`` (revision 1) and the
first release's component table. Replayed now, each must give the same events, outcome and
final state, byte for byte: the proof that revision 2 (order-independent river picks,
rarer kinds selling for more) changed nothing for a game stored before it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engines.base import replay, rules_revision
from engines.pinched import GAME, Event, Move, PinchedConfig
from engines.pinched.components import FIRST_RELEASE_DEFAULT
from engines.pinched.setup import options_of
from tests.pinched.make_golden import plain, state_digest, table

REVISION1 = Path(__file__).parent / "golden" / "revision1"
FILES = sorted(REVISION1.glob("*.json"))


def test_every_transcript_of_the_first_release_is_kept() -> None:
    names = {path.stem for path in FILES}
    assert len(names) == 7 and "small_deck_three_players" in names


@pytest.fixture(params=FILES, ids=[path.stem for path in FILES])
def recorded(request: pytest.FixtureRequest) -> dict[str, Any]:
    path: Path = request.param
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_a_revision_one_config_is_made_again_from_its_options(recorded: dict[str, Any]) -> None:
    """What ``referee verify`` does: the recorded options (setup and component table) with
    ``rules_revision`` 1 make the recorded config; without a table, the first release's."""
    config = msgspec.convert(recorded["config"], PinchedConfig)
    assert "rules_revision" not in recorded["config"]
    assert rules_revision(config.rules_revision) == 1
    options = msgspec.structs.asdict(options_of(config))
    made = GAME.make_config(
        config.players,
        {key: value for key, value in options.items() if value} | {"rules_revision": 1},
    )
    assert made == config


def test_revision_one_plays_with_the_first_release_s_table() -> None:
    """A revision-1 table without a replacement table plays with the first release's
    values, the ones every recorded game but the small-deck one was played with."""
    configs = [msgspec.convert(json.loads(p.read_text())["config"], PinchedConfig) for p in FILES]
    assert sum(config.components == FIRST_RELEASE_DEFAULT for config in configs) == 6
    for players in range(2, 6):
        made = GAME.make_config(players, {"rules_revision": 1})
        assert made.components == FIRST_RELEASE_DEFAULT


def test_a_revision_one_game_replays_exactly(recorded: dict[str, Any]) -> None:
    config = msgspec.convert(recorded["config"], PinchedConfig)
    seed = bytes.fromhex(recorded["seed"])
    moves = [(step["seat"], msgspec.convert(step["move"], Move)) for step in recorded["steps"]]

    initial, steps = replay(GAME, config, seed, moves)

    assert table(initial) == recorded["table"]
    assert len(steps) == len(recorded["steps"])
    for step, stored in zip(steps, recorded["steps"], strict=True):
        assert plain(step.events) == stored["events"], f"move {step.version} differs"
        assert msgspec.convert(stored["events"], list[Event]) == step.events
    final = steps[-1].state
    assert final.finished
    assert plain(GAME.outcome(final)) == recorded["outcome"]
    assert state_digest(final) == recorded["final_state_sha256"]
