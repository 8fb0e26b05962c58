"""Bots for every game: ordinary clients of the public API.

A bot sees only its seat's view and that seat's legal moves (``ListLegalMoves``) and
returns one of those moves (or None: nothing now). :func:`bot_for` picks a game's bot by
strategy (:mod:`referee.bots.strategies`); :func:`play_seat` plays a seat with a bot over
the watch stream; :func:`run_bot` and :func:`main` are ``referee bot``.

>>> bot = bot_for("gang_of_four", "heuristic")
>>> bot.name
'gang_of_four/heuristic'
"""

from __future__ import annotations

from referee.bots.base import Bot, ThinkingBot
from referee.bots.cli import main, run_bot
from referee.bots.gang_of_four import GangOfFourHeuristic, GangOfFourRandom
from referee.bots.pinched import PinchedHeuristic, PinchedRandom
from referee.bots.play import decided, play_seat
from referee.bots.strategies import STRATEGIES, bot_for
from referee.bots.the_gang import TheGangHeuristic, TheGangRandom

__all__ = [
    "STRATEGIES",
    "Bot",
    "GangOfFourHeuristic",
    "GangOfFourRandom",
    "PinchedHeuristic",
    "PinchedRandom",
    "TheGangHeuristic",
    "TheGangRandom",
    "ThinkingBot",
    "bot_for",
    "decided",
    "main",
    "play_seat",
    "run_bot",
]
