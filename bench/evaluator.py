"""Poker evaluator throughput: ``python -m bench.evaluator [--seconds S] [--hands N]``.

Random hands are dealt with a fixed seed before any clock starts; each row then runs its
entry point over the whole batch, again and again, for at least ``--seconds``, and prints
evaluations per second. The goal is 1,000,000 seven-card evaluations per second.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from engines.cards import DECK, Card
from engines.poker import evaluate, hand_mask, rank_masks, rank_values
from engines.poker.native import USES_C_API

GOAL = 1_000_000
SUITLESS_JACK = Card(11, None)


def deal(rng: random.Random, count: int, size: int) -> list[tuple[Card, ...]]:
    """``count`` random hands of ``size`` distinct ordinary cards."""
    return [tuple(rng.sample(DECK, size)) for _ in range(count)]


def deal_with_jack(rng: random.Random, count: int, size: int) -> list[tuple[Card, ...]]:
    """Hands holding the suitless jack plus ``size - 1`` ordinary cards (the slow path)."""
    return [(SUITLESS_JACK, *rng.sample(DECK, size - 1)) for _ in range(count)]


def rate(run: Callable[[Sequence[Any]], object], batch: Sequence[Any], seconds: float) -> float:
    """Evaluations per second of ``run`` over ``batch``, repeated for ``seconds``."""
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        run(batch)
        done += len(batch)
        now = time.perf_counter()
        if now >= deadline:
            return done / (now - start)


def evaluate_all(hands: Sequence[Sequence[Card]]) -> list[object]:
    return [evaluate(hand) for hand in hands]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="minimum time per row")
    parser.add_argument("--hands", type=int, default=100_000, help="hands per batch")
    parser.add_argument("--seed", type=int, default=20240601)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    seven, eight = deal(rng, args.hands, 7), deal(rng, args.hands, 8)
    seven_masks = [hand_mask(hand) for hand in seven]
    eight_masks = [hand_mask(hand) for hand in eight]
    jacks = deal_with_jack(rng, args.hands, 7)
    path = "eval7 C function via ctypes" if USES_C_API else "eval7.evaluate (fallback)"
    print(f"fast path: {path}; {args.hands:,} hands per batch, seed {args.seed}")
    plan: list[tuple[str, Callable[[Sequence[Any]], object], Sequence[Any]]] = [
        ("7 cards  rank_masks (masks made beforehand)", rank_masks, seven_masks),
        ("7 cards  rank_values (Card tuples)", rank_values, seven),
        ("7 cards  evaluate -> HandValue", evaluate_all, seven),
        ("8 cards  rank_masks (masks made beforehand)", rank_masks, eight_masks),
        ("8 cards  rank_values (Card tuples)", rank_values, eight),
        ("8 cards  evaluate -> HandValue", evaluate_all, eight),
        ("7 cards with suitless jack  rank_values", rank_values, jacks),
    ]
    rows: list[float] = []
    for name, run, batch in plan:
        rows.append(rate(run, batch, args.seconds))
        print(f"{name:<45} {rows[-1]:>12,.0f} /s", flush=True)
    masks, cards, values, masks8, cards8 = rows[:5]
    met = [name for name, per_second in (("masks", masks), ("cards", cards)) if per_second >= GOAL]
    verdict = f"met by {' and '.join(met)}" if met else "NOT met"
    print(
        f"summary: 7-card {masks / 1e6:.2f}M/s masks, {cards / 1e6:.2f}M/s cards, "
        f"{values / 1e6:.2f}M/s HandValue; 8-card {masks8 / 1e6:.2f}M/s masks, "
        f"{cards8 / 1e6:.2f}M/s cards; goal {GOAL / 1e6:.0f}M/s 7-card: {verdict}"
    )


if __name__ == "__main__":
    main()
