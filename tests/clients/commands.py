"""Running a user's commands (build, install, run) from a packaging test, under one budget."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Mapping
from pathlib import Path


async def run(
    *command: str | Path, deadline: float, cwd: Path, env: Mapping[str, str] | None = None
) -> str:
    """``command``'s output once it exits 0; an AssertionError (with its output) if it
    fails, or if it is still running at ``deadline`` (a ``time.monotonic()`` instant)."""
    process = await asyncio.create_subprocess_exec(
        *map(str, command),
        cwd=cwd,
        env=dict(os.environ if env is None else env),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        out, _ = await asyncio.wait_for(process.communicate(), deadline - time.monotonic())
    except TimeoutError:
        process.kill()
        await process.wait()
        raise AssertionError(f"the test's time budget ran out during {command}") from None
    text = out.decode()
    assert process.returncode == 0, f"{command} failed:\n{text}"
    return text
