"""Redis bytes per game with 100,000 games held: ``python -m bench.redis_100k [--games N]``.

Starts a private redis-server (the embedded one; AOF off: it costs disk, not memory), then:

1. plays ``--templates`` games of The Gang (4 seats) through ``service.app.referee.Referee``
   (the referee's own use cases and store code, no gRPC): half to the end (finished: their
   keys carry the finished-game TTL), half ``--live-moves`` moves in (live: the idle TTL).
   Each seat takes a chip from the centre (one time in five any legal move), with
   UUID-sized ``client_move_id``s as real clients send;
2. fills Redis up to ``--games`` games by copying those games' four keys (``DUMP`` and
   ``RESTORE`` with the same TTL) under new game ids of the referee's own format, so every
   held game is byte for byte a real one, finished or live in the templates' proportion;
3. checks a sample of the copies (the stored state is the replay of the log from the
   stored seed, the same check as ``python -m bench.loadtest``), and reads ``INFO memory``.

Bytes per game = (``used_memory`` after - before) / games, with client and AOF buffers left
out (as ``deploy/measure_redis_size.py`` does), so key names, hash tables, expiry entries and
allocator rounding are included. ``MEMORY USAGE`` per key family shows where they go, for
the played games (as a running server holds them: a stream's last node keeps the 4 KB
Redis preallocates for it) and for a sample of the copies (as ``RESTORE`` lays them out,
compactly: most of the games counted), with each family's ``OBJECT ENCODING``. The
``summary:`` line sets bytes per game against the 17,896 measured before issue 19.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from bench.common import machine
from bench.loadtest.check import GameCheck, compare_replay
from engines.the_gang import GAME
from engines.the_gang.moves import TakeChip
from service.app.referee import Referee
from service.app.writer import TableWriter
from service.domain import records
from service.domain.auth import TokenSigner
from service.process.redis_server import EmbeddedRedis
from service.storage.store import RedisStore

SEATS = 4
FAMILIES = ("game", "log", "events", "moves")
TRANSIENT = (
    "mem_clients_normal",
    "mem_clients_slaves",
    "mem_aof_buffer",
    "mem_replication_backlog",
)
BATCH = 2000
SAMPLE = 200  # copies per kind whose keys MEMORY USAGE measures
# Bytes per game before issue 19 (docs/loadtest.md, this benchmark's defaults).
BASELINE = 17_896


@dataclass
class Template:
    game_id: str
    finished: bool
    moves: int


async def data_memory(client: Redis) -> int:
    """``used_memory`` less client/AOF/replication buffers, once two readings agree."""
    last = None
    reading = 0
    for _ in range(20):
        await asyncio.sleep(0.5)
        info = await client.info("memory")
        reading = int(info["used_memory"]) - sum(int(info.get(name, 0)) for name in TRANSIENT)
        if reading == last:
            break
        last = reading
    return reading


async def play(referee: Referee, number: int, moves: int | None, rng: random.Random) -> Template:
    """One game through the referee: to the end (``moves`` None) or ``moves`` moves in."""
    created = await referee.create_game(
        "the_gang", SEATS, {}, allow_spectators=True, seed=f"100k-{number}".encode()
    )
    state = GAME.new_game(created.config, f"100k-{number}".encode())
    played = 0
    while not state.finished and (moves is None or played < moves):
        holders = state.chips[state.round]
        waiting = [seat for seat in sorted(GAME.to_act(state)) if seat not in holders]
        seat = rng.choice(waiting or sorted(GAME.to_act(state)))
        legal = GAME.legal_moves(state, seat)
        centre = [m for m in legal if isinstance(m, TakeChip) and holders[m.stars - 1] is None]
        move = rng.choice(centre if centre and rng.random() < 0.8 else legal)
        await referee.submit_move(
            created.game_id,
            created.tokens[seat],
            "the_gang",
            move,
            str(uuid.UUID(int=rng.getrandbits(128))),
            played,
        )
        state, _ = GAME.apply(state, seat, move)
        played += 1
    return Template(created.game_id, state.finished, played)


async def copy_games(
    client: Redis, store: RedisStore, templates: Sequence[Template], copies: int
) -> list[str]:
    """``copies`` new games, each a byte-for-byte copy of a template (keys and TTLs)."""
    dumps: list[list[tuple[bytes, int] | None]] = []
    for template in templates:
        rows: list[tuple[bytes, int] | None] = []
        for key in store.keys(template.game_id).all:  # a finished game has no moves hash
            payload = await client.dump(key)
            ttl = int(await client.pttl(key))
            rows.append(None if payload is None else (payload, max(ttl, 0)))
        dumps.append(rows)
    new_ids: list[str] = []
    for start in range(0, copies, BATCH):
        pipe = client.pipeline(transaction=False)
        for number in range(start, min(copies, start + BATCH)):
            game_id = secrets.token_hex(12)
            new_ids.append(game_id)
            for key, row in zip(store.keys(game_id).all, dumps[number % len(dumps)], strict=True):
                if row is not None:
                    pipe.restore(key, row[1], row[0])
        await pipe.execute()
    return new_ids


async def key_bytes(client: Redis, store: RedisStore, game_ids: Sequence[str]) -> dict[str, float]:
    """Mean ``MEMORY USAGE`` of each key family over ``game_ids`` (0 for a missing key)."""
    totals = dict.fromkeys(FAMILIES, 0)
    for game_id in game_ids:
        for family, key in zip(FAMILIES, store.keys(game_id).all, strict=True):
            totals[family] += int(await client.memory_usage(key, samples=0) or 0)
    return {family: total / max(len(game_ids), 1) for family, total in totals.items()}


async def encodings(client: Redis, store: RedisStore, game_id: str) -> dict[str, str]:
    """``OBJECT ENCODING`` of each key family of one game ("-": no such key)."""
    found = {}
    for family, key in zip(FAMILIES, store.keys(game_id).all, strict=True):
        encoding = await client.object("encoding", key)
        found[family] = "-" if encoding is None else as_text(encoding)
    return found


def as_text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


async def check_copies(store: RedisStore, game_ids: Sequence[str]) -> int:
    """How many of ``game_ids`` fail the replay check (the stored state is the log's replay)."""
    failed = 0
    for game_id in game_ids:
        record = await store.load(game_id)
        check = GameCheck(game_id)
        if record is None:
            failed += 1
            continue
        meta = records.meta_decoder.decode(record.meta)
        log = [records.log_decoder.decode(raw) for raw in await store.log(game_id)]
        compare_replay(record.state, meta, log, check)
        failed += not check.ok or record.version != len(log)
    return failed


async def measure(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    with (
        tempfile.TemporaryDirectory(prefix="referee-100k-") as data,
        EmbeddedRedis(data, extra_config={"appendonly": "no"}) as server,
    ):
        client = Redis.from_url(server.url, protocol=2)
        store = RedisStore.from_url(server.url)
        referee = Referee(TableWriter(store), TokenSigner(b"x" * 32), allow_client_seeds=True)
        try:
            await play(referee, -1, None, rng)  # scripts loaded, every key type allocated
            await client.flushdb()
            before = await data_memory(client)
            started = time.perf_counter()
            finished_n = args.templates // 2
            templates: list[Template] = []
            for start in range(0, args.templates, 32):
                templates += await asyncio.gather(
                    *(
                        play(referee, n, None if n < finished_n else args.live_moves, rng)
                        for n in range(start, min(args.templates, start + 32))
                    )
                )
            played_seconds = time.perf_counter() - started
            copies = await copy_games(client, store, templates, args.games - len(templates))
            after = await data_memory(client)
            games = len(templates) + len(copies)
            assert int(await client.dbsize()) >= games  # none expired meanwhile
            failed = await check_copies(store, rng.sample(copies, min(200, len(copies))))
            finished = [t for t in templates if t.finished]
            live = [t for t in templates if not t.finished]
            info = await client.info("server")
            memory = await client.info("memory")
            kinds = {"finished": finished, "live": live}
            copied: dict[str, list[str]] = {kind: [] for kind in kinds}
            for number, copy in enumerate(copies):
                template = templates[number % len(templates)]
                copied["finished" if template.finished else "live"].append(copy)
            return {
                "redis": f"{info['redis_version']} ({memory['mem_allocator']})",
                "games": games,
                "finished": len(finished) * games // len(templates),
                "templates": len(templates),
                "played_seconds": played_seconds,
                "moves_finished": sum(t.moves for t in finished) / max(len(finished), 1),
                "moves_live": sum(t.moves for t in live) / max(len(live), 1),
                "before": before,
                "after": after,
                "bytes_per_game": (after - before) / games,
                "used_memory_human": memory["used_memory_human"],
                "keys": {
                    f"{kind} ({source})": await key_bytes(client, store, ids)
                    for kind in kinds
                    for source, ids in (
                        ("played", [t.game_id for t in kinds[kind]]),
                        ("copies", rng.sample(copied[kind], min(SAMPLE, len(copied[kind])))),
                    )
                },
                "encodings": {
                    kind: await encodings(client, store, games[0].game_id)
                    for kind, games in kinds.items()
                    if games
                },
                "copies_checked": min(200, len(copies)),
                "copies_failed": failed,
            }
        finally:
            await referee.feed.aclose()
            await store.aclose()
            await client.aclose()


def report(result: dict[str, Any], seconds: float) -> str:
    lines = [
        f"machine: {machine()}; redis {result['redis']}; {seconds:.0f} s",
        "",
        f"{result['games']:,} games held ({result['finished']:,} finished, "
        f"{result['games'] - result['finished']:,} live), copies of {result['templates']} played "
        f"games; {result['copies_failed']} of {result['copies_checked']} sampled copies failed "
        "the replay check",
        f"used_memory (less client buffers): {result['before'] / 1e6:.1f} MB -> "
        f"{result['after'] / 1e6:.1f} MB ({result['used_memory_human']} in all)",
        f"**bytes per game: {result['bytes_per_game']:,.0f}** (finished games: "
        f"{result['moves_finished']:.0f} moves, live: {result['moves_live']:.0f} moves)",
        "",
        "| MEMORY USAGE, bytes per game | " + " | ".join(FAMILIES) + " | sum |",
        "|---|" + "---:|" * (len(FAMILIES) + 1),
    ]
    for label, families in result["keys"].items():
        cells = " | ".join(f"{families[f]:,.0f}" for f in FAMILIES)
        lines.append(f"| {label} | {cells} | {sum(families.values()):,.0f} |")
    for label, found in result["encodings"].items():
        cells = " | ".join(found[f] for f in FAMILIES)
        lines.append(f"| {label}: encoding | {cells} | |")
    per_game = result["bytes_per_game"]
    lines += [
        "",
        f"summary: {per_game:,.0f} bytes per game in Redis, {per_game / BASELINE:.2f} of the "
        f"{BASELINE:,} before issue 19 (goal <= 0.50: <= {BASELINE // 2:,})",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="games held in Redis")
    parser.add_argument("--templates", type=int, default=400, help="games really played")
    parser.add_argument("--live-moves", type=int, default=30, help="moves into a live game")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    if not 2 <= args.templates <= args.games:
        parser.error("need 2 <= --templates <= --games")
    started = time.perf_counter()
    result = asyncio.run(measure(args))
    print(report(result, time.perf_counter() - started))
    return 0 if result["copies_failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
