"""The web console's calls: a finished game's history page, its Verify button, the front page.

    python -m bench.console [--games 3] [--repeats 20] [--seconds 3]

One referee in this process (embedded Redis). Per game (The Gang and Gang of Four at 4
seats, Pinched! at 3) it plays ``--games`` games to the end with the heuristic bots, then
does what the console's history page does over HTTP/JSON (httpx, the Connect protocol):
GetHistory and the WatchGame replay from version 0 (every version's spectator view), then
VerifyHistory with that history and every view, ``--repeats`` times, and the same
VerifyHistory over gRPC (binary protobuf) for comparison; every answer must be verified.
Then ListTournaments (limit 20, 20 tournaments in the store, as the front page polls it)
from 1 client for ``--seconds`` per face, and the size of the built console
(clients/console/dist/assets, raw and gzip -9). Reported: one table of figures.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import random
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import httpx
from google.protobuf import json_format

from bench.common import (
    Row,
    busy_cores,
    cpu_seconds,
    local_settings,
    machine,
    percentile,
    print_table,
)
from referee.bots import bot_for, play_seat
from referee.client import AsyncRefereeClient
from referee.v1 import referee_pb2, referee_pb2_grpc, tournament_pb2, tournament_pb2_grpc
from service.process.redis_server import EmbeddedRedis
from service.process.server import running
from tests.http.connect import ok, watch

GAMES = (("the_gang", 4), ("gang_of_four", 4), ("pinched", 3))
ASSETS = Path(__file__).resolve().parent.parent / "clients" / "console" / "dist" / "assets"
VERIFY = "/referee.v1.RefereeService/VerifyHistory"
LIST = "/referee.v1.TournamentService/ListTournaments"
JSON_HEADERS = {"Content-Type": "application/json", "Connect-Protocol-Version": "1"}
Message = dict[str, Any]


def ms(seconds: float) -> float:
    return seconds * 1000


async def timed(call: Callable[[], Awaitable[object]], times: int) -> list[float]:
    """``times`` calls one after the other: their latencies in ms, sorted."""
    latencies = []
    for _ in range(times):
        began = time.perf_counter()
        await call()
        latencies.append(ms(time.perf_counter() - began))
    return sorted(latencies)


async def play_game(address: str, game: str, seats: int, number: int) -> str:
    """One game from a fixed seed, every seat a heuristic bot: its id once it is over."""
    seed = f"bench-console-{game}-{number}".encode()
    async with AsyncRefereeClient(address) as client:
        created = await client.create_game(game, seats, allow_spectators=True, seed=seed)
        await asyncio.gather(
            *(
                play_seat(
                    client.seat(created.game_id, seat.token),
                    bot_for(game, "heuristic"),
                    rng=random.Random(f"{game}:{number}:{index}"),
                )
                for index, seat in enumerate(created.seat_tokens)
            )
        )
    return created.game_id


async def history_page(http: httpx.AsyncClient, game_id: str) -> tuple[Message, list[Message]]:
    """What the history page loads, both calls at once: GetHistory and every replayed view."""

    async def views() -> list[Message]:
        body = {"gameId": game_id, "afterVersion": "0"}
        return [message["view"] async for message in watch(http, body) if "view" in message]

    history, replayed = await asyncio.gather(ok(http, "GetHistory", {"gameId": game_id}), views())
    return history, replayed


def check(answer: Message | referee_pb2.VerifyHistoryResponse, moves: int, views: int) -> None:
    """Fail loudly unless the answer verifies every move and view."""
    if isinstance(answer, referee_pb2.VerifyHistoryResponse):
        answer = json_format.MessageToDict(answer)
    if not (
        answer.get("verified")
        and answer.get("movesReplayed", 0) == moves
        and answer.get("viewsChecked", 0) == views
    ):
        raise SystemExit(f"VerifyHistory did not verify ({moves} moves, {views} views): {answer}")


@dataclass
class Verified:
    """One finished game: its moves and views, the request's sizes, latencies in ms."""

    moves: int
    views: int
    json_bytes: int
    binary_bytes: int
    http_ms: list[float]
    grpc_ms: list[float]
    load_ms: list[float]


async def verify_game(
    http: httpx.AsyncClient,
    stub: referee_pb2_grpc.RefereeServiceAsyncStub,
    game_id: str,
    repeats: int,
) -> Verified:
    """One finished game's page load and Verify clicks: sizes and latencies."""
    loads = await timed(lambda: history_page(http, game_id), repeats)
    history, views = await history_page(http, game_id)
    moves = len(history.get("entries", []))
    body = json.dumps({"history": history, "views": views}, separators=(",", ":")).encode()
    request = json_format.Parse(body, referee_pb2.VerifyHistoryRequest())

    async def over_http() -> None:
        response = await http.post(VERIFY, content=body, headers=JSON_HEADERS)
        if response.status_code != 200:
            raise SystemExit(f"VerifyHistory: HTTP {response.status_code} {response.text}")
        check(response.json(), moves, len(views))

    async def over_grpc() -> None:
        check(await stub.VerifyHistory(request), moves, len(views))

    await over_http()  # warm-up (and the check once more)
    await over_grpc()
    http_ms, grpc_ms = await timed(over_http, repeats), await timed(over_grpc, repeats)
    return Verified(moves, len(views), len(body), request.ByteSize(), http_ms, grpc_ms, loads)


def game_rows(game: str, seats: int, found: list[Verified]) -> list[Row]:
    moves = statistics.mean(f.moves for f in found)
    http_ms = sorted(x for f in found for x in f.http_ms)
    grpc_ms = sorted(x for f in found for x in f.grpc_ms)

    def kib(sizes: list[int]) -> str:
        return f"{statistics.mean(sizes) / 1024:,.0f} (max {max(sizes) / 1024:,.0f})"

    rate = f"{moves / percentile(http_ms, 0.5) * 1000:,.0f}; "
    rate += f"{moves / percentile(grpc_ms, 0.5) * 1000:,.0f}"
    load = percentile(sorted(x for f in found for x in f.load_ms), 0.5)
    return [
        Row(game, f"moves per game ({seats} seats, heuristic bots)", f"{moves:,.0f}", "moves"),
        Row(game, "VerifyHistory request, JSON", kib([f.json_bytes for f in found]), "KiB"),
        Row(game, "VerifyHistory request, binary", kib([f.binary_bytes for f in found]), "KiB"),
        Row(game, "VerifyHistory HTTP/JSON p50 / p99", _pair(http_ms), "ms"),
        Row(game, "VerifyHistory gRPC p50 / p99", _pair(grpc_ms), "ms"),
        Row(game, "replayed moves/s at p50 (HTTP/JSON; gRPC)", rate, "moves/s"),
        Row(game, "GetHistory + WatchGame replay p50", f"{load:.0f}", "ms"),
    ]


async def list_tournaments(
    http: httpx.AsyncClient, stub: tournament_pb2_grpc.TournamentServiceAsyncStub, seconds: float
) -> list[tuple[str, float, list[float], int]]:
    """20 tournaments in the store, then 1 client polling ListTournaments per face."""
    bots = [
        tournament_pb2.ParticipantSpec(name=f"bot {i}", bot=tournament_pb2.BOT_STRATEGY_RANDOM)
        for i in range(4)
    ]
    for _ in range(20):
        await stub.CreateTournament(
            tournament_pb2.CreateTournamentRequest(
                game="gang_of_four",
                seats_per_table=4,
                participants=bots,
                format=tournament_pb2.TOURNAMENT_FORMAT_ROUND_ROBIN,
            )
        )
    json_body = {"limit": 20}
    grpc_request = tournament_pb2.ListTournamentsRequest(limit=20)

    async def over_http() -> int:
        response = await http.post(LIST, json=json_body, headers=JSON_HEADERS)
        if len(response.json().get("tournaments", [])) != 20:
            raise SystemExit(f"ListTournaments: {response.status_code} {response.text[:200]}")
        return len(response.content)

    async def over_grpc() -> int:
        answer = await stub.ListTournaments(grpc_request)
        if len(answer.tournaments) != 20:
            raise SystemExit(f"ListTournaments returned {len(answer.tournaments)} tournaments")
        return answer.ByteSize()

    results = []
    for face, call in (("HTTP/JSON", over_http), ("gRPC", over_grpc)):
        size = await call()
        latencies: list[float] = []
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            began = time.perf_counter()
            await call()
            latencies.append(ms(time.perf_counter() - began))
        rate = len(latencies) / (time.perf_counter() - started)
        results.append((face, rate, sorted(latencies), size))
    return results


def console_size() -> dict[str, tuple[int, int]]:
    """Bytes of the built console's assets per file type: (raw, gzip -9)."""
    sizes: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for path in sorted(ASSETS.glob("*")):
        data = path.read_bytes()
        kind = sizes[path.suffix.lstrip(".") or path.name]
        kind[0] += len(data)
        kind[1] += len(gzip.compress(data, compresslevel=9))
    if not sizes:
        raise SystemExit(f"no console build in {ASSETS}: cd clients/console && npm run build")
    total = (sum(raw for raw, _ in sizes.values()), sum(gz for _, gz in sizes.values()))
    return {**{kind: (raw, gz) for kind, (raw, gz) in sizes.items()}, "total": total}


async def measure(games: int, repeats: int, seconds: float) -> list[Row]:
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(Path(tmp) / "redis") as redis:
        settings = local_settings(redis.url, Path(tmp))
        async with (
            running(settings) as handle,
            grpc.aio.insecure_channel(handle.address) as channel,
            httpx.AsyncClient(base_url=handle.http_url, timeout=60) as http,
        ):
            stub = referee_pb2_grpc.RefereeServiceStub(channel)
            for game, seats in GAMES:
                began = time.perf_counter()
                ids = [await play_game(handle.address, game, seats, n) for n in range(games)]
                played = time.perf_counter() - began
                found = [await verify_game(http, stub, game_id, repeats) for game_id in ids]
                print(f"{game}: {games} games played in {played:.1f}s, measured", flush=True)
                rows += game_rows(game, seats, found)
            tournaments = tournament_pb2_grpc.TournamentServiceStub(channel)
            for face, rate, latencies, size in await list_tournaments(http, tournaments, seconds):
                answer = f"{face}, 1 client, 20 of 20 ({size / 1024:.0f} KiB)"
                rows += [
                    Row("ListTournaments", answer, rate, "calls/s"),
                    Row("ListTournaments", f"{face} p50 / p99", _pair(latencies), "ms"),
                ]
    for kind, (raw, gz) in console_size().items():
        sizes = f"{raw / 1024:,.1f} / {gz / 1024:,.1f}"
        rows.append(Row("console assets", f"{kind}, raw / gzip -9", sizes, "KiB"))
    return rows


def _pair(latencies: list[float]) -> str:
    return f"{percentile(latencies, 0.5):.1f} / {percentile(latencies, 0.99):.1f}"


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=3, help="finished games per game")
    parser.add_argument("--repeats", type=int, default=20, help="calls per game and face")
    parser.add_argument("--seconds", type=float, default=3.0, help="ListTournaments time per face")
    args = parser.parse_args(argv)
    print(f"the console's calls, one process; {machine()}", flush=True)
    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))
    began, busy, own = time.perf_counter(), busy_cores(), cpu_seconds(os.getpid())
    rows = asyncio.run(measure(args.games, args.repeats, args.seconds))
    wall = time.perf_counter() - began
    others = (busy_cores() - busy - (cpu_seconds(os.getpid()) - own)) / wall
    print(f"\n{wall:.0f}s; other processes (this Redis too) used {others:.2f} cores; {machine()}")
    print_table(
        ["part", "figure", "value", "unit"],
        [[row.bench, row.metric, row.formatted(), row.unit] for row in rows],
        left=2,
    )
    return rows


if __name__ == "__main__":
    main()
