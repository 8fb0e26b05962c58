"""What happened at a Gang of Four table; the view rules filter these per seat."""

from __future__ import annotations

import msgspec

from engines.gang_of_four.cards import GofCard
from engines.gang_of_four.combos import Kind
from engines.gang_of_four.model import Direction, HandResult


class HandDealt(msgspec.Struct, frozen=True, tag="hand_dealt"):
    """Hidden: seen only by ``seat``."""

    hand: int
    seat: int
    cards: tuple[GofCard, ...]


class HandStarted(msgspec.Struct, frozen=True, tag="hand_started"):
    hand: int
    dealer: int
    direction: Direction
    leader: int


class CardGiven(msgspec.Struct, frozen=True, tag="card_given"):
    """Exchange: the loser's highest card goes to the winner, shown to all."""

    loser: int
    winner: int
    card: GofCard


class CardReturned(msgspec.Struct, frozen=True, tag="card_returned"):
    """Exchange: the winner's chosen card goes back to the loser, shown to all."""

    winner: int
    loser: int
    card: GofCard


class Played(msgspec.Struct, frozen=True, tag="played"):
    seat: int
    cards: tuple[GofCard, ...]
    kind: Kind
    cards_left: int


class Passed(msgspec.Struct, frozen=True, tag="passed"):
    seat: int


class TrickWon(msgspec.Struct, frozen=True, tag="trick_won"):
    """Everyone else passed: ``leader`` now leads anything."""

    winner: int
    leader: int


class LastCardAnnounced(msgspec.Struct, frozen=True, tag="last_card_announced"):
    seat: int


class LastCardForgotten(msgspec.Struct, frozen=True, tag="last_card_forgotten"):
    """Went down to one card without announcing it: out of this hand with 1 point."""

    seat: int


class HandEnded(msgspec.Struct, frozen=True, tag="hand_ended"):
    result: HandResult
    totals: tuple[int, ...]


class GameEnded(msgspec.Struct, frozen=True, tag="game_ended"):
    winners: tuple[int, ...]
    totals: tuple[int, ...]


Event = (
    HandDealt
    | HandStarted
    | CardGiven
    | CardReturned
    | Played
    | Passed
    | TrickWon
    | LastCardAnnounced
    | LastCardForgotten
    | HandEnded
    | GameEnded
)
