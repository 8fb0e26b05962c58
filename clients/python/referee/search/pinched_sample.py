"""Pinched!'s sampler: a whole table a seat cannot tell from the real one.

What a seat cannot see (engines.pinched.view, from the seed's rules): "Schud de
kostbaarheden en leg ze als gedekte trekstapel klaar" (the draw pile, order and contents);
the others' hands ("Kostbaarheden die je daarna niet kwijt kunt, houd je in je hand") and
sold cards ("Leg zoveel kaarten uit die set gedekt op het veld voor verkochte
kostbaarheden"); "Je vloeken houd je geheim" and the shuffled curse pile; "bekijkt het in
het geheim de verzegelde brief" (the letter, unless this seat read it or it lies open); and
in the morning the location cards the others laid "gedekt" before the reveal. Everything
else lies open: the locations' cards, the river, the face-up discards, every stash, the
counts of every pile, and (in the envelope every view comes in) the seats that may act.

A sample deals the unseen cards (every card not in sight) to the others' hands and sold
piles and the deck, keeping the counts. A hand holds only what the storage rules left in
it: never a kind its stash holds ("Heb je een kaart van een soort die al op je
voorraadtableau ligt, dan leg je die op dat veld"), a joker or a new kind for an empty slot
only while its seat owes the choice of where it goes, which the seats that may act tell.
The sealed location cards are drawn from the playout policy's odds
(:func:`~referee.search.pinched_policy.plan_weights`): the model of how the others choose.
A seat that keeps a :class:`SoldMemory` of the views it was shown also knows many of the
cards that went face down to the others' sold piles (each stash's cards were in sight), and
a sample puts them there.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping

import msgspec

from engines.pinched import GAME, stash
from engines.pinched.components import JOKER, kinds_of
from engines.pinched.model import (
    RULES_REVISION,
    Curse,
    Location,
    Phase,
    PinchedConfig,
    PinchedState,
    Side,
    Slot,
    TheLetter,
)
from engines.pinched.view import PinchedView
from engines.rng import Rng
from referee.search import pinched_policy

MORNING = (Phase.DOGS, Phase.PLAN)
TRIES = 30
"""Draws of one hand before the sampler settles for a hand that breaks a storage rule."""


def sample(
    view: PinchedView,
    seat: int,
    rng: random.Random,
    to_act: Collection[int] | None = None,
    sold: Mapping[int, Collection[int]] | None = None,
) -> PinchedState:
    """A whole state ``seat`` cannot tell from the real one (see the module's docstring);
    ``to_act``, the seats the table waits on, when known (it tells who owes a store);
    ``sold``, the cards known to lie in each other seat's sold pile (:class:`SoldMemory`)."""
    pool = _unseen(view)
    rng.shuffle(pool)
    unseen = set(pool)
    known: dict[int, list[int]] = {}
    for other, cards in (sold or {}).items():
        if other != seat:
            known[other] = [c for c in sorted(cards) if c in unseen][: view.sold_counts[other]]
            unseen.difference_update(known[other])
    pool = [card for card in pool if card in unseen]
    state = _deal(_table(view, seat, rng), view, seat, pool, rng, to_act)
    state = _sold(state, view, seat, pool, known)
    if view.phase is Phase.PLAN:
        state = _sealed_choices(state, view, seat, rng)
    return state


def _table(view: PinchedView, seat: int, rng: random.Random) -> PinchedState:
    """The table as ``view`` shows it, the seat's own cards and curses included; the
    others' hands and sold piles empty, no deck yet, and the hidden curses dealt."""
    table = view.components
    names = {kind.name: index for index, kind in enumerate(table.kinds)}
    own = tuple(c.id for c in view.hand)
    curses, pile = _curses(view, seat, rng)
    return PinchedState(
        config=PinchedConfig(view.players, view.locations, table, RULES_REVISION),
        rng=Rng(rng.getrandbits(128).to_bytes(16, "big")),
        deck=(),
        discard=tuple(card.id for card in view.discard),
        fields=tuple(tuple(_id(f.card) for f in row.fields) for row in view.fields),
        river=tuple(_id(f.card) for f in view.river),
        stashes=tuple(
            tuple(Slot(names.get(s.kind), tuple(c.id for c in s.cards)) for s in st.slots)
            for st in view.stashes
        ),
        hands=tuple(own if s == seat else () for s in range(view.players)),
        sold=tuple(
            tuple(c.id for c in view.sold) if s == seat else () for s in range(view.players)
        ),
        first_mastermind=view.first_mastermind,
        mastermind=view.mastermind,
        watch=view.watch,
        phase=view.phase,
        day=view.day,
        choices=view.choices if view.phase not in MORNING else (None,) * view.players,
        heist=view.heist,
        present=view.present,
        takes=view.takes,
        passage_open=view.passage_open,
        passage_due=view.passage_due,
        dog_due=view.dog_due,
        curse_turns=view.curse_turns,
        curses_done=_curses_done(view),
        river_turns=view.river_turns,
        selling=view.selling,
        gordie_due=view.gordie_due,
        vault=view.vault,
        dogs=(view.rufus_holder, view.gordie_holder),
        lisa_mona=view.lisa_mona_holder,
        lisa_mona_points=view.lisa_mona_points,
        diamonds_left=view.diamonds_left,
        diamonds=view.diamonds,
        clues_left=view.clues_left,
        clues=view.clues,
        letter=_letter(view, rng),
        curse_pile=pile,
        curses=curses,
    )


def _id(card: object) -> int | None:
    return getattr(card, "id", None)


def _curses_done(view: PinchedView) -> bool:
    """Not in the view, but fixed by it: the curse passing of the night is open while its
    turns are listed, and over once the night is."""
    if view.phase is Phase.NIGHT:
        return bool(view.curse_turns)
    return view.phase not in MORNING


def _visible(view: PinchedView) -> list[int]:
    """Every card id the view shows: open, on a stash, or the seat's own."""
    seen = [c.id for c in view.discard] + [c.id for c in view.hand] + [c.id for c in view.sold]
    seen += [f.card.id for f in view.river if f.card is not None]
    for row in view.fields:
        seen += [f.card.id for f in row.fields if f.card is not None]
    for st in view.stashes:
        for slot in st.slots:
            seen += [c.id for c in slot.cards]
    return seen


def _unseen(view: PinchedView) -> list[int]:
    """Every card id the view does not show (the same multiset as the real deck's rest)."""
    seen = set(_visible(view))
    return [card for card in range(len(kinds_of(view.components))) if card not in seen]


def _deal(
    state: PinchedState,
    view: PinchedView,
    seat: int,
    pool: list[int],
    rng: random.Random,
    to_act: Collection[int] | None,
) -> PinchedState:
    """The others' hands (see :func:`_hand`), taken out of ``pool``. A hand is drawn
    without jokers first, to learn which seats the phase itself waits on: a seat the table
    waits on besides those owes a store, one it does not wait on owes none, and of the
    others either may be true."""
    others = [s for s in range(view.players) if s != seat and view.hand_sizes[s]]
    hands = list(state.hands)
    kinds = kinds_of(view.components)
    for other in others:
        fits = _fits(state, other, kinds, pool, False)
        hands[other] = tuple(_take(pool, fits, view.hand_sizes[other]))
    state = msgspec.structs.replace(state, hands=tuple(hands))
    waiting = GAME.to_act(state) if others else frozenset()
    if to_act is None and others and not waiting and view.phase is not Phase.OVER:
        to_act = [rng.choice(others)]  # the table waits on somebody: a store owed
    if to_act is not None and others:
        for other in others:
            pool.extend(hands[other])
            hands[other] = ()
        # the seats that must owe first: the cards that make a hand owe may be few
        for other in sorted(others, key=lambda s: s in waiting or s not in to_act):
            owes = other in to_act
            hands[other] = _hand(state, other, pool, rng, owes and other not in waiting, owes)
    return msgspec.structs.replace(state, hands=tuple(hands))


def _sold(
    state: PinchedState,
    view: PinchedView,
    seat: int,
    pool: list[int],
    known: Mapping[int, list[int]],
) -> PinchedState:
    """The others' sold piles: the cards known to be in one, the rest drawn from ``pool``;
    what is left of it is the deck."""
    sold = list(state.sold)
    for other in range(view.players):
        if other != seat:
            surely = known.get(other, [])
            sold[other] = (*surely, *_take(pool, pool, view.sold_counts[other] - len(surely)))
    return msgspec.structs.replace(state, sold=tuple(sold), deck=tuple(pool))


def _fits(
    state: PinchedState, seat: int, kinds: tuple[int, ...], pool: list[int], jokers: bool
) -> list[int]:
    """The cards of ``pool`` that ``seat``'s hand may hold: no kind its stash holds, and
    jokers only when asked."""
    held = {slot.kind for slot in state.stashes[seat]}
    return [c for c in pool if kinds[c] not in held and (jokers or kinds[c] != JOKER)]


def _hand(
    state: PinchedState,
    seat: int,
    pool: list[int],
    rng: random.Random,
    must_owe: bool,
    may_owe: bool,
) -> tuple[int, ...]:
    """A hand for ``seat`` taken out of ``pool`` that storing has settled ("Een veld met
    alleen jokers geldt nog steeds als leeg": no placement left without a choice), owing a
    choice when ``must_owe``, none unless ``may_owe`` (then it holds no joker)."""
    kinds = kinds_of(state.config.components)
    size = len(state.hands[seat])
    fits = _fits(state, seat, kinds, pool, may_owe)
    free = any(slot.kind is None for slot in state.stashes[seat])
    owing = [c for c in fits if kinds[c] == JOKER or free] if must_owe else []
    hand: list[int] = []
    for _ in range(TRIES):
        if owing:
            first = rng.choice(owing)
            rest = [c for c in fits if c != first]
            hand = [first, *rng.sample(rest, min(size - 1, len(rest)))]
        else:
            hand = rng.sample(fits, min(size, len(fits)))
        trial = _with_hand(state, seat, tuple(hand))
        settled = stash.settle(trial, seat, []) == trial
        owes = stash.owes_storing(trial, seat)
        if settled and (owes or not must_owe) and (may_owe or not owes):
            break
    for card in hand:
        pool.remove(card)
    return tuple(_take(pool, [], size - len(hand))) + tuple(hand)


def _with_hand(state: PinchedState, seat: int, hand: tuple[int, ...]) -> PinchedState:
    hands = tuple(hand if s == seat else h for s, h in enumerate(state.hands))
    return msgspec.structs.replace(state, hands=hands)


def _take(pool: list[int], preferred: list[int], count: int) -> list[int]:
    """``count`` cards out of ``pool``: from ``preferred`` (already in random order) while
    it lasts, then any (a state the view allows but the sampler's rule does not foresee)."""
    taken = preferred[:count]
    for card in taken:
        pool.remove(card)
    while len(taken) < count:
        taken.append(pool.pop())
    return taken


def _curses(
    view: PinchedView, seat: int, rng: random.Random
) -> tuple[tuple[tuple[Curse, ...], ...], tuple[Curse, ...]]:
    """The curses this seat has not seen, dealt to the others' counts and the pile."""
    if Location.HEARTS not in {p.location for p in view.locations if p.side is Side.CROWN}:
        return ((),) * view.players, ()
    mine = {curse.id for curse in view.curses}
    pool = [Curse(i, p) for i, p in enumerate(view.components.curses) if i not in mine]
    rng.shuffle(pool)
    out: list[tuple[Curse, ...]] = []
    for other in range(view.players):
        if other == seat:
            out.append(view.curses)
        else:
            count = view.curse_counts[other]
            out.append(tuple(pool[:count]))
            pool = pool[count:]
    return tuple(out), tuple(pool)


def _letter(view: PinchedView, rng: random.Random) -> TheLetter | None:
    """The sealed letter: as read (or opened), else any location it may name ("Haal de
    verzegelde brieven van locaties die niet meedoen weg")."""
    crown = any(p.location is Location.DIAMONDS and p.side is Side.CROWN for p in view.locations)
    if not crown:
        return None
    where = view.letter
    if where is None:
        others = [p.location for p in view.locations if p.location is not Location.DIAMONDS]
        where = rng.choice(others)
    return TheLetter(where, view.letter_read_by, view.letter_opened)


def _sealed_choices(
    state: PinchedState, view: PinchedView, seat: int, rng: random.Random
) -> PinchedState:
    """The location cards lying face down this morning: this seat's own as laid, the
    others' drawn from the policy's odds."""
    choices: list[Location | None] = [None] * view.players
    for chosen in view.chosen_seats:
        if chosen == seat:
            choices[chosen] = view.my_choice
        else:
            choices[chosen] = pinched_policy.draw_location(state, chosen, rng)
    return msgspec.structs.replace(state, choices=tuple(choices))


class SoldMemory:
    """What one seat can tell of the others' sold piles from the views it is shown: "Leg
    zoveel kaarten uit die set gedekt op het veld voor verkochte kostbaarheden [...] Leg de
    overige kaarten van die set open op de aflegstapel". Every stash lies open, card by
    card; a card that has left a seat's stash and is not on the discard pile went face down
    to that seat's sold pile, unless the discards went back into the deck meanwhile ("Is
    de trekstapel op, schud dan de aflegstapel"), or more cards left than were sold: then
    the cards that left are not placed."""

    def __init__(self) -> None:
        self.game: tuple[object, ...] = ()
        self._reset()

    def _reset(self) -> None:
        self.stashes: dict[int, int] = {}  # card -> the seat on whose stash it lay
        self.discard: frozenset[int] = frozenset()
        self.deck_size = 0
        self.sold_counts: tuple[int, ...] = ()
        self.sold: dict[int, set[int]] = {}

    def observe(self, view: PinchedView, seat: int) -> dict[int, frozenset[int]]:
        """Take in ``view`` (seat ``seat``'s); each other seat's known sold cards."""
        game = (view.players, view.locations, view.first_mastermind, seat)
        counts = zip(view.sold_counts, self.sold_counts, strict=False)
        if game != self.game or any(now < then for now, then in counts):
            self._reset()  # another game, or the same seat of a new one
            self.game = game
        stashes = {
            card.id: owner
            for owner, stash_ in enumerate(view.stashes)
            for slot in stash_.slots
            for card in slot.cards
        }
        discard = frozenset(card.id for card in view.discard)
        if self.sold_counts and self.discard <= discard and view.deck_size <= self.deck_size:
            self._left(view, seat, stashes, discard)
        self.stashes, self.discard = stashes, discard
        self.deck_size, self.sold_counts = view.deck_size, view.sold_counts
        visible = set(_visible(view))
        return {s: frozenset(cards - visible) for s, cards in self.sold.items()}

    def _left(
        self, view: PinchedView, seat: int, stashes: dict[int, int], discard: frozenset[int]
    ) -> None:
        gone: dict[int, set[int]] = {}
        for card, owner in self.stashes.items():
            if owner != seat and card not in stashes and card not in discard:
                gone.setdefault(owner, set()).add(card)
        for owner, cards in gone.items():
            if len(cards) <= view.sold_counts[owner] - self.sold_counts[owner]:
                self.sold.setdefault(owner, set()).update(cards)
