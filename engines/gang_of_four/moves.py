"""What a seat can do: play a combination, pass, or give a card back in the exchange."""

from __future__ import annotations

import msgspec
import msgspec.structs

from engines.gang_of_four.cards import GofCard


class Play(msgspec.Struct, frozen=True, tag="play"):
    """Play these cards as one combination. ``announce_last_card``: say "last card" as you
    go down to one card (required by the printed rule unless the table auto-announces)."""

    cards: tuple[GofCard, ...]
    announce_last_card: bool = False

    def __post_init__(self) -> None:
        """A combination is a set of cards: a play keeps them in single-card order, however
        they were sent, so the history records (and a retry repeats) one form of it. Values
        that do not even compare are left as they are, for ``check`` to refuse."""
        try:
            ordered = tuple(sorted(self.cards))
        except TypeError:
            return
        msgspec.structs.force_setattr(self, "cards", ordered)


class Pass(msgspec.Struct, frozen=True, tag="pass"):
    """Do not play this turn; you may play again at your next turn."""


class GiveBack(msgspec.Struct, frozen=True, tag="give_back"):
    """Exchange: the previous hand's winner returns a card of his choice to its loser."""

    card: GofCard


Move = Play | Pass | GiveBack
