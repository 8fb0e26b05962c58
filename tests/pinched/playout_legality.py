"""Legality in the Pinched! playouts: ``legal_moves`` is exactly what ``check`` accepts from
a wide net of candidate moves, ``apply`` agrees with ``check``, malformed moves are refused
with a typed reason, and a seat's verdicts do not depend on what it cannot see."""

from __future__ import annotations

import itertools
import random
from typing import Any, cast

import msgspec
import msgspec.structs

from engines.errors import InvalidMoveError, MoveError
from engines.pinched import GAME, Move, PinchedState
from engines.pinched.components import kinds_of
from engines.pinched.model import Dog, Location
from engines.pinched.moves import (
    ChooseLocation,
    EndSelling,
    FieldRef,
    KeepCurses,
    PassCurse,
    Sell,
    SkipPassage,
    Store,
    TakeCard,
    TakeDog,
    TakeFromRiver,
    TakeWithGordie,
    UsePassage,
)
from tests.pinched.playout_invariants import RIVER, SLOTS, check_cards
from tests.pinched.playout_views import hidden_twin


def candidates(state: PinchedState) -> list[Move]:
    """A wide net of moves: every kind, in range or not, for any seat."""
    table = state.config.components
    cards = range(-1, len(kinds_of(table)) + 1)
    fields = range(-1, table.fields + 1)
    moves: list[Move] = [Store(card, slot) for card in cards for slot in range(SLOTS)]
    moves += [Store(card, slot) for card in (0, *state.hands[0]) for slot in (-1, SLOTS)]
    moves += [ChooseLocation(location) for location in Location]
    moves += [ChooseLocation(cast(Location, "vault")), TakeDog(cast(Dog, 2))]
    moves += [TakeCard(field) for field in fields]
    refs = [FieldRef(location, field) for location in Location for field in fields]
    inside = [ref for ref in refs if 0 <= ref.field < table.fields]
    moves += [UsePassage(()), *(UsePassage((ref,)) for ref in refs)]
    moves += [UsePassage(pair) for pair in itertools.permutations(inside, 2)]
    moves += [UsePassage((ref, ref)) for ref in inside[:3]]
    moves += [UsePassage(three) for three in itertools.islice(itertools.combinations(inside, 3), 8)]
    moves += [TakeWithGordie(ref) for ref in refs]
    moves += [SkipPassage(), KeepCurses(), EndSelling(), *(TakeDog(dog) for dog in Dog)]
    curses = range(-1, len(table.curses) + 1)
    moves += [PassCurse(c, to) for c in curses for to in range(-1, state.config.players + 1)]
    moves += [Sell(slot) for slot in range(-1, SLOTS + 1)]
    moves += [TakeFromRiver(field) for field in range(-1, RIVER + 1)]
    return moves


def malformed(state: PinchedState) -> list[Any]:
    """Moves no client should send (wrong types inside, or no move at all): refused with a
    typed reason like any other, never another exception."""
    location = state.config.locations[0].location
    return [
        UsePassage(cast(Any, [FieldRef(location, 0)])),
        UsePassage(cast(Any, ((str(location), 0),))),
        UsePassage(cast(Any, None)),
        TakeWithGordie(cast(Any, (str(location), 0))),
        TakeWithGordie(FieldRef(location, cast(Any, "0"))),
        TakeCard(cast(Any, True)),
        TakeCard(cast(Any, 1.0)),
        TakeFromRiver(cast(Any, None)),
        Sell(cast(Any, "1")),
        Store(cast(Any, "0"), 0),
        Store(0, cast(Any, None)),
        PassCurse(cast(Any, None), cast(Any, "1")),
        ChooseLocation(cast(Any, None)),
        TakeDog(cast(Any, "rufus")),
        object(),
        None,
    ]


Verdict = tuple[type, str, str] | None


def verdict(state: PinchedState, seat: int, move: Move, via_apply: bool = False) -> Verdict:
    """``None`` if ``check`` (or ``apply``) takes the move, else the error it raises."""
    try:
        if via_apply:
            GAME.apply(state, seat, move)
        else:
            GAME.check(state, seat, move)
    except MoveError as error:
        return type(error), error.reason, error.message
    return None


def check_legality(state: PinchedState, rnd: random.Random) -> None:
    """``legal_moves`` is what ``check`` accepts from the candidate net; ``apply`` applies
    every legal move and refuses a sample of the rest with ``check``'s error; on a sample,
    a seat's verdicts do not depend on what it cannot see."""
    before = msgspec.msgpack.encode(state)
    moves = candidates(state)
    players = state.config.players
    for seat in range(players):
        legal = GAME.legal_moves(state, seat)
        assert len(legal) == len(set(legal))
        assert set(legal) <= set(moves), "the candidate net misses a legal move"
        verdicts = {move: verdict(state, seat, move) for move in moves}
        assert set(legal) == {move for move, result in verdicts.items() if result is None}
        for move in legal:
            after, _ = GAME.apply(state, seat, move)
            check_cards(after)
        refused = [move for move, result in verdicts.items() if result is not None]
        for move in rnd.sample(refused, min(len(refused), 40)):
            assert verdict(state, seat, move, via_apply=True) == verdicts[move]
        twin = hidden_twin(state, seat, rnd)
        for move in [*legal, *rnd.sample(refused, min(len(refused), 40))]:
            assert verdict(twin, seat, move) == verdicts[move], f"{move} depends on secrets"
        for odd in malformed(state):
            result = verdict(state, seat, odd)
            assert result is not None, f"check takes {odd!r}"
            assert verdict(state, seat, odd, via_apply=True) == result
    for seat in (-1, players):
        assert GAME.legal_moves(state, seat) == []
        for move in (EndSelling(), ChooseLocation(state.config.locations[0].location)):
            result = verdict(state, seat, move)
            assert result is not None and result[:2] == (InvalidMoveError, "SEAT_OUT_OF_RANGE")
    assert msgspec.msgpack.encode(state) == before
