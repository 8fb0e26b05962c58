"""Gang of Four's contract: what the derived codec cannot pair by name.

Everything else (moves, events, the view, the options) is derived from the engine's types
and ``referee.v1.GangOfFour*`` by :class:`~referee.codecs.game.DerivedCodec`. A play's cards
are passed on in the order the client sent them: the engine's ``Play`` keeps them in
single-card order (a combination is a set of cards; ordering them is the game's business).
"""

from __future__ import annotations

from engines.gang_of_four.cards import COPIES, Colour, GofCard
from engines.gang_of_four.model import GangOfFourConfig, HandResult
from engines.gang_of_four.view import GangOfFourView
from referee.codecs.derive import Contract, Leaf, enum_table
from referee.codecs.errors import Malformed
from referee.v1 import gang_of_four_pb2 as pb

_COLOURS = enum_table(Colour, pb.GangOfFourColour.DESCRIPTOR)
_COLOUR_NUMBERS = frozenset(_COLOURS.values())

_MESSAGES = {
    card: pb.GangOfFourCard(
        value=card.value,
        colour=pb.GangOfFourColour.ValueType(_COLOURS[card.colour]),
        code=str(card),
    )
    for card in COPIES
}
"""Each distinct card's message, built once: a message field copies what it is given."""


_BY_NUMBERS = {(card.value, _COLOURS[card.colour]): card for card in COPIES}


def card_from_proto(card: pb.GangOfFourCard) -> GofCard:
    """The card named by its value and colour (its ``code`` is for reading only)."""
    found = _BY_NUMBERS.get((card.value, card.colour))
    if found is not None:
        return found
    if card.colour not in _COLOUR_NUMBERS:
        raise Malformed("CARD_COLOUR_MISSING", "a card needs its colour")
    raise Malformed("UNKNOWN_CARD", f"there is no card {card.value} of that colour")


CARD = Leaf(
    message=pb.GangOfFourCard,
    encode=_MESSAGES.__getitem__,
    decode=card_from_proto,
    example=GofCard.parse("m1"),
)
"""A card is ``(value, colour)`` in the engine; its message adds the short ``code``."""

CONTRACT = Contract(
    leaves={GofCard: CARD},
    internal={
        # The envelope's View.seat says whose view it is.
        GangOfFourView: frozenset({"viewer"}),
        # The table's seat count: CreateGameRequest.seats, not an option; the rules
        # revision: GameSetup.rules_revision.
        GangOfFourConfig: frozenset({"players", "rules_revision"}),
    },
    cached=frozenset({HandResult}),
)
