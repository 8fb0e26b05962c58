"""What a Pinched! viewer received (see :mod:`tests.service.received`), plus the locations
its own request named: a rejection or a dry run may name those back without leaking.
"""

from __future__ import annotations

import grpc
from google.protobuf.message import Message

from tests.pinched.pinched_hidden_fields import LOCATION_ENUM
from tests.service import received
from tests.service.received import Received, Viewer

__all__ = ["Received", "Recorder", "Viewer", "locations_named"]


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


class Recorder(received.Recorder):
    def add_error(  # type: ignore[override]
        self,
        viewer: Viewer,
        version: int,
        source: str,
        error: grpc.aio.AioRpcError,
        request: Message | None = None,
    ) -> None:
        """A rejection, with the locations its request named."""
        super().add_error(viewer, version, source, error, asked=locations_named(request))

    def add_answer(
        self, viewer: Viewer, version: int, source: str, message: Message, request: Message
    ) -> None:
        """An answer to a request naming locations (a dry run)."""
        self.add(viewer, version, source, message, asked=locations_named(request))
