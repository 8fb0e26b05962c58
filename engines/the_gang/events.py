"""What happened at the table; the engine's view rules filter these per seat.

An event that carries a hidden card (``card``/``cards``) reaches the seats allowed to see
it whole and everyone else with the card left out (see ``view.view_event``).
"""

from __future__ import annotations

import msgspec

from engines.cards import Card
from engines.the_gang.model import (
    Announcement,
    Challenge,
    Colour,
    HeistResult,
    Proposal,
    Reveal,
    Specialist,
)


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


class CardsActive(msgspec.Struct, frozen=True, tag="cards_active"):
    """The challenge and specialist cards in play for this heist (modes only)."""

    heist: int
    challenges: tuple[Challenge, ...]
    specialist: Specialist | None


class PileShuffled(msgspec.Struct, frozen=True, tag="pile_shuffled"):
    """ "Kom je voor de tweede keer bij kaart 1 uit, schud de stapel dan." """

    specialist_pile: bool  # False: the challenge pile


class PocketsGathered(msgspec.Struct, frozen=True, tag="pockets_gathered"):
    """Con Artist: every pocket card gathered and shuffled; new pockets follow."""

    heist: int


class PocketRedrawn(msgspec.Struct, frozen=True, tag="pocket_redrawn"):
    """Motion Detector / Laser Tripwires: ``seat`` discarded his pocket and drew anew.
    ``cards`` (the new pocket) only for ``seat``."""

    seat: int
    challenge: Challenge
    cards: tuple[Card, ...]


class ChipsSetAside(msgspec.Struct, frozen=True, tag="chips_set_aside"):
    """Blackout: the chips of ``colour`` leave the table."""

    colour: Colour


class ProposalMade(msgspec.Struct, frozen=True, tag="proposal_made"):
    proposal: Proposal
    replaces: int | None  # the open proposal on the same matter it supersedes


class ProposalAccepted(msgspec.Struct, frozen=True, tag="proposal_accepted"):
    proposal: int
    seat: int


class ProposalWithdrawn(msgspec.Struct, frozen=True, tag="proposal_withdrawn"):
    proposal: int


class DecisionTaken(msgspec.Struct, frozen=True, tag="decision_taken"):
    """Every required seat accepted: the decision is in force."""

    proposal: Proposal


class Announced(msgspec.Struct, frozen=True, tag="announced"):
    """A specialist's announcement, computed from the true cards."""

    announcement: Announcement


class CardDrawn(msgspec.Struct, frozen=True, tag="card_drawn"):
    """Hacker: ``seat`` took the top card of the deck (``card`` only for ``seat``)."""

    seat: int
    card: Card | None


class JackTaken(msgspec.Struct, frozen=True, tag="jack_taken"):
    """The Jack card went into ``seat``'s pocket."""

    seat: int


class CardDiscarded(msgspec.Struct, frozen=True, tag="card_discarded"):
    """Face down: ``card`` only for ``seat``."""

    seat: int
    card: Card | None


class PassChosen(msgspec.Struct, frozen=True, tag="pass_chosen"):
    """Coordinator: ``seat`` chose the card to pass (``card`` only for ``seat``)."""

    seat: int
    card: Card | None


class CardPassed(msgspec.Struct, frozen=True, tag="card_passed"):
    """Coordinator: ``card`` (only for the two seats) went from ``from_seat`` to his left."""

    from_seat: int
    to_seat: int
    card: Card | None


class GuessesDue(msgspec.Struct, frozen=True, tag="guesses_due"):
    """The red chips are final and every hand but ``seat``'s is shown (``shown``, in red-chip
    order); the others must guess about ``seat``'s hand."""

    seat: int
    challenges: tuple[Challenge, ...]
    shown: tuple[Reveal, ...] = ()


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
    | CardsActive
    | PileShuffled
    | PocketsGathered
    | PocketRedrawn
    | ChipsSetAside
    | ProposalMade
    | ProposalAccepted
    | ProposalWithdrawn
    | DecisionTaken
    | Announced
    | CardDrawn
    | JackTaken
    | CardDiscarded
    | PassChosen
    | CardPassed
    | GuessesDue
)
