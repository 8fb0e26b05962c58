"""``referee bot``: play one seat of an existing game with a bot until the game ends.

It fails as every ``referee`` verb does (referee.client.exits)."""

from __future__ import annotations

import argparse
import asyncio
import random
import sys

from referee.bots.play import play_seat
from referee.bots.strategies import bot_for
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
    ``strategy`` of that game ("random", "heuristic"); returns the final view.

    ``seed`` makes the bot's own choices reproducible (None: from the system); ``think_ms``
    is a pause before each move. ValueError for a strategy the game has no bot for.
    """
    async with AsyncRefereeClient(target) as client:
        seat = client.seat(game_id, token)
        view = await seat.view()
        bot = bot_for(view.game, strategy)
        return await play_seat(seat, bot, rng=random.Random(seed), think=think_ms / 1000)


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
    parse.add_argument(
        "--strategy",
        default="heuristic",
        choices=("random", "heuristic"),
        help="the bot (default heuristic)",
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
