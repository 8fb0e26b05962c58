"""Gang of Four move listing: ``python -m bench.gang_of_four_listing [--calls N] [--hands N]``.

``ListLegalMoves`` must list every legal play of a 16-card hand, so the listing is timed per
call on the hands that are worst for it and on random hands; the goal is under 5 ms per call
even in the worst case. Worst-case hands are built (long one-colour runs with duplicates and
the multicoloured 1 give the most flushes; three colours over five values the most
straights) and found by a seeded local search that maximises the number of combinations.
Then ``classify`` and ``beats`` throughput. Every input is made before any clock starts.

The verdict takes, for every (worst hand, play to beat) input, the median of its repeated
calls, and needs the slowest of those and the p99 of all worst-case calls under 5 ms. The
raw maximum is printed too; on a shared machine a single call can include a pause of the
process (scheduling), which a deterministic function of its input cannot explain.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial

import msgspec

from bench.common import machine, percentile
from engines.errors import InvalidMoveError
from engines.gang_of_four import GAME, GangOfFourConfig, GangOfFourState
from engines.gang_of_four.cards import COPIES, DECK, HAND_SIZE, GofCard, cards
from engines.gang_of_four.combos import (
    Combination,
    beats,
    classify,
    combinations_in,
    plays_beating,
)

GOAL_MS = 5.0
Hand = tuple[GofCard, ...]

BUILT_WORST = [
    # one colour, both 1s with the multicoloured 1, the rest a run with duplicates: flushes
    "g1 g1 m1 g2 g3 g4 g5 g6 g6 g7 g8 g8 g9 g9 g10 g10",
    "r1 r1 m1 r2 r2 r3 r3 r4 r4 r5 r5 r6 r7 r8 r9 r10",
    # one colour without the multicoloured 1: the most raw five-card subsets to deduplicate
    "g1 g1 g2 g2 g3 g3 g4 g4 g5 g5 g6 g6 g7 g8 g9 g10",
    # every colour of five values plus the multicoloured 1: the most straights
    "g1 y1 r1 m1 g2 y2 r2 g3 y3 r3 g4 y4 r4 g5 y5 r5",
    "g4 y4 r4 g5 y5 r5 g6 y6 r6 g7 y7 r7 g8 y8 r8 y9",
    # Gangs, triples and full houses with the Phoenix pair
    "g1 g1 y1 y1 r1 r1 m1 g2 g2 y2 y2 r2 r2 gP yP rD",
]

# What the listing may have to beat: leading, the weakest play of each size (the weakest
# straight forces every five-card kind to be generated), and a Gang.
CURRENTS: list[tuple[str, Combination | None]] = [
    ("leading", None),
    ("on a single g1", classify(cards("g1"))),
    ("on a pair g1 g1", classify(cards("g1 g1"))),
    ("on a triple g1 g1 y1", classify(cards("g1 g1 y1"))),
    ("on a straight g1 g2 g3 g4 y5", classify(cards("g1 g2 g3 g4 y5"))),
    ("on a full house", classify(cards("g1 g1 y1 g2 g2"))),
    ("on a Gang of Four", classify(cards("g1 g1 y1 y1"))),
]


def search_worst(rng: random.Random, restarts: int, steps: int) -> list[Hand]:
    """Local search (one card swapped at a time) for hands with the most combinations."""
    found: list[Hand] = []
    for _ in range(restarts):
        held = sorted(rng.sample(DECK, HAND_SIZE))
        score = len(combinations_in(held))
        for _ in range(steps):
            left = Counter(held)
            pool = [card for card, copies in COPIES.items() for _ in range(copies - left[card])]
            trial = list(held)
            trial[rng.randrange(HAND_SIZE)] = rng.choice(pool)
            trial.sort()
            trial_score = len(combinations_in(trial))
            if trial_score >= score:
                held, score = trial, trial_score
        found.append(tuple(held))
    return found


def seated(held: Hand, current: Combination | None) -> GangOfFourState:
    """A four-player table where seat 0 holds ``held`` and must answer ``current`` (played
    by seat 1), or lead: the input of ``legal_moves`` (``ListLegalMoves``)."""
    state = GAME.new_game(GangOfFourConfig(players=4), b"bench")
    return msgspec.structs.replace(
        state,
        hands=(held, *state.hands[1:]),
        turn=0,
        current=current,
        current_by=None if current is None else 1,
        must_include=None,
    )


def per_call_ms(run: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        run()
        times.append((time.perf_counter_ns() - start) / 1e6)
    return times


def describe(times: list[float]) -> str:
    ordered = sorted(times)
    return (
        f"p50 {percentile(ordered, 0.5):.3f}  p99 {percentile(ordered, 0.99):.3f}  "
        f"max {ordered[-1]:.3f} ms"
    )


def rate(run: Callable[[], int], seconds: float) -> float:
    """Operations per second; ``run`` does a batch and returns how many it did."""
    done = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += run()
    return done / elapsed


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--calls", type=int, default=200, help="timed calls per worst hand")
    parser.add_argument("--hands", type=int, default=2000, help="random hands")
    parser.add_argument("--steps", type=int, default=400, help="local-search steps per restart")
    parser.add_argument("--seconds", type=float, default=1.0, help="per throughput row")
    parser.add_argument("--seed", type=int, default=20240601)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"machine: {machine()}")

    searched = search_worst(rng, restarts=4, steps=args.steps)
    worst = [tuple(sorted(cards(text))) for text in BUILT_WORST] + searched
    print(f"worst-case hands ({len(BUILT_WORST)} built, {len(searched)} searched):")
    for held in worst:
        print(f"  {len(combinations_in(held)):>5} combinations  {' '.join(map(str, held))}")

    worst_times: list[float] = []
    input_medians: list[float] = []  # per (hand, current): the median of its calls
    listing_times: list[float] = []  # legal_moves on the same inputs
    print(f"\nworst-case hands, {args.calls} calls each, per call:")
    for name, current in CURRENTS:
        times = []
        for held in worst:
            calls = per_call_ms(partial(plays_beating, held, current), args.calls)
            input_medians.append(percentile(sorted(calls), 0.5))
            times += calls
        worst_times += times
        label = "combinations_in" if current is None else f"plays_beating {name}"
        print(f"  {label:<46} {describe(times)}")
        moves = [
            t
            for held in worst
            for t in per_call_ms(partial(GAME.legal_moves, seated(held, current), 0), args.calls)
        ]
        listing_times += moves
        print(f"  {'  legal_moves (through check)':<46} {describe(moves)}")

    hands = [tuple(sorted(rng.sample(DECK, HAND_SIZE))) for _ in range(args.hands)]
    listed = [combinations_in(held) for held in hands]
    random_currents = [rng.choice(found) for found in listed]
    leading = [t for held in hands for t in per_call_ms(partial(combinations_in, held), 1)]
    beating = [
        t
        for held, current in zip(hands, random_currents, strict=True)
        for t in per_call_ms(partial(plays_beating, held, current), 1)
    ]
    sizes = sorted(len(found) for found in listed)
    print(
        f"\nrandom hands ({args.hands}; combinations per hand p50 {percentile(sizes, 0.5):.0f}, "
        f"max {sizes[-1]}), per call:"
    )
    print(f"  {'combinations_in':<46} {describe(leading)}")
    print(f"  {'plays_beating a random listed play':<46} {describe(beating)}")

    plays = [combination.cards for found in listed[:200] for combination in found]
    junk = [tuple(sorted(rng.sample(DECK, rng.choice([2, 3, 4, 5])))) for _ in range(len(plays))]
    pairs = [(rng.choice(found), rng.choice(found)) for found in listed for _ in range(20)]

    def classify_all(batch: list[Hand]) -> int:
        for chosen in batch:
            with contextlib.suppress(InvalidMoveError):
                classify(chosen)
        return len(batch)

    def beats_all() -> int:
        for new, current in pairs:
            beats(new, current)
        return len(pairs)

    valid_rate = rate(lambda: classify_all(plays), args.seconds)
    junk_rate = rate(lambda: classify_all(junk), args.seconds)
    beats_rate = rate(beats_all, args.seconds)
    print(f"\nclassify (legal plays)       {valid_rate:>12,.0f} /s")
    print(f"classify (random card sets)  {junk_rate:>12,.0f} /s")
    print(f"beats                        {beats_rate:>12,.0f} /s")

    slowest_input = max(input_medians)
    p99 = percentile(sorted(worst_times), 0.99)
    raw_max = max(worst_times)
    met = slowest_input < GOAL_MS and p99 < GOAL_MS
    if raw_max >= GOAL_MS:
        print(
            f"note: single calls up to {raw_max:.2f} ms; the same input's median is at most "
            f"{slowest_input:.2f} ms, so those are pauses of the machine, not the listing"
        )
    print(
        f"\nsummary: worst-case listing slowest input {slowest_input:.2f} ms (median), "
        f"p99 {p99:.2f} ms, max {raw_max:.2f} ms; random hands p99 "
        f"{percentile(sorted(leading + beating), 0.99):.2f} ms; classify "
        f"{valid_rate / 1e3:.0f}k/s, beats {beats_rate / 1e6:.1f}M/s; legal_moves worst-case "
        f"p50 {percentile(sorted(listing_times), 0.5):.2f} ms, "
        f"p99 {percentile(sorted(listing_times), 0.99):.2f} ms; "
        f"goal {GOAL_MS:g} ms per call: {'met' if met else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
