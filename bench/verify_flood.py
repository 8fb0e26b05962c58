"""A VerifyHistory flood beside a well-behaved client: ``python -m bench.verify_flood``.

``python -m bench.verify_flood [--faces grpc http] [--calls 1200] [--rounds 6]
[--attackers 3] [--mb 8] [--workers 1]`` starts a private redis-server and `referee serve`
on it (its own process, loopback, free ports), then for each face: a victim plays a Gang
of Four table (tests/abuse/harness.py's :class:`~tests.abuse.harness.Victim`) while
``--attackers`` processes at a lower CPU priority send bogus VerifyHistory bodies of
``--mb`` MB (``--mb 0``: just under the referee's cap), over gRPC or as binary over the
HTTP face, each call as soon as the last is answered (at most 300 a second a process, the
abuse suite's pace: a faster flood of refusals is a proxy's to stop). The victim's GetView
and SubmitMove are timed in alternating windows, attackers held and attacking,
``--calls`` of each kind in each state over ``--rounds`` rounds (both states carry the
same background load of the machine); printed: p50/p95/p99 quiet and under attack, and
the ratio of the p95s measured in this one run (issue 33's bar: GetView p95 at most 2x),
with what the attackers got back.

``python -m bench.verify_flood --weights 3`` instead plays 3 games of each of the longest
tables with random bots (in this process, no Redis) and prints what their VerifyHistory
requests weigh a move, in binary and JSON, alone and with a seat's every view, and at the
move limits: the figures behind ``service.edge.calls.MAX_VERIFY_BYTES``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import random
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import httpx
from google.protobuf import json_format
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from bench.common import Row, machine, print_table
from engines.registry import GAMES
from engines.rng import commitment
from referee.bots import bot_for
from referee.codecs import CODECS
from referee.v1 import referee_pb2
from service.domain.move_limits import MAX_MOVE_LIMIT
from service.edge.calls import MAX_JSON_VERIFY_BYTES, MAX_VERIFY_BYTES
from service.edge.translate import history_to_proto, moves_to_proto, view_to_proto
from service.process.redis_server import EmbeddedRedis
from service.storage.memory import MemoryStore
from tests.abuse.harness import Figures, Pace, Stop, Victim, attacking, compare
from tests.app.in_memory import create, referee_on, writer_on
from tests.servers import Served, referee_process

VERIFY = "/referee.v1.RefereeService/VerifyHistory"
# Bytes of one bogus history entry (a version of 3 bytes, a 32-character head, a 40-byte
# log entry, and the tags and lengths): 82 of them.
ENTRY_BYTES = 82
MB = 1_000_000


@functools.cache
def bogus_body(size: int) -> bytes:
    """A VerifyHistoryRequest of about ``size`` bytes (at most) that is no game: chained
    entries with empty moves, as the abuse suite's flood sends (a worker refuses it at its
    first move, so the attack costs the referee its body, not a replay)."""
    seed = b"bogus"
    history = referee_pb2.GetHistoryResponse(seed=seed, seed_sha256=commitment(seed))
    history.setup.game, history.setup.seats = "the_gang", 3
    history.setup.rules_revision = 2
    for version in range(1, max(size - 100, 0) // ENTRY_BYTES + 1):
        history.entries.add(version=version, seat=0, head="h" * 32, log_entry=b"e" * 40)
    return referee_pb2.VerifyHistoryRequest(history=history).SerializeToString()


def _grpc_outcome(error: grpc.RpcError) -> str:
    """A refusal as ``CODE/REASON`` (the reason from its ErrorInfo, when it has one)."""
    code = error.code().name
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    for detail in status.details if status is not None else ():
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return f"{code}/{info.reason}"
    return f"{code}/{(error.details() or '')[:40]}"


def _flood(stop: Stop, one_call: Callable[[], str]) -> dict[str, Any]:
    """``one_call`` over and over (at most the harness's pace) until ``stop``: attempts,
    answers, refusals by reason."""
    outcomes: Counter[str] = Counter()
    pace = Pace()
    started = time.monotonic()
    while not stop.is_set():
        time.sleep(pace.delay())
        outcomes[one_call()] += 1
    attempts = sum(outcomes.values())
    return {
        "attempts": attempts,
        "answered": outcomes.pop("OK", 0),
        "refusals": dict(outcomes),
        "rate": attempts / (time.monotonic() - started),
    }


def attack_grpc(served: Served, stop: Stop, *, size: int) -> dict[str, Any]:
    """Bogus VerifyHistory bodies of ``size`` bytes over gRPC, one after another."""
    body = bogus_body(size)
    options = [("grpc.max_send_message_length", -1)]
    with grpc.insecure_channel(served.grpc, options=options) as channel:
        verify = channel.unary_unary(
            VERIFY, request_serializer=lambda data: data, response_deserializer=lambda d: d
        )

        def one_call() -> str:
            try:
                verify(body, timeout=30)
            except grpc.RpcError as error:
                return _grpc_outcome(error)
            return "OK"

        return _flood(stop, one_call)


def attack_http(served: Served, stop: Stop, *, size: int) -> dict[str, Any]:
    """The same bodies as binary to the HTTP face (Connect), one after another."""
    return _http_flood(served, stop, bogus_body(size), "application/proto")


def _http_flood(served: Served, stop: Stop, body: bytes, content_type: str) -> dict[str, Any]:
    with httpx.Client(base_url=served.http, timeout=30) as http:

        def one_call() -> str:
            response = http.post(VERIFY, content=body, headers={"Content-Type": content_type})
            if response.status_code == 200:
                return "OK"
            try:
                reason = response.json()["details"][0]["debug"]["reason"]
            except (ValueError, KeyError, IndexError):
                reason = response.text[:40]
            return f"{response.status_code}/{reason}"

        return _flood(stop, one_call)


def bogus_json(size: int) -> bytes:
    """A proto3 JSON VerifyHistoryRequest of at most ``size`` bytes (and at most the JSON
    cap) that is no game: entries holding a version only, the slowest kind to parse."""
    entries = (min(size, MAX_JSON_VERIFY_BYTES) - 32) // 17
    return b'{"history": {"entries": [' + b",".join([b'{"version": "1"}'] * entries) + b"]}}"


def attack_json(served: Served, stop: Stop, *, size: int) -> dict[str, Any]:
    """Bogus proto3 JSON bodies (at most the JSON cap) to the HTTP face."""
    return _http_flood(served, stop, bogus_json(size), "application/json")


ATTACKS = {"grpc": attack_grpc, "http": attack_http, "json": attack_json}


def _percentiles(values: list[float]) -> tuple[float, float, float]:
    p50, p95, p99 = (Figures.percentile(values, q) for q in (50, 95, 99))
    return p50, p95, p99


def _merged(results: Sequence[dict[str, Any]]) -> tuple[int, int, Counter[str]]:
    refusals: Counter[str] = Counter()
    for result in results:
        refusals.update(result["refusals"])
    attempts = sum(result["attempts"] for result in results)
    return attempts, sum(result["answered"] for result in results), refusals


def _face_rows(face: str, before: Figures, during: Figures) -> list[list[str]]:
    rows = []
    for call, quiet, loud in (
        ("GetView", before.get_view, during.get_view),
        ("SubmitMove", before.submit_move, during.submit_move),
    ):
        q, a = _percentiles(quiet), _percentiles(loud)
        rows.append(
            [face, call, *(f"{x:.2f}" for x in q), *(f"{x:.2f}" for x in a), f"{a[1] / q[1]:.2f}"]
        )
    return rows


def flood(served: Served, face: str, size: int, args: argparse.Namespace) -> list[list[str]]:
    """One face's comparison: the victim quiet and under the flood, in alternating windows."""
    attack = functools.partial(ATTACKS[face], size=size)
    if face == "json":
        size = len(bogus_json(size))
    with Victim(served.grpc) as victim, attacking(attack, served, args.attackers) as attackers:
        before, during = compare(victim, attackers, args.rounds, args.calls)
    attempts, answered, refusals = _merged(attackers.results)
    said = ", ".join(f"{reason} {count}" for reason, count in refusals.most_common()) or "none"
    print(f"{face}: {attempts} bodies of {size / MB:.1f} MB, {answered} answered; refused: {said}")
    return _face_rows(face, before, during)


@contextlib.contextmanager
def referee(workers: int) -> Iterator[Served]:
    """A private redis-server (appendfsync everysec, as the test suite's) and `referee
    serve` on it, both stopped when the block exits."""
    with (
        tempfile.TemporaryDirectory() as tmp,
        EmbeddedRedis(Path(tmp, "redis"), appendfsync="everysec") as redis,
        referee_process(redis.url, Path(tmp, "referee"), {"REFEREE_WORKERS": str(workers)}) as up,
    ):
        yield up


# --- what real histories weigh -------------------------------------------------------------

# The tables whose games run longest or log the most per move (bench.move_limits), each
# played by random bots (the longest games): game, seats, engine options.
WEIGHED: tuple[tuple[str, int, dict[str, object]], ...] = (
    ("the_gang", 3, {}),
    ("the_gang", 6, {"confirm_round_end": True}),
    ("the_gang", 6, {"mode": "master_thief"}),
    ("gang_of_four", 3, {}),
    ("gang_of_four", 4, {}),
    ("pinched", 2, {}),
    ("pinched", 5, {"setup": "the_whole_package"}),
)


@dataclass(frozen=True)
class Weight:
    """A finished game's VerifyHistory request: its moves, and its bytes in binary and
    proto3 JSON, with its history alone and with seat 0's view at every version (what a
    seat that kept every WatchGame update would send)."""

    moves: int
    binary: int
    json: int
    binary_views: int
    json_views: int

    def per_move(self, size: int) -> float:
        return size / self.moves


async def _played(
    game: str, seats: int, options: dict[str, object], seed: bytes, strategy: str
) -> Any:
    """A game played to its end by ``strategy``'s bots on an in-memory referee: the
    referee, the game's id and seat 0's view at every version."""
    referee = referee_on(writer_on(MemoryStore()))
    created = await create(referee, game, seats, seed, move_limit=MAX_MOVE_LIMIT, **options)
    tokens, rng = created.tokens, random.Random(seed)
    bots = [bot_for(game, strategy) for _ in range(seats)]
    views = []
    while True:
        view = await referee.get_view(created.game_id, tokens[0])
        views.append(view_to_proto(view))
        if view.outcome is not None:
            return referee, created.game_id, views
        seat = rng.choice(sorted(view.to_act))
        own = view_to_proto(await referee.get_view(created.game_id, tokens[seat]))
        _, _, legal = await referee.legal_moves(created.game_id, tokens[seat])
        chosen = bots[seat].choose(own, moves_to_proto(game, legal), rng)
        if chosen is not None:
            move = CODECS[game].move_from_proto(chosen)
            await referee.submit_move(
                created.game_id, tokens[seat], game, move, uuid.uuid4().hex, None
            )


async def weigh(
    game: str, seats: int, options: dict[str, object], seed: bytes, strategy: str = "random"
) -> Weight:
    """The weight of one game of ``game`` played by ``strategy``'s bots (random bots play
    the longest games; see :class:`Weight`)."""
    referee, game_id, views = await _played(game, seats, options, seed, strategy)
    history, token = referee_pb2.GetHistoryResponse(), ""
    while True:  # every page's entries in one message, the last page's other fields
        page = await referee.history(game_id, None, 1000, token)
        entries = [*history.entries, *history_to_proto(page).entries]
        history = history_to_proto(page)
        history.ClearField("entries")
        history.entries.extend(entries)
        if not (token := page.next_page_token):
            break
    alone = referee_pb2.VerifyHistoryRequest(history=history)
    viewed = referee_pb2.VerifyHistoryRequest(history=history, views=views)
    return Weight(
        len(history.entries),
        alone.ByteSize(),
        len(json_format.MessageToJson(alone, indent=None)),
        viewed.ByteSize(),
        len(json_format.MessageToJson(viewed, indent=None)),
    )


def weights(games: int) -> list[Row]:
    """The longest of ``games`` games of each of :data:`WEIGHED`, per move and at the move
    limits (its game's default and the most a table may ask for)."""
    rows, figures = [], []
    for game, seats, options in WEIGHED:
        played = [
            asyncio.run(weigh(game, seats, options, f"weigh-{n}".encode())) for n in range(games)
        ]
        w = max(played, key=lambda weight: weight.moves)
        variant = " ".join(key if value is True else str(value) for key, value in options.items())
        name = f"{game} {seats} {variant}".strip()
        limit = GAMES[game].default_move_limit
        per = [w.per_move(size) for size in (w.binary, w.json, w.binary_views, w.json_views)]
        at_limit = [f"{per[0] * n / MB:.2f}" for n in (limit, MAX_MOVE_LIMIT)]
        rows.append([name, str(w.moves), *(f"{x:.0f}" for x in per), str(limit), *at_limit])
        figures.append(Row("verify_flood", f"{name} binary bytes a move", per[0], "bytes"))
    print(f"VerifyHistory bodies of games played by random bots (the longest of {games})")
    headers = ["table", "moves", "bin/move", "json/move", "bin+views", "json+views"]
    print_table([*headers, "limit", "MB at limit", f"MB at {MAX_MOVE_LIMIT}"], rows)
    print(f"cap: {MAX_VERIFY_BYTES / MB:.2f} MB binary (service.edge.calls.MAX_VERIFY_BYTES)")
    return figures


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--faces", nargs="+", choices=sorted(ATTACKS), default=["grpc", "http"])
    parser.add_argument("--calls", type=int, default=1200, help="victim calls per kind and state")
    parser.add_argument("--rounds", type=int, default=6, help="alternating windows of each state")
    parser.add_argument("--attackers", type=int, default=3, help="attacker processes")
    parser.add_argument("--mb", type=float, default=8.0, help="body size (0: just under the cap)")
    parser.add_argument("--workers", type=int, default=1, help="REFEREE_WORKERS of the referee")
    parser.add_argument(
        "--weights", type=int, metavar="GAMES", help="instead: what real histories weigh"
    )
    args = parser.parse_args(argv)
    if args.weights:
        return weights(args.weights)
    size = int(args.mb * MB) if args.mb else MAX_VERIFY_BYTES - 1024
    print(f"VerifyHistory flood beside a Gang of Four victim; {machine()}")
    rows: list[list[str]] = []
    with referee(args.workers) as served:
        for face in args.faces:
            rows += flood(served, face, size, args)
    headers = ["face", "call", "p50", "p95", "p99", "p50 att", "p95 att", "p99 att", "p95 x"]
    print("victim latency in ms, quiet and under attack (att); p95 x = p95 att / p95 quiet")
    print_table(headers, rows, left=2)
    return [Row("verify_flood", f"{row[0]} {row[1]} p95 ratio", float(row[-1])) for row in rows]


if __name__ == "__main__":
    main()
