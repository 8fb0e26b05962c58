"""Every game the referee can host, by its published name."""

from __future__ import annotations

from typing import Any

from engines import gang_of_four, pinched, the_gang
from engines.base import GameDefinition

GAMES: dict[str, GameDefinition[Any, Any, Any, Any, Any]] = {
    the_gang.GAME.name: the_gang.GAME,
    gang_of_four.GAME.name: gang_of_four.GAME,
    pinched.GAME.name: pinched.GAME,
}
