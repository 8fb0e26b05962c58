"""What a seat can do in The Gang: take a chip, return a chip, confirm the round's end."""

from __future__ import annotations

import msgspec

from engines.the_gang.model import Colour


class TakeChip(msgspec.Struct, frozen=True, tag="take_chip"):
    """Take the chip with ``stars`` stars of ``colour`` from the centre or from another
    player. If you already hold a chip of that colour it goes back to the centre in the
    same move, so you never hold two of one colour."""

    colour: Colour
    stars: int


class ReturnChip(msgspec.Struct, frozen=True, tag="return_chip"):
    """Put your chip of the current round back in the centre."""

    colour: Colour
    stars: int


class ConfirmRoundEnd(msgspec.Struct, frozen=True, tag="confirm_round_end"):
    """Only with the ``confirm_round_end`` option: agree that the round may end."""


Move = TakeChip | ReturnChip | ConfirmRoundEnd
