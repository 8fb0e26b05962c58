"""The README's Python examples run as written: the first against a live referee, and the
game-over test on views of every kind."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from referee.v1 import game_pb2, table_pb2
from service.process.server import Running

README = Path(__file__).resolve().parent.parent / "README.md"


def _python_blocks() -> list[str]:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "the README has a Python example"
    return [str(block) for block in blocks]


def _python_example() -> str:
    return _python_blocks()[0]


async def test_the_python_example_plays_a_move(referee_server: Running) -> None:
    code = _python_example().replace("127.0.0.1:50051", referee_server.address)
    printed: list[str] = []
    namespace = {"print": lambda *args: printed.append(" ".join(map(str, args)))}
    await asyncio.to_thread(exec, compile(code, "README.md", "exec"), namespace)
    pocket, move, watched = printed
    assert re.fullmatch(r"\['\w\w', '\w\w'\]", pocket)
    assert re.fullmatch(r"1 \['the_gang'(, 'the_gang')*\]", move)
    assert re.fullmatch(r"1 \[[0-9, ]*\]", watched)


def test_the_game_over_example_tells_finished_and_aborted_from_running() -> None:
    block = next(block for block in _python_blocks() if "def game_over" in block)
    namespace: dict[str, Any] = {}
    exec(compile(block, "README.md", "exec"), namespace)
    game_over = namespace["game_over"]
    running = game_pb2.View(to_act=[1], table=table_pb2.Table(status=table_pb2.TABLE_STATUS_LIVE))
    finished = game_pb2.View(
        outcome=game_pb2.Outcome(winners=[0], summary="seat 0 wins"),
        table=table_pb2.Table(status=table_pb2.TABLE_STATUS_FINISHED),
    )
    aborted = game_pb2.View(table=table_pb2.Table(status=table_pb2.TABLE_STATUS_ABORTED))
    assert [game_over(view) for view in (running, finished, aborted)] == [False, True, True]
