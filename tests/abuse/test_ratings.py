"""RatingService's bounds hammered against `referee serve` (its own process, loopback only).

- The quota: past ``rating_reads_per_second`` per caller (bursts of twice that) every call
  is RESOURCE_EXHAUSTED RATING_READS_EXCEEDED with a RetryInfo; another address (127.0.0.2)
  reads meanwhile.
- Paging: a page holds 20 entries when asked for 0 (or less) and 100 when asked for more;
  following the tokens reads a leaderboard of 130 players once each, in rank order.
- Page tokens: anything but the ``next_page_token`` of the same listing (made up, edited,
  another game's, another player's, a history's for a leaderboard, far too long) is
  INVALID_ARGUMENT PAGE_TOKEN_INVALID.
- Player ids and games: empty, too long, unprintable, or a request past the size cap are
  refused before any read.

Each address's calls stay within its burst but the flood's, which is bounded in calls; no
read changes anything stored.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import grpc
import httpx
import pytest
import redis
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from redis.asyncio import Redis

from referee.v1 import ratings_pb2, ratings_pb2_grpc
from service.storage.ratings import RatingChange, RatingStore, Skill, Update
from tests.http.connect import reason
from tests.servers import Served, referee_process
from tests.service.table import reason_of

ABUSE_DB = 7  # a database of the session's Redis of its own
READS_PER_SECOND = 4
PLAYERS = 130
GAME = "gang_of_four"
RATINGS = "/referee.v1.RatingService"
EXHAUSTED = grpc.StatusCode.RESOURCE_EXHAUSTED
ADDRESSES = itertools.count(3)  # 127.0.0.1 floods, 127.0.0.2 reads meanwhile


def _url(redis_url: str) -> str:
    return f"{redis_url.rstrip('/').rsplit('/', 1)[0]}/{ABUSE_DB}"


@pytest.fixture(scope="module")
def served(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A referee whose leaderboard of GAME holds PLAYERS players (p000 best), one game each."""
    url = _url(redis_url)
    client = redis.Redis.from_url(url)
    client.flushdb()
    asyncio.run(_seed(url))
    try:
        env = {"REFEREE_RATING_READS_PER_SECOND": str(READS_PER_SECOND)}
        with referee_process(url, tmp_path_factory.mktemp("abuse-ratings"), env) as process:
            yield process
    finally:
        client.flushdb()
        client.close()


async def _seed(url: str) -> None:
    client = Redis.from_url(url, protocol=2)
    store = RatingStore(client)
    for number in range(PLAYERS):
        after = Skill(40.0 - number * 0.1, 5.0)
        change = RatingChange(f"g{number}", 1, Skill(), after, 1, 4, 0)
        update = Update(f"p{number:03}", 0, after, f"P{number}", change)
        await store.apply(GAME, f"g{number}", [update], 1)
    await client.aclose()


@pytest.fixture
def snapshot(redis_url: str) -> Iterator[None]:
    """Every read leaves every stored key as it was."""
    client = redis.Redis.from_url(_url(redis_url))
    before = {key: client.dump(key) for key in client.scan_iter()}
    yield
    assert {key: client.dump(key) for key in client.scan_iter()} == before
    client.close()


@pytest.fixture
async def http(served: Served) -> AsyncIterator[httpx.AsyncClient]:
    """An HTTP client from a loopback address of the test's own (its own quota)."""
    address = f"127.0.0.{next(ADDRESSES)}"
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(base_url=served.http, transport=transport, timeout=10) as client:
        yield client


async def call(http: httpx.AsyncClient, method: str, body: dict[str, Any]) -> httpx.Response:
    return await http.post(f"{RATINGS}/{method}", json=body)


def refusal(answer: httpx.Response) -> tuple[int, str]:
    """The HTTP status and the ErrorInfo reason of a refused call."""
    return answer.status_code, reason(answer)


async def test_reads_past_the_quota_are_refused_with_a_retry_delay(
    served: Served, snapshot: None
) -> None:
    """Rule (ratings.proto): "Each call spends the caller's quota rating_reads_per_second
    (RESOURCE_EXHAUSTED RATING_READS_EXCEEDED, with google.rpc.RetryInfo)"; the burst is twice
    the rate, and another caller is not held up."""
    seen: collections.Counter[str] = collections.Counter()
    delays: list[float] = []
    began = time.monotonic()
    async with grpc.aio.insecure_channel(served.grpc) as channel:
        stub = ratings_pb2_grpc.RatingServiceStub(channel)
        request = ratings_pb2.GetRatingRequest(game=GAME, player_id="p000")
        for _ in range(60):
            try:
                await stub.GetRating(request, timeout=10)
                seen["OK"] += 1
            except grpc.aio.AioRpcError as error:
                code, reason, metadata = reason_of(error)
                seen[reason] += 1
                assert (code, metadata["quota"]) == (EXHAUSTED, "rating_reads_per_second")
                delays += _retry_delays(error)
    elapsed = time.monotonic() - began
    assert set(seen) == {"OK", "RATING_READS_EXCEEDED"}
    assert (
        2 * READS_PER_SECOND <= seen["OK"] <= 2 * READS_PER_SECOND + READS_PER_SECOND * elapsed + 1
    )
    assert len(delays) == seen["RATING_READS_EXCEEDED"] and all(0 < d <= 1 for d in delays)
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
    async with httpx.AsyncClient(base_url=served.http, transport=transport, timeout=10) as other:
        answer = await call(other, "GetRating", {"game": GAME, "playerId": "p000"})
        assert answer.status_code == 200, answer.text


def _retry_delays(error: grpc.aio.AioRpcError) -> list[float]:
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None
    delays = []
    for detail in status.details:
        retry = error_details_pb2.RetryInfo()
        if detail.Unpack(retry):
            delays.append(retry.retry_delay.ToMilliseconds() / 1000)
    return delays


async def test_pages_are_bounded_and_the_tokens_read_a_leaderboard_once_in_order(
    http: httpx.AsyncClient, snapshot: None
) -> None:
    """Rule: "The most entries to return: 0 means 20, more than 100 means 100"; a leaderboard
    read page by page holds every player once, by rank."""
    for asked, size in ((0, 20), (-7, 20), (1000, 100)):
        answer = await call(http, "ListLeaderboard", {"game": GAME, "pageSize": asked})
        assert len(answer.json()["entries"]) == size, answer.text
    first = answer.json()
    rest = (
        await call(
            http,
            "ListLeaderboard",
            {"game": GAME, "pageToken": first["nextPageToken"], "pageSize": 1000},
        )
    ).json()
    assert "nextPageToken" not in rest
    entries = first["entries"] + rest["entries"]
    assert [e["rank"] for e in entries] == list(range(1, PLAYERS + 1))
    assert [e["rating"]["playerId"] for e in entries] == [f"p{n:03}" for n in range(PLAYERS)]


async def test_a_page_token_not_given_by_the_same_listing_is_refused(
    http: httpx.AsyncClient, snapshot: None
) -> None:
    """Rule: PAGE_TOKEN_INVALID for "a token that is not the next_page_token of the same
    listing": made up, edited, another game's, a history's, too long, or numbered in
    digits that are not ASCII (superscript two, Arabic-Indic one: ``str.isdigit`` accepts
    them, ``int`` does not)."""
    board = (await call(http, "ListLeaderboard", {"game": GAME, "pageSize": 1})).json()
    token = board["nextPageToken"]
    history = {"game": GAME, "playerId": "p000", "pageToken": token}
    number, _, mac = token.partition(".")
    tries = [
        ("ListLeaderboard", {"game": GAME, "pageToken": "1.abc"}),
        ("ListLeaderboard", {"game": GAME, "pageToken": f"{int(number) + 50}.{mac}"}),
        ("ListLeaderboard", {"game": "pinched", "pageToken": token}),
        ("ListRatingHistory", history),
        ("ListLeaderboard", {"game": GAME, "pageToken": token * 2000}),
        ("ListLeaderboard", {"game": GAME, "pageToken": "².x"}),
        ("ListLeaderboard", {"game": GAME, "pageToken": "\u0661.x"}),
    ]
    for method, body in tries:
        assert refusal(await call(http, method, body)) == (400, "PAGE_TOKEN_INVALID"), body


async def test_bad_player_ids_and_games_are_refused_before_any_read(
    http: httpx.AsyncClient, snapshot: None
) -> None:
    """Rule (GetRatingRequest): "The player's id (at most 128 printable characters)"; the
    game by its published name; a request over the size cap is refused whole."""
    tries = [
        ({"game": GAME, "playerId": ""}, "PLAYER_ID_INVALID"),
        ({"game": GAME, "playerId": "x" * 129}, "PLAYER_ID_INVALID"),
        ({"game": GAME, "playerId": "tab\there"}, "PLAYER_ID_INVALID"),
        ({"game": GAME, "playerId": "y" * 60_000}, "PLAYER_ID_INVALID"),
        ({"game": "chess", "playerId": "p000"}, "GAME_UNKNOWN"),
        ({"game": GAME, "playerId": "z" * 70_000}, "REQUEST_TOO_LARGE"),
    ]
    for body, expected in tries:
        assert refusal(await call(http, "GetRating", body)) == (400, expected), expected
    unknown = await call(http, "ListRatingHistory", {"game": GAME, "playerId": "nobody"})
    assert refusal(unknown) == (404, "RATING_NOT_FOUND")
