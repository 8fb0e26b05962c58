"""Scripted seats for service tests, playing only through the public API.

The oracle team pools every seat's own view (each seat sees only its pocket), which is
exactly what a table of perfectly honest, telepathic players would know: enough to crack
every vault. The saboteurs take red chips in reverse order to lose on purpose.
"""

from __future__ import annotations

from engines.cards import Card
from engines.poker import evaluate
from referee.v1 import game_pb2
from tests.service.table import COLOURS, Table, take


def _cards(codes: list[str]) -> list[Card]:
    return [Card.parse(code) for code in codes]


async def red_order(table: Table, seats: int) -> list[int]:
    """Seats from weakest to strongest hand, as the oracle team knows them."""
    views = [await table.view(seat) for seat in range(seats)]
    board = [c.code for c in views[0].the_gang.board]
    strength = {
        seat: evaluate(_cards([c.code for c in views[seat].the_gang.pocket] + board))
        for seat in range(seats)
    }
    return sorted(range(seats), key=lambda seat: strength[seat])


async def play_round(table: Table, seats: int, *, win: bool) -> game_pb2.View:
    """Every seat takes one chip of the current round; returns the last view."""
    view = await table.view(None)
    round_colour = view.the_gang.round
    heist = view.the_gang.heist
    if round_colour == COLOURS[3]:
        order = await red_order(table, seats)
        if not win:
            order.reverse()
    else:
        order = list(range(seats))
    last = view
    for stars, seat in enumerate(order, start=1):
        reply = await table.submit(seat, take(round_colour, stars))
        last = reply.view
        if last.the_gang.heist != heist or last.HasField("outcome"):
            break
    return last


async def play_to_end(table: Table, seats: int, *, win: bool) -> game_pb2.View:
    view = await table.view(None)
    while not view.HasField("outcome"):
        view = await play_round(table, seats, win=win)
    return view
