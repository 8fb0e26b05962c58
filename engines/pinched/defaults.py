"""What a turn clock plays for a seat of Pinched! whose time ran out (issue 17: "in
Pinched! a choice drawn from the game's seeded RNG").

Step by step, the first that applies to the seat:

1. Valuables to store (a real choice the storing rules leave it): the lowest card on the
   lowest slot it may go to. Storing is compulsory; nothing else can come first.
2. The morning's sealed location card: drawn from the game's RNG. A fixed choice would let
   the others know where an absent burglar goes; the draw comes from a child stream of the
   state's RNG (``Rng.child("default_move", day, seat)``), so the game's own stream is
   never advanced and replay draws the same location. The seed is secret until the game
   ends, so nobody can foresee it.
3. Gordie, before the morning or at the game's end: the first open card, in table order
   of the locations and then by field.
4. The night: a take on the heist's location takes its lowest open field; at a bare take
   or alone at the hearts mansion the secret passage is declined (on the crown side it
   costs a curse); the spades crown's dog is the first one the rules offer (Rufus, then
   Gordie); curses are kept (passing one is optional).
5. After the heist: the mastermind ends his selling without selling (a set keeps growing);
   a river pick takes the lowest field that holds a card.
6. The final sale: every set that fetches a point is sold, lowest slot first, then the
   seat ends selling (an unsold set scores nothing, so selling costs nothing).

Every default ends a step (a choice made, a take used, a turn passed), and a day has a
bounded number of steps, so a game played by the clock ends with its last week.
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.base import Seat
from engines.checks import check_seat, check_to_act
from engines.errors import MoveError
from engines.pinched import night, rules, stash
from engines.pinched.components import sale_value
from engines.pinched.model import RIVER, SLOTS, Phase, PinchedState
from engines.pinched.moves import (
    ChooseLocation,
    EndSelling,
    FieldRef,
    KeepCurses,
    Move,
    Sell,
    SkipPassage,
    Store,
    TakeCard,
    TakeDog,
    TakeFromRiver,
    TakeWithGordie,
)

RNG_LABEL = "default_move"


def default_move(state: PinchedState, seat: object) -> Move:
    """The move the clock plays for ``seat`` (see the module docstring)."""
    seat = check_seat(seat, state.config.players, over=state.finished)
    check_to_act(seat, rules.to_act(state))
    move = _first_legal(state, seat, _candidates(state, seat))
    if move is not None:
        return move
    return rules.legal_moves(state, seat)[0]


def location_draw(state: PinchedState, seat: Seat) -> ChooseLocation:
    """The sealed location card the clock lays for ``seat`` this morning."""
    locations = [placement.location for placement in state.config.locations]
    index, _ = state.rng.child(RNG_LABEL, state.day, seat).below(len(locations))
    return ChooseLocation(locations[index])


def _candidates(state: PinchedState, seat: Seat) -> list[Move]:
    options = stash.store_options(state, seat)
    if options:
        return [Store(*min(options))]
    phase = state.phase
    if phase is Phase.PLAN:
        return [location_draw(state, seat)]
    if phase in (Phase.DOGS, Phase.FINAL_DOGS):
        return [TakeWithGordie(ref) for ref in _open_cards(state)]
    if phase is Phase.NIGHT:
        moves: list[Move] = [TakeCard(field) for field in night.take_options(state)]
        moves += [SkipPassage(), *map(TakeDog, night.dog_options(state)), KeepCurses()]
        return moves
    if phase is Phase.FINAL_SALE:
        return [*map(Sell, _worth_selling(state, seat)), EndSelling()]
    return [EndSelling(), *map(TakeFromRiver, range(RIVER))]


def _open_cards(state: PinchedState) -> list[FieldRef]:
    refs: list[FieldRef] = []
    for placement, row in zip(state.config.locations, state.fields, strict=True):
        refs += [FieldRef(placement.location, f) for f, card in enumerate(row) if card is not None]
    return refs


def _worth_selling(state: PinchedState, seat: Seat) -> list[int]:
    kinds = state.config.components.kinds
    slots = state.stashes[seat]
    return [
        slot
        for slot in range(SLOTS)
        if (kind := slots[slot].kind) is not None
        and sale_value(kinds[kind], len(slots[slot].cards)) > 0
    ]


def _first_legal(state: PinchedState, seat: Seat, candidates: Iterable[Move]) -> Move | None:
    for move in candidates:
        try:
            rules.check(state, seat, move)
        except MoveError:
            continue
        return move
    return None
