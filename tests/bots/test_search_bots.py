"""The search bots and the bot kit against a live referee, as any client plays.

Every seat is its own client following its own watch stream (``play_seat``); the autouse
spy in conftest.py fails a test if any bot submits a move missing from its legal list.
The search bots run on a small iteration budget here: these tests prove they play whole
games legally from their own seat's messages; how well they play is bench.bots' to say.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import random
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from referee.bots import Bot, main, play_seat
from referee.bots.cli import load_bot
from referee.client import AsyncRefereeClient
from referee.search.core import Budget
from referee.search.registry import SEARCH_BOTS, SearchPlayer, bot_for
from referee.v1 import game_pb2
from service.process.server import Running
from tests.bots.conftest import LegalitySpy
from tests.bots.support import play_game

README = Path(__file__).resolve().parents[2] / "README.md"
SEATS = {"gang_of_four": 4, "pinched": 3, "the_gang": 3}


class OwnSeatOnly:
    """A bot wrapper that checks every message the bot is handed is its own seat's: the
    view says the seat, and every legal move is the seat's game's."""

    def __init__(self, bot: Bot, seat: int) -> None:
        self.bot, self.seat, self.name, self.decisions = bot, seat, bot.name, 0

    def choose(
        self, view: game_pb2.View, legal: Sequence[game_pb2.Move], rng: random.Random
    ) -> game_pb2.Move | None:
        assert view.HasField("seat") and view.seat == self.seat
        assert all(move.WhichOneof("game") == view.game for move in legal)
        self.decisions += 1
        return self.bot.choose(view, legal, rng)


@pytest.mark.parametrize("game", sorted(SEARCH_BOTS))
async def test_search_bots_play_whole_games_legally_from_their_own_views(
    referee_server: Running, legality: LegalitySpy, game: str
) -> None:
    """One search bot per seat but the last (a heuristic one), each its own client."""
    seats = SEATS[game]
    bots: list[OwnSeatOnly] = [
        OwnSeatOnly(bot_for(game, "search", Budget(iterations=8)), seat)
        for seat in range(seats - 1)
    ]
    bots.append(OwnSeatOnly(bot_for(game, "heuristic"), seats - 1))
    views = await play_game(referee_server.address, game, bots, f"search-{game}".encode())
    assert all(view.HasField("outcome") for view in views)
    assert all(bot.decisions > 0 for bot in bots)
    assert legality.submitted[game] > 0 and not legality.illegal


def readme_bot() -> str:
    """The bot the README shows (its ``shedder.py``)."""
    found = re.search(r"`shedder\.py`:\n\n```python\n(.*?)```", README.read_text(), re.S)
    assert found, "README.md shows no shedder.py"
    return found.group(1)


def test_the_readme_bot_is_twenty_lines_or_fewer() -> None:
    assert len(readme_bot().strip().splitlines()) <= 20


async def test_referee_bot_plays_the_readme_bot_by_its_class_name(
    referee_server: Running,
    legality: LegalitySpy,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``referee bot --strategy shedder:Shedder`` for seat 0, heuristic bots elsewhere."""
    (tmp_path / "shedder.py").write_text(readme_bot())
    monkeypatch.syspath_prepend(str(tmp_path))
    address = referee_server.address
    async with AsyncRefereeClient(address) as client:
        created = await client.create_game("gang_of_four", 3, seed=b"readme-bot")
        seats = client.seats(created)
        token = created.seat_tokens[0].token
        out = io.StringIO()

        def command() -> int:
            args = ["--address", address, "--game-id", created.game_id, "--token", token]
            with contextlib.redirect_stdout(out):
                return main([*args, "--strategy", "shedder:Shedder", "--seed", "1"])

        others = [
            play_seat(seat, bot_for("gang_of_four", "heuristic"), rng=random.Random(number))
            for number, seat in enumerate(seats[1:])
        ]
        code, *_ = await asyncio.wait_for(asyncio.gather(asyncio.to_thread(command), *others), 60)
    assert code == 0
    assert f"gang_of_four {created.game_id}: " in out.getvalue()
    assert legality.submitted["gang_of_four"] > 0 and not legality.illegal


def test_the_search_strategy_is_loaded_by_name_for_any_game() -> None:
    bot = load_bot("search", "gang_of_four")
    assert isinstance(bot, SearchPlayer)
    with pytest.raises(ValueError, match="not a bot"):
        load_bot("random:Random", "gang_of_four")
