"""Revision 1 still replays: the golden transcripts as the first release recorded them.

The files in ``golden/revision1/`` are the transcripts from before rules revisions existed
(their configs carry no ``rules_revision``, so they play by revision 1). Each must replay
move for move under today's engine with the same events, the same outcome and the same
final state, byte for byte: proof that games stored before revision 2 (in Redis, or as a
history a player kept) still replay and verify.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engines.base import replay, rules_revision
from engines.the_gang import GAME, Move, TheGangConfig
from tests.the_gang.make_golden import GOLDEN, SPECS, plain, state_digest

REVISION1 = GOLDEN / "revision1"
FILES = sorted(REVISION1.glob("*.json"))


def test_every_transcript_has_its_revision1_copy() -> None:
    assert [path.stem for path in FILES] == sorted(spec.name for spec in SPECS)


@pytest.fixture(params=FILES, ids=[path.stem for path in FILES])
def recorded(request: pytest.FixtureRequest) -> dict[str, Any]:
    path: Path = request.param
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_revision1_transcript_replays_exactly(recorded: dict[str, Any]) -> None:
    config = msgspec.convert(recorded["config"], TheGangConfig)
    assert rules_revision(config.rules_revision) == 1
    assert msgspec.json.decode(msgspec.json.encode(config)) == recorded["config"]
    seed = bytes.fromhex(recorded["seed"])
    moves = [(step["seat"], msgspec.convert(step["move"], Move)) for step in recorded["steps"]]

    initial, steps = replay(GAME, config, seed, moves)

    pockets = [[str(card) for card in pocket] for pocket in initial.pockets]
    assert pockets == recorded["initial_pockets"]
    assert len(steps) == len(recorded["steps"])
    for step, stored in zip(steps, recorded["steps"], strict=True):
        assert plain(step.events) == stored["events"], f"move {step.version} differs"
    final = steps[-1].state
    assert plain(GAME.outcome(final)) == recorded["outcome"]
    assert state_digest(final) == recorded["final_state_sha256"]
