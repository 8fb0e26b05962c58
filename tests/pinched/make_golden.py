"""Write the golden transcripts in ``tests/pinched/golden/`` (run once, commit the output).

    .venv/bin/python -m tests.pinched.make_golden [name ...]
    .venv/bin/python -m tests.pinched.make_golden --find [name ...]

Each file holds the seed, the table config, the table as dealt (open cards, river, stashes,
hands, the first mastermind, the sealed letter and the curse pile), every move with the
seat that made it and the events it produced (msgspec JSON), the outcome, the final scores
and a digest of the final state. A header lists which special rules the game shows
(``features``: the Lisa Mona, the letter, clues, diamonds, the vault, the dogs, the
passage, curses, the bank, reshuffles...), counted from its events.

The moves come from :func:`tests.pinched.bots.sensible_play` (a burglar deciding from its
own view, with a ``random.Random`` seeded by the transcript's seed string), so the script is
deterministic and ``test_golden`` checks that rerunning it changes nothing. Each transcript
names the special rules it is there to show (``Spec.wants``); its seed was picked with
``--find``, which plays seeds in turn and lists those whose game shows them all. Together
the transcripts show every special rule (``test_golden`` checks both). An engine change
that moves the games may need new seeds: ``--find``, then put them in ``SPECS``.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from engines.base import replay
from engines.pinched import GAME, Event, PinchedConfig, PinchedState
from engines.pinched.components import Components, Sale, ValuableKind
from engines.pinched.events import (
    BankFailed,
    CardsDrawn,
    CurseDrawn,
    CursePassed,
    CursesKept,
    DeckReshuffled,
    Discarded,
    DogTaken,
    DogUsed,
    DrawReason,
    GameEnded,
    LetterOpened,
    LetterRead,
    LocationsRevealed,
    PassageUsed,
    Sold,
    Treasure,
    TreasureTaken,
    VaultMoved,
)
from engines.pinched.model import Dog, Location
from engines.pinched.moves import SkipPassage, Store, TakeDog, TakeWithGordie
from tests.pinched.bots import play_out, sensible_play

GOLDEN = Path(__file__).parent / "golden"


@dataclass(frozen=True)
class Spec:
    name: str
    seed: str  # hex
    players: int
    setup: str
    wants: tuple[str, ...]  # features this transcript is there to show
    components: Components | None = None  # a replacement component table

    @property
    def path(self) -> Path:
        return GOLDEN / f"{self.name}.json"

    def config(self) -> PinchedConfig:
        options: dict[str, object] = {"setup": self.setup}
        if self.components is not None:
            options["components"] = self.components
        return GAME.make_config(self.players, options)


SMALL_DECK = Components(
    kinds=(
        ValuableKind("coins", 8, (Sale(3, 1), Sale(5, 3))),
        ValuableKind("gold_bars", 6, (Sale(2, 1), Sale(3, 2), Sale(4, 4))),
        ValuableKind("paintings", 6, (Sale(2, 1), Sale(4, 3))),
    ),
    jokers=2,
    curses=(1, 1, 2, 2, 3, 3),
    vault_standard=(0, 1, 2),
    vault_crown=(1, 2, 4, 6),
    fields=2,
)
"""A replacement table small enough that the deck runs out and the discards come back
(rarer kinds sell for more: gold bars and paintings, 6 copies each, above coins)."""


SPECS: tuple[Spec, ...] = (
    Spec(
        "basic_two_players",
        "2004",
        2,
        "basic",
        ("lisa_mona_3", "diamond", "vault_cracked", "passage", "passage_declined"),
    ),
    Spec(
        "small_deck_three_players",
        "305a",
        3,
        "basic",
        ("reshuffle", "shared_victory"),
        SMALL_DECK,
    ),
    Spec(
        "paranoid_owner_two_players",
        "2012",
        2,
        "paranoid_owner",
        ("vault_cracked", "vault_moved", "tie_broken_by_gold_bars"),
    ),
    Spec(
        "search_for_lisa_mona_three_players",
        "3003",
        3,
        "search_for_lisa_mona",
        ("letter_read", "clue", "letter_opened", "lisa_mona_5", "rufus_taken_from_a_player"),
    ),
    Spec(
        "basic_four_players",
        "404f",
        4,
        "basic",
        ("bank_alone", "bank_failed", "last_take_drawn"),
    ),
    Spec(
        "cursed_secrets_four_players",
        "47d3",
        4,
        "cursed_secrets",
        (
            "bank_alone",
            "bank_shared",
            "bank_failed",
            "curse_drawn",
            "curse_passed",
            "curses_kept",
            "lisa_mona_5",
        ),
    ),
    Spec(
        "the_whole_package_five_players",
        "501f",
        5,
        "the_whole_package",
        ("gordie_used", "dog_chosen", "rufus_taken_from_a_player", "curse_passed", "bank_shared"),
    ),
)


def plain(value: object) -> Any:
    """``value`` as msgspec's JSON encoding reads back: the form stored in the files."""
    return json.loads(msgspec.json.encode(value))


def state_digest(state: object) -> str:
    return hashlib.sha256(msgspec.msgpack.encode(state)).hexdigest()


def features(
    initial: PinchedState, plays: Sequence[tuple[int, Any]], events: Sequence[Event]
) -> dict[str, int]:
    """How often each special rule shows in a game (only the ones that do)."""
    seen: Counter[str] = Counter()
    players = initial.config.players
    for event in events:
        match event:
            case TreasureTaken(treasure=Treasure.LISA_MONA, points=points):
                seen[f"lisa_mona_{points}"] += 1
            case TreasureTaken(treasure=treasure):
                seen[treasure] += 1
            case LetterRead():
                seen["letter_read"] += 1
            case LetterOpened():
                seen["letter_opened"] += 1
            case VaultMoved(position=position) if position > 0:
                seen["vault_moved"] += 1
            case CardsDrawn(reason=DrawReason.VAULT, count=count):
                seen["vault_cracked" if count else "vault_cracked_empty"] += 1
            case CardsDrawn(reason=DrawReason.LAST_TAKE):
                seen["last_take_drawn"] += 1
            case DogTaken(dog=dog, from_seat=None):
                seen[f"{Dog(dog).name.lower()}_taken"] += 1
            case DogTaken(dog=dog):
                seen[f"{Dog(dog).name.lower()}_taken_from_a_player"] += 1
            case DogUsed(dog=dog):
                seen[f"{Dog(dog).name.lower()}_used"] += 1
            case PassageUsed():
                seen["passage"] += 1
            case CurseDrawn():
                seen["curse_drawn"] += 1
            case CursePassed():
                seen["curse_passed"] += 1
            case CursesKept():
                seen["curses_kept"] += 1
            case LocationsRevealed(heist=Location.BANK, present=present):
                if len(present) == 1:
                    seen["bank_alone"] += 1
                elif len(present) < players:
                    seen["bank_shared"] += 1
            case BankFailed():
                seen["bank_failed"] += 1
            case DeckReshuffled():
                seen["reshuffle"] += 1
            case Sold(points=0):
                seen["sold_for_nothing"] += 1
            case Sold():
                seen["sold"] += 1
            case Discarded():
                seen["discarded"] += 1
            case GameEnded(scores=scores, winners=winners):
                seen["shared_victory" if len(winners) > 1 else "one_winner"] += 1
                best = max(score.total for score in scores)
                if sum(score.total == best for score in scores) > len(winners):
                    seen["tie_broken_by_gold_bars"] += 1
    for _, move in plays:
        if isinstance(move, Store):
            seen["store_choice"] += 1
        elif isinstance(move, SkipPassage):
            seen["passage_declined"] += 1
        elif isinstance(move, TakeDog):
            seen["dog_chosen"] += 1
        elif isinstance(move, TakeWithGordie):
            seen["gordie_choice"] += 1
    return dict(sorted(seen.items()))


def table(state: PinchedState) -> dict[str, Any]:
    """The table as dealt, hidden parts included (the file is for tests, not for seats)."""
    return {
        "first_mastermind": state.first_mastermind,
        "watch": state.watch,
        "fields": plain(state.fields),
        "river": plain(state.river),
        "stashes": plain(state.stashes),
        "hands": plain(state.hands),
        "deck_size": len(state.deck),
        "letter": plain(state.letter),
        "curse_pile": plain(state.curse_pile),
    }


def transcript(spec: Spec) -> dict[str, Any]:
    config = spec.config()
    seed = bytes.fromhex(spec.seed)
    start = GAME.new_game(config, seed)
    plays = play_out(start, sensible_play, random.Random(spec.seed))
    initial, steps = replay(GAME, config, seed, plays)
    final = steps[-1].state
    events = [event for step in steps for event in step.events]
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    return {
        "game": GAME.name,
        "seed": spec.seed,
        "setup": spec.setup,
        "config": plain(config),
        "features": features(initial, plays, events),
        "table": table(initial),
        "steps": [
            {"seat": step.seat, "move": plain(step.move), "events": plain(step.events)}
            for step in steps
        ],
        "scores": plain(ended.scores),
        "outcome": plain(GAME.outcome(final)),
        "final_state_sha256": state_digest(final),
    }


def render(data: dict[str, Any]) -> str:
    """Readable JSON: the header one key a line, then one line per step."""
    head = {key: value for key, value in data.items() if key != "steps"}
    lines = [f"  {json.dumps(key)}: {json.dumps(value)}," for key, value in head.items()]
    steps = [f"    {json.dumps(step)}" for step in data["steps"]]
    return "{\n" + "\n".join(lines) + '\n  "steps": [\n' + ",\n".join(steps) + "\n  ]\n}\n"


def find(spec: Spec, tries: int = 400, wanted: int = 3) -> list[str]:
    """Seeds (hex, the seat count first) whose game shows everything ``spec`` wants."""
    found: list[str] = []
    for number in range(tries):
        seed = f"{spec.players}{number:03x}"
        data = transcript(
            Spec(spec.name, seed, spec.players, spec.setup, spec.wants, spec.components)
        )
        if set(spec.wants) <= set(data["features"]):
            found.append(seed)
            print(f"{spec.name}: {seed} {len(data['steps'])} moves {data['features']}")
            if len(found) == wanted:
                break
    return found


def main(argv: Sequence[str] = ()) -> None:
    """Write every transcript, or only those named; ``--find`` lists seeds that show what
    each (named) transcript wants instead (after an engine change moved the games)."""
    names = [arg for arg in argv if not arg.startswith("--")]
    GOLDEN.mkdir(exist_ok=True)
    unknown = set(names) - {spec.name for spec in SPECS}
    if unknown:
        raise SystemExit(f"no such transcript: {sorted(unknown)}")
    for spec in SPECS:
        if names and spec.name not in names:
            continue
        if "--find" in argv:
            find(spec)
            continue
        data = transcript(spec)
        spec.path.write_text(render(data), encoding="utf-8")
        missing = sorted(set(spec.wants) - set(data["features"]))
        note = f"; MISSING {missing}: run with --find" if missing else ""
        print(f"wrote {spec.path}: {len(data['steps'])} moves{note}")


if __name__ == "__main__":
    main(sys.argv[1:])
