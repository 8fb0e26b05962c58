"""Gang of Four's table: config, state and the scoring table (frozen msgspec Structs).

Seats are numbered clockwise. Hand 1 is played counter-clockwise (each turn passes to
``seat - 1``), and the direction alternates every hand.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

import msgspec

from engines.base import RulesRevision
from engines.gang_of_four.cards import GofCard
from engines.gang_of_four.combos import Combination
from engines.rng import Rng

MIN_PLAYERS = 3
MAX_PLAYERS = 4
GAME_END_SCORE = 100


def points_for(cards_left: int) -> int:
    """The scoring table: 1-7 cards x1, 8-10 x2, 11-13 x3, 14-15 x4, 16 x5."""
    if cards_left <= 7:
        factor = 1
    elif cards_left <= 10:
        factor = 2
    elif cards_left <= 13:
        factor = 3
    elif cards_left <= 15:
        factor = 4
    else:
        factor = 5
    return cards_left * factor


class Direction(IntEnum):
    """Which way turns go; the value is the step from one seat to the next."""

    COUNTER_CLOCKWISE = -1  # to the seat with the next lower number (hands 1, 3, 5...)
    CLOCKWISE = 1  # to the seat with the next higher number (hands 2, 4...)


class Phase(IntEnum):
    EXCHANGE = 0  # the previous hand's winner gives a card back to its loser
    PLAY = 1
    OVER = 2


RULES_REVISION: Final = 2
"""Revision 2: the duty before a one-card player allows a pass only when the highest
single cannot beat the table and no Gang can be played."""


class GangOfFourConfig(msgspec.Struct, frozen=True):
    """Table options.

    ``auto_announce_last_card``: the printed rule makes a player who goes down to one card
    say so, and punishes forgetting; with this option the referee announces for him.

    ``rules_revision``: the revision of this game's rules the table plays by
    (``RULES_REVISION`` for every new table; read it with :func:`engines.base.rules_revision`).
    """

    players: int
    auto_announce_last_card: bool = False
    rules_revision: RulesRevision = msgspec.UNSET


class Exchange(msgspec.Struct, frozen=True):
    """The cards swapped before a hand, shown to everyone once given."""

    loser: int
    winner: int
    given: GofCard  # the loser's highest card, to the winner
    returned: GofCard | None = None  # the winner's choice, back to the loser


class HandResult(msgspec.Struct, frozen=True):
    hand: int
    winner: int
    cards_left: tuple[int, ...]
    points: tuple[int, ...]


class GangOfFourState(msgspec.Struct, frozen=True):
    """The whole table, hidden parts included; never sent to a client as is.

    ``current`` is the play to beat (None: ``turn`` leads anything); ``passes`` counts the
    passes since it was made. ``out`` are the seats that went down to one card without
    announcing it: they take no more turns this hand.
    """

    config: GangOfFourConfig
    rng: Rng
    hand: int
    dealer: int
    direction: Direction
    phase: Phase
    hands: tuple[tuple[GofCard, ...], ...]
    set_aside: tuple[GofCard, ...]
    turn: int
    current: Combination | None = None
    current_by: int | None = None
    passes: int = 0
    passed: tuple[int, ...] = ()
    announced: tuple[int, ...] = ()
    out: tuple[int, ...] = ()
    must_include: GofCard | None = None  # hand 1's first lead must include the multicoloured 1
    exchange: Exchange | None = None
    totals: tuple[int, ...] = ()
    results: tuple[HandResult, ...] = ()
