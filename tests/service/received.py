"""What a viewer received: each message with the game version it speaks for.

A leak test records every answer a seat (or a spectator) got with a :class:`Recorder`;
once the game is over, a judge (``leakcheck`` for The Gang, ``pinched_leaks`` for Pinched!)
checks the recorded messages against the replayed truth.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf.message import Message
from grpc_status import rpc_status

Viewer = int | None


@dataclass(frozen=True)
class Received:
    """One message as a viewer got it, at the version it speaks for.

    ``texts`` and ``blobs`` hold what came outside the protobuf message (metadata values,
    a rejection's details string); ``asked`` what the viewer's own request named (a game's
    judge may let a text name it back: Pinched!'s locations).
    """

    viewer: Viewer
    version: int
    source: str
    message: Message
    texts: tuple[str, ...] = ()
    blobs: tuple[bytes, ...] = ()
    asked: frozenset[int] = frozenset()


@dataclass
class Recorder:
    items: list[Received] = field(default_factory=list)

    def add(
        self,
        viewer: Viewer,
        version: int,
        source: str,
        message: Message,
        metadata: Sequence[tuple[str, str | bytes]] = (),
        asked: frozenset[int] = frozenset(),
    ) -> None:
        """An answer, with the call's metadata (initial and trailing) if the test has it."""
        copy = type(message)()
        copy.CopyFrom(message)
        texts, blobs = split(metadata)
        self.items.append(Received(viewer, version, source, copy, texts, blobs, asked))

    def add_error(
        self,
        viewer: Viewer,
        version: int,
        source: str,
        error: grpc.aio.AioRpcError,
        asked: frozenset[int] = frozenset(),
    ) -> None:
        """A rejection: its rich status (ErrorInfo inside), details string and metadata."""
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
        assert status is not None, f"{source}: rejection without rich status: {error.details()}"
        metadata: Any = [*(error.initial_metadata() or ()), *(error.trailing_metadata() or ())]
        texts, blobs = split(metadata)
        texts = (error.details() or "", error.debug_error_string() or "", *texts)
        self.items.append(Received(viewer, version, source, status, texts, blobs, asked))


def split(
    metadata: Sequence[tuple[str, str | bytes]],
) -> tuple[tuple[str, ...], tuple[bytes, ...]]:
    """Metadata values as texts (searched like strings) and binary blobs (seed search only)."""
    texts = tuple(value for _key, value in metadata if isinstance(value, str))
    blobs = tuple(value for _key, value in metadata if isinstance(value, bytes))
    return texts, blobs
