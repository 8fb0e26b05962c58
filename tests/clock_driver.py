"""Playing a game by the clock, for the default-move tests of every game (issue 17).

``by_clock`` plays as the service's phase clock does when it runs out: every seat the game
waits for (``GameDefinition.waiting_for``), in seat order, plays its default move if it is
still waited for, and so on until the game ends. ``random_prefix`` reaches the states the
clock starts from: random legal moves by random seats to act.
"""

from __future__ import annotations

import random
from typing import Any

from engines.base import GameDefinition

Game = GameDefinition[Any, Any, Any, Any, Any]


def random_prefix(game: Game, state: Any, rnd: random.Random, moves: int) -> Any:
    """``state`` after up to ``moves`` random legal moves (fewer if the game ends)."""
    for _ in range(moves):
        acting = sorted(game.to_act(state))
        if not acting:
            break
        seat = rnd.choice(acting)
        state, _ = game.apply(state, seat, rnd.choice(game.legal_moves(state, seat)))
    return state


def by_clock(game: Game, state: Any, limit: int) -> tuple[Any, int]:
    """Play default moves for the awaited seats until the game ends; the final state and
    the number of moves. Fails past ``limit`` moves (the game's default move limit)."""
    played = 0
    while game.outcome(state) is None:
        waiting = sorted(game.waiting_for(state))
        assert waiting, "a running game waits for nobody"
        for seat in waiting:
            if game.outcome(state) is not None or seat not in game.waiting_for(state):
                continue
            state, _ = game.apply(state, seat, game.default_move(state, seat))
            played += 1
        assert played <= limit, f"the clock alone did not end the game in {limit} moves"
    return state, played


def check_defaults(game: Game, state: Any) -> None:
    """The contract at ``state``: the awaited seats are seats to act (some, while the game
    runs), and every seat to act has a legal default move, the same on every call."""
    acting = game.to_act(state)
    waiting = game.waiting_for(state)
    assert waiting <= acting
    assert bool(waiting) == (game.outcome(state) is None)
    for seat in sorted(acting):
        move = game.default_move(state, seat)
        assert move in game.legal_moves(state, seat), (seat, move)
        assert game.default_move(state, seat) == move
