"""The referee's log lines (service.process.logs.PassLogger): one write per event-loop pass, in
order, none held back for long."""

from __future__ import annotations

import asyncio
import io
import threading

from service.process import logs


class Writes(io.StringIO):
    """A stream that remembers each write."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[str] = []

    def write(self, text: str) -> int:
        self.writes.append(text)
        return super().write(text)


async def test_the_lines_of_one_pass_are_written_with_one_write_in_order() -> None:
    stream = Writes()
    logger = logs.PassLogger(stream)
    for n in range(5):
        logger.msg(f"line {n}")
    assert stream.writes == []  # held until the loop runs its callbacks
    await asyncio.sleep(0)
    assert stream.writes == ["".join(f"line {n}\n" for n in range(5))]
    logger.msg("next pass")
    await asyncio.sleep(0)
    assert stream.writes[1:] == ["next pass\n"]


async def test_a_full_hold_is_written_at_once() -> None:
    stream = Writes()
    logger = logs.PassLogger(stream)
    for n in range(logs.MAX_HELD_LINES):
        logger.msg(str(n))
    assert len(stream.writes) == 1
    assert stream.getvalue().splitlines() == [str(n) for n in range(logs.MAX_HELD_LINES)]


async def test_a_line_from_another_thread_is_written_at_once_after_the_held_ones() -> None:
    stream = Writes()
    logger = logs.PassLogger(stream)
    logger.msg("held on the loop")
    thread = threading.Thread(target=logger.msg, args=("from a thread",))
    thread.start()
    thread.join()
    assert stream.getvalue() == "held on the loop\nfrom a thread\n"


def test_without_a_loop_a_line_is_written_at_once() -> None:
    stream = Writes()
    logs.PassLogger(stream).msg("no loop")
    assert stream.writes == ["no loop\n"]


def test_a_closed_stream_loses_the_line_quietly() -> None:
    stream = Writes()
    stream.close()
    logs.PassLogger(stream).msg("nowhere")  # no exception: logging never fails a call


def test_a_line_with_a_lone_surrogate_is_still_written() -> None:
    assert logs.json_line({"event": "rpc", "name": "bad \udcff"}) == (
        '{"event": "rpc", "name": "bad \\udcff"}'
    )
