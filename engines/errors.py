"""The two kinds of move error an engine raises (after python-chess).

Every error carries a stable, machine-readable ``reason`` (UPPER_SNAKE_CASE) that the
service forwards to clients unchanged in ``google.rpc.ErrorInfo``; the message is for
humans. An engine never raises anything else for bad input.
"""

from __future__ import annotations


class MoveError(ValueError):
    """Base of both kinds; never raised directly."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.reason!r}, {self.message!r})"


class InvalidMoveError(MoveError):
    """The move is malformed for this table whatever the state (a chip that does not exist)."""


class IllegalMoveError(MoveError):
    """The move is well formed but the rules forbid it now (wrong phase, chip not held...)."""


class InvalidConfigError(ValueError):
    """A table cannot be created with these options (wrong seat count, unknown option)."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message
