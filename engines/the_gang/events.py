"""What happened at the table; the engine's view rules filter these per seat."""

from __future__ import annotations

import msgspec

from engines.cards import Card
from engines.the_gang.model import Colour, HeistResult


class PocketDealt(msgspec.Struct, frozen=True, tag="pocket_dealt"):
    """Hidden: seen only by ``seat``."""

    heist: int
    seat: int
    cards: tuple[Card, ...]


class BoardDealt(msgspec.Struct, frozen=True, tag="board_dealt"):
    cards: tuple[Card, ...]


class RoundStarted(msgspec.Struct, frozen=True, tag="round_started"):
    heist: int
    colour: Colour


class ChipTaken(msgspec.Struct, frozen=True, tag="chip_taken"):
    seat: int
    colour: Colour
    stars: int
    from_seat: int | None  # None: from the centre


class ChipReturned(msgspec.Struct, frozen=True, tag="chip_returned"):
    seat: int
    colour: Colour
    stars: int


class RoundEndConfirmed(msgspec.Struct, frozen=True, tag="round_end_confirmed"):
    seat: int


class RoundEnded(msgspec.Struct, frozen=True, tag="round_ended"):
    heist: int
    colour: Colour


class HeistEnded(msgspec.Struct, frozen=True, tag="heist_ended"):
    result: HeistResult
    vaults: int
    alarms: int


class GameEnded(msgspec.Struct, frozen=True, tag="game_ended"):
    won: bool


Event = (
    PocketDealt
    | BoardDealt
    | RoundStarted
    | ChipTaken
    | ChipReturned
    | RoundEndConfirmed
    | RoundEnded
    | HeistEnded
    | GameEnded
)
