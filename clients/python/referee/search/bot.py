"""The search bot: an ordinary client's :class:`~referee.bots.base.Bot` that thinks.

It reads what any bot reads, one seat's view and that seat's legal moves as protobuf,
decodes them with the game's codec (:mod:`referee.codecs`, the translation the referee
itself uses), searches (:mod:`referee.search.core`) over determinizations drawn by the
game's model, and answers one of the legal moves it was given.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engines.registry import GAMES
from referee.codecs import CODECS
from referee.search.core import Budget, Result, Search
from referee.search.model import GameModel
from referee.v1 import game_pb2

EXPLORATION = 0.7
"""UCB1's exploration constant for rewards in [0, 1] (the usual 1/sqrt(2), rounded)."""


class SearchBot:
    """Plays one seat by IS-MCTS within ``budget`` (1 s of wall time by default; an
    iteration count makes it deterministic from the ``rng`` each decision is given)."""

    def __init__(
        self,
        model: GameModel[Any, Any],
        budget: Budget | None = None,
        exploration: float = EXPLORATION,
    ) -> None:
        self.model = model
        self.budget = budget or Budget()
        self.exploration = exploration
        self.name = f"{model.game}/search"
        self.codec = CODECS[model.game]
        self.game = GAMES[model.game]
        self.last: Result | None = None
        """The last decision's search (for benchmarks and tests)."""

    def choose(
        self, view: game_pb2.View, legal: Sequence[game_pb2.Move], rng: random.Random
    ) -> game_pb2.Move | None:
        if not legal:
            return None
        if len(legal) == 1:
            return legal[0]
        moves = [self.codec.move_from_proto(move) for move in legal]
        search = Search(
            self.model,
            self.game,
            view.seat,
            self.codec.view_from_proto(view),
            moves,
            self.exploration,
        )
        self.last = search.run(self.budget, random.Random(rng.getrandbits(64)))
        return legal[self.last.index]
