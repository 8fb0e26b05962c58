"""How strong the search bots are: ``python -m bench.bots [--games N] [--jobs J] ...``.

Whole games are played in this process through the referee's own translation, the way the
referee's seats are played (service.edge.house_bots): each bot is given its seat's view
and legal moves as protobuf (``referee.v1``) and answers one of those moves, which the
engine then applies. No bot ever sees more than its seat's view.

* Gang of Four and Pinched!: one search bot against heuristic ones, its seat rotated game
  by game (game ``i`` puts it at seat ``i mod seats``); the goal is at least 1.6 x its fair
  share of wins (1 / seats). The control arm plays the same deals with a heuristic bot in
  the search bot's seat, so the seat's share among equals is measured, not assumed.
* The Gang: a table of search bots against a table of heuristic bots on the same deals,
  per mode; the goal is a heist success rate at least 15 points higher. Games won (three
  vaults before three alarms) are reported beside it.

Intervals are Wilson's at 95 %. Heists within one game are not independent, so the heist
interval is somewhat narrower than the truth; the games' interval has no such caveat.
``--iterations`` sets the search's budget per decision (deterministic from the seeds);
``--seconds`` a wall-time budget instead (the default bot's 1 s). The time per move is
the search bot's own decisions, the mean and the 95th percentile.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.common import machine, print_table
from engines.registry import GAMES
from referee.bots.base import Bot
from referee.codecs import CODECS
from referee.search.core import Budget
from referee.search.registry import bot_for
from service.app.views import seat_view
from service.edge import translate

Z95 = 1.959964
GOAL_SHARE = 1.6
GOAL_POINTS = 0.15
MODES = ("basic", "advanced", "professional", "master_thief")
# A game that has not ended after this many moves is a bug in a bot or an engine.
MAX_MOVES = 20_000


def wilson(successes: int, trials: int) -> tuple[float, float]:
    """Wilson's 95 % score interval for a proportion (0, 1 when nothing was tried).

    >>> [round(x, 3) for x in wilson(117, 192)]
    [0.539, 0.676]
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Table:
    """One game to play: its game, options, deal seed and each seat's strategy."""

    game: str
    seats: int
    options: dict[str, Any]
    seed: bytes
    strategies: tuple[str, ...]
    budget: Budget


@dataclass
class Played:
    """What one game gave: the outcome's winners, The Gang's heists, the search seats'
    decision times (seconds) and the moves made by the fallback (a bot that chose
    nothing while every awaited seat did the same)."""

    winners: tuple[int, ...]
    heists: list[bool] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    stalls: int = 0


def _proto_view(game: Any, state: Any, version: int, seat: int) -> Any:
    view = seat_view(game, "bench", game.seat_count(state), state, version, seat, "")
    return translate.view_to_proto(view)


def play(table: Table) -> Played:
    """One whole game (see the module): the awaited seats asked in a random order each
    move; the first that answers moves. If none answers, the first awaited seat gets the
    game's default move (as the referee's clock would play it)."""
    game = GAMES[table.game]
    codec = CODECS[table.game]
    state = game.new_game(game.make_config(table.seats, table.options), table.seed)
    bots: list[Bot] = [bot_for(table.game, s, table.budget) for s in table.strategies]
    rngs = [random.Random(table.seed + b"/%d" % seat) for seat in range(table.seats)]
    order = random.Random(table.seed + b"/order")
    played = Played(winners=())
    for version in range(MAX_MOVES):
        outcome = game.outcome(state)
        if outcome is not None:
            played.winners = outcome.winners
            played.heists = _heists(table.game, state, version)
            return played
        waiting = sorted(game.waiting_for(state))
        order.shuffle(waiting)
        move = None
        for seat in waiting:
            legal = [codec.move_to_proto(m) for m in game.legal_moves(state, seat)]
            began = time.perf_counter()
            chosen = bots[seat].choose(_proto_view(game, state, version, seat), legal, rngs[seat])
            if table.strategies[seat] == "search":
                played.times.append(time.perf_counter() - began)
            if chosen is not None:
                move = seat, codec.move_from_proto(chosen)
                break
        if move is None:
            played.stalls += 1
            move = waiting[0], game.default_move(state, waiting[0])
        state, _ = game.apply(state, *move)
    raise RuntimeError(f"{table.game} {table.seed!r}: no end after {MAX_MOVES} moves")


def _heists(name: str, state: Any, version: int) -> list[bool]:
    if name != "the_gang":
        return []
    view = _proto_view(GAMES[name], state, version, 0)
    return [heist.success for heist in view.the_gang.heists]


@dataclass
class Arm:
    """One side of a comparison: its games' results."""

    label: str
    games: list[Played]
    seat_of: list[int]

    @property
    def wins(self) -> int:
        return sum(
            seat in game.winners for seat, game in zip(self.seat_of, self.games, strict=True)
        )

    @property
    def heists(self) -> tuple[int, int]:
        all_heists = [h for game in self.games for h in game.heists]
        return sum(all_heists), len(all_heists)

    @property
    def times(self) -> list[float]:
        return [t for game in self.games for t in game.times]


def competitive(game: str, seats: int, games: int, budget: Budget) -> list[Table]:
    """The search arm then the control arm: the same deals, the bot's seat rotated."""
    tables = []
    for arm in ("search", "heuristic"):
        for number in range(games):
            strategies = ["heuristic"] * seats
            strategies[number % seats] = arm
            seed = f"bench-bots-{game}-{number}".encode()
            tables.append(Table(game, seats, {}, seed, tuple(strategies), budget))
    return tables


def cooperative(mode: str, seats: int, games: int, budget: Budget) -> list[Table]:
    """A search gang then a heuristic gang, on the same deals of ``mode``."""
    return [
        Table(
            "the_gang",
            seats,
            {"mode": mode},
            f"bench-bots-the_gang-{mode}-{number}".encode(),
            (arm,) * seats,
            budget,
        )
        for arm in ("search", "heuristic")
        for number in range(games)
    ]


def _percent(fraction: float) -> str:
    return f"{100 * fraction:.1f}"


def _interval(successes: int, trials: int) -> str:
    low, high = wilson(successes, trials)
    rate = _percent(successes / max(trials, 1))
    return f"{successes}/{trials} = {rate} % [{_percent(low)}, {_percent(high)}]"


def _time(times: Sequence[float]) -> str:
    if not times:
        return "-"
    p95 = sorted(times)[int(0.95 * (len(times) - 1))]
    return f"{1000 * statistics.fmean(times):.0f} / {1000 * p95:.0f} ms"


def _played(tables: Sequence[Table], jobs: int) -> list[Played]:
    if jobs <= 1:
        return [play(table) for table in tables]
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        return pool.map(play, tables, chunksize=1)


def report_competitive(
    game: str, seats: int, tables: Sequence[Table], results: list[Played]
) -> None:
    half = len(tables) // 2
    fair = 1 / seats
    rows = []
    for label, chunk, games in (
        ("1 search vs heuristic", tables[:half], results[:half]),
        ("control: all heuristic", tables[half:], results[half:]),
    ):
        seat_of = [number % seats for number in range(len(chunk))]
        arm = Arm(label, games, seat_of)
        rate = arm.wins / max(len(games), 1)
        rows.append(
            [
                label,
                _interval(arm.wins, len(games)),
                f"{rate / fair:.2f} x",
                _time(arm.times),
                str(sum(g.stalls for g in games)),
            ]
        )
    print(f"\n{game}, {seats} seats (fair share {_percent(fair)} %, goal {GOAL_SHARE} x)")
    print_table(
        ["arm", "wins of the rotated seat [95 %]", "x fair", "move mean / p95", "stalls"], rows
    )


def report_cooperative(mode: str, seats: int, results: list[Played]) -> None:
    half = len(results) // 2
    rows, rates = [], []
    for label, games in (("search gang", results[:half]), ("heuristic gang", results[half:])):
        arm = Arm(label, games, [0] * len(games))
        cracked, heists = arm.heists
        rates.append(cracked / max(heists, 1))
        won = sum(bool(g.winners) for g in games)
        rows.append(
            [
                label,
                _interval(cracked, heists),
                _interval(won, len(games)),
                _time(arm.times),
                str(sum(g.stalls for g in games)),
            ]
        )
    lead = 100 * (rates[0] - rates[1])
    print(f"\nthe_gang {mode}, {seats} seats: search leads by {lead:+.1f} points (goal +15)")
    print_table(
        ["arm", "heists cracked [95 %]", "games won [95 %]", "move mean / p95", "stalls"], rows
    )


# The benchmark's budget per decision for each game (docs/benchmarks.md says why).
ITERATIONS = {"gang_of_four": 60, "pinched": 60, "the_gang": 300}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.bots", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--game", action="append", choices=sorted(ITERATIONS), help="(repeatable; default all)"
    )
    parser.add_argument(
        "--games", type=int, default=200, help="games per arm (per mode for The Gang)"
    )
    parser.add_argument(
        "--seats", type=int, default=4, help="seats at the competitive games' tables"
    )
    parser.add_argument("--gang-seats", type=int, default=4, help="seats at The Gang's tables")
    parser.add_argument(
        "--mode", action="append", choices=MODES, help="The Gang's modes (default all)"
    )
    parser.add_argument(
        "--iterations", type=int, help="search budget per decision (default per game)"
    )
    parser.add_argument("--seconds", type=float, help="a wall-time budget per decision instead")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    args = parser.parse_args(argv)
    print(machine())
    for game in args.game or sorted(ITERATIONS):
        if args.seconds is not None:
            budget = Budget(seconds=args.seconds)
        else:
            budget = Budget(iterations=args.iterations or ITERATIONS[game])
        print(f"\nbudget per decision: {budget}")
        began = time.perf_counter()
        if game == "the_gang":
            for mode in args.mode or MODES:
                tables = cooperative(mode, args.gang_seats, args.games, budget)
                report_cooperative(mode, args.gang_seats, _played(tables, args.jobs))
        else:
            tables = competitive(game, args.seats, args.games, budget)
            report_competitive(game, args.seats, tables, _played(tables, args.jobs))
        print(f"({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
