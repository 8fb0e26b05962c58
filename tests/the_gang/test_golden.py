"""Golden transcripts: whole games replayed from their seeds must match the files exactly.

This pins the random source (SHA-256 counter mode, Fisher-Yates), the dealing order and
every rule's events. A difference means the engine changed behaviour; if that was meant,
rerun ``python -m tests.the_gang.make_golden`` and review the diff.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from engines.base import replay
from engines.the_gang import GAME, Event, Move, TheGangConfig
from engines.the_gang.events import GameEnded, HeistEnded
from tests.the_gang.make_golden import SPECS, Spec, plain, render, state_digest, transcript


def load(spec: Spec) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(spec.path.read_text(encoding="utf-8"))
    return data


@pytest.fixture(params=SPECS, ids=[spec.name for spec in SPECS])
def spec(request: pytest.FixtureRequest) -> Spec:
    chosen: Spec = request.param
    return chosen


def test_golden_set_covers_both_outcomes_and_options() -> None:
    """At least one game won and one lost; 3, 4 and 6 players; both round-end options."""
    assert {spec.expect for spec in SPECS} == {"won", "lost"}
    assert {3, 4, 6} <= {spec.players for spec in SPECS}
    assert {spec.confirm_round_end for spec in SPECS} == {False, True}


def test_replay_matches_transcript(spec: Spec) -> None:
    data = load(spec)
    config = msgspec.convert(data["config"], TheGangConfig)
    assert config == TheGangConfig(spec.players, spec.confirm_round_end)
    seed = bytes.fromhex(data["seed"])
    moves = [(step["seat"], msgspec.convert(step["move"], Move)) for step in data["steps"]]

    initial, steps = replay(GAME, config, seed, moves)

    assert [[str(card) for card in pocket] for pocket in initial.pockets] == data["initial_pockets"]
    assert len(steps) == len(data["steps"])
    for step, stored in zip(steps, data["steps"], strict=True):
        assert plain(step.events) == stored["events"], f"move {step.version} differs"
        assert msgspec.convert(stored["events"], list[Event]) == step.events
    final = steps[-1].state
    assert plain(GAME.outcome(final)) == data["outcome"]
    assert state_digest(final) == data["final_state_sha256"]


def test_transcript_ends_as_expected(spec: Spec) -> None:
    """Won games list every seat as winner, lost games none; counters agree with events."""
    data = load(spec)
    events = [msgspec.convert(event, Event) for step in data["steps"] for event in step["events"]]
    heists = [event for event in events if isinstance(event, HeistEnded)]
    ended = [event for event in events if isinstance(event, GameEnded)]
    assert ended == [GameEnded(won=spec.expect == "won")]
    assert isinstance(events[-1], GameEnded)
    vaults = sum(event.result.success for event in heists)
    alarms = len(heists) - vaults
    assert (heists[-1].vaults, heists[-1].alarms) == (vaults, alarms)
    if spec.expect == "won":
        assert vaults == 3 and alarms < 3
        assert data["outcome"]["winners"] == list(range(spec.players))
    else:
        assert alarms == 3 and vaults < 3
        assert data["outcome"]["winners"] == []


def test_generator_reproduces_file(spec: Spec) -> None:
    """``make_golden`` is deterministic: rerunning it would not change the committed file."""
    assert render(transcript(spec)) == spec.path.read_text(encoding="utf-8")
