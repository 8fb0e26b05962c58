"""How much Redis memory a game takes: ``python deploy/measure_redis_size.py [--games N]``.

Starts a private redis-server (the embedded one, ``service/process/redis_server.py``; pass
``--redis-server PATH`` to measure another build, e.g. the jemalloc one of a Redis
package), then for each game (The Gang, Gang of Four and Pinched!, 4 seats):

1. creates ``--games`` games through ``service.app.referee.Referee`` (no gRPC, same store code);
2. plays ``--finished`` of them to the end;
3. plays the others part of the way (``--partial-moves``; default about half a The Gang
   game, a few hands of Gang of Four),

reading Redis' ``INFO memory`` ``used_memory`` after each step, so every figure is a
whole-server delta divided by the games it belongs to (key names, hash tables, expiry
entries and allocator rounding included). ``MEMORY USAGE`` of each key family (game hash,
move log, events stream, idempotency hash) shows where the bytes are.

Players are simple bots: at The Gang a seat without a chip of the round takes one from the
centre (one time in five from another player); at Gang of Four and Pinched! a uniformly
random legal move by a seat that may act. Random Gang of Four players score slowly, so
their games run to about 2,000 moves (humans: a few hundred); the per-move figure lets you
scale to your own game lengths.

Needs the project installed (``.venv/bin/python deploy/measure_redis_size.py``). AOF is off
in the measured server: it costs disk, not memory (see deploy/README.md for the fork).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from redis.asyncio import Redis

from engines.base import GameDefinition
from engines.gang_of_four.moves import Play
from engines.registry import GAMES
from engines.the_gang.moves import TakeChip
from service.app.referee import Referee
from service.app.writer import TableWriter
from service.domain.auth import TokenSigner
from service.process.redis_server import EmbeddedRedis
from service.storage.store import RedisStore

SEATS = 4
CONCURRENCY = 64
KEY_FAMILIES = ("game", "log", "events", "moves")
# Moves played in the games that are left unfinished, per game.
DEFAULT_PARTIAL_MOVES = {"the_gang": 30, "gang_of_four": 200, "pinched": 100}

Game = GameDefinition[Any, Any, Any, Any, Any]


@dataclass
class Measured:
    game: str
    games: int
    finished_games: int
    partial_games: int
    bytes_per_created_game: float
    bytes_per_finished_game: float
    moves_per_finished_game: float
    bytes_per_partial_game: float
    moves_per_partial_game: float
    bytes_per_move: float
    # Average MEMORY USAGE of each key family, for finished and for partial games.
    finished_key_bytes: dict[str, float]
    partial_key_bytes: dict[str, float]


@dataclass
class Playing:
    """One game being played: its id, its seats' tokens and our copy of its state."""

    game: Game
    game_id: str
    tokens: list[str]
    state: Any
    moves: int = 0


def choose(game: Game, state: Any, rng: random.Random) -> tuple[int, Any]:
    """The seat to move and its move, by the simple bots of the module docstring."""
    if game.name == "the_gang":
        holders = state.chips[state.round]
        waiting = [seat for seat in sorted(game.to_act(state)) if seat not in holders]
        seat = rng.choice(waiting or sorted(game.to_act(state)))
        legal = game.legal_moves(state, seat)
        takes = [move for move in legal if isinstance(move, TakeChip)]
        centre = [move for move in takes if holders[move.stars - 1] is None]
        steal = [move for move in takes if holders[move.stars - 1] not in (None, seat)]
        pool = steal if steal and rng.random() < 0.2 else centre or legal
        return seat, rng.choice(pool)
    seat = rng.choice(sorted(game.to_act(state)))
    legal = game.legal_moves(state, seat)
    move = rng.choice(legal)
    assert not isinstance(move, Play) or move.cards, "a play has cards"
    return seat, move


async def create(referee: Referee, game: Game, number: int) -> Playing:
    seed = f"measure-{game.name}-{number}".encode()
    created = await referee.create_game(game.name, SEATS, {}, allow_spectators=True, seed=seed)
    state = game.new_game(created.config, seed)
    return Playing(game, created.game_id, created.tokens, state)


async def play(referee: Referee, playing: Playing, rng: random.Random, limit: int | None) -> None:
    """Moves through the referee (and on our copy) until the end or ``limit`` moves."""
    game = playing.game
    played = 0
    while game.outcome(playing.state) is None and (limit is None or played < limit):
        seat, move = choose(game, playing.state, rng)
        submitted = await referee.submit_move(
            playing.game_id,
            playing.tokens[seat],
            game.name,
            move,
            # Clients send UUIDs (as the README's example does); they are stored twice.
            str(uuid.UUID(int=rng.getrandbits(128))),
            playing.moves,
        )
        playing.state, _ = game.apply(playing.state, seat, move)
        playing.moves += 1
        played += 1
        assert submitted.version == playing.moves, "the referee and our copy agree"


async def in_batches(jobs: Sequence[Callable[[], Awaitable[Any]]]) -> list[Any]:
    results: list[Any] = []
    for start in range(0, len(jobs), CONCURRENCY):
        results += await asyncio.gather(*(job() for job in jobs[start : start + CONCURRENCY]))
    return results


# Buffers that come and go with connections and persistence, not with games.
TRANSIENT = (
    "mem_clients_normal",
    "mem_clients_slaves",
    "mem_aof_buffer",
    "mem_replication_backlog",
)
# Redis refreshes its client-buffer figures in a background cron (10 times a second, a
# slice of the clients each time): readings are taken once two in a row agree.
SETTLE_SECONDS = 0.5


async def used_memory(client: Redis, settle: float = SETTLE_SECONDS) -> int:
    """``used_memory`` less client, AOF and replication buffers: what the data holds."""
    last = None
    for _ in range(20):
        await asyncio.sleep(settle)
        info = await client.info("memory")
        reading = int(info["used_memory"]) - sum(int(info.get(name, 0)) for name in TRANSIENT)
        if reading == last:
            break
        last = reading
    return reading


async def key_bytes(client: Redis, store: RedisStore, games: Sequence[Playing]) -> dict[str, float]:
    """Average exact MEMORY USAGE of each key family over ``games``."""
    totals = dict.fromkeys(KEY_FAMILIES, 0)
    for playing in games:
        keys = store.keys(playing.game_id).all
        for family, key in zip(KEY_FAMILIES, keys, strict=True):
            totals[family] += int(await client.memory_usage(key, samples=0) or 0)
    return {family: total / max(len(games), 1) for family, total in totals.items()}


async def measure_game(
    referee: Referee,
    client: Redis,
    game: Game,
    games: int,
    finished: int,
    partial_moves: int,
    rng: random.Random,
    settle: float = SETTLE_SECONDS,
) -> Measured:
    # Warm up outside the deltas: scripts loaded, the connection pool opened, every key
    # type allocated once.
    warm: list[Playing] = await in_batches(
        [functools.partial(create, referee, game, -1 - number) for number in range(CONCURRENCY)]
    )
    await in_batches([functools.partial(play, referee, p, rng, None) for p in warm[:1]])

    before = await used_memory(client, settle)
    tables: list[Playing] = await in_batches(
        [functools.partial(create, referee, game, number) for number in range(games)]
    )
    created = await used_memory(client, settle)

    done, partial = tables[:finished], tables[finished:]
    await in_batches([functools.partial(play, referee, p, rng, None) for p in done])
    after_finished = await used_memory(client, settle)
    await in_batches([functools.partial(play, referee, p, rng, partial_moves) for p in partial])
    after_partial = await used_memory(client, settle)

    per_created = (created - before) / games
    partial_total_moves = sum(p.moves for p in partial)
    return Measured(
        game=game.name,
        games=games,
        finished_games=len(done),
        partial_games=len(partial),
        bytes_per_created_game=per_created,
        bytes_per_finished_game=per_created + (after_finished - created) / max(len(done), 1),
        moves_per_finished_game=sum(p.moves for p in done) / max(len(done), 1),
        bytes_per_partial_game=(
            per_created + (after_partial - after_finished) / max(len(partial), 1)
        ),
        moves_per_partial_game=partial_total_moves / max(len(partial), 1),
        bytes_per_move=(after_partial - after_finished) / max(partial_total_moves, 1),
        finished_key_bytes=await key_bytes(client, referee.feed.store, done),
        partial_key_bytes=await key_bytes(client, referee.feed.store, partial),
    )


async def measure(
    games: int,
    finished: int,
    partial_moves: dict[str, int],
    redis_server: str | None = None,
    seed: int = 2026,
    settle: float = SETTLE_SECONDS,
) -> tuple[dict[str, str], list[Measured]]:
    """Server facts (version, allocator) and one :class:`Measured` per game."""
    rng = random.Random(seed)
    with (
        tempfile.TemporaryDirectory(prefix="referee-measure-") as data,
        EmbeddedRedis(data, binary=redis_server, extra_config={"appendonly": "no"}) as server,
    ):
        client = Redis.from_url(server.url, protocol=2)
        store = RedisStore.from_url(server.url)
        referee = Referee(TableWriter(store), TokenSigner(b"x" * 32), allow_client_seeds=True)
        try:
            info = await client.info("server")
            facts = {
                "redis_version": str(info["redis_version"]),
                "mem_allocator": str((await client.info("memory"))["mem_allocator"]),
            }
            results = [
                await measure_game(
                    referee, client, GAMES[name], games, finished, partial_moves[name], rng, settle
                )
                for name in ("the_gang", "gang_of_four", "pinched")
            ]
        finally:
            await referee.feed.aclose()
            await store.aclose()
            await client.aclose()
    return facts, results


def report(facts: dict[str, str], results: Sequence[Measured], seconds: float) -> str:
    lines = [
        f"redis {facts['redis_version']} ({facts['mem_allocator']}), {SEATS} seats, "
        f"{seconds:.0f} s; INFO used_memory deltas per game:",
        "",
        "| game | created | finished (moves) | partial (moves) | per move |",
        "|---|---:|---:|---:|---:|",
    ]
    for m in results:
        lines.append(
            f"| {m.game} | {m.bytes_per_created_game:,.0f} B "
            f"| {m.bytes_per_finished_game:,.0f} B ({m.moves_per_finished_game:,.0f}) "
            f"| {m.bytes_per_partial_game:,.0f} B ({m.moves_per_partial_game:,.0f}) "
            f"| {m.bytes_per_move:,.0f} B |"
        )
    lines += [
        "",
        "MEMORY USAGE per key family (average bytes per game):",
        "",
        "| game | games | " + " | ".join(KEY_FAMILIES) + " |",
        "|---|---|" + "---:|" * len(KEY_FAMILIES),
    ]
    for m in results:
        for label, families in (
            ("finished", m.finished_key_bytes),
            ("partial", m.partial_key_bytes),
        ):
            cells = " | ".join(f"{families[f]:,.0f}" for f in KEY_FAMILIES)
            lines.append(f"| {m.game} | {label} | {cells} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games created per game kind")
    parser.add_argument(
        "--finished", type=int, default=100, help="of those, played to the end (per kind)"
    )
    parser.add_argument(
        "--partial-moves",
        type=int,
        help=(
            "moves played in each unfinished game "
            "(default: 30 The Gang, 200 Gang of Four, 100 Pinched!)"
        ),
    )
    parser.add_argument("--redis-server", help="redis-server binary (default: the embedded one)")
    parser.add_argument(
        "--settle-seconds",
        type=float,
        default=SETTLE_SECONDS,
        help="pause before each memory reading (smaller: faster, noisier)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)
    if not 0 < args.finished < args.games:
        parser.error("--finished must be between 0 and --games (some games must stay partial)")
    partial_moves = dict(DEFAULT_PARTIAL_MOVES)
    if args.partial_moves is not None:
        partial_moves = dict.fromkeys(partial_moves, args.partial_moves)
    started = time.perf_counter()
    facts, results = asyncio.run(
        measure(
            args.games,
            args.finished,
            partial_moves,
            args.redis_server,
            settle=args.settle_seconds,
        )
    )
    print(report(facts, results, time.perf_counter() - started))
    if args.json:
        print(json.dumps({"server": facts, "games": [asdict(m) for m in results]}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
