"""Every choice the rules give a player in Pinched!, as a move."""

from __future__ import annotations

import msgspec

from engines.pinched.model import Dog, Location


class ChooseLocation(msgspec.Struct, frozen=True, tag="choose_location"):
    """Morning: lay one of your location cards face down (the mastermind's is the heist,
    the others' a guess). Sealed until every seat has chosen."""

    location: Location


class TakeCard(msgspec.Struct, frozen=True, tag="take_card"):
    """Night: take the open card on ``field`` of the heist's location."""

    field: int


class FieldRef(msgspec.Struct, frozen=True, array_like=True):
    location: Location
    field: int


class UsePassage(msgspec.Struct, frozen=True, tag="use_passage"):
    """Hearts: instead of a take (or, alone, as well as taking everything), take open cards
    from other mansions: one on the standard side, two on the crown side (and a curse)."""

    cards: tuple[FieldRef, ...]


class SkipPassage(msgspec.Struct, frozen=True, tag="skip_passage"):
    """Alone at the hearts mansion: do not use the passage."""


class TakeDog(msgspec.Struct, frozen=True, tag="take_dog"):
    """Spades crown, alone: which dog you take (from the tableau or another player)."""

    dog: Dog


class PassCurse(msgspec.Struct, frozen=True, tag="pass_curse"):
    """Give one of your curses (by id) to another seat present at this heist."""

    curse: int
    to_seat: int


class KeepCurses(msgspec.Struct, frozen=True, tag="keep_curses"):
    """Pass no curse at this heist."""


class TakeWithGordie(msgspec.Struct, frozen=True, tag="take_with_gordie"):
    """Gordie: take one open card of a mansion of your choice."""

    card: FieldRef


class Store(msgspec.Struct, frozen=True, tag="store"):
    """Put a card from your hand on a stash slot (a joker on any slot, a new kind on an
    empty one)."""

    card: int
    slot: int


class Sell(msgspec.Struct, frozen=True, tag="sell"):
    """Sell the set on ``slot``."""

    slot: int


class EndSelling(msgspec.Struct, frozen=True, tag="end_selling"):
    """Stop selling; what you cannot store is dumped face up."""


class TakeFromRiver(msgspec.Struct, frozen=True, tag="take_from_river"):
    """Take the river card on ``field`` (0..2)."""

    field: int


Move = (
    ChooseLocation
    | TakeCard
    | UsePassage
    | SkipPassage
    | TakeDog
    | PassCurse
    | KeepCurses
    | TakeWithGordie
    | Store
    | Sell
    | EndSelling
    | TakeFromRiver
)
