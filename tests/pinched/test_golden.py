"""Golden transcripts: whole Pinched! games replayed from their seeds must match the files.

This pins the random source (SHA-256 counter mode, Fisher-Yates: the deck, the first
mastermind, the letter, the curse pile, reshuffles), the table as dealt and every rule's
events, for 2, 3, 4 and 5 players, the basic setups and the recommended ones with crown
sides and the bank. A difference means the engine changed behaviour; if that was meant,
rerun ``.venv/bin/python -m tests.pinched.make_golden`` and review the diff.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from engines.base import replay
from engines.pinched import GAME, Event, Move, PinchedConfig
from engines.pinched.events import GameEnded
from engines.pinched.model import Side
from tests.pinched.make_golden import (
    SPECS,
    Spec,
    features,
    plain,
    render,
    state_digest,
    table,
    transcript,
)

EVERY_SPECIAL_RULE = {
    "lisa_mona_3",  # diamonds, standard side: the first alone
    "diamond",  # diamonds, standard side: the later ones alone
    "letter_read",  # diamonds, crown side: the sealed letter
    "clue",
    "letter_opened",  # the Lisa Mona found where the letter says
    "lisa_mona_5",
    "vault_moved",  # clubs: shared heists fill the vault
    "vault_cracked",  # clubs, alone: the vault's cards drawn
    "rufus_taken",
    "rufus_taken_from_a_player",
    "rufus_used",
    "gordie_taken",
    "gordie_used",
    "dog_chosen",  # spades crown: which dog
    "passage",
    "passage_declined",
    "curse_drawn",
    "curse_passed",
    "curses_kept",
    "bank_alone",
    "bank_shared",
    "bank_failed",
    "reshuffle",
    "last_take_drawn",  # the mastermind's last take from a bare location
    "store_choice",
    "tie_broken_by_gold_bars",
    "shared_victory",
}


def load(spec: Spec) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(spec.path.read_text(encoding="utf-8"))
    return data


@pytest.fixture(params=SPECS, ids=[spec.name for spec in SPECS])
def spec(request: pytest.FixtureRequest) -> Spec:
    chosen: Spec = request.param
    return chosen


def test_golden_set_covers_seats_setups_and_every_special_rule() -> None:
    """2 to 5 players; basic and recommended setups with crown sides and the bank; together
    the transcripts show every location's special rule, a reshuffle and both endings."""
    assert {spec.players for spec in SPECS} == {2, 3, 4, 5}
    assert {"basic", "search_for_lisa_mona", "cursed_secrets", "the_whole_package"} <= {
        spec.setup for spec in SPECS
    }
    sides = {(p.location, p.side) for spec in SPECS for p in spec.config().locations}
    assert {side for _, side in sides} == set(Side)
    shown: set[str] = set()
    for spec in SPECS:
        shown |= set(load(spec)["features"])
    missing = EVERY_SPECIAL_RULE - shown
    assert not missing, f"no transcript shows {sorted(missing)}"


def test_transcript_shows_what_it_is_for(spec: Spec) -> None:
    """A transcript whose game no longer shows what it was picked for needs a new seed
    (``python -m tests.pinched.make_golden --find NAME``)."""
    missing = set(spec.wants) - set(load(spec)["features"])
    assert not missing, f"{spec.name} no longer shows {sorted(missing)}"


def test_replay_matches_transcript(spec: Spec) -> None:
    data = load(spec)
    config = msgspec.convert(data["config"], PinchedConfig)
    assert config == spec.config()
    seed = bytes.fromhex(data["seed"])
    moves = [(step["seat"], msgspec.convert(step["move"], Move)) for step in data["steps"]]

    initial, steps = replay(GAME, config, seed, moves)

    assert table(initial) == data["table"]
    assert len(steps) == len(data["steps"])
    for step, stored in zip(steps, data["steps"], strict=True):
        assert plain(step.events) == stored["events"], f"move {step.version} differs"
        assert msgspec.convert(stored["events"], list[Event]) == step.events
    final = steps[-1].state
    assert final.finished
    assert plain(GAME.outcome(final)) == data["outcome"]
    assert state_digest(final) == data["final_state_sha256"]
    events = [event for step in steps for event in step.events]
    assert features(initial, moves, events) == data["features"]
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    assert plain(ended.scores) == data["scores"]
    assert [e for e in events if isinstance(e, GameEnded)] == [ended]


def test_transcript_scores_add_up(spec: Spec) -> None:
    """Each score is its parts; the winners have the best total, then the most gold bars."""
    data = load(spec)
    scores = data["scores"]
    assert [score["seat"] for score in scores] == list(range(spec.players))
    for score in scores:
        parts = score["sold"] + score["lisa_mona"] + score["diamonds"] + score["clues"]
        assert score["total"] == parts - score["curses"]
    best = max((score["total"], score["tiebreak"]) for score in scores)
    winners = [s["seat"] for s in scores if (s["total"], s["tiebreak"]) == best]
    assert data["outcome"]["winners"] == winners


def test_generator_reproduces_file(spec: Spec) -> None:
    """``make_golden`` is deterministic: rerunning it would not change the committed file."""
    assert render(transcript(spec)) == spec.path.read_text(encoding="utf-8")
