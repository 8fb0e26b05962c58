"""The README's Python example runs as written against a live referee."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from service.process.server import Running

README = Path(__file__).resolve().parent.parent / "README.md"


def _python_example() -> str:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)
    assert blocks, "the README has a Python example"
    return str(blocks[0])


async def test_the_python_example_plays_a_move(referee_server: Running) -> None:
    code = _python_example().replace("127.0.0.1:50051", referee_server.address)
    printed: list[str] = []
    namespace = {"print": lambda *args: printed.append(" ".join(map(str, args)))}
    await asyncio.to_thread(exec, compile(code, "README.md", "exec"), namespace)
    pocket, move, watched = printed
    assert re.fullmatch(r"\['\w\w', '\w\w'\]", pocket)
    assert re.fullmatch(r"1 \['the_gang'(, 'the_gang')*\]", move)
    assert re.fullmatch(r"1 \[[0-9, ]*\]", watched)
