"""Shared helpers for Pinched!'s engine tests: rigged tables, card picking, playing moves.

Tables are built through the public factory functions (``GAME.make_config`` and
``GAME.new_game``) and then rigged with ``msgspec.structs.replace``. :func:`rig` keeps
every card of the component table somewhere: whatever the test does not place lies in the
draw pile, ``top`` first, so the next draws are known.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import msgspec
import msgspec.structs
import pytest

from engines.errors import MoveError
from engines.pinched import GAME, Event, Move
from engines.pinched.components import DEFAULT, JOKER, Components, kinds_of
from engines.pinched.model import Location, Phase, PinchedState, Placement, Side, Slot
from engines.pinched.moves import (
    ChooseLocation,
    EndSelling,
    KeepCurses,
    SkipPassage,
    Store,
    TakeCard,
    TakeDog,
    TakeFromRiver,
)

SEED = bytes.fromhex("0badc0ffee004a11")

# The default component table's kinds, by index (``components.DEFAULT``).
COIN, GOLD, PAINTING, JEWEL, STATUE = range(5)

D, C, S, H, B = (
    Location.DIAMONDS,
    Location.CLUBS,
    Location.SPADES,
    Location.HEARTS,
    Location.BANK,
)
STD, CROWN = Side.STANDARD, Side.CROWN

EMPTY = (Slot(), Slot(), Slot())

Play = tuple[int, Move]


class Cards:
    """Hands out distinct card ids of the default table by kind (``JOKER`` for jokers)."""

    def __init__(self, table: Components = DEFAULT) -> None:
        kinds = kinds_of(table)
        self._free: dict[int, list[int]] = {}
        for card, kind in enumerate(kinds):
            self._free.setdefault(kind, []).append(card)

    def __call__(self, kind: int, count: int = 1) -> tuple[int, ...]:
        free = self._free[kind]
        assert len(free) >= count, f"not {count} more cards of kind {kind}"
        out, self._free[kind] = tuple(free[:count]), free[count:]
        return out

    def one(self, kind: int) -> int:
        return self(kind)[0]


def kind_of(state: PinchedState, card: int) -> int:
    return kinds_of(state.config.components)[card]


def slot(kind: int | None, *cards: int) -> Slot:
    return Slot(kind, tuple(cards))


def config_for(
    players: int, setup: str | None = None, locations: Sequence[tuple[Location, Side]] = ()
) -> Any:
    options: dict[str, Any] = {}
    if locations:
        options["locations"] = list(locations)
    elif setup is not None:
        options["setup"] = setup
    return GAME.make_config(players, options)


def new(
    players: int,
    setup: str | None = None,
    locations: Sequence[tuple[Location, Side]] = (),
    seed: bytes = SEED,
) -> PinchedState:
    """A fresh table through the public factory functions."""
    return GAME.new_game(config_for(players, setup, locations), seed)


def placed(state: PinchedState) -> list[int]:
    """Every card outside the draw pile: fields, river, stashes, hands, sold, discards."""
    out = [card for row in state.fields for card in row if card is not None]
    out += [card for card in state.river if card is not None]
    out += [card for stash in state.stashes for s in stash for card in s.cards]
    out += [card for hand in state.hands for card in hand]
    out += [card for sold in state.sold for card in sold]
    out += list(state.discard)
    return out


def all_cards(state: PinchedState) -> list[int]:
    """Every card of the game, wherever it lies (the draw pile included)."""
    return [*placed(state), *state.deck]


def rig(state: PinchedState, *, top: Sequence[int] = (), **changes: Any) -> PinchedState:
    """``state`` with ``changes``; the draw pile is ``top`` then every card not placed
    (unless ``deck`` is among the changes)."""
    state = msgspec.structs.replace(state, **changes)
    used = placed(state)
    assert len(used) == len(set(used)), "a card lies in two places"
    if "deck" not in changes:
        taken = set(used) | set(top)
        assert not set(used) & set(top), "a card of the top is placed too"
        rest = [c for c in range(len(kinds_of(state.config.components))) if c not in taken]
        state = msgspec.structs.replace(state, deck=(*top, *rest))
    return state


def table(
    players: int = 3,
    setup: str | None = None,
    locations: Sequence[tuple[Location, Side]] = (),
    *,
    mastermind: int = 0,
    first: int | None = None,
    top: Sequence[int] = (),
    open_cards: Mapping[Location, Sequence[int | None]] | None = None,
    **changes: Any,
) -> PinchedState:
    """A table in the morning of ``mastermind``'s day with empty stashes and hands.

    ``open_cards`` sets the fields of some locations; the other fields and the river (unless
    given) are dealt from the lowest unused non-joker ids, so nothing needs storing by choice.
    """
    state = new(players, setup, locations)
    base: dict[str, Any] = {
        "stashes": (EMPTY,) * players,
        "hands": ((),) * players,
        "sold": ((),) * players,
        "discard": (),
        "first_mastermind": mastermind if first is None else first,
        "mastermind": mastermind,
        "phase": Phase.PLAN,
        "choices": (None,) * players,
        "gordie_due": (),
    }
    base.update(changes)
    fields = list(state.fields)
    for location, cards in (open_cards or {}).items():
        fields[state.index(location)] = tuple(cards)
    reserved = set(top)
    for name in ("stashes", "hands", "sold", "discard", "river", "deck"):
        if name in base:
            reserved |= set(_cards_in(name, base[name]))
    for cards in (open_cards or {}).values():
        reserved |= {card for card in cards if card is not None}
    kinds = kinds_of(state.config.components)
    filler = iter(c for c in range(len(kinds)) if c not in reserved and kinds[c] != JOKER)
    for index, placement in enumerate(state.config.locations):
        if open_cards and placement.location in open_cards:
            continue
        fields[index] = tuple(next(filler) for _ in state.fields[index])
    base["fields"] = tuple(fields)
    if "river" not in base:
        base["river"] = tuple(next(filler) for _ in range(3))
    return rig(state, top=top, **base)


def _cards_in(name: str, value: Any) -> list[int]:
    """The cards of one of the state's card-holding fields."""
    if name == "stashes":
        return [card for stash in value for s in stash for card in s.cards]
    if name in ("hands", "sold"):
        return [card for row in value for card in row]
    return [card for card in value if card is not None]


def after_heist(players: int, m: int, heist: Location = C, **changes: Any) -> dict[str, Any]:
    """The changes that put a table after ``m``'s lone heist: the mastermind sells, the
    others pick from the river from its left."""
    out: dict[str, Any] = {
        "phase": Phase.AFTER,
        "heist": heist,
        "present": (m,),
        "choices": tuple(heist if s == m else None for s in range(players)),
        "curses_done": True,
        "selling": (m,),
        "river_turns": tuple((m + step) % players for step in range(1, players)),
    }
    out.update(changes)
    return out


def last_move_of_day(players: int = 3, m: int = 0, **changes: Any) -> PinchedState:
    """A table where the mastermind's ``EndSelling`` is the day's last move."""
    return table(
        players,
        mastermind=m,
        **after_heist(players, m, river_turns=()) | changes,
    )


def apply_all(state: PinchedState, plays: Iterable[Play]) -> tuple[PinchedState, list[Event]]:
    """Apply ``plays`` in order; the events of all of them, concatenated."""
    events: list[Event] = []
    for seat, move in plays:
        state, more = GAME.apply(state, seat, move)
        events += more
    return state, events


def choose(
    state: PinchedState, choices: Mapping[int, Location]
) -> tuple[PinchedState, list[Event]]:
    """Every seat lays its location card (``choices[seat]``), seat order."""
    return apply_all(state, [(seat, ChooseLocation(loc)) for seat, loc in sorted(choices.items())])


def everyone(state: PinchedState, heist: Location, **others: Location) -> dict[int, Location]:
    """Choices with the mastermind at ``heist`` and every other seat at ``heist`` too
    unless named in ``others`` as ``s<seat>=location``."""
    out = dict.fromkeys(range(state.config.players), heist)
    for name, location in others.items():
        out[int(name[1:])] = location
    return out


def alone(state: PinchedState, heist: Location, elsewhere: Location) -> dict[int, Location]:
    """The mastermind at ``heist``, everybody else at ``elsewhere``."""
    m = state.mastermind
    return {seat: heist if seat == m else elsewhere for seat in range(state.config.players)}


def of_type(events: Iterable[Any], kind: type[Any]) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]


def reason_of(state: PinchedState, seat: int, move: Any) -> tuple[type[MoveError], str] | None:
    """``None`` if ``check`` accepts the move, else the error's class and reason."""
    try:
        GAME.check(state, seat, move)
    except MoveError as error:
        return type(error), error.reason
    return None


def rejects(state: PinchedState, seat: int, move: Any, kind: type[MoveError], reason: str) -> None:
    """``check`` and ``apply`` both refuse ``move`` with this error kind and reason, the
    state is unchanged and ``legal_moves`` does not offer the move."""
    before = msgspec.msgpack.encode(state)
    assert reason_of(state, seat, move) == (kind, reason)
    with pytest.raises(kind) as info:
        GAME.apply(state, seat, move)
    assert info.value.reason == reason
    assert msgspec.msgpack.encode(state) == before
    if type(seat) is int and 0 <= seat < state.config.players:
        assert move not in GAME.legal_moves(state, seat)


def stash_cards(state: PinchedState, seat: int) -> list[int]:
    return [card for s in state.stashes[seat] for card in s.cards]


def holdings(state: PinchedState, seat: int) -> list[int]:
    """What ``seat`` owns outside its sold pile: its stash and its hand."""
    return [*stash_cards(state, seat), *state.hands[seat]]


def store_all(state: PinchedState) -> PinchedState:
    """Every seat stores what it owes, each time on the first slot the rules allow."""
    while True:
        owing = [
            (seat, moves[0])
            for seat in range(state.config.players)
            if (moves := GAME.legal_moves(state, seat)) and isinstance(moves[0], Store)
        ]
        if not owing:
            return state
        state = GAME.apply(state, *owing[0])[0]


def setups() -> Iterator[tuple[int, str]]:
    yield from [(players, "basic") for players in range(2, 6)]
    yield from [
        (2, "paranoid_owner"),
        (3, "search_for_lisa_mona"),
        (4, "cursed_secrets"),
        (5, "the_whole_package"),
    ]


def placements(*pairs: tuple[Location, Side]) -> tuple[Placement, ...]:
    return tuple(Placement(location, side) for location, side in pairs)


def close_day(state: PinchedState) -> tuple[PinchedState, list[Event]]:
    """Play the rest of the day to the next morning: owed stores on the first allowed slot,
    the night's first take (declining the passage, keeping curses, the first dog), each
    river pick on its first card, then the mastermind stops selling."""
    events: list[Event] = []
    day = state.day
    while state.day == day and not state.finished:
        moves = {seat: GAME.legal_moves(state, seat) for seat in sorted(GAME.to_act(state))}
        stores = [(seat, ms[0]) for seat, ms in moves.items() if isinstance(ms[0], Store)]
        picks = [
            (seat, m) for seat, ms in moves.items() for m in ms if isinstance(m, TakeFromRiver)
        ]
        night = [
            (seat, m)
            for seat, ms in moves.items()
            for m in ms
            if isinstance(m, TakeCard | SkipPassage | TakeDog | KeepCurses)
        ]
        play: Play
        if stores:
            play = stores[0]
        elif state.phase is Phase.NIGHT:
            play = night[0]
        elif picks:
            play = picks[0]
        else:
            play = (state.mastermind, EndSelling())
        state, more = GAME.apply(state, *play)
        events += more
    return state, events
