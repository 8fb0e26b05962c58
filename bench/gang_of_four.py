"""Gang of Four engine: playouts and ListLegalMoves latency.

``python -m bench.gang_of_four [--seconds S]``. Playouts are random legal moves (from
``legal_moves``) by the seat to act, fixed seeds, 3 and 4 players. The latency rows time
the engine's ``legal_moves`` (the whole ListLegalMoves decision: the hand's combination
listing plus every turn rule) on states recorded from those playouts, and on the worst hand
the listing benchmark (``python -m bench.gang_of_four_listing``) found, leading.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

import msgspec

from bench.common import Row
from engines.gang_of_four import GAME, GangOfFourState
from engines.gang_of_four.cards import cards

WORST_HAND = "g1 g1 m1 g2 g3 g4 g5 g6 g6 g7 g8 g8 g9 g9 g10 g10"
GOAL_MS = 5.0


def playouts(
    players: int, seconds: float, rng: random.Random
) -> tuple[float, list[GangOfFourState]]:
    """Moves per second of random games, and some of the states passed through."""
    config = GAME.make_config(players, {})
    moves = 0
    samples: list[GangOfFourState] = []
    started = time.perf_counter()
    game = 0
    while time.perf_counter() - started < seconds:
        state = GAME.new_game(config, f"bench-gof-{players}-{game}".encode())
        game += 1
        while GAME.outcome(state) is None:
            (seat,) = GAME.to_act(state)
            move = rng.choice(GAME.legal_moves(state, seat))
            state, _ = GAME.apply(state, seat, move)
            moves += 1
            if GAME.outcome(state) is None and rng.random() < 0.02:
                samples.append(state)
    return moves / (time.perf_counter() - started), samples


def legal_moves_ms(states: Sequence[GangOfFourState]) -> list[float]:
    times = []
    for state in states:
        (seat,) = GAME.to_act(state)
        began = time.perf_counter()
        GAME.legal_moves(state, seat)
        times.append((time.perf_counter() - began) * 1000)
    return times


def worst_lead(players: int) -> GangOfFourState:
    """A leading position with the largest hand listing found."""
    state = GAME.new_game(GAME.make_config(players, {}), b"bench-gof-worst")
    hands = list(state.hands)
    hands[state.turn] = tuple(sorted(cards(WORST_HAND)))
    return msgspec.structs.replace(state, hands=tuple(hands), must_include=None)


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="playout time per seat count")
    args = parser.parse_args(argv)
    rng = random.Random(2026)
    rows: list[Row] = []
    samples: list[GangOfFourState] = []
    for players in (3, 4):
        rate, seen = playouts(players, args.seconds, rng)
        samples += seen
        print(f"playout, {players} players: {rate:,.0f} moves/s")
        rows.append(Row("gang_of_four", f"playout, {players} players", rate, "moves/s"))
    times = sorted(legal_moves_ms(samples))
    worst = sorted(legal_moves_ms([worst_lead(4)] * 200))
    p99 = times[int(len(times) * 0.99)]
    print(
        f"legal_moves on {len(times)} playout states: p50 {statistics.median(times):.3f} ms, "
        f"p99 {p99:.3f} ms, max {times[-1]:.3f} ms"
    )
    print(
        f"legal_moves leading with the worst hand ({WORST_HAND}): "
        f"p50 {statistics.median(worst):.3f} ms, max {worst[-1]:.3f} ms"
    )
    met = statistics.median(worst) < GOAL_MS and p99 < GOAL_MS
    print(f"summary: ListLegalMoves goal {GOAL_MS:g} ms per call: {'met' if met else 'NOT met'}")
    rows += [
        Row("gang_of_four", "legal_moves p99, playout states", p99, "ms"),
        Row(
            "gang_of_four", "legal_moves, worst hand leading (p50)", statistics.median(worst), "ms"
        ),
        Row(
            "gang_of_four", f"goal < {GOAL_MS:g} ms per ListLegalMoves", "met" if met else "NOT met"
        ),
    ]
    return rows


if __name__ == "__main__":
    main()
