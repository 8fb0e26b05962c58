"""What a seat or a spectator is shown of a Gang of Four table: the Structs of its view,
filled by the one projection (engines.gang_of_four.view). A module of their own because
Structs stay Python in the compiled build while the projection is compiled
(service/compiled.py).
"""

from __future__ import annotations

import msgspec

from engines.gang_of_four.cards import GofCard
from engines.gang_of_four.combos import Kind
from engines.gang_of_four.model import Direction, Exchange, HandResult, Phase


class RevealedHand(msgspec.Struct, frozen=True):
    """A seat's cards as the game ended (the winner of the last hand holds none)."""

    seat: int
    cards: tuple[GofCard, ...]


class GangOfFourView(msgspec.Struct, frozen=True):
    viewer: int | None
    players: int
    auto_announce_last_card: bool
    hand: int
    dealer: int
    direction: Direction
    phase: Phase
    turn: int
    cards: tuple[GofCard, ...]  # the viewer's own hand; empty for a spectator
    card_counts: tuple[int, ...]
    set_aside_count: int
    current: tuple[GofCard, ...]
    current_kind: Kind | None
    current_by: int | None
    passed: tuple[int, ...]
    announced: tuple[int, ...]
    out: tuple[int, ...]
    must_include: GofCard | None
    exchange: Exchange | None
    totals: tuple[int, ...]
    results: tuple[HandResult, ...]
    revealed_hands: tuple[RevealedHand, ...] = ()
    revealed_set_aside: tuple[GofCard, ...] = ()
