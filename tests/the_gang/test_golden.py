"""Golden transcripts: whole games replayed from their seeds must match the files exactly.

This pins the random source (SHA-256 counter mode, Fisher-Yates), the dealing order and
every rule's events, in the base game and in each mode (Advanced, Professional, Master
Thief: the piles, the cards turned heist by heist, group decisions, card actions). A
difference means the engine changed behaviour; if that was meant, rerun
``python -m tests.the_gang.make_golden`` and review the diff.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from engines.base import replay
from engines.the_gang import GAME, Event, Move, TheGangConfig
from engines.the_gang.events import (
    Announced,
    CardDiscarded,
    CardDrawn,
    CardPassed,
    CardsActive,
    DecisionTaken,
    GameEnded,
    GuessesDue,
    HeistEnded,
    JackTaken,
    PileShuffled,
    PocketRedrawn,
    PocketsGathered,
    ProposalMade,
    ProposalWithdrawn,
)
from engines.the_gang.model import (
    MASTER_THIEF_ALARMS_TO_LOSE,
    RULES_REVISION,
    Challenge,
    GuessHand,
    GuessRank,
    Mode,
    Specialist,
    UseSpecialist,
)
from tests.the_gang.make_golden import SPECS, Spec, plain, render, state_digest, transcript


def load(spec: Spec) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(spec.path.read_text(encoding="utf-8"))
    return data


@pytest.fixture(params=SPECS, ids=[spec.name for spec in SPECS])
def spec(request: pytest.FixtureRequest) -> Spec:
    chosen: Spec = request.param
    return chosen


def events_of(spec: Spec) -> list[Event]:
    data = load(spec)
    return [msgspec.convert(event, Event) for step in data["steps"] for event in step["events"]]


def test_golden_set_covers_both_outcomes_and_options() -> None:
    """At least one game won and one lost; 3, 4 and 6 players; both round-end options;
    every mode, each with a game won and a game lost."""
    assert {spec.expect for spec in SPECS} == {"won", "lost"}
    assert {3, 4, 6} <= {spec.players for spec in SPECS}
    assert {spec.confirm_round_end for spec in SPECS} == {False, True}
    assert {(spec.mode, spec.expect) for spec in SPECS} >= {
        ("basic", "won"),
        ("basic", "lost"),
        ("advanced", "won"),
        ("professional", "lost"),
        ("master_thief", "won"),
        ("master_thief", "lost"),
    }
    assert {spec.mode for spec in SPECS} == {mode.value for mode in Mode}


def test_golden_modes_turn_up_every_card() -> None:
    """Across the mode transcripts every challenge and every specialist card is active in
    some heist; every specialist that needs a decision is used; both scans are guessed; a
    pile is shuffled when card 1 comes up for the second time; and the decisions and card
    actions all happen (proposals superseded and withdrawn, cards shown, drawn, discarded,
    passed, the Jack card taken, pockets gathered and redrawn)."""
    challenges: set[Challenge] = set()
    specialists: set[Specialist] = set()
    decided: set[type] = set()
    used: set[Specialist] = set()
    kinds: set[type] = set()
    superseded = 0
    for spec in SPECS:
        if spec.mode == "basic":
            continue
        specialist: Specialist | None = None
        for event in events_of(spec):
            kinds.add(type(event))
            if isinstance(event, CardsActive):
                challenges |= set(event.challenges)
                specialist = event.specialist
                if specialist is not None:
                    specialists.add(specialist)
            elif isinstance(event, DecisionTaken):
                decision = event.proposal.decision
                decided.add(type(decision))
                if isinstance(decision, UseSpecialist):
                    assert specialist is not None
                    used.add(specialist)
            elif isinstance(event, ProposalMade) and event.replaces is not None:
                superseded += 1
    assert challenges == set(Challenge)
    assert specialists == set(Specialist)
    automatic = {
        Specialist.INVESTOR,
        Specialist.COORDINATOR,
        Specialist.MATH_WHIZ,
        Specialist.CON_ARTIST,
    }
    assert used == set(Specialist) - automatic
    assert decided == {UseSpecialist, GuessRank, GuessHand}
    assert superseded > 0
    assert {
        PileShuffled,
        ProposalWithdrawn,
        Announced,
        CardDrawn,
        CardDiscarded,
        CardPassed,
        JackTaken,
        PocketsGathered,
        PocketRedrawn,
        GuessesDue,
    } <= kinds


def test_replay_matches_transcript(spec: Spec) -> None:
    data = load(spec)
    config = msgspec.convert(data["config"], TheGangConfig)
    assert config == spec.config()
    if spec.mode == "basic":
        assert config == TheGangConfig(
            spec.players, spec.confirm_round_end, rules_revision=RULES_REVISION
        )
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
    """Won games list every seat as winner, lost games none; counters agree with events;
    the heists went as the plan meant (W won, L lost); Master Thief loses at two alarms."""
    data = load(spec)
    events = events_of(spec)
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
        to_lose = MASTER_THIEF_ALARMS_TO_LOSE if spec.mode == "master_thief" else 3
        assert alarms == to_lose and vaults < 3
        assert data["outcome"]["winners"] == []
    if spec.mode != "basic":
        plan = [spec.plan[min(i, len(spec.plan) - 1)] == "W" for i in range(len(heists))]
        assert [event.result.success for event in heists] == plan
        assert [heist["success"] for heist in data["heists"]] == plan


def test_generator_reproduces_file(spec: Spec) -> None:
    """``make_golden`` is deterministic: rerunning it would not change the committed file."""
    assert render(transcript(spec)) == spec.path.read_text(encoding="utf-8")
