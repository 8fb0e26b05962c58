"""What a seat can do in The Gang.

Chips: take, return, confirm the round's end. Group decisions (who uses the specialist,
the scan guesses): propose, accept, withdraw. Card actions the cards ask of one seat:
show a card (Informant), discard (Hacker, Jack), pass a card left (Coordinator).
"""

from __future__ import annotations

import msgspec

from engines.cards import Card
from engines.the_gang.model import Colour, Decision


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


class Propose(msgspec.Struct, frozen=True, tag="propose"):
    """Propose a group decision; it replaces an open proposal on the same matter. The
    proposer counts as accepting it."""

    decision: Decision


class Accept(msgspec.Struct, frozen=True, tag="accept"):
    """Accept the open proposal numbered ``proposal``."""

    proposal: int


class Withdraw(msgspec.Struct, frozen=True, tag="withdraw"):
    """Withdraw your own open proposal numbered ``proposal``."""

    proposal: int


class ShowCard(msgspec.Struct, frozen=True, tag="show_card"):
    """Informant: show this pocket card to the seat the gang chose."""

    card: Card


class DiscardCard(msgspec.Struct, frozen=True, tag="discard_card"):
    """Hacker or Jack: put this pocket card face down on the discards."""

    card: Card


class PassCard(msgspec.Struct, frozen=True, tag="pass_card"):
    """Coordinator: the pocket card you pass to your left neighbour (sealed until every
    seat has chosen)."""

    card: Card


Move = (
    TakeChip
    | ReturnChip
    | ConfirmRoundEnd
    | Propose
    | Accept
    | Withdraw
    | ShowCard
    | DiscardCard
    | PassCard
)
