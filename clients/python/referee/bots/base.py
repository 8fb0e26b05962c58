"""What every bot is, and the small helpers the games' bots share.

A bot is an ordinary client of the public API: it decides from one seat's
:class:`~referee.v1.game_pb2.View` and that seat's ``ListLegalMoves`` answer, nothing else,
and it only ever returns one of the legal moves it was given (or None: nothing now).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from referee.v1 import game_pb2

T = TypeVar("T")


class Bot(Protocol):
    """A player for one seat. ``choose`` returns one of ``legal`` or None (do nothing now).

    A bot may keep memory between calls (one bot object plays one seat of one game).
    """

    name: str

    def choose(
        self, view: game_pb2.View, legal: Sequence[game_pb2.Move], rng: random.Random
    ) -> game_pb2.Move | None: ...


class ThinkingBot(Protocol):
    """A bot whose decision is awaited (it thinks elsewhere: another process, a remote
    engine), so the event loop that plays its seat never stalls on it; otherwise a
    :class:`Bot`. :func:`~referee.bots.play_seat` plays either."""

    name: str

    async def choose(
        self, view: game_pb2.View, legal: Sequence[game_pb2.Move], rng: random.Random
    ) -> game_pb2.Move | None: ...


def best(options: Sequence[T], score: Callable[[T], float], rng: random.Random) -> T:
    """The highest-scoring option, ties broken at random (reproducibly with ``rng``)."""
    scored = [(score(option), rng.random(), index) for index, option in enumerate(options)]
    return options[max(scored)[2]]


class UniformBot:
    """Any legal move, uniformly (Gang of Four and Pinched!: every game finishes so)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def choose(
        self, view: game_pb2.View, legal: Sequence[game_pb2.Move], rng: random.Random
    ) -> game_pb2.Move | None:
        return rng.choice(list(legal)) if legal else None
