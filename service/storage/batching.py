"""Group commit: the commands that arrive while a batch is on its way go out together.

Each Redis command through redis-py costs its caller a task, a ``wait_for``, a pool
checkout and one ``send()`` with its loopback wake-up of redis-server; with an
append-only file at ``appendfsync always`` it also costs Redis one fsync per event-loop
pass. Sent as one pipeline, a batch of commands costs one of each (measured on this
project's 2-core machine: 100 µs of client CPU per EVALSHA with 16 in flight, 27 µs per
EVALSHA in pipelines of 16; docs/benchmarks.md).

:class:`Batcher` keeps at most :attr:`Batcher.in_flight` pipelines on their way. A
command that finds a free slot is sent at the end of the current event-loop pass, with
every other command queued in that pass; one that finds none waits for the next free
slot, with every command queued meanwhile. So an idle referee sends each command at once
(no added latency), and a busy one sends fewer, larger batches (Nagle's idea without his
timer). Commands of one batch run one after another on one connection, each on its own:
one failing (a script's error) fails only its caller, and a lost connection fails every
caller of the batch with the error a lone command would have raised, which the store maps
to UNAVAILABLE as before (a retry with the same move id is safe).

Plain commands (the deadline index's ZADD) are batched the same way. EVALSHA only needs
its script loaded: a batch whose Redis forgot the scripts (a restart) gets ``NOSCRIPT``
for those commands, which did nothing; they are loaded and sent again.

Only a plain Redis client batches: a Redis Cluster pipeline splits by node and raises
per-slot redirections of its own, so :func:`batcher_for` gives a cluster client none and
its store sends each command alone, as before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from redis import exceptions as redis_errors
from redis.asyncio import Redis, RedisCluster
from redis.commands.core import AsyncScript

MAX_BATCH = 128
IN_FLIGHT = 2


@dataclass(eq=False, slots=True)
class _Call:
    """One queued command: a script's key count, keys and arguments (EVALSHA), or a plain
    command."""

    script: AsyncScript | None
    args: Sequence[Any]
    answer: asyncio.Future[Any] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )

    def command(self) -> tuple[Any, ...]:
        if self.script is None:
            return tuple(self.args)
        return ("EVALSHA", self.script.sha, *self.args)


class Batcher:
    """Commands on ``client`` sent in pipelines (see the module)."""

    def __init__(
        self, client: Redis, *, in_flight: int = IN_FLIGHT, max_batch: int = MAX_BATCH
    ) -> None:
        if in_flight < 1 or max_batch < 1:
            raise ValueError("in_flight and max_batch must be at least 1")
        self._client = client
        self.in_flight = in_flight
        self.max_batch = max_batch
        self._queue: list[_Call] = []
        self._sending = 0
        self._scheduled = False
        self._tasks: set[asyncio.Task[None]] = set()

    async def script(self, script: AsyncScript, keys: Sequence[Any], args: Sequence[Any]) -> Any:
        """``script(keys, args)``'s reply, sent with whatever else is queued."""
        return await self._queued(_Call(script, (len(keys), *keys, *args)))

    async def command(self, *args: Any) -> Any:
        """A plain command's reply (``"ZADD", key, ...``), sent with whatever else is
        queued; commands queued by one task go out in the order it queued them."""
        return await self._queued(_Call(None, args))

    async def _queued(self, call: _Call) -> Any:
        self._queue.append(call)
        self._schedule()
        return await call.answer

    def _schedule(self) -> None:
        if self._scheduled or self._sending >= self.in_flight or not self._queue:
            return
        self._scheduled = True
        asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._scheduled = False
        if self._sending >= self.in_flight or not self._queue:
            return
        batch, self._queue = self._queue[: self.max_batch], self._queue[self.max_batch :]
        self._sending += 1
        task = asyncio.get_running_loop().create_task(self._send(batch))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        self._schedule()  # more than a batch queued: the next slot takes the rest

    async def _send(self, batch: list[_Call]) -> None:
        try:
            await self._run(batch)
        except BaseException as error:  # every caller of the batch gets the error
            for call in batch:
                if not call.answer.done():
                    call.answer.set_exception(_copy(error))
            if not isinstance(error, Exception):
                raise
        finally:
            self._sending -= 1
            self._schedule()

    async def _run(self, batch: list[_Call]) -> None:
        pending = batch
        for _ in range(2):  # once more after loading scripts Redis forgot
            replies = await self._pipeline(pending)
            forgotten = []
            for call, reply in zip(pending, replies, strict=True):
                if isinstance(reply, redis_errors.NoScriptError):
                    forgotten.append(call)
                elif call.answer.done():
                    continue  # its caller gave up (cancelled): the reply has no reader
                elif isinstance(reply, Exception):
                    call.answer.set_exception(reply)
                else:
                    call.answer.set_result(reply)
            if not forgotten:
                return
            for script in {call.script for call in forgotten if call.script is not None}:
                script.sha = await self._client.script_load(script.script)
            pending = forgotten
        for call in pending:
            if not call.answer.done():
                call.answer.set_exception(redis_errors.NoScriptError("script not loaded"))

    async def _pipeline(self, calls: list[_Call]) -> list[Any]:
        async with self._client.pipeline(transaction=False) as pipe:
            for call in calls:
                pipe.execute_command(*call.command())
            replies: list[Any] = await pipe.execute(raise_on_error=False)
        return replies

    async def aclose(self) -> None:
        """Send what is queued and wait for every batch on its way (their callers get
        their answers), so nothing goes out on the client after its owner closes it."""
        while self._tasks or self._queue:
            if self._queue and self._sending < self.in_flight:
                self._flush()  # not left to the pass-end flush, which may come after close
            await asyncio.gather(*self._tasks, return_exceptions=True)


def _copy(error: BaseException) -> BaseException:
    """One exception per caller: raising the same instance in many tasks would chain each
    task's traceback onto the others'."""
    try:
        copied = type(error)(*error.args)
    except Exception:
        return error
    copied.__cause__ = error
    return copied


def batcher_for(client: Redis | RedisCluster) -> Batcher | None:
    """A batcher for a plain Redis client; None for a cluster client (see the module)."""
    if isinstance(client, RedisCluster):
        return None
    return Batcher(client)
