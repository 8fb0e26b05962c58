"""Whole games played by bots against a live referee, each seat its own client."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence

from referee.bots import Bot, bot_for, play_seat
from referee.client import AsyncRefereeClient
from referee.v1 import game_pb2, the_gang_pb2

GAME_TIMEOUT = 60.0

MODES = {
    "basic": the_gang_pb2.THE_GANG_MODE_BASIC,
    "advanced": the_gang_pb2.THE_GANG_MODE_ADVANCED,
    "professional": the_gang_pb2.THE_GANG_MODE_PROFESSIONAL,
    "master_thief": the_gang_pb2.THE_GANG_MODE_MASTER_THIEF,
}


def gang_options(
    mode: str,
    challenges: Sequence[int] = (),
    specialists: Sequence[int] = (),
    **flags: bool,
) -> game_pb2.TableOptions:
    """Options of a table in ``mode``; ``challenges`` / ``specialists``: the piles' order
    (top first), so that given cards come up (empty: sorted, or shuffled by the flag)."""
    options = the_gang_pb2.TheGangOptions(mode=MODES[mode])
    for flag, on in flags.items():
        setattr(options, flag, on)
    if challenges:
        options.challenge_pile.cards.extend(challenges)
    if specialists:
        options.specialist_pile.cards.extend(specialists)
    return game_pb2.TableOptions(the_gang=options)


async def play_game(
    address: str,
    game: str,
    strategies: Sequence[str | Bot],
    seed: bytes,
    options: game_pb2.TableOptions | None = None,
) -> list[game_pb2.View]:
    """Create a table for ``len(strategies)`` seats and let one bot play each seat (a
    strategy name or a ready bot); every seat's final view, in seat order."""
    async with AsyncRefereeClient(address) as client:
        created = await client.create_game(game, len(strategies), options, seed=seed)
        seats = client.seats(created)
        bots = [bot_for(game, s) if isinstance(s, str) else s for s in strategies]
        plays = [
            play_seat(seat, bot, rng=random.Random(seed + bytes([number])))
            for number, (seat, bot) in enumerate(zip(seats, bots, strict=True))
        ]
        return list(await asyncio.wait_for(asyncio.gather(*plays), GAME_TIMEOUT))
