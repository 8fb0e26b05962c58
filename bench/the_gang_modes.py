"""The Gang with challenge and specialist cards: playouts per mode and ListLegalMoves cost.

``python -m bench.the_gang_modes [--seconds S] [--seats N]``. A playout is a whole game
by a "cooperative random" gang: a random seat moves; when it may accept a proposal or owes
a card action it does that half of the time, otherwise it picks a uniformly random legal
move. (Plain uniform play rarely ends a game with scan guesses: every seat keeps replacing
the open proposal before the others accept it.) The latency row times ``legal_moves`` on
states recorded from those playouts, where the decision moves are listed too.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from bench.common import Row, machine, print_table
from engines.the_gang import GAME, Move, TheGangState
from engines.the_gang.model import Mode
from engines.the_gang.moves import Accept, DiscardCard, PassCard, ShowCard

_DUTIES = (Accept, ShowCard, DiscardCard, PassCard)


def playout(
    seats: int, mode: Mode, seed: bytes, rng: random.Random, record: list[TheGangState]
) -> int:
    state = GAME.new_game(GAME.make_config(seats, {"mode": mode.value}), seed)
    moves = 0
    while not state.finished:
        seat = rng.randrange(seats)
        legal: list[Move] = GAME.legal_moves(state, seat)
        if not legal:  # e.g. the top red chip's holder while the others guess
            continue
        duties = [move for move in legal if isinstance(move, _DUTIES)]
        move = rng.choice(duties if duties and rng.random() < 0.5 else legal)
        if rng.random() < 0.01:
            record.append(state)
        state, _ = GAME.apply(state, seat, move)
        moves += 1
    return moves


def measure(seats: int, mode: Mode, seconds: float, seed: int) -> tuple[float, float, float, float]:
    """(games/s, moves/s, moves per game, legal_moves p99 in ms)."""
    rng = random.Random(seed)
    recorded: list[TheGangState] = []
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        moves += playout(seats, mode, f"modes-{mode}-{games}".encode(), rng, recorded)
        games += 1
    elapsed = time.perf_counter() - start
    timings = []
    for state in recorded[:2000]:
        began = time.perf_counter()
        GAME.legal_moves(state, rng.randrange(seats))
        timings.append((time.perf_counter() - began) * 1000)
    p99 = statistics.quantiles(timings, n=100)[98] if len(timings) > 1 else float("nan")
    return games / elapsed, moves / elapsed, moves / games, p99


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=2.0, help="time per mode")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--seed", type=int, default=20261129)
    args = parser.parse_args(argv)
    print(f"The Gang modes, {args.seats} seats, cooperative random gang; {machine()}")
    results = {mode: measure(args.seats, mode, args.seconds, args.seed) for mode in Mode}
    print_table(
        ["mode", "games/s", "moves/s", "moves/game", "legal_moves p99 ms"],
        [
            [mode.value, f"{g:,.1f}", f"{m:,.0f}", f"{per:,.0f}", f"{p99:.3f}"]
            for mode, (g, m, per, p99) in results.items()
        ],
    )
    return [
        Row("the_gang", f"playouts, {mode.value}, {args.seats} seats", g, "games/s")
        for mode, (g, _, _, _) in results.items()
    ] + [
        Row("the_gang", f"legal_moves p99, {mode.value}", p99, "ms")
        for mode, (_, _, _, p99) in results.items()
    ]


if __name__ == "__main__":
    main()
