"""How long games get: the measurement behind each game's default move limit.

``python -m bench.move_limits [--games N] [--seed S]``. Every game, seat count and variant
is played N times in process (no referee, no Redis) by the client package's bots, each seat
its own bot, deciding from its own view and legal moves exactly as through the API; the
longest game and the 99th percentile of each are printed. Each game's
``GameDefinition.default_move_limit`` (``engines/<game>/__init__.py``) is a generous
multiple of its longest (``engines.base.GameDefinition`` says which; the figures stand
beside each value).

The Gang is played by its ``random`` and ``heuristic`` bots, not by uniformly random
moves: uniform play swaps chips back and forth for thousands of moves (a six-seat game
runs to ~17,000, see bench.engine), which is the inflation a cap exists to stop, not an
ordinary game.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Iterator
from typing import Any

from engines.registry import GAMES
from referee.bots import bot_for
from referee.codecs import CODECS
from service.app.views import seat_view
from service.edge.translate import moves_to_proto, view_to_proto

GANG_MODES = ("basic", "advanced", "professional", "master_thief")
PINCHED_SETUPS = {
    2: ("basic", "paranoid_owner"),
    3: ("basic", "search_for_lisa_mona"),
    4: ("basic", "cursed_secrets"),
    5: ("basic", "the_whole_package"),
}
GUARD = 200_000  # a playout this long is a bug in a bot or an engine, not a measurement


def variants() -> Iterator[tuple[str, int, str, dict[str, object], str]]:
    """(game, seats, variant name, engine options, bot strategy) of every table measured."""
    for strategy in ("random", "heuristic"):
        for seats in range(3, 7):
            for mode in GANG_MODES:
                yield "the_gang", seats, mode, {"mode": mode}, strategy
            yield "the_gang", seats, "confirm", {"confirm_round_end": True}, strategy
        for seats in (3, 4):
            yield "gang_of_four", seats, "printed", {}, strategy
            yield "gang_of_four", seats, "auto", {"auto_announce_last_card": True}, strategy
        for seats, setups in PINCHED_SETUPS.items():
            for setup in setups:
                yield "pinched", seats, setup, {"setup": setup}, strategy


def playout(
    game_name: str, seats: int, options: dict[str, object], strategy: str, seed: bytes
) -> int:
    """One whole game by bots; its number of moves (versions)."""
    game = GAMES[game_name]
    codec = CODECS[game_name]
    state: Any = game.new_game(game.make_config(seats, options), seed)
    bots = [bot_for(game_name, strategy) for _ in range(seats)]
    rng = random.Random(seed)
    moves = 0
    while game.outcome(state) is None and moves < GUARD:
        acting = sorted(game.to_act(state))
        seat = rng.choice(acting)
        legal = game.legal_moves(state, seat)
        view = view_to_proto(seat_view(game, "bench", seats, state, moves, seat, ""))
        chosen = bots[seat].choose(view, moves_to_proto(game_name, legal), rng)
        if chosen is None:
            if all(not game.legal_moves(state, other) for other in acting):
                raise RuntimeError(f"{game_name}: nobody can move at {moves}")
            continue
        state, _ = game.apply(state, seat, codec.move_from_proto(chosen))
        moves += 1
    return moves


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30, help="playouts per table")
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args(argv)
    longest: dict[str, int] = {}
    print(f"{'game':13} {'seats':>5} {'variant':22} {'bots':9} {'p50':>6} {'p99':>6} {'max':>6}")
    began = time.perf_counter()
    for game, seats, variant, options, strategy in variants():
        lengths = sorted(
            playout(
                game, seats, options, strategy, f"{args.seed}-{game}-{seats}-{variant}-{n}".encode()
            )
            for n in range(args.games)
        )
        p99 = lengths[min(len(lengths) - 1, int(len(lengths) * 0.99))]
        print(
            f"{game:13} {seats:5} {variant:22} {strategy:9} "
            f"{statistics.median(lengths):6.0f} {p99:6} {lengths[-1]:6}"
        )
        longest[game] = max(longest.get(game, 0), lengths[-1])
    print(f"longest per game: {longest} ({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
