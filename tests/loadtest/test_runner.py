"""A small load test for real: two ``referee serve`` processes on one Redis, bots, the check.

Each run plays a few whole games (The Gang with the heuristic bots ends in well under a
hundred moves), so the check verifies every one of them from its revealed seed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.loadtest.cli import main
from bench.loadtest.config import LoadConfig
from bench.loadtest.runner import run_async


@pytest.mark.parametrize("transport", ["unary", "play"])
async def test_two_referees_play_games_and_every_game_replays(
    private_redis_url: str, tmp_path: Path, transport: str
) -> None:
    config = LoadConfig(
        concurrency=3,
        referees=2,
        games=4,
        seconds=60,
        transport="play" if transport == "play" else "unary",
        redis_url=private_redis_url,  # its used_memory: these games' bytes alone
        progress=False,
        work_dir=tmp_path / "work",
    )
    report = await run_async(config)
    check = report.check
    assert check is not None
    assert report.ok, report.table()
    assert len(report.referees) == 2
    assert report.games_created == 4
    assert check.games == 4 and check.verified == 4, report.table()
    assert (check.failed, check.lost, check.doubled, check.phantom) == (0, 0, 0, 0)
    assert report.moves_total == check.moves > 0
    assert not report.driver_errors
    # Every RPC the bots made was timed: moves went through their transport's calls.
    submit = report.rpc("SubmitMove" if transport == "unary" else "Play.submit")
    assert submit is not None and submit.ok >= report.moves_total
    assert report.bytes_per_game > 0, report.redis_used_memory
    assert "result       OK" in report.table()


def test_main_parses_runs_a_tiny_load_and_writes_json(
    loadtest_redis_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.json"
    code = main(
        [
            "--concurrency",
            "2",
            "--referees",
            "1",
            "--games",
            "2",
            "--seconds",
            "60",
            "--game",
            "gang_of_four",
            "--bot",
            "heuristic",
            "--seats",
            "3",
            "--redis-url",
            loadtest_redis_url,
            "--no-progress",
            "--json",
            str(out),
            "--work-dir",
            str(tmp_path / "work"),
        ]
    )
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "load test: 1 referee processes" in printed
    assert "failed replays 0, lost moves 0, doubled moves 0" in printed
    data = json.loads(out.read_text())
    assert data["ok"] is True
    assert data["games_created"] == 2
    assert data["check"]["verified"] == 2
    assert {row["name"] for row in data["rpcs"]} >= {"CreateGame", "ListLegalMoves", "SubmitMove"}
