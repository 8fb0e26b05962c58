"""A loopback TCP proxy the tests can cut: every open connection dropped at once, new ones
refused (accepted and reset) while it is held, or the referee's replies kept back while it
is stalled (requests still reach the referee: its answers are late, as over a slow link)."""

from __future__ import annotations

import asyncio
import contextlib
from types import TracebackType


class CuttableProxy:
    def __init__(self, upstream: str) -> None:
        self.point_at(upstream)
        self.forwarded = 0  # connections that reached the upstream
        self.refused = 0  # connections reset while held
        self.holding = False
        self._replies = asyncio.Event()  # set: replies flow; clear: stalled
        self._replies.set()
        self._server: asyncio.Server | None = None
        self._pipes: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def address(self) -> str:
        assert self._server is not None
        port: int = self._server.sockets[0].getsockname()[1]
        return f"127.0.0.1:{port}"

    async def __aenter__(self) -> CuttableProxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        assert self._server is not None
        self._server.close()
        self.cut()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._server.wait_closed()

    def point_at(self, upstream: str) -> None:
        """Send new connections to ``upstream`` (``host:port``) from now on."""
        host, _, port = upstream.rpartition(":")
        self.upstream = (host, int(port))

    def cut(self) -> None:
        """Drop every open connection, both sides, without a goodbye."""
        for client, upstream in list(self._pipes):
            client.transport.abort()
            upstream.transport.abort()

    def hold(self) -> None:
        """Cut, and reset every new connection until :meth:`release`."""
        self.holding = True
        self.cut()

    def release(self) -> None:
        self.holding = False

    def stall(self) -> None:
        """Keep every reply from the upstream back (buffered) until :meth:`flow`."""
        self._replies.clear()

    def flow(self) -> None:
        """Let the replies through again, those kept back first."""
        self._replies.set()

    def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.create_task(self._serve(reader, writer))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.holding:
            self.refused += 1
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            writer.transport.abort()
            return
        self.forwarded += 1
        pair = (writer, up_writer)
        self._pipes.add(pair)
        directions = [
            asyncio.create_task(_pipe(reader, up_writer)),
            asyncio.create_task(_pipe(up_reader, writer, self._replies)),
        ]
        try:
            await asyncio.wait(directions, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for direction in directions:
                direction.cancel()
            self._pipes.discard(pair)
            writer.transport.abort()
            up_writer.transport.abort()


async def _pipe(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, gate: asyncio.Event | None = None
) -> None:
    with contextlib.suppress(ConnectionError, OSError):
        while data := await reader.read(65536):
            if gate is not None:
                await gate.wait()
            writer.write(data)
            await writer.drain()
