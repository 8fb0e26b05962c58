"""``referee bot``: play one seat of an existing game with a bot until the game ends.

It fails as every ``referee`` verb does (referee.client.exits)."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import random
import sys
from collections.abc import Callable

from referee.bots.base import Bot
from referee.bots.play import play_seat
from referee.bots.strategies import STRATEGIES, bot_for
from referee.client import AsyncRefereeClient, RefereeError
from referee.client.exits import EXIT_CODES_HELP, Asked, ExitCode, Parser, fail
from referee.v1 import game_pb2


async def run_bot(
    target: str,
    game_id: str,
    token: str,
    strategy: str,
    seed: int | None,
    think_ms: int = 0,
) -> game_pb2.View:
    """Play the seat of ``token`` in ``game_id`` at the referee ``target`` with the bot
    ``strategy`` (:func:`load_bot`); returns the final view.

    ``seed`` makes the bot's own choices reproducible (None: from the system); ``think_ms``
    is a pause before each move. ValueError for a strategy that names no bot.
    """
    async with AsyncRefereeClient(target) as client:
        seat = client.seat(game_id, token)
        view = await seat.view()
        bot = load_bot(strategy, view.game)
        return await play_seat(seat, bot, rng=random.Random(seed), think=think_ms / 1000)


SEARCH_PLAYER = "referee.search.registry:SearchPlayer"
"""What ``--strategy search`` names: the search bots, which need the engines (installed
with the referee package), so they are loaded by name like any other bot's class."""


def bot_factory(strategy: str) -> Callable[[str], Bot]:
    """What makes ``strategy``'s bot for one seat of a game (given the game's name): a
    strategy of :data:`~referee.bots.STRATEGIES` ("random", "heuristic"), "search", or
    any class (or factory) as ``package.module:Name``, called with no arguments, whose
    object has the :class:`~referee.bots.base.Bot` interface (``name`` and ``choose``).
    ValueError, with what went wrong, for anything else: checked before any game is
    seen, as far as it can be (a class is only known to make bots once it made one)."""
    if ":" not in strategy and strategy != "search":
        if not any(strategy in names for names in STRATEGIES.values()):
            raise ValueError(f"no strategy {strategy!r}; see referee bot --help")
        return lambda game: bot_for(game, strategy)
    module_name, _, attribute = (SEARCH_PLAYER if strategy == "search" else strategy).partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise ValueError(f"cannot import {module_name!r}: {error}") from None
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise ValueError(f"{module_name!r} has no class or function {attribute!r}")

    def make(game: str) -> Bot:
        bot = factory()
        if not callable(getattr(bot, "choose", None)) or not isinstance(
            getattr(bot, "name", None), str
        ):
            raise ValueError(f"{strategy} is not a bot: it needs a `name` and a `choose` method")
        made: Bot = bot
        return made

    return make


def load_bot(strategy: str, game: str) -> Bot:
    """A bot of ``strategy`` (:func:`bot_factory`) for one seat of ``game``."""
    return bot_factory(strategy)(game)


def _not_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is below 0")
    return value


def parser() -> argparse.ArgumentParser:
    parse = Parser(
        prog="referee bot",
        description="Play one seat of a game with a bot until it ends.",
        epilog=EXIT_CODES_HELP,
    )
    parse.add_argument(
        "--address",
        default="127.0.0.1:50051",
        help="the referee's gRPC address (default %(default)s)",
    )
    parse.add_argument("--game-id", required=True, metavar="ID", help="the game to play in")
    parse.add_argument("--token", required=True, help="the seat's token from CreateGame")
    builtin = sorted({name for names in STRATEGIES.values() for name in names})
    parse.add_argument(
        "--strategy",
        default="heuristic",
        metavar="STRATEGY",
        help=f"the bot: {', '.join(builtin)}, search, or your own class as "
        "package.module:Class (default heuristic; see the README)",
    )
    parse.add_argument("--seed", type=int, default=None, help="seed of the bot's own choices")
    parse.add_argument(
        "--think-ms",
        type=_not_negative,
        default=0,
        help="pause before each move, in ms (default 0)",
    )
    return parse


def main(argv: list[str] | None = None) -> int:
    """Parse the flags, play the seat, print the outcome; the exit code (:class:`ExitCode`):
    a strategy the game has no bot for is a usage error."""
    args = parser().parse_args(argv)
    asked = Asked("referee bot", args.address, f"game {args.game_id}")
    try:
        bot_factory(args.strategy)  # a strategy that names no bot: before any call
        view = asyncio.run(
            run_bot(args.address, args.game_id, args.token, args.strategy, args.seed, args.think_ms)
        )
    except ValueError as error:
        print(f"referee bot: {error}", file=sys.stderr)
        return ExitCode.USAGE
    except RefereeError as error:
        return fail(error, asked)
    seat = view.seat if view.HasField("seat") else None
    winners = list(view.outcome.winners)
    verdict = "won" if seat in winners else "lost"
    summary = view.outcome.summary
    print(f"{view.game} {view.game_id}: {summary} (seat {seat} {verdict}; winners {winners})")
    return ExitCode.OK
