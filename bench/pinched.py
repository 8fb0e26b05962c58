"""Pinched! engine: playouts per seat count and setup, and ListLegalMoves latency.

``python -m bench.pinched [--seconds S]``. A playout is a whole game of random legal moves:
each step asks ``to_act`` who may move (it lists every seat's legal moves, as the referee
does for each answer), picks one of those seats and one of its legal moves, and applies
it. Fixed seeds; each seat count plays its basic setup and its recommended later setup
(crown sides; the bank at 4 and 5). The latency columns time ``legal_moves`` (the whole
ListLegalMoves decision) for a seat that must act, on states recorded from the playouts.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

from bench.common import PlayoutRate, Row, machine, percentile, print_table
from engines.pinched import GAME, PinchedState

SETUPS: tuple[tuple[int, str], ...] = (
    (2, "basic"),
    (2, "paranoid_owner"),
    (3, "basic"),
    (3, "search_for_lisa_mona"),
    (4, "basic"),
    (4, "cursed_secrets"),
    (5, "basic"),
    (5, "the_whole_package"),
)


@dataclass(frozen=True)
class Result(PlayoutRate):
    players: int = 0
    setup: str = ""
    legal_ms: tuple[float, ...] = ()  # sorted


def playout(
    players: int, setup: str, seed: bytes, rng: random.Random, record: list[PinchedState]
) -> int:
    """Moves in one random game; some of the states passed through go to ``record``."""
    state = GAME.new_game(GAME.make_config(players, {"setup": setup}), seed)
    moves = 0
    while not state.finished:
        seat = rng.choice(sorted(GAME.to_act(state)))
        move = rng.choice(GAME.legal_moves(state, seat))
        if rng.random() < 0.05:
            record.append(state)
        state, _ = GAME.apply(state, seat, move)
        moves += 1
    return moves


def legal_moves_ms(states: Sequence[PinchedState], rng: random.Random) -> list[float]:
    timings = []
    for state in states:
        seat = rng.choice(sorted(GAME.to_act(state)))
        began = time.perf_counter()
        GAME.legal_moves(state, seat)
        timings.append((time.perf_counter() - began) * 1000)
    return sorted(timings)


def measure(players: int, setup: str, seconds: float, seed: int) -> Result:
    rng = random.Random(seed)
    recorded: list[PinchedState] = []
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        seed_bytes = f"bench-pinched-{players}-{setup}-{games}".encode()
        moves += playout(players, setup, seed_bytes, rng, recorded)
        games += 1
    elapsed = time.perf_counter() - start
    return Result(games, moves, elapsed, players, setup, tuple(legal_moves_ms(recorded, rng)))


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="playout time per setup")
    parser.add_argument("--seed", type=int, default=20261129)
    args = parser.parse_args(argv)
    print(f"Pinched!, random legal moves; {machine()}")
    results = [measure(players, setup, args.seconds, args.seed) for players, setup in SETUPS]
    print_table(
        [
            "seats",
            "setup",
            "games/s",
            "moves/s",
            "moves/game",
            "legal_moves p50 ms",
            "p99 ms",
            "states timed",
        ],
        [
            [
                str(r.players),
                r.setup,
                f"{r.games_per_second:,.1f}",
                f"{r.moves_per_second:,.0f}",
                f"{r.moves_per_game:,.0f}",
                f"{percentile(r.legal_ms, 0.5):.3f}",
                f"{percentile(r.legal_ms, 0.99):.3f}",
                str(len(r.legal_ms)),
            ]
            for r in results
        ],
        left=2,
    )
    rows: list[Row] = []
    for r in results:
        label = f"{r.players} seats, {r.setup}"
        rows += [
            Row("pinched", f"playouts, {label}", r.games_per_second, "games/s"),
            Row("pinched", f"moves/game, {label}", r.moves_per_game, "moves"),
        ]
    every = sorted(t for r in results for t in r.legal_ms)
    rows += [
        Row("pinched", "legal_moves p50, playout states", percentile(every, 0.5), "ms"),
        Row("pinched", "legal_moves p99, playout states", percentile(every, 0.99), "ms"),
    ]
    return rows


if __name__ == "__main__":
    main()
