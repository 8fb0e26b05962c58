"""What a seat can do: play a combination, pass, or give a card back in the exchange."""

from __future__ import annotations

import msgspec

from engines.gang_of_four.cards import GofCard


class Play(msgspec.Struct, frozen=True, tag="play"):
    """Play these cards as one combination. ``announce_last_card``: say "last card" as you
    go down to one card (required by the printed rule unless the table auto-announces)."""

    cards: tuple[GofCard, ...]
    announce_last_card: bool = False


class Pass(msgspec.Struct, frozen=True, tag="pass"):
    """Do not play this turn; you may play again at your next turn."""


class GiveBack(msgspec.Struct, frozen=True, tag="give_back"):
    """Exchange: the previous hand's winner returns a card of his choice to its loser."""

    card: GofCard


Move = Play | Pass | GiveBack
