"""The Node side of bench.peers: its npm packages, the two peer servers and their drivers.

The packages are installed from ``node/package-lock.json`` with ``npm ci`` when
``node/node_modules`` is missing or older than the lock file. A server is started as the
referee's benches start theirs (:func:`bench.e2e.server_process`: it prints ``listening on
127.0.0.1:PORT``, dies with this process, is stopped at the end). A driver
(``node/driver.cjs``) is steered over its stdin and answers a JSON line per command.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.e2e import server_process
from service.process.redis_server import dying_with_parent

NODE_DIR = Path(__file__).resolve().parent / "node"
SERVERS = {"bgio": "bgio_server.cjs", "colyseus": "colyseus_server.cjs"}
NPM_TIMEOUT = 600.0


def node_binary() -> str:
    found = shutil.which("node")
    if found is None:
        raise RuntimeError("bench.peers needs Node.js 20 (node) on PATH")
    return found


def ensure_packages() -> str:
    """``npm ci`` unless node_modules is as new as the lock file; what was done, a line."""
    lock = NODE_DIR / "package-lock.json"
    installed = NODE_DIR / "node_modules" / ".package-lock.json"  # npm writes it last
    if installed.exists() and installed.stat().st_mtime >= lock.stat().st_mtime:
        return "npm packages up to date (node_modules newer than package-lock.json)"
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("bench.peers needs npm on PATH to install its packages")
    started = time.perf_counter()
    done = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund"],
        cwd=NODE_DIR,
        capture_output=True,
        text=True,
        timeout=NPM_TIMEOUT,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"npm ci failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return f"npm ci from package-lock.json in {time.perf_counter() - started:.0f}s"


def node_env() -> dict[str, str]:
    """Production mode (boardgame.io logs no line per move); no FLATFILE_DIR, so
    boardgame.io keeps its matches in memory."""
    env = {**os.environ, "NODE_ENV": "production"}
    env.pop("FLATFILE_DIR", None)
    return env


@contextlib.contextmanager
def peer_server(peer: str, work: Path) -> Iterator[tuple[int, int]]:
    """Start the ``peer`` server on a free loopback port; yield its pid and port."""
    command = [node_binary(), str(NODE_DIR / SERVERS[peer]), "--port", "0"]
    with server_process(command, node_env(), work / f"{peer}.log") as (proc, port):
        yield proc.pid, port


@dataclass
class Driver:
    """A running ``driver.cjs``: one command a line in, one JSON object a line out."""

    peer: str
    proc: subprocess.Popen[bytes]
    ready: dict[str, Any]
    pending: bytes = b""

    @property
    def pid(self) -> int:
        return self.proc.pid

    def command(self, name: str, timeout: float = 60.0) -> dict[str, Any]:
        """Send ``name``; its answer, or RuntimeError after ``timeout`` seconds."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{name}\n".encode())
        self.proc.stdin.flush()
        return self.answer(timeout, name)

    def answer(self, timeout: float, what: str) -> dict[str, Any]:
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.proc.stdout], [], [], max(left, 0))
            chunk = os.read(self.proc.stdout.fileno(), 1 << 20) if ready else b""
            if not chunk:
                state = "exited" if self.proc.poll() is not None else "timed out"
                raise RuntimeError(f"the {self.peer} driver {state} on {what!r}")
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        reply: dict[str, Any] = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"the {self.peer} driver: {reply['error']}")
        return reply


@contextlib.contextmanager
def driver(peer: str, port: int, tables: int, plans: int, work: Path) -> Iterator[Driver]:
    """Start ``peer``'s driver against 127.0.0.1:``port``; quit (or kill) it at the end."""
    command = [node_binary(), str(NODE_DIR / "driver.cjs"), "--peer", peer]
    command += ["--address", f"127.0.0.1:{port}", "--tables", str(tables), "--plans", str(plans)]
    with (work / f"{peer}-driver.log").open("wb") as log:
        proc = subprocess.Popen(
            dying_with_parent(command),
            cwd=NODE_DIR,
            env=node_env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,
        )
    try:
        running = Driver(peer, proc, {})
        running.ready = running.answer(60.0, "start")
        yield running
    finally:
        _stop(proc)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(OSError, ValueError):
        assert proc.stdin is not None
        proc.stdin.write(b"quit\n")
        proc.stdin.close()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()
