"""The Gang engine throughput: ``python -m bench.engine [--seconds S] [--seats 3 4 5 6]``.

Pure engine, no service: random playouts (a random seat from ``to_act``, a random move from
its ``legal_moves``, ``apply``) with fixed seeds, for several seat counts. Then, on states
recorded from fixed-seed playouts before any clock starts, each engine entry point the
referee calls per move is timed alone: ``legal_moves``, ``apply`` (which runs ``check``),
``view`` (the seat's projection) and the msgspec MessagePack ``encode``/``decode`` of the
whole state (what the referee stores in Redis and reads back on every move).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import msgspec

from bench.common import PlayoutRate, Row, machine, print_table
from engines.base import Seat
from engines.the_gang import GAME, Move, TheGangState

T = TypeVar("T")

DEFAULT_SEATS = (3, 4, 5, 6)
# The micro rows replay states recorded from fixed-seed playouts: up to SAMPLE_GAMES games
# per seat count, stopping early after SAMPLE_MOVES moves (six-seat random games run to
# ~17,000 moves), thinned evenly to at most BATCH states so one pass stays short.
SAMPLE_GAMES = 20
SAMPLE_MOVES = 50_000
BATCH = 10_000
REPEATS = 3  # every figure is the best of this many runs

encode = msgspec.msgpack.Encoder().encode
decode = msgspec.msgpack.Decoder(TheGangState).decode


def seed_for(seats: int, game: int) -> bytes:
    return f"bench-engine-{seats}-{game}".encode()


def playout(
    seats: int,
    seed: bytes,
    rng: random.Random,
    record: list[tuple[TheGangState, Seat, Move]] | None = None,
) -> int:
    """Play one game with random legal moves by random seats; returns its move count."""
    state = GAME.new_game(GAME.make_config(seats, {}), seed)
    moves = 0
    while GAME.outcome(state) is None:
        seat = rng.choice(tuple(GAME.to_act(state)))
        legal = GAME.legal_moves(state, seat)
        if not legal:
            continue
        move = rng.choice(legal)
        if record is not None:
            record.append((state, seat, move))
        state, _ = GAME.apply(state, seat, move)
        moves += 1
    return moves


def playout_rate(seats: int, seconds: float, seed: int) -> PlayoutRate:
    """Whole games, one after another, until ``seconds`` have passed; the best of
    ``REPEATS`` such runs (each ``seconds / REPEATS`` long, at least one game)."""
    rng = random.Random(seed)
    best: PlayoutRate | None = None
    game = 1000
    for _ in range(REPEATS):
        games = moves = 0
        start = time.perf_counter()
        while True:
            moves += playout(seats, seed_for(seats, game), rng)
            games += 1
            game += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / REPEATS:
                break
        run = PlayoutRate(games, moves, elapsed)
        if best is None or run.moves_per_second > best.moves_per_second:
            best = run
    assert best is not None
    return best


def rate(run: Callable[[Sequence[T]], object], batch: Sequence[T], seconds: float) -> float:
    """Items per second of ``run`` over ``batch``: the best of ``REPEATS`` runs, each
    repeating the batch for at least ``seconds / REPEATS``. Other load on the machine only
    ever slows a run down, so the best run is the least disturbed one."""
    best = 0.0
    for _ in range(REPEATS):
        done = 0
        start = time.perf_counter()
        while True:
            run(batch)
            done += len(batch)
            elapsed = time.perf_counter() - start
            if elapsed >= seconds / REPEATS:
                break
        best = max(best, done / elapsed)
    return best


Sample = tuple[TheGangState, Seat, Move]


def run_legal_moves(batch: Sequence[Sample]) -> None:
    for state, seat, _ in batch:
        GAME.legal_moves(state, seat)


def run_apply(batch: Sequence[Sample]) -> None:
    for state, seat, move in batch:
        GAME.apply(state, seat, move)


def run_view(batch: Sequence[Sample]) -> None:
    for state, seat, _ in batch:
        GAME.view(state, seat)


def run_encode(batch: Sequence[TheGangState]) -> None:
    for state in batch:
        encode(state)


def run_decode(batch: Sequence[bytes]) -> None:
    for raw in batch:
        decode(raw)


def run_new_game(batch: Sequence[bytes]) -> None:
    config = GAME.make_config(4, {})
    for seed in batch:
        GAME.new_game(config, seed)


@dataclass(frozen=True)
class SeatResult:
    seats: int
    playout: PlayoutRate
    legal_moves: float
    apply: float
    view: float
    encode: float
    decode: float
    state_bytes: float


def measure(seats: int, seconds: float, seed: int) -> SeatResult:
    rng = random.Random(seed)
    recorded: list[Sample] = []
    for game in range(SAMPLE_GAMES):
        playout(seats, seed_for(seats, game), rng, recorded)
        if len(recorded) >= SAMPLE_MOVES:
            break
    samples = recorded[:: max(1, len(recorded) // BATCH)]
    states = [state for state, _, _ in samples]
    encoded = [encode(state) for state in states]
    assert all(decode(raw) == state for raw, state in zip(encoded, states, strict=True))
    return SeatResult(
        seats=seats,
        playout=playout_rate(seats, seconds, seed),
        legal_moves=rate(run_legal_moves, samples, seconds),
        apply=rate(run_apply, samples, seconds),
        view=rate(run_view, samples, seconds),
        encode=rate(run_encode, states, seconds),
        decode=rate(run_decode, encoded, seconds),
        state_bytes=sum(map(len, encoded)) / len(encoded),
    )


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=1.0, help="minimum time per figure")
    parser.add_argument(
        "--seats", type=int, nargs="+", default=list(DEFAULT_SEATS), help="seat counts"
    )
    parser.add_argument("--seed", type=int, default=20240601, help="seed of the random players")
    args = parser.parse_args(argv)

    print(f"engine: The Gang, {machine()}")
    print(
        f"random legal moves by random seats, fixed seeds; micro rows replay <= {BATCH:,} "
        f"states of up to {SAMPLE_GAMES} recorded games per seat count; best of {REPEATS} "
        f"runs, >= {args.seconds:g}s in all per figure"
    )
    results = [measure(seats, args.seconds, args.seed) for seats in args.seats]
    seeds = [seed_for(4, n).ljust(32, b"-") for n in range(1000)]
    new_games = rate(run_new_game, seeds, args.seconds)

    print_table(
        [
            "seats",
            "moves/game",
            "playout moves/s",
            "legal_moves/s",
            "apply/s",
            "view/s",
            "encode/s",
            "decode/s",
            "state bytes",
        ],
        [
            [
                str(r.seats),
                f"{r.playout.moves_per_game:.0f}",
                f"{r.playout.moves_per_second:,.0f}",
                f"{r.legal_moves:,.0f}",
                f"{r.apply:,.0f}",
                f"{r.view:,.0f}",
                f"{r.encode:,.0f}",
                f"{r.decode:,.0f}",
                f"{r.state_bytes:,.0f}",
            ]
            for r in results
        ],
    )
    print(f"new_game (4 seats: shuffle and deal): {new_games:,.0f}/s")

    rows = [
        Row("engine", f"playout, {r.seats} seats", r.playout.moves_per_second, "moves/s")
        for r in results
    ]
    by_seats = {r.seats: r for r in results}
    focus = by_seats.get(4, results[0])
    suffix = f"{focus.seats} seats"
    rows += [
        Row("engine", f"legal_moves, {suffix}", focus.legal_moves, "calls/s"),
        Row("engine", f"apply, {suffix}", focus.apply, "calls/s"),
        Row("engine", f"state encode (msgpack), {suffix}", focus.encode, "states/s"),
        Row("engine", f"state decode (msgpack), {suffix}", focus.decode, "states/s"),
    ]
    return rows


if __name__ == "__main__":
    main()
