"""Every game's bots by strategy name, and :func:`bot_for`, which picks one.

>>> bot_for("gang_of_four", "heuristic").name
'gang_of_four/heuristic'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from referee.bots.base import Bot
from referee.bots.gang_of_four import GangOfFourHeuristic, GangOfFourRandom
from referee.bots.pinched import PinchedHeuristic, PinchedRandom
from referee.bots.the_gang import TheGangHeuristic, TheGangRandom

STRATEGIES: Mapping[str, Mapping[str, Callable[[], Bot]]] = {
    "the_gang": {"random": TheGangRandom, "heuristic": TheGangHeuristic},
    "gang_of_four": {"random": GangOfFourRandom, "heuristic": GangOfFourHeuristic},
    "pinched": {"random": PinchedRandom, "heuristic": PinchedHeuristic},
}


def bot_for(game: str, strategy: str) -> Bot:
    """A fresh bot for one seat; ValueError (listing the choices) for an unknown pair."""
    strategies = STRATEGIES.get(game)
    if strategies is None:
        raise ValueError(f"no bots for game {game!r}; games: {', '.join(sorted(STRATEGIES))}")
    factory = strategies.get(strategy)
    if factory is None:
        raise ValueError(
            f"no strategy {strategy!r} for {game}; strategies: {', '.join(sorted(strategies))}"
        )
    return factory()
