"""What a seat or a spectator is shown of a The Gang table: the Structs of its view,
filled by the one projection (engines.the_gang.view). A module of their own because
Structs stay Python in the compiled build while the projection is compiled
(service/compiled.py).
"""

from __future__ import annotations

import msgspec

from engines.cards import Card
from engines.the_gang.model import (
    Announcement,
    Challenge,
    ChipRow,
    Colour,
    DarkChip,
    HeistResult,
    Mode,
    Pending,
    Proposal,
    Reveal,
    ScanGuess,
    Specialist,
    UseSpecialist,
)


class PileView(msgspec.Struct, frozen=True):
    """A pile as the table sees it: its size always, its order only while that is public."""

    size: int
    cards: tuple[int, ...]  # top first; empty once the pile has been shuffled
    known: bool
    card_one_turned: bool


class SeatPocket(msgspec.Struct, frozen=True):
    """One seat's pocket cards, in the post-game reveal."""

    seat: int
    cards: tuple[Card, ...]


class SealedPass(msgspec.Struct, frozen=True):
    """Coordinator: the card a seat chose to pass, before the passes land (the reveal)."""

    seat: int
    card: Card


class TheGangView(msgspec.Struct, frozen=True):
    viewer: int | None
    players: int
    confirm_round_end: bool
    heist: int
    round: Colour
    vaults: int
    alarms: int
    vaults_to_win: int
    alarms_to_lose: int
    board: tuple[Card, ...]
    pocket: tuple[Card, ...]  # empty for a spectator and once the game is over
    chips: tuple[ChipRow, ...]  # the rounds played whose chips are still on the table
    confirmed_seats: tuple[int, ...]  # confirm_round_end tables: seats that confirmed
    deck_size: int
    heists: tuple[HeistResult, ...]  # every finished heist of this game
    finished: bool
    mode: Mode = Mode.BASIC
    challenges: tuple[Challenge, ...] = ()
    standing_challenges: tuple[Challenge, ...] = ()  # Professional's, active all game
    specialist: Specialist | None = None
    specialist_use: UseSpecialist | None = None
    challenge_pile: PileView = PileView(0, (), True, False)
    specialist_pile: PileView = PileView(0, (), True, False)
    skipped_colours: tuple[Colour, ...] = ()
    set_aside_colours: tuple[Colour, ...] = ()  # Blackout: earlier rounds off the table
    dark_chips: tuple[DarkChip, ...] = ()
    proposals: tuple[Proposal, ...] = ()
    announcements: tuple[Announcement, ...] = ()
    pending: tuple[Pending, ...] = ()
    passed_seats: tuple[int, ...] = ()  # Coordinator: seats that chose their card
    my_pass: Card | None = None
    awaiting_guesses: bool = False
    guessed_seat: int | None = None  # the top red chip's holder, once guesses are due
    shown: tuple[Reveal, ...] = ()  # while guesses are due: every other hand, in red order
    guesses: tuple[ScanGuess, ...] = ()
    discard_count: int = 0
    pocket_sizes: tuple[int, ...] = ()  # every seat's, public: how many cards each holds
    round_needs_confirmation: bool = False  # this round ends once every seat confirmed
    # Once the game is over (empty before): what the final state hid.
    revealed_deck: tuple[Card, ...] = ()  # the face-down draw pile, top first
    revealed_discards: tuple[Card, ...] = ()  # the last heist's face-down discards
    revealed_announcements: tuple[Announcement, ...] = ()  # the last heist's, cards shown
    revealed_challenge_pile: tuple[int, ...] = ()  # the order, top first, even if shuffled
    revealed_specialist_pile: tuple[int, ...] = ()
    # Only in the post-game reveal (revealed_view), empty in every other view.
    revealed_pockets: tuple[SeatPocket, ...] = ()  # every seat's, seat order
    revealed_passes: tuple[SealedPass, ...] = ()  # Coordinator: the sealed choices made
