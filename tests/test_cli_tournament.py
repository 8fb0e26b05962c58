"""`referee tournament create|start|watch|list` and `referee verify --wait`, as commands
(their own processes) against a referee in this test's event loop."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import grpc
import pytest

from referee.v1 import referee_pb2_grpc
from service.process.cli import tournament as cli_tournament
from service.process.cli.common import ExitCode
from service.process.server import Running
from tests.service.players import play_to_end
from tests.service.table import Table

ROOT = Path(__file__).resolve().parent.parent


async def _referee(*args: str, timeout: float = 60) -> tuple[int, str, str]:
    """``referee ARGS...`` (``python -m service.process.cli``): its exit code, stdout and stderr."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "service.process.cli",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def _json(*args: str) -> Any:
    code, out, err = await _referee(*args, "--json")
    assert code == 0, err
    assert len(out.splitlines()) == 1, "one JSON document"
    return json.loads(out)


async def test_create_start_watch_and_list_a_tournament(referee_server: Running) -> None:
    address = ("--address", referee_server.address)
    created = await _json(
        "tournament", "create", *address,
        "--game", "pinched", "--seats-per-table", "2",
        "--participant", "ada:random", "--participant", "bob:heuristic",
        "--participant", "cy:random", "--participant", "dee",
        "--rounds", "1",
    )  # fmt: skip
    tid = created["tournament_id"]
    assert created["admin_token"].startswith("t1.")
    assert [code["participant"] for code in created["seat_codes"]] == [3]  # dee plays herself
    assert created["tournament"]["status"] == "TOURNAMENT_STATUS_CREATED"

    code, out, err = await _referee("tournament", "start", tid, *address, "--token", "t1.nope")
    assert (code, out) == (ExitCode.UNREACHABLE, "") and len(err.splitlines()) == 1, err
    assert err.startswith("referee tournament start: ") and "Traceback" not in err
    started = await _json(
        "tournament", "start", "--tournament-id", tid, *address, "--token", created["admin_token"]
    )
    assert started["tournament"]["status"] == "TOURNAMENT_STATUS_RUNNING"

    listed = await _json("tournament", "list", *address, "--status", "running", "--limit", "100")
    assert tid in [t["tournament_id"] for t in listed["tournaments"]]
    code, out, err = await _referee("tournament", "list", *address, "--limit", "100")
    assert code == 0, err
    assert tid in out and "pinched" in out

    # dee never claims her seat: her table waits; the other table is played by the bots
    # that `start` set going (what `list` shows of a running tournament, as JSON).
    async with asyncio.timeout(30):
        while True:
            got = await _json("tournament", "list", *address, "--status", "running")
            mine = next(t for t in got["tournaments"] if t["tournament_id"] == tid)
            tables = mine["round_results"][0]["tables"]
            if any(table.get("finished") for table in tables):
                break
            await asyncio.sleep(0.1)
    assert not all(table.get("finished") for table in tables)


async def test_watch_ends_with_the_standings_and_json_with_the_final_tournament(
    referee_server: Running,
) -> None:
    address = ("--address", referee_server.address)
    bots = [arg for i in range(3) for arg in ("--participant", f"bot{i}:random")]
    created = await _json(
        "tournament", "create", *address,
        "--game", "the_gang", "--seats-per-table", "3", *bots, "--rounds", "1",
    )  # fmt: skip
    tid = created["tournament_id"]
    await _json("tournament", "start", tid, *address, "--token", created["admin_token"])
    code, out, err = await _referee("tournament", "watch", "--tournament-id", tid, *address)
    assert code == 0, err
    assert "finished" in out and "rank" in out and "bot0" in out
    assert "rounds" in err  # the progress bars, on stderr
    final = await _json("tournament", "watch", tid, *address)
    assert final["status"] == "TOURNAMENT_STATUS_FINISHED"
    assert len(final["final_ranking"]) == 3


def test_a_participant_is_a_name_or_a_name_and_a_bot() -> None:
    assert cli_tournament.participant("dee").bot == 0
    assert cli_tournament.participant("ada:heuristic").name == "ada"
    with pytest.raises(Exception, match="random, heuristic"):
        cli_tournament.participant("ada:genius")


async def test_verify_answers_at_once_for_an_unfinished_game_or_waits_for_it(
    referee_server: Running,
) -> None:
    async with grpc.aio.insecure_channel(referee_server.address) as channel:
        table = await Table.create(referee_pb2_grpc.RefereeServiceStub(channel), 3, seed=b"wait")
        verify = ("verify", "--address", referee_server.address, "--game-id", table.game_id)
        began = time.monotonic()
        code, out, err = await _referee(*verify)
        assert (code, out) == (ExitCode.NOT_FINISHED, "")
        assert err == (
            "referee verify: the game is not over yet (version 0); "
            "try again when it ends, or pass --wait SECONDS\n"
        )
        assert time.monotonic() - began < 20  # no watch held open: a process start's time
        code, out, err = await _referee(*verify, "--wait", "0.5")
        assert (code, out) == (ExitCode.NOT_FINISHED, "")
        assert err.startswith("referee verify: the game is not over yet after 0.5 s (version 0);")

        feed = referee_server.referee.feed
        before = feed.watchers
        waiting = asyncio.create_task(_referee(*verify, "--wait", "60"))
        async with asyncio.timeout(30):  # until the command follows the game
            while feed.watchers == before:
                await asyncio.sleep(0.01)
        await play_to_end(table, 3, win=True)
        code, out, err = await waiting
        assert code == 0, out + err
        assert out.startswith("verified: the_gang")


@pytest.mark.skipif(shutil.which("jq") is None, reason="the README's example pipes into jq")
async def test_the_readme_tournament_example_runs_as_written(referee_server: Running) -> None:
    """The README's Tournaments block in bash, each command sent to this test's referee."""
    section = (ROOT / "README.md").read_text().split("\n## Tournaments\n", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, flags=re.S)
    assert block is not None
    script = re.sub(
        r"tournament (create|start|watch|list)",
        rf"tournament \1 --address {referee_server.address}",
        block[1],
    )
    process = await asyncio.create_subprocess_exec(
        "bash", "-euo", "pipefail", "-c", script, cwd=ROOT,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(process.communicate(), 90)
    assert process.returncode == 0, err.decode()
    lines = out.decode().splitlines()
    ranked = [line for line in lines if re.fullmatch(r"[1-4] (ada|bob|cy|dee)", line)]
    assert len(ranked) == 4, lines
    tournament_id = re.search(r"tournament (\w+): finished", out.decode())
    assert tournament_id is not None and tournament_id[1] in lines  # listed as finished
