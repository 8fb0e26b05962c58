"""Abuse: a seat inflates a game with chip swaps, then reads its history.

Seat 0 of a table of The Gang takes white chips 1 and 2 in turn as fast as one client can
send them (each take swaps its chip: the round never ends by itself). The move limit stops
it at The Gang's default: the refusal is FAILED_PRECONDITION MOVE_LIMIT_REACHED and changes
nothing stored. Reading the inflated game's history then comes page by page, each page at
most the default size, so no call decodes or replays the whole game on the event loop.
"""

from __future__ import annotations

import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import grpc
import pytest
from redis.asyncio import Redis

from engines import the_gang
from referee.v1 import game_pb2, referee_pb2, referee_pb2_grpc, the_gang_pb2
from service.app.history import DEFAULT_PAGE_SIZE
from tests.servers import Served, referee_process
from tests.service.table import COLOURS, reason_of, stored_bytes, take

R = referee_pb2
WHITE = COLOURS[0]
SWAPS = 20_000  # what the attacker tries; the limit stops it long before
LIMIT = the_gang.GAME.default_move_limit


def _reason(error: grpc.RpcError) -> str:
    assert isinstance(error, grpc.aio.AioRpcError | grpc.Call)
    return reason_of(error)[1]


def _new_table(stub: referee_pb2_grpc.RefereeServiceStub) -> tuple[str, str]:
    created = stub.CreateGame(
        R.CreateGameRequest(
            game="the_gang",
            seats=3,
            allow_spectators=True,
            options=game_pb2.TableOptions(the_gang=the_gang_pb2.TheGangOptions()),
        )
    )
    return created.game_id, created.seat_tokens[0].token


def _read_pages(stub: referee_pb2_grpc.RefereeServiceStub, game_id: str) -> list[tuple[int, float]]:
    """Every page of the game's history with the default size: (entries, seconds) each."""
    found: list[tuple[int, float]] = []
    token = ""
    while True:
        began = time.perf_counter()
        page = stub.GetHistory(R.GetHistoryRequest(game_id=game_id, page_token=token))
        found.append((len(page.entries), time.perf_counter() - began))
        token = page.next_page_token
        if not token:
            return found


def attack_inflated(served: Served, seconds: float, games: int | None = None) -> dict[str, Any]:
    """Inflate games of The Gang with chip swaps over one client until each reaches its move
    limit, then read its history page by page; again on a new table until ``seconds`` pass
    (or ``games`` tables are done), at most :data:`SWAPS` swaps a table.

    Returns attempts, refusals by reason, the attacker's rate (attempts/s), moves accepted,
    the version at which each table refused, the history pages read (entries, seconds) and
    the tables (game id, seat 0's token).
    """
    attempts = accepted = 0
    refusals: Counter[str] = Counter()
    refused_at: list[int] = []
    tables: list[tuple[str, str]] = []
    pages: list[tuple[int, float]] = []
    began = time.perf_counter()
    with grpc.insecure_channel(served.grpc) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        while time.perf_counter() - began < seconds and (games is None or len(refused_at) < games):
            game_id, token = _new_table(stub)
            tables.append((game_id, token))
            metadata = (("authorization", f"Bearer {token}"),)
            for number in range(SWAPS):
                attempts += 1
                request = R.SubmitMoveRequest(
                    game_id=game_id,
                    move=take(WHITE, 1 + number % 2),
                    client_move_id=uuid.uuid4().hex,
                )
                try:
                    stub.SubmitMove(request, metadata=metadata)
                except grpc.RpcError as error:
                    refusals[_reason(error)] += 1
                    refused_at.append(number)
                    break
                accepted += 1
                if time.perf_counter() - began > seconds:
                    break
            pages.extend(_read_pages(stub, game_id))
    elapsed = time.perf_counter() - began
    return {
        "attempts": attempts,
        "refusals": dict(refusals),
        "attacker_rate": attempts / elapsed,
        "accepted": accepted,
        "refused_at": refused_at,
        "pages": pages,
        "tables": tables,
    }


@pytest.fixture
def served(redis_url: str, tmp_path: Path) -> Any:
    with referee_process(redis_url, tmp_path) as handle:
        yield handle


async def test_chip_swaps_stop_at_the_limit_and_history_comes_in_pages(
    served: Served, raw_redis: Redis
) -> None:
    result = attack_inflated(served, seconds=60, games=1)
    assert result["refusals"] == {"MOVE_LIMIT_REACHED": 1}
    assert result["refused_at"] == [LIMIT] and result["accepted"] == LIMIT
    # Page by page: each page at most the default size, every move once.
    entries = [count for count, _ in result["pages"]]
    assert max(entries) == DEFAULT_PAGE_SIZE and sum(entries) == LIMIT
    assert len(entries) == -(-LIMIT // DEFAULT_PAGE_SIZE)
    print(
        f"inflated: {result['attacker_rate']:.0f} swaps/s, pages (s): "
        f"{[round(seconds, 4) for _, seconds in result['pages']]}"
    )

    # A refused move changes nothing stored, and every other table still plays.
    inflated, token = result["tables"][-1]
    before = await stored_bytes(raw_redis, inflated)
    with grpc.insecure_channel(served.grpc) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        with pytest.raises(grpc.RpcError) as caught:
            stub.SubmitMove(
                R.SubmitMoveRequest(game_id=inflated, move=take(WHITE, 3), client_move_id="x"),
                metadata=(("authorization", f"Bearer {token}"),),
            )
        assert _reason(caught.value) == "MOVE_LIMIT_REACHED"
        assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        victim, victim_token = _new_table(stub)
        moved = stub.SubmitMove(
            R.SubmitMoveRequest(game_id=victim, move=take(WHITE, 3), client_move_id="v1"),
            metadata=(("authorization", f"Bearer {victim_token}"),),
        )
        assert moved.version == 1
    assert await stored_bytes(raw_redis, inflated) == before
