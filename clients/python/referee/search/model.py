"""What a search bot needs of a game beyond its engine: the game's :class:`GameModel`.

The engine (``engines.<game>``, through its :class:`~engines.base.GameDefinition`) is the
forward model: legal moves, ``apply``, ``outcome``. What the engine cannot know is what a
bot may assume about the cards it does not see, which seat moves next in a simulation, how
to play a playout cheaply and when to stop one; that is the model (OpenSpiel's
``ResampleFromInfostate`` plus a default policy and an evaluation).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

S = TypeVar("S")
M = TypeVar("M", covariant=True)


class GameModel(Protocol[S, M]):
    """One game's model for :func:`referee.search.core.search`."""

    game: str
    """The game's published name ("the_gang", "gang_of_four", "pinched")."""

    def sample(self, view: Any, seat: int, rng: random.Random) -> S:
        """A whole state the seat cannot tell from the real one (a determinization).

        Everything the seat's engine view shows is kept (its own cards, every public card
        and count, the phase); every hidden card or sealed choice is drawn at random among
        those consistent with it, and the state's own RNG is seeded afresh from ``rng``, so
        future chance is drawn anew too. ``definition.view(sample, seat) == view``.
        """
        ...

    def next_actor(self, state: S, rng: random.Random) -> int:
        """The seat of ``to_act`` that moves next in a simulation (one of several in a
        simultaneous phase); the choice must make progress towards the game's end."""
        ...

    def playout_move(self, state: S, seat: int, rng: random.Random) -> M:
        """A cheap playout policy's move for ``seat``: one of ``legal_moves(state, seat)``."""
        ...

    def horizon(self, state: S, root: S) -> bool:
        """Whether a simulation that started at ``root`` stops at ``state`` to be
        evaluated (say, at the end of the hand); the game's end always stops it."""
        ...

    def rewards(self, state: S, root: S) -> Sequence[float]:
        """Each seat's reward in [0, 1] at a stopped ``state`` (the end, or the horizon)."""
        ...
