"""Every bot by game and strategy, the search bots included: :func:`bot_for`.

:mod:`referee.bots` keeps the bots that need no rules (``random``, ``heuristic``); this
module adds each game's ``search`` bot, which needs the engines as a forward model, so it
lives above them (the import contracts in ``pyproject.toml``). The referee's own seats,
the ``referee bot`` command and ``python -m bench.bots`` all pick bots here.

>>> bot_for("gang_of_four", "search").name
'gang_of_four/search'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from referee.bots import STRATEGIES
from referee.bots import bot_for as simple_bot_for
from referee.bots.base import Bot
from referee.search.core import Budget
from referee.search.gang_of_four import GangOfFourSearchBot
from referee.search.pinched import PinchedSearchBot
from referee.search.the_gang import TheGangSearchBot
from referee.v1 import game_pb2

SEARCH = "search"
"""The search bots' strategy name (``BotStrategy`` ``BOT_STRATEGY_SEARCH``)."""

SEARCH_BOTS: Mapping[str, Callable[[Budget | None], Bot]] = {
    "gang_of_four": GangOfFourSearchBot,
    "pinched": PinchedSearchBot,
    "the_gang": TheGangSearchBot,
}
"""Each game's search bot, made with a budget per move (None: the default, 1 s)."""


def strategies(game: str) -> list[str]:
    """The strategy names ``game`` has, sorted."""
    names = set(STRATEGIES.get(game, {}))
    if game in SEARCH_BOTS:
        names.add(SEARCH)
    return sorted(names)


def bot_for(game: str, strategy: str, budget: Budget | None = None) -> Bot:
    """A fresh bot for one seat of ``game``; ``budget`` is the search bot's per move (the
    other strategies take none). ValueError, listing the choices, for an unknown pair."""
    if strategy == SEARCH and game in SEARCH_BOTS:
        return SEARCH_BOTS[game](budget)
    if strategy == SEARCH and game in STRATEGIES:
        raise ValueError(f"no strategy {strategy!r} for {game}; strategies: {strategies(game)}")
    return simple_bot_for(game, strategy)


class SearchPlayer:
    """The search bot of whatever game its seat is in (``referee bot --strategy search``):
    the game's own search bot, made at the first decision, with ``budget`` a move."""

    name = SEARCH

    def __init__(self, budget: Budget | None = None) -> None:
        self.budget = budget
        self._bot: Bot | None = None

    def choose(
        self, view: game_pb2.View, legal: Sequence[game_pb2.Move], rng: random.Random
    ) -> game_pb2.Move | None:
        if self._bot is None:
            self._bot = bot_for(view.game, SEARCH, self.budget)
            self.name = self._bot.name
        return self._bot.choose(view, legal, rng)
