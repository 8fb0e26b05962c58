"""Players for Pinched!'s playout tests and golden transcripts.

* :func:`random_play` — any seat that may act, any legal move, uniformly.
* :func:`sensible_play` — a seeded random burglar with preferences, deciding from its own
  view only (``GAME.view(state, seat)``) and the legal moves: it stores jokers on its
  biggest set, takes cards of kinds it collects, plans heists where there is loot (the
  vault, treasures, the bank; the letter's location once it holds a clue), guesses where
  the loot is, sometimes uses the passage, passes its worst curse on, sells sets worth
  something (everything worth something at the end) and stops.

Both pick the seat to move at random among ``GAME.to_act`` (the morning's sealed choices and
the time after the heist are simultaneous), so a game is a function of the table's seed and
the ``random.Random`` given: the golden transcripts are reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from engines.pinched import GAME, Move, PinchedState, PinchedView
from engines.pinched.components import JOKER, kinds_of, sale_value
from engines.pinched.model import Location, Phase
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
from engines.pinched.view import StashSlot, Valuable

T = TypeVar("T")
Play = tuple[int, Move]
Chooser = Callable[[PinchedState, random.Random], Play]

MAX_MOVES = 3000
"""No game of up to 5 seats needs this many moves (a few hundred at most)."""


def new(players: int, options: dict[str, Any], seed: bytes) -> PinchedState:
    """A fresh table through the public factory functions."""
    return GAME.new_game(GAME.make_config(players, options), seed)


def random_play(state: PinchedState, rnd: random.Random) -> Play:
    seat = rnd.choice(sorted(GAME.to_act(state)))
    return seat, rnd.choice(GAME.legal_moves(state, seat))


def sensible_play(state: PinchedState, rnd: random.Random) -> Play:
    seat = rnd.choice(sorted(GAME.to_act(state)))
    return seat, sensible_move(GAME.view(state, seat), GAME.legal_moves(state, seat), rnd)


def play_out(
    state: PinchedState, choose: Chooser, rnd: random.Random, limit: int = MAX_MOVES
) -> list[Play]:
    """The plays of a whole game from ``state`` (raises if it takes more than ``limit``)."""
    plays: list[Play] = []
    while not state.finished:
        if len(plays) >= limit:
            raise AssertionError(f"no end after {limit} moves")
        play = choose(state, rnd)
        state, _ = GAME.apply(state, *play)
        plays.append(play)
    return plays


# --- the sensible burglar -------------------------------------------------------------


def _card_at(view: PinchedView, ref: FieldRef) -> Valuable | None:
    index = [p.location for p in view.locations].index(ref.location)
    return view.fields[index].fields[ref.field].card


def _slot_kind(view: PinchedView, slot: StashSlot) -> int | None:
    """The index of the slot's kind in the component table (None: an empty slot)."""
    return [kind.name for kind in view.components.kinds].index(slot.kind) if slot.kind else None


def _worth(view: PinchedView, card: Valuable | None) -> float:
    """How much the viewer wants ``card`` now: its kind on the stash, a joker, a free slot."""
    if card is None:
        return -1.0
    assert view.viewer is not None
    kind = kinds_of(view.components)[card.id]
    stash = view.stashes[view.viewer].slots
    if kind == JOKER:
        return 2.5
    for slot in stash:
        if _slot_kind(view, slot) == kind:
            return 3.0 + 0.1 * len(slot.cards)
    if any(not slot.kind for slot in stash):
        return 2.0 + kind * 0.1  # rarer kinds are worth more
    return 0.5


def _best(options: Sequence[T], score: Callable[[T], float], rnd: random.Random) -> T:
    """The highest-scoring option, ties broken at random."""
    scored = [(score(move), rnd.random(), index) for index, move in enumerate(options)]
    return options[max(scored)[2]]


def _of(kind: type[T], moves: Sequence[Move]) -> list[T]:
    return [move for move in moves if isinstance(move, kind)]


def _store(view: PinchedView, move: Store) -> float:
    assert view.viewer is not None
    slot = view.stashes[view.viewer].slots[move.slot]
    if kinds_of(view.components)[move.card] == JOKER:
        return len(slot.cards) + (5 if slot.kind else 0)
    return len(slot.cards)  # a new kind onto jokers waiting on an empty slot


def _heist_appeal(view: PinchedView, location: Location) -> float:
    """How tempting a heist at ``location`` looks from the viewer's seat."""
    seat = view.viewer
    index = [p.location for p in view.locations].index(location)
    loot = sum(field.card is not None for field in view.fields[index].fields)
    appeal = 1.0 + loot
    if location is Location.DIAMONDS:
        appeal += 3 * (view.lisa_mona_holder is None)
        appeal += 2 * bool(view.diamonds_left or view.clues_left)
    elif location is Location.CLUBS:
        appeal += view.vault_value
    elif location is Location.SPADES:
        appeal += 2.0 * (seat not in (view.rufus_holder, view.gordie_holder))
    elif location is Location.BANK:
        appeal += 3.0
    clue = seat is not None and view.clues[seat]
    if view.letter is location and view.lisa_mona_holder is None and clue:
        appeal += 12.0
    return appeal


def _choose_location(view: PinchedView, options: Sequence[Move], rnd: random.Random) -> Move:
    weights = []
    for move in options:
        assert isinstance(move, ChooseLocation)
        appeal = _heist_appeal(view, move.location)
        weights.append(appeal * appeal if view.viewer == view.mastermind else appeal)
    return rnd.choices(list(options), weights=weights)[0]


def _passage(view: PinchedView, move: UsePassage) -> float:
    return sum(_worth(view, _card_at(view, ref)) for ref in move.cards)


def _sell(view: PinchedView, move: Sell, final: bool) -> float:
    assert view.viewer is not None
    slot = view.stashes[view.viewer].slots[move.slot]
    index = _slot_kind(view, slot)
    assert index is not None
    kind = view.components.kinds[index]
    value = sale_value(kind, len(slot.cards))
    if value == 0:
        return -1.0
    top = kind.sales[-1].threshold
    return value + (5 if final or len(slot.cards) >= top else 0)


def sensible_move(view: PinchedView, legal: Sequence[Move], rnd: random.Random) -> Move:
    """One of ``legal``, chosen from ``view`` (the deciding seat's own view)."""
    assert view.viewer is not None and legal
    if stores := _of(Store, legal):
        return _best(stores, lambda m: _store(view, m), rnd)
    if locations := _of(ChooseLocation, legal):
        return _choose_location(view, locations, rnd)
    if dogs := _of(TakeDog, legal):
        return rnd.choice(dogs)
    passes, keep = _of(PassCurse, legal), _of(KeepCurses, legal)
    if passes or keep:
        if passes and (not keep or rnd.random() < 0.85):
            points = {c.id: c.points for c in view.curses}
            return _best(passes, lambda m: points[m.curse], rnd)
        return keep[0]
    if gordie := _of(TakeWithGordie, legal):
        return _best(gordie, lambda m: _worth(view, _card_at(view, m.card)), rnd)
    takes, passages, skip = _of(TakeCard, legal), _of(UsePassage, legal), _of(SkipPassage, legal)
    if passages and (not takes or rnd.random() < 0.4) and (not skip or rnd.random() < 0.7):
        return _best(passages, lambda m: _passage(view, m), rnd)
    if takes:
        assert view.heist is not None
        row = view.fields[[p.location for p in view.locations].index(view.heist)].fields
        return _best(takes, lambda m: _worth(view, row[m.field].card), rnd)
    if skip:
        return skip[0]
    sells, end = _of(Sell, legal), _of(EndSelling, legal)
    if sells or end:
        final = view.phase is Phase.FINAL_SALE
        good = [
            m
            for m in sells
            if _sell(view, m, final) >= (1 if final else 4)
            or (_sell(view, m, final) > 0 and rnd.random() < 0.3)
        ]
        if good or not end:
            return _best(good or sells, lambda m: _sell(view, m, final), rnd)
        return end[0]
    if river := _of(TakeFromRiver, legal):
        return _best(river, lambda m: _worth(view, view.river[m.field].card), rnd)
    return rnd.choice(list(legal))
