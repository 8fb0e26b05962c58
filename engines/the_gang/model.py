"""The Gang's pieces and state: chips, heists, the table (frozen msgspec Structs)."""

from __future__ import annotations

from enum import IntEnum

import msgspec

from engines.cards import Card
from engines.rng import Rng

MIN_PLAYERS = 3
MAX_PLAYERS = 6
VAULTS_TO_WIN = 3
ALARMS_TO_LOSE = 3
POCKET_SIZE = 2


class Colour(IntEnum):
    """Chip colours in the order of the heist's four rounds."""

    WHITE = 0  # round 1, pre-flop
    YELLOW = 1  # round 2, flop
    ORANGE = 2  # round 3, turn
    RED = 3  # round 4, river


BOARD_AFTER_ROUND: dict[Colour, int] = {
    Colour.WHITE: 0,
    Colour.YELLOW: 3,
    Colour.ORANGE: 4,
    Colour.RED: 5,
}


class TheGangConfig(msgspec.Struct, frozen=True):
    """Table options.

    ``confirm_round_end``: the seed ends a round the instant every player holds a chip of
    its colour; digital tables may instead wait until every seat has confirmed, any chip
    change clearing the confirmations.
    """

    players: int
    confirm_round_end: bool = False


class Reveal(msgspec.Struct, frozen=True):
    """One seat's hand shown at the showdown, in red-chip order."""

    seat: int
    red_stars: int
    pocket: tuple[Card, ...]
    category: int
    ranks: tuple[int, ...]
    best: tuple[Card, ...]
    description: str
    in_order: bool  # at least as strong as every hand revealed before it


class HeistResult(msgspec.Struct, frozen=True):
    heist: int
    success: bool
    board: tuple[Card, ...]
    reveals: tuple[Reveal, ...]
    chips: tuple[tuple[int, ...], ...]  # per colour: holder seat of each chip, by stars


class TheGangState(msgspec.Struct, frozen=True):
    """The whole table, hidden parts included. Never sent to a client as is.

    ``chips[c][s - 1]`` is the seat holding the ``s``-star chip of colour ``c`` or ``None``
    while it lies in the centre; only colours of rounds reached so far are present.
    ``deck`` is the face-down draw pile, top card first.
    """

    config: TheGangConfig
    rng: Rng
    heist: int
    round: Colour
    vaults: int
    alarms: int
    deck: tuple[Card, ...]
    pockets: tuple[tuple[Card, ...], ...]
    board: tuple[Card, ...]
    chips: tuple[tuple[int | None, ...], ...]
    confirmed: tuple[int, ...] = ()
    history: tuple[HeistResult, ...] = ()
    finished: bool = False
