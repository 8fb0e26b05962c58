"""Information-set Monte Carlo tree search (SO-ISMCTS; Cowling, Powley and Whitehouse,
"Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012).

One tree for the searching seat's information set: each iteration draws a determinization
(a whole state consistent with the seat's view, :meth:`GameModel.sample`), walks the tree
with the moves that are legal in *that* determinization (UCB1 over the moves available,
counting availability rather than parent visits, so a move legal in few determinizations
is not starved), adds one node, plays out with the model's cheap policy to the model's
horizon or the end, and backs up each acting seat's own reward along the path. The answer
is the root move visited most. Every seat maximises its own reward (the max^n view of a
multiplayer game); in a cooperative game the rewards are equal, so the seats play as a
team that shares nothing but what the table shows.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.base import GameDefinition
from referee.search.model import GameModel

PLAYOUT_LIMIT = 2_000
"""Most moves of one playout: a model whose horizon never comes still ends an iteration."""


@dataclass(frozen=True)
class Budget:
    """How long a search may think: ``iterations`` when given (then it is deterministic
    from its RNG), else ``seconds`` of wall time (at least one iteration either way)."""

    seconds: float = 1.0
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.seconds <= 0 or (self.iterations is not None and self.iterations < 1):
            raise ValueError("a search budget is a positive time or iteration count")


@dataclass
class Edge:
    """A move from a node: how often it was tried, available, and its summed reward for
    the seat that made it."""

    visits: int = 0
    available: int = 0
    reward: float = 0.0
    child: Node | None = None


@dataclass
class Node:
    edges: dict[tuple[int, Hashable], Edge] = field(default_factory=dict)


@dataclass(frozen=True)
class Result:
    """The chosen root move (its index in the moves given) and what the search saw."""

    index: int
    iterations: int
    visits: tuple[int, ...]


AnyGame = GameDefinition[Any, Any, Any, Any, Any]


class Search:
    """One decision's search: ``model`` and ``game`` for the rules, ``seat`` deciding on
    ``view`` (the engine's view Struct) among ``moves`` (engine moves, the legal list)."""

    def __init__(
        self,
        model: GameModel[Any, Any],
        game: AnyGame,
        seat: int,
        view: Any,
        moves: Sequence[Any],
        exploration: float,
    ) -> None:
        self.model, self.game, self.seat, self.view = model, game, seat, view
        self.moves = list(moves)
        self.exploration = exploration
        self.root = Node()

    def run(self, budget: Budget, rng: random.Random) -> Result:
        ends = time.perf_counter() + budget.seconds
        done = 0
        while done < 1 or (
            done < budget.iterations
            if budget.iterations is not None
            else time.perf_counter() < ends
        ):
            self.iterate(rng)
            done += 1
        visits = tuple(self._root_edge(move).visits for move in self.moves)
        best = max(range(len(self.moves)), key=lambda i: (visits[i], -i))
        return Result(best, done, visits)

    def _root_edge(self, move: Any) -> Edge:
        return self.root.edges.setdefault((self.seat, move), Edge())

    def iterate(self, rng: random.Random) -> None:
        """One determinization: select, expand one node, play out, back up."""
        start = state = self.model.sample(self.view, self.seat, rng)
        node: Node | None = self.root
        path: list[tuple[Edge, int]] = []
        actor, legal = self.seat, self.moves
        while node is not None and not self._stops(state, start):
            edge, move = self._select(node, actor, legal, rng)
            state = self.game.apply(state, actor, move)[0]
            path.append((edge, actor))
            if edge.visits == 0:  # expanded: the playout starts below it
                edge.child = Node()
                break
            node = edge.child
            if self._stops(state, start):
                break
            actor = self.model.next_actor(state, rng)
            legal = self.game.legal_moves(state, actor)
        state = self._playout(state, start, rng)
        rewards = self.model.rewards(state, start)
        for edge, seat in path:
            edge.visits += 1
            edge.reward += rewards[seat]

    def _select(
        self, node: Node, actor: int, legal: Sequence[Any], rng: random.Random
    ) -> tuple[Edge, Any]:
        """UCB1 over the moves legal here, availability counted; an untried one first."""
        edges = []
        for move in legal:
            edge = node.edges.setdefault((actor, move), Edge())
            edge.available += 1
            edges.append((edge, move))
        untried = [pair for pair in edges if pair[0].visits == 0]
        if untried:
            return rng.choice(untried)
        c = self.exploration

        def ucb(pair: tuple[Edge, Any]) -> float:
            edge = pair[0]
            return edge.reward / edge.visits + c * math.sqrt(math.log(edge.available) / edge.visits)

        return max(edges, key=ucb)

    def _stops(self, state: Any, start: Any) -> bool:
        return self.game.outcome(state) is not None or self.model.horizon(state, start)

    def _playout(self, state: Any, start: Any, rng: random.Random) -> Any:
        for _ in range(PLAYOUT_LIMIT):
            if self._stops(state, start):
                break
            actor = self.model.next_actor(state, rng)
            move = self.model.playout_move(state, actor, rng)
            state = self.game.apply(state, actor, move)[0]
        return state
