"""Write the golden transcripts in ``tests/the_gang/golden/`` (run once, commit the output).

    PYTHONPATH=.:clients/python python -m tests.the_gang.make_golden

Each file holds the seed, the table config, every move with the seat that made it and the
events it produced (msgspec JSON), the outcome and a digest of the final state. The moves
come from the oracle gang of ``support.play_out`` (it sees every hand; its plan says which
heists it plays right and which reversed), with a ``random.Random`` seeded by the game's
seed for its harmless hesitations, so the script itself is deterministic and
``test_golden`` checks that rerunning it changes nothing.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from engines.base import replay
from engines.the_gang import GAME
from tests.the_gang.support import play_out

GOLDEN = Path(__file__).parent / "golden"


@dataclass(frozen=True)
class Spec:
    name: str
    seed: str  # hex
    players: int
    confirm_round_end: bool
    plan: str  # per heist: W = the oracle gang plays the true order, L = the reversed one
    hesitate: float  # chance of a random (harmless) move before each step of the oracle
    expect: str  # "won" or "lost"

    @property
    def path(self) -> Path:
        return GOLDEN / f"{self.name}.json"


SPECS: tuple[Spec, ...] = (
    Spec("three_players_won", "7a3f09c2e15b6d48", 3, False, "W", 0.3, "won"),
    Spec("four_players_confirm_won", "c4e2a9170b3d5f86", 4, True, "LWLW", 0.15, "won"),
    Spec("five_players_confirm_lost", "5b1d8e3c0f7a9264", 5, True, "L", 0.15, "lost"),
    Spec("six_players_lost", "e9064b2d7c8a1f35", 6, False, "WLWL", 0.3, "lost"),
)


def plain(value: object) -> Any:
    """``value`` as msgspec's JSON encoding reads back: the form stored in the files."""
    return json.loads(msgspec.json.encode(value))


def state_digest(state: object) -> str:
    return hashlib.sha256(msgspec.msgpack.encode(state)).hexdigest()


def transcript(spec: Spec) -> dict[str, Any]:
    config = GAME.make_config(spec.players, {"confirm_round_end": spec.confirm_round_end})
    seed = bytes.fromhex(spec.seed)
    start = GAME.new_game(config, seed)
    plays = play_out(start, spec.plan, random.Random(spec.seed), spec.hesitate)
    _, steps = replay(GAME, config, seed, plays)
    final = steps[-1].state
    return {
        "game": GAME.name,
        "seed": spec.seed,
        "config": plain(config),
        "plan": spec.plan,
        "initial_pockets": [[str(card) for card in pocket] for pocket in start.pockets],
        "steps": [
            {"seat": step.seat, "move": plain(step.move), "events": plain(step.events)}
            for step in steps
        ],
        "outcome": plain(GAME.outcome(final)),
        "final_state_sha256": state_digest(final),
    }


def render(data: dict[str, Any]) -> str:
    """Readable JSON: the header pretty-printed, then one line per step."""
    head = {key: value for key, value in data.items() if key != "steps"}
    lines = [f"  {json.dumps(key)}: {json.dumps(value)}," for key, value in head.items()]
    steps = [f"    {json.dumps(step)}" for step in data["steps"]]
    return "{\n" + "\n".join(lines) + '\n  "steps": [\n' + ",\n".join(steps) + "\n  ]\n}\n"


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for spec in SPECS:
        spec.path.write_text(render(transcript(spec)), encoding="utf-8")
        print(f"wrote {spec.path}")


if __name__ == "__main__":
    main()
