"""What the codecs refuse: a message that names no engine value (a missing move, an unknown
card). The referee answers it as INVALID_ARGUMENT through its one error table
(service.edge.translate turns :class:`Malformed` into ``service.errors.BadRequest``); a bot
never meets it, since it decodes only what a referee sent.
"""

from __future__ import annotations

# How much of a client's own input a message repeats (see :func:`echo`).
ECHO_CHARACTERS = 64


class Malformed(ValueError):
    """A message no engine value is; ``reason`` is stable and machine-readable."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def echo(value: object) -> str:
    """A client's value as a message may repeat it: its ``repr``, cut to a short prefix.

    Every message built from request data names the value through this, so a 60 KB game
    name gives a message of a line, not a 60 KB trailer no standard client can read.
    """
    return excerpt(repr(value), ECHO_CHARACTERS)


def excerpt(text: str, limit: int = 2 * ECHO_CHARACTERS) -> str:
    """``text`` cut to ``limit`` characters (the last one an ellipsis): for a library's own
    message, such as a parse error, that may quote the client's input."""
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"
