"""The storage kit both stores are built from: one outage mapping, one script folder, one
compare-and-set reply, checked on the game store and the tournament store alike."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from redis.asyncio import Redis

from service.errors import RefereeError, StoreFull, Unavailable
from service.process.redis_server import EmbeddedRedis
from service.storage.redis_kit import CommitResult, CommitStatus, commit_result, connect
from service.storage.store import RedisStore
from service.tournaments.model import Format, Participant, Tournament
from service.tournaments.store import TournamentStore

LUA = Path(__file__).resolve().parents[2] / "service" / "storage" / "lua"
SERVICE = Path(__file__).resolve().parents[2] / "service"
# Every module that keeps something in Redis with scripts of its own.
STORES = (
    SERVICE / "storage" / "store.py",
    SERVICE / "tournaments" / "store.py",
    SERVICE / "app" / "limits.py",  # the quota counters
    SERVICE / "storage" / "seat_codes.py",
    SERVICE / "storage" / "deadlines.py",  # the deadline index (EVAL in one pipeline per pass)
    SERVICE / "app" / "lobby.py",  # the joins counter
    SERVICE / "storage" / "ratings.py",  # the ratings across tables
)


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _tournament(tournament_id: str) -> Tournament:
    return Tournament(
        tournament_id=tournament_id,
        game="pinched",
        seats_per_table=2,
        options=b"",
        format=Format.ROUND_ROBIN,
        rounds=1,
        seed=b"s",
        seed_sha256="",
        admin_sha256="",
        participants=tuple(Participant(f"p{i}", "random") for i in range(2)),
        created_at=0.0,
        seat_counts=(2,),
    )


@dataclass
class Kind:
    """One store, opened on a URL: a record it creates, and a compare-and-set write on it."""

    name: str  # how its errors name it
    open: Callable[[str], RedisStore | TournamentStore]
    create: Callable[[RedisStore | TournamentStore], Awaitable[object]]
    write: Callable[[RedisStore | TournamentStore], Awaitable[object]]


async def _game_create(store: RedisStore | TournamentStore) -> object:
    assert isinstance(store, RedisStore)
    return await store.create("kit-game", b"state", b"meta")


async def _game_write(store: RedisStore | TournamentStore) -> object:
    assert isinstance(store, RedisStore)
    result = await store.commit(
        "kit-game",
        expected_version=0,
        state=b"s1",
        log_entry=b"e1",
        head="head",
        move_key="m1",
        move_record=b"r1",
        finished=False,
    )
    assert result.status is CommitStatus.OK
    return result


async def _tournament_create(store: RedisStore | TournamentStore) -> object:
    assert isinstance(store, TournamentStore)
    return await store.create(_tournament("kit-tournament"))


async def _tournament_write(store: RedisStore | TournamentStore) -> object:
    assert isinstance(store, TournamentStore)
    return await store.write(0, _tournament("kit-tournament"))


KINDS = {
    "game": Kind(
        "the game store",
        lambda url: RedisStore.from_url(url, socket_connect_timeout=1),
        _game_create,
        _game_write,
    ),
    "tournament": Kind(
        "the tournament store",
        lambda url: TournamentStore.from_url(
            url, cluster=False, finished_ttl_seconds=60, idle_ttl_seconds=60
        ),
        _tournament_create,
        _tournament_write,
    ),
}


@pytest.fixture(params=sorted(KINDS))
def kind(request: pytest.FixtureRequest) -> Kind:
    return KINDS[request.param]


@pytest.fixture
async def private_redis(tmp_path: Path) -> AsyncIterator[tuple[str, Redis]]:
    """A real redis-server of this test's own (its memory limit is changed), and a client."""
    with EmbeddedRedis(tmp_path / "redis") as server:
        admin = Redis.from_url(server.url, protocol=2)
        yield server.url, admin
        await admin.aclose()


async def test_an_unreachable_redis_is_unavailable_for_both_stores(kind: Kind) -> None:
    store = kind.open(f"redis://127.0.0.1:{_closed_port()}/0")
    calls: list[str] = []
    store.on_call = lambda name, seconds: calls.append(name)
    with pytest.raises(Unavailable) as caught:
        await kind.create(store)
    await store.aclose()
    error: RefereeError = caught.value
    assert (error.code, error.reason) == (grpc.StatusCode.UNAVAILABLE, "STORE_UNAVAILABLE")
    assert error.message.startswith(f"{kind.name} is unreachable (")
    assert calls == ["create"]  # timed even when it failed


async def test_a_full_redis_is_store_full_for_both_stores(
    kind: Kind, private_redis: tuple[str, Redis]
) -> None:
    """Redis at ``maxmemory`` (``noeviction``) refuses a create and a compare-and-set
    write: RESOURCE_EXHAUSTED STORE_FULL, and nothing was written, so both can be retried."""
    url, admin = private_redis
    store = kind.open(url)
    await admin.config_set("maxmemory-policy", "noeviction")
    await admin.config_set("maxmemory", 1)
    with pytest.raises(StoreFull) as refused_create:
        await kind.create(store)
    assert await admin.dbsize() == 0
    await admin.config_set("maxmemory", 0)
    assert await kind.create(store)
    await admin.config_set("maxmemory", 1)
    with pytest.raises(StoreFull) as refused_write:
        await kind.write(store)
    await admin.config_set("maxmemory", 0)
    assert not await kind.create(store)  # still there, at version 0: the write can be retried
    await kind.write(store)
    await store.aclose()
    for caught in (refused_create, refused_write):
        error: RefereeError = caught.value
        assert (error.code, error.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "STORE_FULL")
        assert error.message == f"{kind.name} is full; nothing was applied"


async def test_both_stores_refuse_a_client_that_decodes_replies(redis_url: str) -> None:
    client = Redis.from_url(redis_url, decode_responses=True)
    with pytest.raises(ValueError, match="RedisStore needs a client with decode_responses"):
        RedisStore(client)
    with pytest.raises(ValueError, match="TournamentStore needs a client with decode_res"):
        TournamentStore(client, finished_ttl_seconds=60, idle_ttl_seconds=60)
    await client.aclose()


async def test_connect_speaks_resp2_in_bytes_unless_told(redis_url: str) -> None:
    client = connect(redis_url)
    kwargs = client.connection_pool.connection_kwargs  # type: ignore[union-attr]
    assert (kwargs["protocol"], kwargs.get("decode_responses", False)) == (2, False)
    await client.aclose()
    resp3 = connect(redis_url, protocol=3)
    assert resp3.connection_pool.connection_kwargs["protocol"] == 3  # type: ignore[union-attr]
    await resp3.aclose()


def test_a_compare_and_set_reply_reads_alike_for_both_stores() -> None:
    assert commit_result([b"OK", 3]) == CommitResult(CommitStatus.OK, 3)
    assert commit_result([b"CONFLICT", 5]) == CommitResult(CommitStatus.CONFLICT, 5)
    assert commit_result([b"MISSING", -1]) == CommitResult(CommitStatus.MISSING, -1)
    assert commit_result([b"DUPLICATE", 4, b"rec"]) == CommitResult(
        CommitStatus.DUPLICATE, 4, b"rec"
    )
    with pytest.raises(ValueError, match="SOMETHING"):
        commit_result([b"SOMETHING", 1])


def test_every_script_is_loaded_by_a_store_and_documents_its_contract() -> None:
    """Scripts live in ``service/storage/lua`` only, each used by a store, each with a header that
    names its KEYS, ARGV and reply."""
    sources = "\n".join(path.read_text(encoding="utf-8") for path in STORES)
    scripts = sorted(LUA.glob("*.lua"))
    assert {path.name for path in scripts} >= {"commit.lua", "tournament_commit.lua"}
    for path in scripts:
        assert f'"{path.name}"' in sources, f"{path.name} is loaded by no store"
        header = path.read_text(encoding="utf-8").split("\n\n", 1)[0]
        for part in ("KEYS", "ARGV", "Reply"):
            assert part in header, f"{path.name}: the header does not document {part}"
    assert "register_script(" not in sources, "stores load scripts with redis_kit.script"
