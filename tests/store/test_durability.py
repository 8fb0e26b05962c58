"""Durable acknowledgements with an external Redis: the persistence report at start, the
refusal ``require_durability`` gives, and WAIT for replicas after each commit, with a real
replica (a second redis-server replicating the first)."""

from __future__ import annotations

import contextlib
import dataclasses
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
import redis
import structlog
from redis.asyncio import Redis

from referee.v1 import referee_pb2
from service.errors import Unavailable
from service.process.redis_server import EmbeddedRedis
from service.process.server import running
from service.storage.durability import UNKNOWN, Persistence, read_persistence
from service.storage.store import CommitStatus, RedisStore
from tests.faults.support import create_game, scripted_game, stub_for
from tests.servers import settings_for
from tests.service.table import auth, reason_of
from tests.store.test_store_commit import commit, snapshot

WAIT_MS = 200


def wait_for_replica(primary: EmbeddedRedis, timeout: float = 20.0) -> None:
    """Until ``primary`` has one replica in sync (its link up, the offsets equal)."""
    deadline = time.monotonic() + timeout
    with redis.Redis.from_url(primary.url, protocol=2) as client:
        while time.monotonic() < deadline:
            info = client.info("replication")
            replica = info.get("slave0")
            if isinstance(replica, dict) and replica.get("state") == "online":
                return
            time.sleep(0.05)
    raise AssertionError("the replica never came online")


@contextlib.contextmanager
def replica_of(primary: EmbeddedRedis, data_dir: Path) -> Iterator[EmbeddedRedis]:
    replica = EmbeddedRedis(
        data_dir,
        password=primary.password,
        extra_config={
            "replicaof": f"127.0.0.1 {primary.port}",
            "masterauth": primary.password,
            # No AOF of its own: a replica writing its first AOF refuses SIGTERM (Redis 6.2).
            "appendonly": "no",
        },
    )
    with replica:
        wait_for_replica(primary)
        yield replica


@pytest.fixture
def primary(tmp_path: Path) -> Iterator[EmbeddedRedis]:
    with EmbeddedRedis(tmp_path / "primary", appendfsync="everysec") as server:
        yield server


# --- the persistence report ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("persistence", "replicas", "risky"),
    [
        (Persistence("yes", "always", ""), 0, False),
        (Persistence("yes", "everysec", "3600 1"), 0, True),
        (Persistence("yes", "everysec", ""), 1, False),
        (Persistence("no", "always", "3600 1"), 0, True),
        (Persistence("no", "everysec", ""), 2, True),  # a primary restarted empty: replicas too
        (Persistence("yes/no", "always", ""), 0, True),  # a cluster with one node off
        (Persistence(UNKNOWN, UNKNOWN, UNKNOWN, "CONFIG GET: ResponseError"), 1, True),
    ],
)
def test_which_persistence_keeps_acknowledged_moves(
    persistence: Persistence, replicas: int, risky: bool
) -> None:
    assert (persistence.risk(replicas) is not None) is risky


async def test_the_persistence_is_read_from_redis(tmp_path: Path, primary: EmbeddedRedis) -> None:
    found = await read_persistence(primary.url, cluster=False)
    assert found == Persistence("yes", "everysec", "")
    assert found.risk(0) is not None and "appendfsync everysec" in (found.risk(0) or "")
    with EmbeddedRedis(tmp_path / "always") as always:
        assert (await read_persistence(always.url, cluster=False)).risk(0) is None


async def test_a_redis_without_config_is_unknown(tmp_path: Path) -> None:
    """Managed Redis services disable CONFIG; the report then says "unknown"."""
    hidden = {"rename-command": "CONFIG " + '""'}
    with EmbeddedRedis(tmp_path / "r", extra_config=hidden) as server:
        found = await read_persistence(server.url, cluster=False)
    assert (found.appendonly, found.appendfsync, found.save) == (UNKNOWN, UNKNOWN, UNKNOWN)
    assert "CONFIG GET" in found.why_unknown
    assert found.risk(0) is not None


async def test_require_durability_refuses_a_lossy_redis(
    tmp_path: Path, primary: EmbeddedRedis
) -> None:
    strict = dataclasses.replace(
        settings_for(primary.url, tmp_path), require_durability=True, port=0
    )
    with pytest.raises(SystemExit, match="appendfsync everysec"):
        async with running(strict):
            pass


async def test_a_lossy_redis_is_a_warning_without_require_durability(
    tmp_path: Path, primary: EmbeddedRedis
) -> None:
    with structlog.testing.capture_logs() as logs:
        async with running(settings_for(primary.url, tmp_path)) as server:
            assert server.port
    report = next(line for line in logs if line["event"] == "redis persistence")
    assert (report["appendonly"], report["appendfsync"], report["durable"]) == (
        "yes",
        "everysec",
        False,
    )
    warning = next(line for line in logs if line["event"] == "acknowledged moves may be lost")
    assert warning["log_level"] == "warning" and "appendfsync everysec" in warning["risk"]
    assert not any(primary.password in str(line) for line in logs), "the password was logged"


async def test_require_durability_accepts_wait_replicas_on_everysec(
    tmp_path: Path, primary: EmbeddedRedis
) -> None:
    with replica_of(primary, tmp_path / "replica"):
        strict = dataclasses.replace(
            settings_for(primary.url, tmp_path), require_durability=True, wait_replicas=1
        )
        async with running(strict) as server:
            assert server.port


# --- WAIT after each commit ------------------------------------------------------------------


async def test_a_commit_waits_for_its_replica(tmp_path: Path, primary: EmbeddedRedis) -> None:
    game = f"wait-{uuid.uuid4().hex}"
    with replica_of(primary, tmp_path / "replica") as replica:
        async with (
            RedisStore.from_url(primary.url, wait_replicas=1, wait_timeout_ms=5000) as store,
            Redis.from_url(replica.url, protocol=2) as on_replica,
        ):
            assert await store.create(game, b"s0", b"meta")
            result = await commit(store, game, 0)
            assert (result.status, result.version) == (CommitStatus.OK, 1)
            # WAIT returned only once the replica had the write: it is there now.
            assert await on_replica.hget(store.keys(game).game, "version") == b"1"
            conflict = await commit(store, game, 0, key="another")
            assert conflict.status is CommitStatus.CONFLICT


async def test_a_commit_no_replica_confirms_is_stored_not_acknowledged(
    tmp_path: Path, primary: EmbeddedRedis
) -> None:
    game = f"wait-{uuid.uuid4().hex}"
    async with (
        RedisStore.from_url(primary.url, wait_replicas=1, wait_timeout_ms=WAIT_MS) as store,
        Redis.from_url(primary.url, protocol=2) as raw,
    ):
        assert await store.create(game, b"s0", b"meta")
        started = time.monotonic()
        with pytest.raises(Unavailable) as caught:
            await commit(store, game, 0)
        assert caught.value.reason == "REPLICATION_TIMEOUT"
        assert "retry with the same client_move_id" in caught.value.message
        assert time.monotonic() - started >= WAIT_MS / 1000
        stored = await snapshot(raw, store, game)
        assert stored["log"] == [b"entry-1"]  # stored on the primary, just not acknowledged

        with replica_of(primary, tmp_path / "replica"):
            again = await commit(store, game, 0, key="move-1")
        assert (again.status, again.version, again.record) == (
            CommitStatus.DUPLICATE,
            1,
            b"record-1",
        )
        after = await snapshot(raw, store, game)
        ttls_after, ttls_before = after.pop("ttls"), stored.pop("ttls")
        assert isinstance(ttls_after, list) and isinstance(ttls_before, list)
        assert ttls_after <= ttls_before  # (only the clock moved them)
        assert after == stored  # the retry applied nothing


async def test_a_move_is_acknowledged_after_its_replica_has_it(
    tmp_path: Path, primary: EmbeddedRedis
) -> None:
    """On the wire: REPLICATION_TIMEOUT while no replica confirms, and the retry with the same
    move id answers with the stored result (``duplicate``) once one does."""
    settings = dataclasses.replace(
        settings_for(primary.url, tmp_path), wait_replicas=1, wait_timeout_ms=WAIT_MS
    )
    async with running(settings) as server, stub_for(server.address) as stub:
        ledger = await create_game(stub, 3, b"wait-for-replicas")
        seat, move = scripted_game(3, b"wait-for-replicas")[0]
        request = referee_pb2.SubmitMoveRequest(
            game_id=ledger.game_id, move=move, client_move_id="first"
        )
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await stub.SubmitMove(request, metadata=auth(ledger.tokens[seat]))
        code, reason, _ = reason_of(caught.value)
        assert (code, reason) == (grpc.StatusCode.UNAVAILABLE, "REPLICATION_TIMEOUT")

        with replica_of(primary, tmp_path / "replica"):
            answer = await stub.SubmitMove(request, metadata=auth(ledger.tokens[seat]))
            assert (answer.version, answer.duplicate) == (1, True)
            second_seat, second = scripted_game(3, b"wait-for-replicas")[1]
            fresh = referee_pb2.SubmitMoveRequest(
                game_id=ledger.game_id, move=second, client_move_id="second"
            )
            answer = await stub.SubmitMove(fresh, metadata=auth(ledger.tokens[second_seat]))
            assert (answer.version, answer.duplicate) == (2, False)
