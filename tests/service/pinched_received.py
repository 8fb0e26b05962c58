"""What a Pinched! viewer received: each message with the game version it speaks for.

A test records each message a seat (or a spectator) received with a :class:`Recorder`; once
the game is over, :func:`pinched_leaks.check` judges the recorded messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf.message import Message
from grpc_status import rpc_status

from tests.service.pinched_hidden_fields import LOCATION_ENUM

Viewer = int | None


@dataclass(frozen=True)
class Received:
    """One message as a viewer got it, at the version it speaks for.

    ``texts`` and ``blobs`` hold what came outside the protobuf message (metadata values,
    a rejection's details string); ``asked`` the locations the viewer's own request named
    (a text may name those back).
    """

    viewer: Viewer
    version: int
    source: str
    message: Message
    texts: tuple[str, ...] = ()
    blobs: tuple[bytes, ...] = ()
    asked: frozenset[int] = frozenset()


def locations_named(message: Message | None) -> frozenset[int]:
    """Every Location value a request names (its move's ChooseLocation and FieldRefs)."""
    if message is None:
        return frozenset()
    found: set[int] = set()
    for fd, value in message.ListFields():
        if fd.enum_type is not None and fd.enum_type.full_name == LOCATION_ENUM:
            found.update(value if fd.is_repeated else [value])
        elif fd.message_type is not None:
            for item in value if fd.is_repeated else [value]:
                found |= locations_named(item)
    return frozenset(found)


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
    ) -> None:
        """An answer, with the call's metadata (initial and trailing) if the test has it."""
        copy = type(message)()
        copy.CopyFrom(message)
        texts, blobs = _split(metadata)
        self.items.append(Received(viewer, version, source, copy, texts, blobs))

    def add_error(
        self,
        viewer: Viewer,
        version: int,
        source: str,
        error: grpc.aio.AioRpcError,
        request: Message | None = None,
    ) -> None:
        """A rejection: its rich status (ErrorInfo inside), details string and metadata."""
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
        assert status is not None, f"{source}: rejection without rich status: {error.details()}"
        metadata: Any = [*(error.initial_metadata() or ()), *(error.trailing_metadata() or ())]
        texts, blobs = _split(metadata)
        texts = (error.details() or "", error.debug_error_string() or "", *texts)
        asked = locations_named(request)
        self.items.append(Received(viewer, version, source, status, texts, blobs, asked))

    def add_answer(
        self, viewer: Viewer, version: int, source: str, message: Message, request: Message
    ) -> None:
        """An answer to a request naming locations (a dry run)."""
        copy = type(message)()
        copy.CopyFrom(message)
        asked = locations_named(request)
        self.items.append(Received(viewer, version, source, copy, asked=asked))


def _split(
    metadata: Sequence[tuple[str, str | bytes]],
) -> tuple[tuple[str, ...], tuple[bytes, ...]]:
    texts = tuple(value for _key, value in metadata if isinstance(value, str))
    blobs = tuple(value for _key, value in metadata if isinstance(value, bytes))
    return texts, blobs
