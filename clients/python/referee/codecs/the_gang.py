"""The Gang's part of the contract that cannot be derived: its playing cards.

Everything else (moves, events, views, options) pairs with ``referee.v1`` by name; see
:mod:`referee.codecs.derive`.
"""

from __future__ import annotations

from engines.cards import DECK, Card, Suit
from engines.the_gang.model import JACK_CARD, HeistResult, Reveal, TheGangOptions
from engines.the_gang.view import TheGangView
from referee.codecs.derive import Contract, Leaf, Options
from referee.codecs.errors import Malformed, echo
from referee.v1 import the_gang_pb2 as pb

_SUITS = {suit: pb.Suit.Value(f"SUIT_{suit.name}") for suit in Suit}
_SUITS_BACK: dict[int, Suit | None] = {value: suit for suit, value in _SUITS.items()}
_SUITS_BACK[pb.SUIT_UNSPECIFIED] = None  # the Jack card
_KNOWN_CARDS = frozenset((*DECK, JACK_CARD))


def _card_message(card: Card) -> pb.PlayingCard:
    suit = _SUITS[card.suit] if card.suit is not None else pb.SUIT_UNSPECIFIED
    return pb.PlayingCard(rank=card.rank, suit=suit, code=str(card))


_CARD_MESSAGES = {card: _card_message(card) for card in _KNOWN_CARDS}


def card_to_proto(card: Card) -> pb.PlayingCard:
    """The card's message; shared instances (protobuf copies them into any parent)."""
    message = _CARD_MESSAGES.get(card)
    return message if message is not None else _card_message(card)


def card_from_proto(message: pb.PlayingCard) -> Card:
    """The card a move names by ``code``, by ``rank`` and ``suit``, or by all three."""
    if not (message.code or message.rank or message.suit):
        raise Malformed("CARD_MISSING", "the move needs a card")
    named: list[Card] = []
    if message.code:
        try:
            named.append(Card.parse(message.code))
        except ValueError:
            raise Malformed("UNKNOWN_CARD", f"there is no card {echo(message.code)}") from None
    if message.rank or message.suit:
        if message.suit not in _SUITS_BACK:
            raise Malformed("UNKNOWN_CARD", f"there is no suit {message.suit}")
        named.append(Card(message.rank, _SUITS_BACK[message.suit]))
    if named[0] != named[-1]:
        raise Malformed(
            "CARD_MISMATCH", f"code {echo(message.code)} and rank/suit name different cards"
        )
    if named[0] not in _KNOWN_CARDS:
        what = echo(message.code) if message.code else f"{message.rank} of suit {message.suit}"
        raise Malformed("UNKNOWN_CARD", f"there is no card {what}")
    return named[0]


CONTRACT = Contract(
    leaves={Card: Leaf(pb.PlayingCard, card_to_proto, card_from_proto, example=JACK_CARD)},
    internal={
        # The envelope's View.seat says whose view it is.
        TheGangView: frozenset({"viewer", "finished"}),  # finished: View.outcome is set
        # The hands' tie-break ranks are the engine's to compare; best_five shows them.
        Reveal: frozenset({"ranks"}),
    },
    # A finished heist never changes and every later view repeats it: built once.
    cached=frozenset({HeistResult}),
    # The options message is the config without its seat count (CreateGameRequest.seats)
    # and rules revision (GameSetup.rules_revision), every option a plain value.
    options=Options(TheGangOptions, TheGangOptions.of),
)
