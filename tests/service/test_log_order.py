"""The referee's structlog lines and the standard library's (asyncio, grpc, uvicorn) share
stderr: a library record logged after a referee line of the same event-loop pass comes out
after it, though the referee's lines are held until the pass ends (logs.PassLogger)."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import sys

import pytest
import structlog

from service.process import logs


async def test_a_library_record_follows_the_referee_lines_held_before_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stream = io.StringIO()
    monkeypatch.setattr(sys, "stderr", stream)
    root = logging.getLogger()
    saved_config, saved_level, before = structlog.get_config(), root.level, list(root.handlers)
    try:
        logs.configure("info")
        structlog.get_logger("tests.order").info("referee first")
        logging.getLogger("tests.order").warning("library second")
        structlog.get_logger("tests.order").info("referee third")
        await asyncio.sleep(0)  # the pass ends: what is held is written
    finally:
        for handler in root.handlers[:]:
            if handler not in before:
                root.removeHandler(handler)
        root.setLevel(saved_level)
        structlog.configure(**saved_config)
    events = [json.loads(line)["event"] for line in stream.getvalue().splitlines()]
    assert events == ["referee first", "library second", "referee third"]
