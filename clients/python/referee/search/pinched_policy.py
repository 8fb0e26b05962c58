"""Pinched!'s playout policy at the engine level: the heuristic bot's judgement
(referee.bots.pinched.PinchedHeuristic) on engine states, with no protobuf in the loop.

It is the search's model of every burglar, the searching seat's own future included: the
tables the search bot meets are heuristic ones, so the closer the playouts follow them, the
better the search predicts where the others go and what they take. It is also the opponent
model the sampler draws the sealed location cards of a morning from
(:func:`plan_weights`): "Tegelijk kiest iedere andere inbreker een van zijn eigen
locatiekaarten en legt die ook gedekt neer" — the cards lie face down, so a seat can only
guess them from what it knows of the others' judgement, and this is that judgement.

Each choice costs one pass over a handful of moves, so a playout stays cheap.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engines.pinched.components import JOKER, ValuableKind, kinds_of, sale_value
from engines.pinched.model import Dog, Location, Phase, PinchedState, Side
from engines.pinched.moves import (
    ChooseLocation,
    EndSelling,
    FieldRef,
    KeepCurses,
    Move,
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

NO_CARD = -1.0
"""The worth of a bare field: below every card."""


def worth(state: PinchedState, seat: int, card: int | None) -> float:
    """How much ``seat`` wants ``card`` now: a card of a kind on its stash (more while the
    set is short of its top threshold), a joker, a kind for a free slot, else little."""
    if card is None:
        return NO_CARD
    table = state.config.components
    kind = kinds_of(table)[card]
    slots = state.stashes[seat]
    if kind == JOKER:
        return 2.5 if any(slot.kind is not None for slot in slots) else 1.0
    spec = table.kinds[kind]
    top = spec.sales[-1]
    for slot in slots:
        if slot.kind == kind:
            count = len(slot.cards)
            gain = sale_value(spec, count + 1) - sale_value(spec, count)
            return 3.0 + gain + (0.5 if count + 1 < top.threshold else -1.0)
    if any(slot.kind is None for slot in slots):
        return 2.0 + top.value / top.threshold
    return 0.3


def appeal(state: PinchedState, seat: int, location: Location) -> float:
    """What a heist at ``location`` promises ``seat``: its open cards, the vault, the
    treasures, a dog, the bank's draw, the Lisa Mona behind a letter it has read."""
    loot = 0.0
    if location is not Location.BANK:
        row = state.fields[state.index(location)]
        loot = sum(worth(state, seat, card) for card in row if card is not None)
    value = 1.0 + max(0.0, loot)
    if location is Location.DIAMONDS:
        value += 3.0 * (state.lisa_mona is None)
        value += 2.0 * bool(state.diamonds_left or state.clues_left)
    elif location is Location.CLUBS:
        value += 1.5 * _vault_value(state)
    elif location is Location.SPADES:
        value += 2.0 * (state.dogs[Dog.RUFUS] != seat)
    elif location is Location.BANK:
        value += 6.0
    letter = state.letter
    knows = letter is not None and (letter.opened or seat in letter.seen_by)
    if (
        knows
        and letter is not None
        and letter.location is location
        and state.lisa_mona is None
        and state.clues
        and state.clues[seat]
    ):
        value += 12.0
    return value


def _vault_value(state: PinchedState) -> int:
    side = state.side(Location.CLUBS)
    if side is None:
        return 0
    table = state.config.components
    track = table.vault_crown if side is Side.CROWN else table.vault_standard
    return track[state.vault]


def plan_weights(state: PinchedState, seat: int) -> list[tuple[Location, float]]:
    """The heuristic's odds of each location card: appeal cubed for the mastermind (it
    wants the loot), squared for a thief (it guesses where the loot draws the mastermind)."""
    power = 3 if seat == state.mastermind else 2
    return [(p.location, appeal(state, seat, p.location) ** power) for p in state.config.locations]


def draw_location(state: PinchedState, seat: int, rng: random.Random) -> Location:
    """One location card drawn as the heuristic draws it."""
    weights = plan_weights(state, seat)
    return rng.choices([where for where, _ in weights], [w for _, w in weights])[0]


def _best(moves: Sequence[Move], score: list[float], rng: random.Random) -> Move:
    top = max(score)
    return rng.choice([move for move, value in zip(moves, score, strict=True) if value == top])


def _field_card(state: PinchedState, ref: FieldRef) -> int | None:
    return state.fields[state.index(ref.location)][ref.field]


def _store_score(state: PinchedState, seat: int, move: Store) -> float:
    slot = state.stashes[seat][move.slot]
    if kinds_of(state.config.components)[move.card] == JOKER:
        return len(slot.cards) + (5.0 if slot.kind is not None else 0.0)
    return float(len(slot.cards))


def _sell_value(state: PinchedState, seat: int, slot_index: int) -> int:
    slot = state.stashes[seat][slot_index]
    if slot.kind is None:
        return 0
    return sale_value(state.config.components.kinds[slot.kind], len(slot.cards))


def worth_selling(state: PinchedState, seat: int, slot_index: int) -> bool:
    """The heuristic's rule: everything worth something at the end; before it, a set at its
    top threshold, or worth 3 in the last week."""
    slot = state.stashes[seat][slot_index]
    if slot.kind is None:
        return False
    spec: ValuableKind = state.config.components.kinds[slot.kind]
    value = sale_value(spec, len(slot.cards))
    if state.phase is Phase.FINAL_SALE:
        return value > 0
    return len(slot.cards) >= spec.sales[-1].threshold or (value >= 3 and state.watch <= 1)


def _passage_cost(state: PinchedState) -> float:
    crown = state.side(Location.HEARTS) is Side.CROWN
    return 1.5 if crown and state.curse_pile else 0.0


def _night(state: PinchedState, seat: int, moves: list[Move], rng: random.Random) -> Move | None:
    """The best open card, or the passage when its cards are worth more."""
    takes = [m for m in moves if isinstance(m, TakeCard)]
    passages = [m for m in moves if isinstance(m, UsePassage)]
    skips = [m for m in moves if isinstance(m, SkipPassage)]
    if not (takes or passages):
        return skips[0] if skips else None
    heist = state.heist
    row = state.fields[state.index(heist)] if heist not in (None, Location.BANK) else ()
    take_scores = [worth(state, seat, row[m.field]) if row else 0.0 for m in takes]
    take_value = max(take_scores) if takes else (0.0 if skips else -10.0)
    if passages:
        cost = _passage_cost(state)
        scores = [
            sum(worth(state, seat, _field_card(state, ref)) for ref in m.cards) - cost
            for m in passages
        ]
        if max(scores) > take_value:
            return _best(passages, scores, rng)
    if takes:
        return _best(takes, take_scores, rng)
    return skips[0] if skips else passages[0]


def choose(state: PinchedState, seat: int, moves: list[Move], rng: random.Random) -> Move:
    """The heuristic's move among ``moves`` (the legal moves of ``seat``, not empty)."""
    first = moves[0]
    if isinstance(first, Store):
        stores = [m for m in moves if isinstance(m, Store)]
        return _best(stores, [_store_score(state, seat, m) for m in stores], rng)
    if isinstance(first, ChooseLocation):
        return ChooseLocation(draw_location(state, seat, rng))
    if isinstance(first, TakeWithGordie):
        gordie = [m for m in moves if isinstance(m, TakeWithGordie)]
        return _best(gordie, [worth(state, seat, _field_card(state, m.card)) for m in gordie], rng)
    return _day(state, seat, moves, rng)


def _day(state: PinchedState, seat: int, moves: list[Move], rng: random.Random) -> Move:
    dogs = [m for m in moves if isinstance(m, TakeDog)]
    if dogs:
        return next((m for m in dogs if m.dog is Dog.RUFUS), dogs[0])
    passes = [m for m in moves if isinstance(m, PassCurse)]
    if passes:
        points = {curse.id: curse.points for curse in state.curses[seat]}
        sold = [len(pile) for pile in state.sold]
        return _best(
            passes, [points.get(m.curse, 0) * 100.0 + sold[m.to_seat] for m in passes], rng
        )
    keep = next((m for m in moves if isinstance(m, KeepCurses)), None)
    if keep is not None:
        return keep
    night = _night(state, seat, moves, rng)
    if night is not None:
        return night
    sells = [m for m in moves if isinstance(m, Sell)]
    end = [m for m in moves if isinstance(m, EndSelling)]
    if sells or end:
        good = [m for m in sells if worth_selling(state, seat, m.slot)]
        if good or not end:
            pool = good or sells
            return _best(pool, [float(_sell_value(state, seat, m.slot)) for m in pool], rng)
        return end[0]
    river = [m for m in moves if isinstance(m, TakeFromRiver)]
    if river:
        return _best(river, [worth(state, seat, state.river[m.field]) for m in river], rng)
    return rng.choice(moves)


def score(state: PinchedState, seat: int, move: Move) -> float:
    """The heuristic's own score of one move, to rank a long list of moves of one kind
    (stores, the passage's cards, Gordie's card, the river, a curse to pass, a sale)."""
    match move:
        case Store():
            return _store_score(state, seat, move)
        case TakeCard(field=field):
            heist = state.heist
            if heist is None or heist is Location.BANK:
                return 0.0
            return worth(state, seat, state.fields[state.index(heist)][field])
        case UsePassage(cards=refs):
            value = sum(worth(state, seat, _field_card(state, ref)) for ref in refs)
            return value - _passage_cost(state)
        case TakeWithGordie(card=ref):
            return worth(state, seat, _field_card(state, ref))
        case TakeFromRiver(field=field):
            return worth(state, seat, state.river[field])
        case PassCurse(curse=curse, to_seat=to):
            points = {c.id: c.points for c in state.curses[seat]}
            return points.get(curse, 0) * 100.0 + len(state.sold[to])
        case Sell(slot=slot):
            return float(_sell_value(state, seat, slot))
        case ChooseLocation(location=location):
            return appeal(state, seat, location)
    return 0.0
