"""What the protobuf translation costs per call: ``python -m bench.codecs [--games N]``.

For each game, random playouts with fixed seeds record what the referee translates on
every move: the seat's view (``fill_view`` into a ``referee.v1.View``), the move's events
(``event_to_proto``), the listed legal moves (``move_to_proto``) and a submitted move read
back (``move_from_proto``). Each is then timed alone over the recorded values, best of
three passes, in microseconds per value. The same script runs against any version of the
codecs that keeps their interface (``CODECS[game].fill_view``, ...), so a before/after
pair is two runs of it.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.common import machine, print_table
from engines.registry import GAMES
from referee.codecs import CODECS
from referee.v1 import game_pb2

REPEATS = 3
SEATS = {"the_gang": 4, "gang_of_four": 4, "pinched": 4}
MAX_MOVES = 3_000


@dataclass
class Recorded:
    views: list[Any] = field(default_factory=list)
    events: list[Any] = field(default_factory=list)
    moves: list[Any] = field(default_factory=list)


def record(game: str, games: int) -> Recorded:
    """Views (every seat's and a spectator's after each move), events and moves."""
    definition = GAMES[game]
    seats = SEATS[game]
    out = Recorded()
    for number in range(games):
        rng = random.Random(number)
        state = definition.new_game(definition.make_config(seats, {}), f"codec-{number}".encode())
        for _ in range(MAX_MOVES):
            if definition.outcome(state) is not None:
                break
            seat = rng.choice(sorted(definition.to_act(state)))
            legal = definition.legal_moves(state, seat)
            if not legal:
                continue
            move = rng.choice(legal)
            state, events = definition.apply(state, seat, move)
            out.moves.extend(legal[:8])
            out.events.extend(events)
            viewer = rng.choice([None, *range(seats)])
            out.views.append(definition.view(state, viewer))
    return out


def per_call(work: Callable[[Any], object], values: Sequence[Any]) -> float:
    """Best of ``REPEATS`` passes, in microseconds per value."""
    best = float("inf")
    for _ in range(REPEATS):
        started = time.perf_counter()
        for value in values:
            work(value)
        best = min(best, time.perf_counter() - started)
    return best / max(len(values), 1) * 1e6


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="playouts recorded per game")
    args = parser.parse_args(argv)
    rows: list[list[str]] = []
    for game in sorted(GAMES):
        codec = CODECS[game]
        seen = record(game, args.games)
        submitted = [codec.move_to_proto(move) for move in seen.moves]

        def view(value: Any, codec: Any = codec, game: str = game) -> None:
            codec.fill_view(value, game_pb2.View(game=game))

        timings = [
            ("view", per_call(view, seen.views), len(seen.views)),
            ("event", per_call(codec.event_to_proto, seen.events), len(seen.events)),
            ("move out", per_call(codec.move_to_proto, seen.moves), len(seen.moves)),
            ("move in", per_call(codec.move_from_proto, submitted), len(submitted)),
        ]
        rows.extend([game, what, f"{us:.2f}", f"{n:,}"] for what, us, n in timings)
    print(machine())
    print_table(["game", "translation", "µs per value", "values"], rows)


if __name__ == "__main__":
    main()
