"""Helpers for the tests of The Gang's challenge and specialist cards and group decisions.

A heist with given cards active is dealt by the engine's own ``flow.start_heist`` (so the
effects at the deal are the engine's, never faked): the cards are put in the state's
``challenges`` / ``specialist`` fields of an Advanced table whose first heist is over in
all but name, and ``start_heist(..., success=None)`` deals the next heist with them (in
Advanced mode the first-heist step leaves the active cards alone). Mid-heist positions are
rigged from such a heist with exact pockets, board, deck top and chips.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

import msgspec
import msgspec.structs
import pytest

from engines.cards import DECK, Card, cards
from engines.errors import MoveError
from engines.the_gang import GAME, TakeChip, flow
from engines.the_gang.events import Event
from engines.the_gang.model import (
    JACK_CARD,
    Challenge,
    Colour,
    Decision,
    Specialist,
    TheGangState,
    UseSpecialist,
)
from engines.the_gang.moves import Accept, Propose
from engines.the_gang.view import TheGangView
from tests.the_gang.support import SEED, Play, apply_all, reason_of, rigged

T = TypeVar("T")

ALL_VIEWERS: tuple[int | None, ...] = (None, 0, 1, 2, 3, 4, 5)


def advanced(players: int, seed: bytes = SEED) -> TheGangState:
    """A fresh Advanced table (its first heist is played without cards)."""
    return GAME.new_game(GAME.make_config(players, {"mode": "advanced"}), seed)


def heist_with(
    players: int,
    challenges: Iterable[Challenge] = (),
    specialist: Specialist | None = None,
    seed: bytes = SEED,
) -> tuple[TheGangState, list[Event]]:
    """The next heist dealt by ``flow.start_heist`` with exactly these cards active."""
    wanted = tuple(sorted(challenges))
    before = msgspec.structs.replace(
        advanced(players, seed), challenges=wanted, specialist=specialist
    )
    state, events = flow.start_heist(before, success=None)
    assert (state.challenges, state.specialist) == (wanted, specialist)
    assert state.heist == 2
    return state, events


def predicted_deal(state: TheGangState) -> tuple[Card, ...]:
    """The 52 cards in the order ``start_heist`` will shuffle them from ``state``."""
    return state.rng.shuffled(DECK)[0]


def rig(
    state: TheGangState,
    pockets: Sequence[str],
    board: str = "",
    *,
    top: str = "",
    round: Colour | None = None,
    chips: Sequence[Sequence[int | None]] | None = None,
    **changes: Any,
) -> TheGangState:
    """``support.rigged`` with ``top`` stacked on the deck (the next cards drawn) and any
    other state fields replaced (``challenges``, ``specialist``, ``used``...)."""
    rows = None if chips is None else [tuple(row) for row in chips]
    state = rigged(state, pockets, board, round=round, chips=rows)
    stacked = cards(top)
    assert set(stacked) <= set(state.deck), "a stacked card is already in play"
    deck = stacked + tuple(card for card in state.deck if card not in stacked)
    return msgspec.structs.replace(state, deck=deck, **changes)


def river(
    pockets: Sequence[str],
    board: str,
    red: Sequence[int],
    *,
    challenges: Iterable[Challenge] = (),
    specialist: Specialist | None = None,
    **changes: Any,
) -> tuple[TheGangState, Play]:
    """An Advanced table in the red round with these cards active, where ``red[seat]`` is
    the red chip each seat will hold: every seat but the last holds it already; the play
    returned (the last seat taking its chip) ends the red round."""
    players = len(pockets)
    full = tuple(range(players))
    row: list[int | None] = [None] * players
    for seat, stars in enumerate(red[:-1]):
        row[stars - 1] = seat
    base = advanced(players)
    state = rig(
        base,
        pockets,
        board,
        round=Colour.RED,
        chips=[full, full, full, row],
        challenges=tuple(sorted(challenges)),
        specialist=specialist,
        **changes,
    )
    return state, (players - 1, TakeChip(Colour.RED, red[-1]))


def encoded(state: TheGangState) -> bytes:
    return msgspec.msgpack.encode(state)


def rejects(state: TheGangState, seat: int, move: Any, kind: type[MoveError], reason: str) -> None:
    """``check`` and ``apply`` refuse ``move`` with this error kind and reason, the state is
    unchanged after both, and ``legal_moves`` does not offer the move."""
    before = encoded(state)
    assert reason_of(state, seat, move) == (kind, reason)
    assert encoded(state) == before
    with pytest.raises(MoveError) as info:
        GAME.apply(state, seat, move)
    assert type(info.value) is kind
    assert info.value.reason == reason
    assert encoded(state) == before
    if 0 <= seat < state.config.players:
        assert move not in GAME.legal_moves(state, seat)


def decide(
    state: TheGangState, proposer: int, decision: Decision, *, skip: Iterable[int] = ()
) -> tuple[TheGangState, list[Event]]:
    """``proposer`` proposes ``decision`` and every other seat but ``skip`` accepts it."""
    state, events = GAME.apply(state, proposer, Propose(decision))
    number = state.next_proposal - 1
    left_out = {proposer, *skip}
    plays: list[Play] = [
        (seat, Accept(number)) for seat in range(state.config.players) if seat not in left_out
    ]
    state, more = apply_all(state, plays)
    return state, events + more


def use(
    state: TheGangState, seat: int, proposer: int = 0, **extra: int
) -> tuple[TheGangState, list[Event]]:
    """The gang agrees that ``seat`` uses the active specialist."""
    return decide(state, proposer, UseSpecialist(seat, **extra))


def views(state: TheGangState) -> list[tuple[int | None, TheGangView]]:
    """The view of every seat and of a spectator."""
    viewers = [viewer for viewer in ALL_VIEWERS if viewer is None or viewer < state.config.players]
    return [(viewer, GAME.view(state, viewer)) for viewer in viewers]


def of_type(events: Iterable[object], kind: type[T]) -> list[T]:
    return [event for event in events if isinstance(event, kind)]


def all_cards(state: TheGangState) -> list[Card]:
    """Every card on the table: deck, board, pockets and discards, the Jack card included."""
    pocketed = [card for pocket in state.pockets for card in pocket]
    return [*state.deck, *state.board, *pocketed, *state.discards]


def conserved(state: TheGangState) -> bool:
    """The 52 playing cards are all there once each, and the Jack card at most once."""
    everything = all_cards(state)
    ordinary = sorted(card for card in everything if card.suit is not None)
    return ordinary == sorted(DECK) and everything.count(JACK_CARD) <= 1


def pockets_around(
    players: int, fixed: dict[int, str], board: str = "", size: int = 2
) -> list[str]:
    """Pockets for every seat: ``fixed`` ones as given, the others the lowest unused cards
    of the standard deck order (for positions where only some hands matter)."""
    used = set(cards(board)) | {card for text in fixed.values() for card in cards(text)}
    free = (card for card in DECK if card not in used)
    out: list[str] = []
    for seat in range(players):
        if seat in fixed:
            out.append(fixed[seat])
        else:
            out.append(" ".join(str(next(free)) for _ in range(size)))
    return out


def complete_round(state: TheGangState) -> tuple[TheGangState, list[Event]]:
    """Every seat without a chip of the current colour takes a chip from the centre (the
    lowest-numbered seat the lowest chip)."""
    colour, row = state.round, state.chips[state.round]
    waiting = [seat for seat in range(state.config.players) if seat not in row]
    free = [stars for stars in range(1, len(row) + 1) if row[stars - 1] is None]
    return apply_all(
        state, [(seat, TakeChip(colour, s)) for seat, s in zip(waiting, free, strict=True)]
    )
