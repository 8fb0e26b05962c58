"""Hand strength for The Gang's bots: eval7 (compiled, exact) on sampled deals.

Only the heuristic bot needs it, so eval7 is imported on first use (the ``bots`` extra of
``referee-client`` installs it). The Jack specialist card (``J*``, a jack without a suit)
is counted as a jack of a suit nobody can see, which may rarely count a flush it cannot
make: an estimate, not the referee's judgement.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import cache
from types import ModuleType
from typing import Any

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = tuple(rank + suit for rank in RANKS for suit in SUITS)
JACK_CARD = "J*"

# eval7.handtype names -> PokerHand numbers (referee.v1.the_gang.proto); royal flush apart.
HAND_TYPES = {
    "High Card": 1,
    "Pair": 2,
    "Two Pair": 3,
    "Trips": 4,
    "Straight": 5,
    "Flush": 6,
    "Full House": 7,
    "Quads": 8,
    "Straight Flush": 9,
}
ROYAL_FLUSH = 10


@cache
def _eval7() -> ModuleType:
    try:
        import eval7
    except ImportError as error:  # pragma: no cover - the extra is installed in development
        raise RuntimeError(
            "The Gang's heuristic bot needs eval7: pip install 'referee-client[bots]'"
        ) from error
    module: ModuleType = eval7
    return module


def plain_codes(codes: Sequence[str], seen: Iterable[str]) -> list[str]:
    """``codes`` with the Jack card as a jack of a suit not in ``seen`` (a free one)."""
    taken = set(seen) | set(codes)
    out = []
    for code in codes:
        if code == JACK_CARD:
            code = next((f"J{suit}" for suit in SUITS if f"J{suit}" not in taken), "Jc")
            taken.add(code)
        out.append(code)
    return out


def cards(codes: Iterable[str]) -> list[Any]:
    ev = _eval7()
    return [ev.Card(code) for code in codes]


def evaluate(codes: Sequence[str]) -> int:
    """eval7's value of 5 to 8 cards (higher is stronger)."""
    value: int = _eval7().evaluate(cards(codes))
    return value


def category(value: int) -> int:
    """The PokerHand number of an eval7 value."""
    name: str = _eval7().handtype(value)
    number = HAND_TYPES[name]
    if number == 9 and value >= evaluate(["As", "Ks", "Qs", "Js", "Ts"]):
        return ROYAL_FLUSH
    return number


def strength(
    pocket: Sequence[str],
    board: Sequence[str],
    rng: random.Random,
    *,
    known: Iterable[str] = (),
    samples: int = 240,
) -> float:
    """The chance that ``pocket`` beats one random other pocket (of as many cards) once the
    board is complete: a tie counts half. ``known``: other cards seen, out of the deck."""
    ev = _eval7()
    known = set(known)
    board_codes = plain_codes(board, [*pocket, *known])
    pocket_codes = plain_codes(pocket, [*board_codes, *known])
    seen = set(pocket_codes) | set(board_codes) | known
    unseen = cards([code for code in DECK if code not in seen])
    mine, shown = cards(pocket_codes), cards(board_codes)
    need, size = 5 - len(shown), len(mine)
    if need < 0 or not mine or len(unseen) < need + size:
        return 0.5
    total = 0.0
    for _ in range(samples):
        drawn = rng.sample(unseen, need + size)
        full = shown + drawn[:need]
        mine_value, other_value = ev.evaluate(mine + full), ev.evaluate(drawn[need:] + full)
        total += 1.0 if mine_value > other_value else 0.5 if mine_value == other_value else 0.0
    return total / samples


def sample_pockets(
    unseen: Sequence[str],
    board: Sequence[str],
    size: int,
    at_least: int,
    rng: random.Random,
    samples: int = 400,
) -> list[tuple[list[str], int]]:
    """Pockets of ``size`` from ``unseen`` whose hand with the (complete) ``board`` is worth
    at least ``at_least``, with their values; all sampled pockets if too few qualify."""
    drawn = []
    for _ in range(samples):
        pocket = rng.sample(list(unseen), size)
        drawn.append((pocket, evaluate([*pocket, *board])))
    strong = [(pocket, value) for pocket, value in drawn if value >= at_least]
    return strong if len(strong) >= 20 else drawn
