"""What happened at a Pinched! table. A hidden card (a face-down draw, a sealed choice, a
curse, the letter) reaches the seats allowed to see it whole and the others without it
(see ``view.view_event``)."""

from __future__ import annotations

from enum import StrEnum

import msgspec

from engines.pinched.model import Curse, Dog, Location


class DrawReason(StrEnum):
    """Why cards were drawn face down."""

    START = "start"  # the three starting valuables
    LAST_TAKE = "last_take"  # the mastermind's last take found the location bare
    VAULT = "vault"  # the clubs vault was cracked
    BANK = "bank"  # the bank was robbed


class Treasure(StrEnum):
    """The diamonds mansion's treasures (bonus points at the end)."""

    LISA_MONA = "lisa_mona"
    DIAMOND = "diamond"
    CLUE = "clue"


class DayStarted(msgspec.Struct, frozen=True, tag="day_started"):
    day: int
    watch: int
    mastermind: int


class CardsDrawn(msgspec.Struct, frozen=True, tag="cards_drawn"):
    """Face-down draws into ``seat``'s hand (``cards`` only for that seat; ``count`` for
    all)."""

    seat: int
    count: int
    cards: tuple[int, ...]
    reason: DrawReason


class CardTaken(msgspec.Struct, frozen=True, tag="card_taken"):
    """An open card taken: from a location's field, or from the river (``location`` None)."""

    seat: int
    location: Location | None
    field: int
    card: int


class FieldRefilled(msgspec.Struct, frozen=True, tag="field_refilled"):
    location: Location | None  # None: the river
    field: int
    card: int


class DeckReshuffled(msgspec.Struct, frozen=True, tag="deck_reshuffled"):
    cards: int


class LocationChosen(msgspec.Struct, frozen=True, tag="location_chosen"):
    """Sealed: ``location`` only for ``seat`` until the reveal."""

    seat: int
    location: Location | None


class LocationsRevealed(msgspec.Struct, frozen=True, tag="locations_revealed"):
    choices: tuple[Location, ...]  # per seat
    heist: Location
    present: tuple[int, ...]


class PassageUsed(msgspec.Struct, frozen=True, tag="passage_used"):
    seat: int


class CurseDrawn(msgspec.Struct, frozen=True, tag="curse_drawn"):
    """``curse`` only for ``seat``."""

    seat: int
    curse: Curse | None


class CursePassed(msgspec.Struct, frozen=True, tag="curse_passed"):
    """``curse`` only for the two seats."""

    from_seat: int
    to_seat: int
    curse: Curse | None


class CursesKept(msgspec.Struct, frozen=True, tag="curses_kept"):
    seat: int


class VaultMoved(msgspec.Struct, frozen=True, tag="vault_moved"):
    position: int
    value: int


class DogTaken(msgspec.Struct, frozen=True, tag="dog_taken"):
    seat: int
    dog: Dog
    from_seat: int | None


class DogUsed(msgspec.Struct, frozen=True, tag="dog_used"):
    seat: int
    dog: Dog


class TreasureTaken(msgspec.Struct, frozen=True, tag="treasure_taken"):
    seat: int
    treasure: Treasure
    points: int


class LetterRead(msgspec.Struct, frozen=True, tag="letter_read"):
    """``location`` only for ``seat`` (and for everyone once the letter is opened)."""

    seat: int
    location: Location | None


class LetterOpened(msgspec.Struct, frozen=True, tag="letter_opened"):
    location: Location


class BankFailed(msgspec.Struct, frozen=True, tag="bank_failed"):
    """Every burglar was at the bank: nobody gets anything."""


class Stored(msgspec.Struct, frozen=True, tag="stored"):
    seat: int
    card: int
    slot: int


class Sold(msgspec.Struct, frozen=True, tag="sold"):
    seat: int
    slot: int
    kind_index: int  # into the component table's kinds
    count: int
    points: int  # cards put face down


class Discarded(msgspec.Struct, frozen=True, tag="discarded"):
    """Face up on the discard pile."""

    seat: int
    cards: tuple[int, ...]


class DayEnded(msgspec.Struct, frozen=True, tag="day_ended"):
    day: int
    next_mastermind: int
    watch: int


class Score(msgspec.Struct, frozen=True):
    seat: int
    sold: int
    lisa_mona: int
    diamonds: int
    clues: int
    curses: int
    total: int
    tiebreak: int  # sold cards of the tie-break kind (gold bars)


class GameEnded(msgspec.Struct, frozen=True, tag="game_ended"):
    scores: tuple[Score, ...]
    winners: tuple[int, ...]


Event = (
    DayStarted
    | CardsDrawn
    | CardTaken
    | FieldRefilled
    | DeckReshuffled
    | LocationChosen
    | LocationsRevealed
    | PassageUsed
    | CurseDrawn
    | CursePassed
    | CursesKept
    | VaultMoved
    | DogTaken
    | DogUsed
    | TreasureTaken
    | LetterRead
    | LetterOpened
    | BankFailed
    | Stored
    | Sold
    | Discarded
    | DayEnded
    | GameEnded
)
