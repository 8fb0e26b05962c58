"""structlog as JSON lines on stderr. Never log a token, a seed or a card.

The standard library's loggers (uvicorn, asyncio, grpc) go to the same stream, rendered
the same way, one JSON line per record (a traceback is a field, not 20 lines). Repeated
warnings and errors are rate limited: a process out of file descriptors fails every accept
and every connect, and its log must not grow by a traceback for each (1.5 M lines in 40 s
under a slowloris attack before this limit).
"""

from __future__ import annotations

import asyncio
import atexit
import json
import logging
import re
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, MutableMapping
from typing import Any, TextIO

import msgspec
import structlog

# At most one line per key in this many seconds; the next one says how many it stood for.
REPEAT_INTERVAL_SECONDS = 1.0
# Keys remembered at once (oldest forgotten first), so varied messages cannot grow memory.
MAX_KEYS = 1024
# Only warnings and worse are limited: the per-RPC info lines are the access log.
LIMITED_LEVEL = logging.WARNING
# Numbers and addresses in a message (fds, ports, object ids) do not make it another one.
_VARIABLE = re.compile(r"0x[0-9a-fA-F]+|\d+")
# Level names to numbers, read once (logging.getLevelNamesMapping copies its dict per call).
_LEVELS = logging.getLevelNamesMapping()
# Lines held before they are written at once, even within one event-loop pass.
MAX_HELD_LINES = 256


class RepeatLimiter:
    """Admits at most one event per key per ``interval``; counts the ones it drops.

    :meth:`admit` answers None for an event to drop, else the number dropped for that key
    since the last one admitted (0 when none were)."""

    def __init__(
        self,
        interval: float = REPEAT_INTERVAL_SECONDS,
        max_keys: int = MAX_KEYS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.interval = interval
        self.max_keys = max_keys
        self.clock = clock
        # key -> [time of the last admitted event, events dropped since]
        self._seen: OrderedDict[object, list[float]] = OrderedDict()
        self._lock = threading.Lock()  # grpc logs from its own threads

    def admit(self, key: object) -> int | None:
        with self._lock:
            return self._admit(key, self.clock())

    def _admit(self, key: object, now: float) -> int | None:
        seen = self._seen.get(key)
        if seen is not None and now - seen[0] < self.interval:
            seen[1] += 1
            return None
        suppressed = 0 if seen is None else int(seen[1])
        self._seen[key] = [now, 0]
        self._seen.move_to_end(key)
        while len(self._seen) > self.max_keys:
            self._seen.popitem(last=False)
        return suppressed


def message_key(message: object) -> str:
    """What makes two messages "the same": the first line, numbers and addresses blanked."""
    first = str(message).split("\n", 1)[0][:200]
    return _VARIABLE.sub("#", first)


class RepeatFilter(logging.Filter):
    """A :class:`logging.Filter` that rate limits repeated warnings and errors by message;
    the record let through after drops carries ``suppressed`` (how many)."""

    def __init__(self, limiter: RepeatLimiter | None = None) -> None:
        super().__init__()
        self.limiter = limiter or RepeatLimiter()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < LIMITED_LEVEL:
            return True
        suppressed = self.limiter.admit((record.name, record.levelno, message_key(record.msg)))
        if suppressed is None:
            return False
        if suppressed:
            record.suppressed = suppressed
        return True


class RepeatProcessor:
    """The same limit as a structlog processor, for the referee's own warnings and errors
    (keyed by level and event); place it after ``add_log_level``."""

    def __init__(self, limiter: RepeatLimiter | None = None) -> None:
        self.limiter = limiter or RepeatLimiter()

    def __call__(
        self, _logger: Any, _method: str, event_dict: MutableMapping[str, Any]
    ) -> MutableMapping[str, Any]:
        level = _LEVELS.get(str(event_dict.get("level", "")).upper(), 0)
        if level < LIMITED_LEVEL:
            return event_dict
        suppressed = self.limiter.admit((level, message_key(event_dict.get("event", ""))))
        if suppressed is None:
            raise structlog.DropEvent
        if suppressed:
            event_dict["suppressed"] = suppressed
        return event_dict


class PassLogger:
    """A structlog logger that writes the lines of one event-loop pass with one write.

    Every RPC logs one line, and one ``write()`` per line was 6 % of a validated move's
    CPU on a 2-core VM, where each system call costs a few microseconds
    (docs/benchmarks.md). A line logged on the event loop's thread is held and written,
    with every other line of that pass, when the loop next runs its callbacks (or once
    :data:`MAX_HELD_LINES` are held); a line logged from any other thread, or with no loop
    running, is written at once, after the held ones, so the referee's lines keep their
    order. What is held at exit is written then (:mod:`atexit`); a process killed outright
    loses at most the lines of its last pass.
    """

    def __init__(self, file: TextIO) -> None:
        self._file = file
        self._held: list[str] = []
        self._lock = threading.Lock()
        self._scheduled = False
        atexit.register(self.flush)

    def msg(self, message: str) -> None:
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        with self._lock:
            self._held.append(message)
            if loop is not None and len(self._held) < MAX_HELD_LINES:
                if not self._scheduled:
                    self._scheduled = True
                    loop.call_soon(self.flush)
                return
        self.flush()

    log = debug = info = warn = warning = error = critical = exception = fatal = failure = msg

    def flush(self) -> None:
        with self._lock:
            self._scheduled = False
            held, self._held = self._held, []
            if not held:
                return
            held.append("")
            try:
                self._file.write("\n".join(held))
                self._file.flush()
            except (OSError, ValueError):  # a closed or broken stream: nowhere to log
                return


class PassLoggerFactory:
    """One :class:`PassLogger` per stream, shared by every bound logger (structlog calls
    the factory once per logger name)."""

    def __init__(self, file: TextIO | None = None) -> None:
        self.logger = PassLogger(file or sys.stderr)

    def __call__(self, *args: Any) -> PassLogger:
        return self.logger


def json_line(event: Any, **_options: Any) -> str:
    """One event as compact JSON, by msgspec (a third of ``json.dumps``'s time per RPC
    line); a value JSON has no form for is written as its ``str``, as structlog's default
    renderer falls back to ``repr``-like text. A string UTF-8 cannot hold (a lone
    surrogate) falls back to ``json.dumps``, which escapes it: a log line never fails."""
    try:
        return _JSON.encode(event).decode()
    except UnicodeEncodeError:
        return json.dumps(event, default=str)


_JSON = msgspec.json.Encoder(enc_hook=str)


# The handler configure() put on the root logger, replaced when it is called again.
_handler: logging.Handler | None = None


class _AfterHeld(logging.StreamHandler[TextIO]):
    """A stream handler that first writes what ``held`` still holds: a library's record
    comes out after the referee's lines logged before it in the same pass."""

    def __init__(self, stream: TextIO, held: PassLogger | None) -> None:
        super().__init__(stream)
        self._held = held

    def emit(self, record: logging.LogRecord) -> None:
        if self._held is not None:
            self._held.flush()
        super().emit(record)


def standard_library_handler(
    stream: TextIO | None = None, *, after: PassLogger | None = None
) -> logging.Handler:
    """One JSON line per record on ``stream`` (stderr), repeats limited; each written
    after the lines ``after`` (the referee's logger on the same stream) holds."""
    handler = _AfterHeld(stream or sys.stderr, after)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=[
                structlog.stdlib.add_log_level,
                structlog.stdlib.add_logger_name,
                structlog.processors.TimeStamper(fmt="iso", utc=True),
                structlog.stdlib.ExtraAdder(allow=["suppressed"]),
            ],
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.format_exc_info,
                structlog.processors.JSONRenderer(),
            ],
        )
    )
    handler.addFilter(RepeatFilter())
    return handler


def configure(level: str = "info") -> None:
    global _handler
    threshold = _LEVELS[level.upper()]
    factory = PassLoggerFactory(sys.stderr)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            RepeatProcessor(),
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(serializer=json_line),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(threshold),
        logger_factory=factory,
        cache_logger_on_first_use=True,
    )
    root = logging.getLogger()
    if _handler is not None:
        root.removeHandler(_handler)
    _handler = standard_library_handler(after=factory.logger)
    root.addHandler(_handler)
    # The libraries' info lines (uvicorn's "Started server process") stay out, as before.
    root.setLevel(max(threshold, logging.WARNING))
