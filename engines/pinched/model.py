"""Pinched! (Gekraakt!): locations, the stash, the day's phases and the state (frozen
msgspec Structs)."""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Final

import msgspec

from engines.base import RulesRevision
from engines.pinched.components import Components
from engines.rng import Rng

MIN_PLAYERS = 2
MAX_PLAYERS = 5
SLOTS = 3
RIVER = 3
START_VALUABLES = 3
LISA_MONA_STANDARD = 3
LISA_MONA_CROWN = 5
DIAMONDS = 2
DIAMOND_POINTS = 1
CLUE_POINTS = 2
RUFUS_TAKES = RIVER
BANK_ALONE = 2
BANK_SHARED = 4
WEEKS = {2: 5, 3: 4, 4: 4, 5: 3}


class Location(StrEnum):
    DIAMONDS = "diamonds"  # Ruiten landhuis, Huize Zilversteen
    CLUBS = "clubs"  # Klaveren landhuis, Burcht Tonnengoud
    SPADES = "spades"  # Schoppen landhuis, Castello Verdeggianti
    HEARTS = "hearts"  # Harten landhuis, Château Mille-feuille
    BANK = "bank"  # Stonewall Bank


class Side(StrEnum):
    STANDARD = "standard"
    CROWN = "crown"


SIDE_PLAYERS: dict[tuple[Location, Side], range] = {
    (Location.DIAMONDS, Side.STANDARD): range(2, 6),
    (Location.DIAMONDS, Side.CROWN): range(3, 6),
    (Location.CLUBS, Side.STANDARD): range(2, 6),
    (Location.CLUBS, Side.CROWN): range(2, 6),
    (Location.SPADES, Side.STANDARD): range(3, 6),
    (Location.SPADES, Side.CROWN): range(4, 6),
    (Location.HEARTS, Side.STANDARD): range(2, 6),
    (Location.HEARTS, Side.CROWN): range(4, 6),
    (Location.BANK, Side.CROWN): range(4, 6),
}
"""Which sides exist and for how many players ("Rechtsboven op elk tableau")."""


class Placement(msgspec.Struct, frozen=True, array_like=True):
    location: Location
    side: Side


class Dog(IntEnum):
    RUFUS = 0
    GORDIE = 1


class Phase(StrEnum):
    DOGS = "dogs"  # the mastermind's Gordie choice before the morning
    PLAN = "plan"  # sealed location cards
    NIGHT = "night"  # the heist: takes, the passage, the spades dog, curses
    AFTER = "after"  # storing, the mastermind's selling, the others' river picks
    FINAL_DOGS = "final_dogs"  # the game is over: the dogs' last use
    FINAL_SALE = "final_sale"  # everyone sells
    OVER = "over"


RULES_REVISION: Final = 2
"""Revision 2: a sale and the day's river picks do not depend on their order (river
refills come from the deck only), and rarer kinds sell for more."""
DECK_ONLY_RIVER: Final = 2
"""The first revision whose river refills come from the deck only until the day's end."""


class PinchedConfig(msgspec.Struct, frozen=True):
    """The table: seats, the locations with their sides (config order is table order),
    and the component table.

    ``rules_revision``: the revision of this game's rules the table plays by
    (``RULES_REVISION`` for every new table; read it with :func:`engines.base.rules_revision`).
    """

    players: int
    locations: tuple[Placement, ...]
    components: Components
    rules_revision: RulesRevision = msgspec.UNSET


class Slot(msgspec.Struct, frozen=True, array_like=True):
    """One field of a stash: a kind (None while it holds only jokers or nothing) and its
    cards, jokers included. "Een veld met alleen jokers geldt nog steeds als leeg"."""

    kind: int | None = None
    cards: tuple[int, ...] = ()


class Take(msgspec.Struct, frozen=True, array_like=True):
    """One step of a shared heist: ``seat`` takes a card (``last``: the mastermind's
    second take, which draws from the deck when the location is bare)."""

    seat: int
    last: bool = False


class Curse(msgspec.Struct, frozen=True, array_like=True):
    id: int
    points: int


class TheLetter(msgspec.Struct, frozen=True):
    """Diamonds' crown side: the sealed letter names the Lisa Mona's hiding place."""

    location: Location
    seen_by: tuple[int, ...] = ()
    opened: bool = False  # turned over as proof once the Lisa Mona is taken


class PinchedState(msgspec.Struct, frozen=True):
    """The whole table, hidden parts included; never sent to a client as is.

    ``fields[i]`` are the open cards of location ``i`` of the config (empty for the bank),
    ``None`` for a bare field. Cards are ids into the component table (see
    ``components.kinds_of``). ``hands`` hold what could not be stored.
    """

    config: PinchedConfig
    rng: Rng
    deck: tuple[int, ...]
    discard: tuple[int, ...]
    fields: tuple[tuple[int | None, ...], ...]
    river: tuple[int | None, ...]
    stashes: tuple[tuple[Slot, ...], ...]
    hands: tuple[tuple[int, ...], ...]
    sold: tuple[tuple[int, ...], ...]
    first_mastermind: int
    mastermind: int
    watch: int
    phase: Phase
    day: int = 1
    choices: tuple[Location | None, ...] = ()
    heist: Location | None = None
    present: tuple[int, ...] = ()  # the mastermind first, then clockwise
    takes: tuple[Take, ...] = ()  # the shared heist's takes still to come
    passage_open: bool = True
    passage_due: bool = False  # alone at the hearts mansion: use the passage or not
    dog_due: bool = False  # spades crown, alone: the mastermind picks a dog
    curse_turns: tuple[int, ...] = ()  # present seats still to pass a curse or keep them
    curses_done: bool = False  # this heist's curse passing is over
    river_turns: tuple[int, ...] = ()  # the others still to pick from the river, in order
    selling: tuple[int, ...] = ()  # seats still selling (the mastermind; all at the end)
    gordie_due: tuple[int, ...] = ()  # seats that still take a card with Gordie
    vault: int = 0  # index on the clubs vault track
    dogs: tuple[int | None, int | None] = (None, None)  # holder of Rufus, Gordie
    lisa_mona: int | None = None  # its holder
    lisa_mona_points: int = 0
    diamonds_left: int = 0
    diamonds: tuple[int, ...] = ()  # per seat
    clues_left: int = 0
    clues: tuple[int, ...] = ()  # per seat
    letter: TheLetter | None = None
    curse_pile: tuple[Curse, ...] = ()
    curses: tuple[tuple[Curse, ...], ...] = ()  # per seat, secret
    fresh_curses: tuple[int, ...] = ()  # curse ids received during this heist

    def side(self, location: Location) -> Side | None:
        for placement in self.config.locations:
            if placement.location is location:
                return placement.side
        return None

    def index(self, location: Location) -> int:
        return [p.location for p in self.config.locations].index(location)

    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER
