"""Referees started by tests: real Redis, free ports, loopback, the test secret; in this
process (``settings_for``) or as `referee serve` processes (``referee_process``)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from service.domain.quotas import Quotas
from service.process.announce import read_addresses
from service.settings import Settings

ROOT = Path(__file__).resolve().parents[1]

SECRET = b"test-secret-0123456789abcdef"
# Every test's referee shares the session's Redis, where other tests leave tournaments
# running (a human never joins, a bot was killed): a referee taking them over would play
# them beside unrelated tests. Takeover tests turn it on.
NO_TAKEOVERS = {"REFEREE_TOURNAMENT_TAKEOVER_SECONDS": "0"}
# What `./dev serve` sets: loopback callers (the tests' clients) have no quotas. A test of
# the quotas sets its own.
DEVELOPMENT = {"REFEREE_LOOPBACK_QUOTAS": "unlimited"}
# The referee's search bot thinks this long a move in tests (1 s in service): the tests
# check that it plays legally and at all, benchmarks how well (bench.bots).
BOT_SEARCH_SECONDS = 0.005


def settings_for(redis_url: str, data_dir: Path) -> Settings:
    return Settings(
        redis_url=redis_url,
        data_dir=data_dir,
        host="127.0.0.1",
        port=0,
        http_port=0,
        token_secret=SECRET,
        allow_client_seeds=True,
        loopback_quotas=Quotas(),  # as `./dev serve` (DEVELOPMENT)
        finished_ttl_seconds=3600,
        tournament_takeover_seconds=0,
        # Every test shares one Redis: a deadline firer would play other tests' clocked
        # tables (as takeovers would direct their tournaments). Tests of the clock step a
        # firer by hand or turn it on (tests.tournaments.test_no_show).
        deadline_firer=False,
        bot_search_seconds=BOT_SEARCH_SECONDS,
    )


@dataclass(frozen=True)
class Served:
    """A `referee serve` process: its gRPC address and the base URL of its HTTP port."""

    grpc: str
    http: str
    pid: int = 0


def _capped(open_files: int | None) -> list[str]:
    """The command prefix that caps a process's open files (none when ``open_files`` is None)."""
    return [] if open_files is None else ["prlimit", f"--nofile={open_files}:{open_files}", "--"]


@contextlib.contextmanager
def referee_process(
    redis_url: str,
    data_dir: Path,
    env: Mapping[str, str] | None = None,
    *,
    open_files: int | None = None,
    stderr: IO[Any] | int = subprocess.DEVNULL,
) -> Iterator[Served]:
    """`referee serve` as its own process on ``redis_url``, with the tests' token secret.

    ``env`` adds variables (settings); ``open_files`` caps its RLIMIT_NOFILE (soft and hard),
    set by util-linux's ``prlimit`` around the command rather than by a ``preexec_fn``: a
    fork that runs Python in a process whose gRPC threads are busy can crash the child
    before it execs (tests/faults/support.py); ``stderr`` (its log) is dropped unless given.
    Its output is read until it names its ports, then drained by a thread, so a chatty
    referee never blocks on a full pipe. Stopped (SIGTERM) when the block exits.
    """
    variables = {
        **os.environ,
        "REDIS_URL": redis_url,
        "REFEREE_TOKEN_SECRET": SECRET.decode(),
        "REFEREE_PORT": "0",
        "REFEREE_HTTP_PORT": "0",
        "REFEREE_DATA_DIR": str(data_dir),
        "REFEREE_LOG_LEVEL": "warning",
        "REFEREE_BOT_SEARCH_SECONDS": str(BOT_SEARCH_SECONDS),
        **NO_TAKEOVERS,
        **DEVELOPMENT,
        **(env or {}),
    }
    process = subprocess.Popen(
        [*_capped(open_files), sys.executable, "-m", "service.process.cli", "serve"],
        cwd=ROOT,
        env=variables,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
    )
    try:
        assert process.stdout is not None
        try:
            grpc_address, http_url = read_addresses(process.stdout)
        except ValueError as error:
            raise AssertionError(str(error)) from None
        threading.Thread(target=process.stdout.read, daemon=True).start()
        yield Served(grpc_address, http_url, process.pid)
    finally:
        process.terminate()
        # A graceful stop gives calls still open up to its grace (5 s) and then closes the
        # store, the feed and the HTTP face; on a machine running the rest of the suite
        # that has taken more than 10 s. What the tests prove is checked before this.
        process.wait(30)
