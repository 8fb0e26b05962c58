"""`referee game create|join|start|list|abort`, as commands (their own processes) against
a referee in this test's event loop: --json parsed, the human output, refusals in one line
on stderr with their exit codes (4: not allowed or not found), a table named by --game-id
or, as before, positionally."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from service.process.cli import game as cli_game
from service.process.cli.common import ExitCode
from service.process.server import Running, running
from tests.servers import settings_for


@pytest.fixture
async def server(redis_url: str, tmp_path: Path) -> AsyncIterator[Running]:
    settings = dataclasses.replace(
        settings_for(redis_url, tmp_path),
        joins_per_minute=0,
        list_games_per_second=0,
        seat_code_attempts_per_minute=0,  # the bounds have their abuse test
    )
    async with running(settings) as handle:
        yield handle


async def referee(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """``referee ARGS...`` (``python -m service.process.cli``): its exit code, stdout and stderr."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "service.process.cli", *args,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def one_document(result: tuple[int, str, str]) -> Any:
    code, out, err = result
    assert code == 0, err
    assert len(out.splitlines()) == 1, "one JSON document"
    return json.loads(out)


async def test_create_join_list_start_and_abort_a_table(server: Running) -> None:
    address = ("--address", server.address)
    long_name = "Ada " + "L" * 28  # 32 characters: the names column wraps, the game id never
    created = one_document(
        await referee(
            "game", "create", *address, "--json", "--game", "gang_of_four", "--seats", "4",
            "--open-seats", "2", "--name", long_name, "--name", "Bo", "--listed",
        )
    )  # fmt: skip
    gid, admin = created["game_id"], created["admin_token"]
    assert admin.startswith("v2.") and created["join_code"]
    assert [t.get("seat", 0) for t in created["seat_tokens"]] == [0, 1]
    assert created["table"]["status"] == "TABLE_STATUS_OPEN"
    joined, listed, human, wrong = await asyncio.gather(
        referee("game", "join", *address, "--json", "--code", created["join_code"], "--name", "Cy"),
        referee("game", "list", *address, "--json", "--game", "gang_of_four", "--status", "open"),
        referee("game", "list", *address, "--game", "gang_of_four", "--page-size", "5"),
        referee("game", "start", gid, *address, "--token", created["seat_tokens"][0]["token"]),
    )
    seat = one_document(joined)
    assert seat["game_id"] == gid and seat["seat"] == 2 and seat["seat_token"].startswith("v2.")
    mine = [g for g in one_document(listed)["games"] if g["game_id"] == gid]
    assert mine and mine[0]["names"][:2] == [long_name, "Bo"]
    code, out, err = human
    assert code == 0 and gid in out and "open" in out, err
    code, out, err = wrong
    assert (code, out) == (ExitCode.UNREACHABLE, "") and len(err.splitlines()) == 1
    assert err.startswith("referee game start: only the admin token may do this"), err
    started = one_document(
        await referee(
            "game", "start", "--game-id", gid, *address, "--json", "--bot", "heuristic",
            env={"REFEREE_ADMIN_TOKEN": admin},
        )
    )  # fmt: skip
    assert started["table"]["status"] == "TABLE_STATUS_LIVE"
    assert started["table"]["seats"][3]["holder"] == "SEAT_HOLDER_BOT"
    spent, aborted = await asyncio.gather(
        referee("game", "join", *address, "--code", created["join_code"], "--name", "Di"),
        referee("game", "abort", gid, *address, "--token", admin),  # the positional form
    )
    code, out, err = spent
    assert (code, out) == (ExitCode.UNREACHABLE, "") and len(err.splitlines()) == 1
    assert err.startswith("referee game join: this join code is unknown, expired or spent"), err
    code, out, err = aborted
    assert (code, out) == (0, f"game {gid}: aborted\n"), err


def test_the_list_command_offers_only_the_listed_statuses() -> None:
    assert set(cli_game.LISTED) == {"open", "live"}
