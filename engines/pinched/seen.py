"""What a seat or a spectator is shown of a Pinched! table: the Structs of its view,
filled by the one projection (engines.pinched.view). A module of their own because
Structs stay Python in the compiled build while the projection is compiled
(service/compiled.py).
"""

from __future__ import annotations

import msgspec

from engines.pinched.components import Components
from engines.pinched.events import GameEnded
from engines.pinched.model import Curse, Location, Phase, Placement, Take


class Valuable(msgspec.Struct, frozen=True):
    """A card as a view shows it: its id and its kind's name (``document``: a joker)."""

    id: int
    kind: str


class OpenField(msgspec.Struct, frozen=True):
    """One open card field; ``card`` None while the field is bare (the deck ran out)."""

    field: int
    card: Valuable | None


class LocationFields(msgspec.Struct, frozen=True):
    """The open cards of one location, in field order (none for the bank)."""

    location: Location
    fields: tuple[OpenField, ...]


class StashSlot(msgspec.Struct, frozen=True):
    """A stash slot as a view shows it: its kind's name ("" while the slot is empty) and
    its cards, documents included."""

    kind: str
    cards: tuple[Valuable, ...]


class Stash(msgspec.Struct, frozen=True):
    slots: tuple[StashSlot, ...]


class SeatCards(msgspec.Struct, frozen=True):
    """One seat's cards of a kind of pile (its hand, its sold cards), revealed at the end."""

    cards: tuple[Valuable, ...]


class SeatCurses(msgspec.Struct, frozen=True):
    """One seat's curses, revealed at the end."""

    curses: tuple[Curse, ...]


class PinchedView(msgspec.Struct, frozen=True):
    viewer: int | None
    players: int
    locations: tuple[Placement, ...]
    components: Components
    day: int
    watch: int
    first_mastermind: int
    mastermind: int
    phase: Phase
    fields: tuple[LocationFields, ...]  # in config order
    river: tuple[OpenField, ...]
    deck_size: int
    discard: tuple[Valuable, ...]  # face up, oldest first
    stashes: tuple[Stash, ...]
    hand: tuple[Valuable, ...]  # yours
    hand_sizes: tuple[int, ...]
    sold: tuple[Valuable, ...]  # yours, face down
    sold_counts: tuple[int, ...]
    chosen_seats: tuple[int, ...]  # whose location card lies face down this morning
    my_choice: Location | None
    choices: tuple[Location | None, ...]  # after the reveal, per seat
    heist: Location | None
    present: tuple[int, ...]
    takes: tuple[Take, ...]
    passage_open: bool
    passage_due: bool
    dog_due: bool
    curse_turns: tuple[int, ...]
    river_turns: tuple[int, ...]
    selling: tuple[int, ...]
    gordie_due: tuple[int, ...]
    vault: int
    vault_value: int
    rufus_holder: int | None
    gordie_holder: int | None
    lisa_mona_holder: int | None
    lisa_mona_points: int
    diamonds_left: int
    diamonds: tuple[int, ...]
    clues_left: int
    clues: tuple[int, ...]
    letter: Location | None  # what the letter says, if you read it (or it is open)
    letter_opened: bool
    letter_read_by: tuple[int, ...]
    curses: tuple[Curse, ...]  # yours
    curse_counts: tuple[int, ...]
    curse_pile: int
    result: GameEnded | None  # the final scores, once the game is over
    # Once the game is over, for everyone: every seat's hand, sold cards and curses, what
    # the sealed letter said, the draw pile (top first) and the curses never drawn.
    revealed_hands: tuple[SeatCards, ...] = ()
    revealed_sold: tuple[SeatCards, ...] = ()
    revealed_curses: tuple[SeatCurses, ...] = ()
    revealed_letter: Location | None = None
    revealed_deck: tuple[Valuable, ...] = ()
    revealed_curse_pile: tuple[Curse, ...] = ()
    # Only in the post-game reveal (revealed_view): every seat's location card this day,
    # sealed ones too (None: not chosen yet); empty in every other view.
    revealed_choices: tuple[Location | None, ...] = ()
