"""Golden transcripts: whole games replayed from their seeds must match the files exactly.

This pins the random source (SHA-256 counter mode, Fisher-Yates), the dealing, the
exchange and every rule's events. A difference means the engine changed behaviour; if that
was meant, rerun ``PYTHONPATH=. python -m tests.gang_of_four.make_golden`` and review the
diff.

``golden/revision1/`` keeps the transcripts as they were recorded under rules revision 1
(before the duty before a one-card player forbade the pass): old games must still replay
under that revision move for move, to the same final state.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engines.base import replay, rules_revision
from engines.errors import IllegalMoveError
from engines.gang_of_four import GAME, Event, GangOfFourConfig, Move
from engines.gang_of_four.cards import MULTICOLOURED_ONE
from engines.gang_of_four.combos import Kind
from engines.gang_of_four.events import (
    CardGiven,
    CardReturned,
    GameEnded,
    HandEnded,
    HandStarted,
    LastCardAnnounced,
    LastCardForgotten,
    Played,
    TrickWon,
)
from engines.gang_of_four.model import GAME_END_SCORE, RULES_REVISION
from tests.gang_of_four.make_golden import (
    GOLDEN,
    SPECS,
    Spec,
    plain,
    render,
    state_digest,
    transcript,
)
from tests.gang_of_four.support import SCORE_TABLE

MAX_BYTES = 200_000


def load(spec: Spec) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(spec.path.read_text(encoding="utf-8"))
    return data


def events_of(data: dict[str, Any]) -> list[Event]:
    return [msgspec.convert(event, Event) for step in data["steps"] for event in step["events"]]


@pytest.fixture(params=SPECS, ids=[spec.name for spec in SPECS])
def spec(request: pytest.FixtureRequest) -> Spec:
    chosen: Spec = request.param
    return chosen


def test_golden_set_covers_both_table_sizes_options_and_outcomes() -> None:
    """3 and 4 players; with and without auto-announce; a single and a shared win; hand 1
    led by the holder of the multicoloured 1 and, at 3 players, without it."""
    assert {spec.players for spec in SPECS} == {3, 4}
    assert {spec.auto_announce_last_card for spec in SPECS} == {False, True}
    assert {len(spec.winners) > 1 for spec in SPECS} == {False, True}
    must_include = set()
    for spec in SPECS:
        data = load(spec)
        dealt = [card for hand in data["initial_hands"] for card in hand]
        must_include.add(str(MULTICOLOURED_ONE) in dealt)
        assert len(spec.path.read_bytes()) < MAX_BYTES
    assert must_include == {False, True}


def test_replay_matches_transcript(spec: Spec) -> None:
    data = load(spec)
    config = msgspec.convert(data["config"], GangOfFourConfig)
    assert config == GangOfFourConfig(
        spec.players, spec.auto_announce_last_card, rules_revision=RULES_REVISION
    )
    seed = bytes.fromhex(data["seed"])
    moves = [(step["seat"], msgspec.convert(step["move"], Move)) for step in data["steps"]]

    initial, steps = replay(GAME, config, seed, moves)

    assert [[str(card) for card in hand] for hand in initial.hands] == data["initial_hands"]
    assert [str(card) for card in initial.set_aside] == data["initial_set_aside"]
    assert len(steps) == len(data["steps"])
    for step, stored in zip(steps, data["steps"], strict=True):
        assert plain(step.events) == stored["events"], f"move {step.version} differs"
        assert msgspec.convert(stored["events"], list[Event]) == step.events
    final = steps[-1].state
    assert plain(GAME.outcome(final)) == data["outcome"]
    assert list(final.totals) == data["final_totals"]
    assert state_digest(final) == data["final_state_sha256"]


def test_transcript_is_a_whole_game(spec: Spec) -> None:
    """The stored story adds up: one HandEnded per hand, an exchange before every later hand,
    totals are the sums of the table's points, nobody reached 100 before the last hand,
    and the lowest totals win."""
    data = load(spec)
    events = events_of(data)
    ended = [event for event in events if isinstance(event, HandEnded)]
    assert len(ended) == spec.hands
    totals = [0] * spec.players
    for number, event in enumerate(ended, start=1):
        result = event.result
        assert result.hand == number
        assert result.cards_left[result.winner] == 0
        assert result.points == tuple(SCORE_TABLE[n] for n in result.cards_left)
        totals = [total + points for total, points in zip(totals, result.points, strict=True)]
        assert list(event.totals) == totals
        assert (max(totals) >= GAME_END_SCORE) == (number == spec.hands)
    started = [event for event in events if isinstance(event, HandStarted)]
    assert [event.hand for event in started] == list(range(2, spec.hands + 1))
    assert [event.leader for event in started] == [event.result.winner for event in ended[:-1]]
    assert [event.direction for event in started] == [(-1) ** n for n in range(2, spec.hands + 1)]
    given = [event for event in events if isinstance(event, CardGiven)]
    returned = [event for event in events if isinstance(event, CardReturned)]
    assert len(given) == len(returned) == spec.hands - 1
    assert [(g.winner, g.loser) for g in given] == [(r.winner, r.loser) for r in returned]
    low = min(totals)
    assert events[-1] == GameEnded(spec.winners, tuple(totals))
    assert spec.winners == tuple(seat for seat, total in enumerate(totals) if total == low)
    assert data["outcome"]["winners"] == list(spec.winners)


def test_golden_games_show_every_kind_of_event() -> None:
    """Between them the games trick, exchange, announce, forget (only without auto-announce)
    and play a Gang."""
    kinds: Counter[str] = Counter()
    for spec in SPECS:
        events = events_of(load(spec))
        kinds.update(type(event).__name__ for event in events)
        forgotten = [event for event in events if isinstance(event, LastCardForgotten)]
        assert bool(forgotten) != spec.auto_announce_last_card
        kinds.update(
            f"played {event.kind.name}"
            for event in events
            if isinstance(event, Played) and event.kind is Kind.GANG
        )
    for name in [
        TrickWon.__name__,
        CardGiven.__name__,
        CardReturned.__name__,
        LastCardAnnounced.__name__,
        LastCardForgotten.__name__,
        "played GANG",
    ]:
        assert kinds[name] > 0, name


def test_generator_reproduces_file(spec: Spec) -> None:
    """``make_golden`` is deterministic: rerunning it would not change the committed file."""
    assert render(transcript(spec)) == spec.path.read_text(encoding="utf-8")


REVISION_ONE = sorted((GOLDEN / "revision1").glob("*.json"))


def test_revision_one_transcripts_are_kept_for_every_spec() -> None:
    """One game per golden spec, as recorded before rules revisions existed."""
    assert [path.stem for path in REVISION_ONE] == sorted(spec.name for spec in SPECS)


@pytest.mark.parametrize("path", REVISION_ONE, ids=[path.stem for path in REVISION_ONE])
def test_revision_one_games_still_replay(path: Path) -> None:
    """A game recorded under revision 1 (its config has no ``rules_revision``) replays under
    revision 1: the same events at every move, the same outcome and final state."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert "rules_revision" not in data["config"]
    config = msgspec.convert(data["config"], GangOfFourConfig)
    assert rules_revision(config.rules_revision) == 1
    options = {"auto_announce_last_card": config.auto_announce_last_card, "rules_revision": 1}
    assert GAME.make_config(config.players, options) == config
    seed = bytes.fromhex(data["seed"])
    moves = [(step["seat"], msgspec.convert(step["move"], Move)) for step in data["steps"]]

    initial, steps = replay(GAME, config, seed, moves)

    assert [[str(card) for card in hand] for hand in initial.hands] == data["initial_hands"]
    assert len(steps) == len(data["steps"])
    for step, stored in zip(steps, data["steps"], strict=True):
        assert plain(step.events) == stored["events"], f"move {step.version} differs"
    final = steps[-1].state
    assert plain(GAME.outcome(final)) == data["outcome"]
    assert list(final.totals) == data["final_totals"]
    assert state_digest(final) == data["final_state_sha256"]


@pytest.mark.parametrize("path", REVISION_ONE, ids=[path.stem for path in REVISION_ONE])
def test_revision_one_games_break_the_duty_of_revision_two(path: Path) -> None:
    """Why the revision is recorded: replayed by revision 2, each of these games reaches a
    pass the duty before a one-card player now refuses."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    config = msgspec.convert({**data["config"], "rules_revision": 2}, GangOfFourConfig)
    moves = [(step["seat"], msgspec.convert(step["move"], Move)) for step in data["steps"]]
    with pytest.raises(IllegalMoveError) as refused:
        replay(GAME, config, bytes.fromhex(data["seed"]), moves)
    assert refused.value.reason == "MUST_PLAY_HIGHEST_SINGLE"
