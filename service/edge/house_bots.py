"""The referee's own bots, for the seats it plays (a no-show's, a seat handed to a bot).

They are the client package's bots (``referee.bots``), which read a seat's view and legal
moves as protobuf, as any bot client would: this adapter gives them the engine's
projection of the table for the seat, translated as an RPC would translate it, and
translates their choice back to the engine's move. The firer (service.app.firer) takes it
as its :class:`~service.app.firer.BotMoves`.
"""

from __future__ import annotations

import random
from typing import Any, Final

from referee.bots import bot_for
from service.app.views import project
from service.edge import translate
from service.storage.tables import Table

# The BotStrategy numbers (tournament.proto) of the bots a seat may be handed to.
STRATEGIES: Final = {1: "random", 2: "heuristic"}


class HouseBots:
    """:class:`~service.app.firer.BotMoves` by the client package's bots."""

    def choose(self, table: Table, seat: int, strategy: int, rng: random.Random) -> Any | None:
        bot = bot_for(table.game.name, STRATEGIES.get(strategy, "random"))
        view = project(table, table.state, table.version, seat, table.head)
        legal = table.game.legal_moves(table.state, seat)
        choice = bot.choose(
            translate.view_to_proto(view), translate.moves_to_proto(table.game.name, legal), rng
        )
        return None if choice is None else translate.move_from_proto(choice)[1]
