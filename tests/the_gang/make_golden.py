"""Write the golden transcripts in ``tests/the_gang/golden/`` (run once, commit the output).

    PYTHONPATH=.:clients/python python -m tests.the_gang.make_golden

Each file holds the seed, the table config, every move with the seat that made it and the
events it produced (msgspec JSON), the outcome and a digest of the final state. The moves
of a base-game transcript come from the oracle gang of ``support.play_out`` (it sees every
hand; its plan says which heists it plays right and which reversed); those of a mode's
transcript from the gang of ``mode_bots.play_game``, which also proposes, supersedes,
withdraws and accepts the group decisions, agrees on the scan guesses (right or, in a
heist it plays to lose, wrong) and shows, discards and passes cards. Both take a
``random.Random`` seeded by the game's seed for their harmless hesitations, so the script
itself is deterministic and ``test_golden`` checks that rerunning it changes nothing.

The mode transcripts continue their piles as a run of games would (each starts where an
earlier game left the piles), chosen so that together they turn up every challenge and
every specialist card; a mode file's header lists each heist's cards and result.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from engines.base import replay
from engines.the_gang import GAME, TheGangConfig, TheGangState
from engines.the_gang.model import PileStart
from tests.the_gang.mode_bots import play_game
from tests.the_gang.support import play_out

GOLDEN = Path(__file__).parent / "golden"


@dataclass(frozen=True)
class Spec:
    name: str
    seed: str  # hex
    players: int
    confirm_round_end: bool
    plan: str  # per heist: W = the gang plays to win, L = to lose (the last letter repeats)
    hesitate: float  # chance of a random (harmless) move before each step of the oracle
    expect: str  # "won" or "lost"
    mode: str = "basic"
    shuffle_piles: bool = False
    challenge_pile: tuple[int, ...] | None = None  # a continued pile, top first
    specialist_pile: tuple[int, ...] | None = None
    card_one_turned: bool = False  # of both continued piles

    @property
    def path(self) -> Path:
        return GOLDEN / f"{self.name}.json"

    def options(self) -> dict[str, Any]:
        options: dict[str, Any] = {"confirm_round_end": self.confirm_round_end}
        if self.mode == "basic":
            return options
        options |= {"mode": self.mode, "shuffle_piles": self.shuffle_piles}
        turned = self.card_one_turned
        if self.challenge_pile is not None:
            options["challenge_pile"] = PileStart(self.challenge_pile, card_one_turned=turned)
        if self.specialist_pile is not None:
            options["specialist_pile"] = PileStart(self.specialist_pile, card_one_turned=turned)
        return options

    def config(self) -> TheGangConfig:
        return GAME.make_config(self.players, self.options())


def rotated(first: int) -> tuple[int, ...]:
    """A pile continued from earlier games: ``first`` on top, then on in order."""
    return (*range(first, 11), *range(1, first))


SPECS: tuple[Spec, ...] = (
    Spec("three_players_won", "7a3f09c2e15b6d48", 3, False, "W", 0.3, "won"),
    Spec("four_players_confirm_won", "c4e2a9170b3d5f86", 4, True, "LWLW", 0.15, "won"),
    Spec("five_players_confirm_lost", "5b1d8e3c0f7a9264", 5, True, "L", 0.15, "lost"),
    Spec("six_players_lost", "e9064b2d7c8a1f35", 6, False, "WLWL", 0.3, "lost"),
    # The modes. Advanced, first play: sorted piles.
    Spec("advanced_four_players_won", "a4d1", 4, False, "LLWWW", 0.15, "won", "advanced"),
    Spec(
        "professional_five_players_lost",
        "b5e2",
        5,
        False,
        "WWLLL",
        0.1,
        "lost",
        "professional",
        challenge_pile=rotated(3),
        specialist_pile=rotated(3),
        card_one_turned=True,
    ),
    Spec(
        "advanced_three_players_won",
        "c3f3",
        3,
        False,
        "LWLWW",
        0.2,
        "won",
        "advanced",
        challenge_pile=rotated(5),
        specialist_pile=rotated(5),
        card_one_turned=True,
    ),
    Spec(
        "advanced_six_players_confirm_won",
        "d6a4",
        6,
        True,
        "WLLWW",
        0.1,
        "won",
        "advanced",
        challenge_pile=rotated(1),  # card 1 on top for the second time: shuffle
        specialist_pile=rotated(7),
        card_one_turned=True,
    ),
    Spec(
        "professional_four_players_lost",
        "e4b5",
        4,
        False,
        "LLWWL",
        0.15,
        "lost",
        "professional",
        challenge_pile=rotated(9),
        specialist_pile=rotated(9),
        card_one_turned=True,
    ),
    Spec("master_thief_three_players_won", "f3c6", 3, False, "WLWW", 0.2, "won", "master_thief"),
    Spec(
        "master_thief_six_players_lost",
        "a6d7",
        6,
        False,
        "WLL",
        0.1,
        "lost",
        "master_thief",
        shuffle_piles=True,
    ),
)


def plain(value: object) -> Any:
    """``value`` as msgspec's JSON encoding reads back: the form stored in the files."""
    return json.loads(msgspec.json.encode(value))


def state_digest(state: object) -> str:
    return hashlib.sha256(msgspec.msgpack.encode(state)).hexdigest()


def heists(final: TheGangState) -> list[dict[str, Any]]:
    """Each heist's active cards and result, for the header of a mode's transcript."""
    return [
        {
            "heist": result.heist,
            "challenges": [challenge.name.lower() for challenge in result.challenges],
            "specialist": result.specialist.name.lower() if result.specialist else None,
            "success": result.success,
        }
        for result in final.heists
    ]


def transcript(spec: Spec) -> dict[str, Any]:
    config = spec.config()
    seed = bytes.fromhex(spec.seed)
    start = GAME.new_game(config, seed)
    rnd = random.Random(spec.seed)
    if spec.mode == "basic":
        plays = play_out(start, spec.plan, rnd, spec.hesitate)
    else:
        plays = play_game(start, spec.plan, rnd, spec.hesitate)
    _, steps = replay(GAME, config, seed, plays)
    final = steps[-1].state
    data: dict[str, Any] = {
        "game": GAME.name,
        "seed": spec.seed,
        "config": plain(config),
        "plan": spec.plan,
    }
    if spec.mode != "basic":
        data["heists"] = heists(final)
    data |= {
        "initial_pockets": [[str(card) for card in pocket] for pocket in start.pockets],
        "steps": [
            {"seat": step.seat, "move": plain(step.move), "events": plain(step.events)}
            for step in steps
        ],
        "outcome": plain(GAME.outcome(final)),
        "final_state_sha256": state_digest(final),
    }
    return data


def render(data: dict[str, Any]) -> str:
    """Readable JSON: the header pretty-printed, then one line per step."""
    head = {key: value for key, value in data.items() if key != "steps"}
    lines = [f"  {json.dumps(key)}: {json.dumps(value)}," for key, value in head.items()]
    steps = [f"    {json.dumps(step)}" for step in data["steps"]]
    return "{\n" + "\n".join(lines) + '\n  "steps": [\n' + ",\n".join(steps) + "\n  ]\n}\n"


def main(names: Sequence[str] = ()) -> None:
    """Write every transcript, or only those named (``python -m ... advanced_four_...``)."""
    GOLDEN.mkdir(exist_ok=True)
    unknown = set(names) - {spec.name for spec in SPECS}
    if unknown:
        raise SystemExit(f"no such transcript: {sorted(unknown)}")
    for spec in SPECS:
        if names and spec.name not in names:
            continue
        spec.path.write_text(render(transcript(spec)), encoding="utf-8")
        print(f"wrote {spec.path}")


if __name__ == "__main__":
    main(sys.argv[1:])
