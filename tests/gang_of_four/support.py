"""Shared helpers for Gang of Four's engine tests: rigged tables, candidate moves, strategies
and the structural check that nothing shown to a viewer holds a hidden hand.

Tests may look at every hand; rigged tables are built from a real table with
``msgspec.structs.replace``, so everything a test does not set (the random source, the
totals, the hand number) is what the factory functions made.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import msgspec
import msgspec.structs

from engines.base import rules_revision
from engines.errors import MoveError
from engines.gang_of_four import (
    GAME,
    GangOfFourState,
    GangOfFourView,
    GiveBack,
    Move,
    Pass,
    Play,
)
from engines.gang_of_four.cards import COPIES, DECK, GofCard, cards
from engines.gang_of_four.combos import classify, combinations_in, plays_beating
from engines.gang_of_four.events import CardGiven, CardReturned, Event, HandDealt, Played
from engines.gang_of_four.model import RULES_REVISION, Direction, Phase
from engines.gang_of_four.view import RevealedHand

SEED = bytes.fromhex("0f4e2d9c7b3a6158")

Action = tuple[int, Move]
DISTINCT_CARDS: tuple[GofCard, ...] = tuple(sorted(COPIES))

# The scoring table as printed ("1 bis 7 Karten - 1 Punkt pro Karte" ...), cards left -> points.
SCORE_TABLE = {
    0: 0,
    **{n: n for n in range(1, 8)},
    **{n: 2 * n for n in range(8, 11)},
    **{n: 3 * n for n in range(11, 14)},
    **{n: 4 * n for n in range(14, 16)},
    16: 80,
}


def new(
    players: int, auto: bool = False, seed: bytes = SEED, revision: int = RULES_REVISION
) -> GangOfFourState:
    """A fresh table through the public factory functions, by rules ``revision``."""
    options: dict[str, Any] = {"auto_announce_last_card": auto, "rules_revision": revision}
    return GAME.new_game(GAME.make_config(players, options), seed)


def hand(text: str) -> tuple[GofCard, ...]:
    """A hand as the engine keeps it: the cards of ``text``, sorted."""
    return tuple(sorted(cards(text)))


def table(
    hands: Sequence[str],
    *,
    turn: int,
    current: str | None = None,
    current_by: int | None = None,
    direction: Direction = Direction.COUNTER_CLOCKWISE,
    auto: bool = False,
    seed: bytes = SEED,
    revision: int = RULES_REVISION,
    **changes: Any,
) -> GangOfFourState:
    """A hand in play with exactly these hands, ``turn`` to act and ``current`` to beat.

    Built from hand 1 of a real table (so the random source and the totals are real);
    ``must_include`` is cleared unless given. The hands together must fit in the deck; the
    set-aside cards are left as dealt, so rigged tables do not conserve the 64 cards (the
    playouts check that).
    """
    base = new(len(hands), auto, seed, revision)
    combo = classify(cards(current)) if current else None
    used = Counter(card for text in [*hands, current or ""] for card in cards(text))
    assert not used - Counter(DECK), f"more copies than the deck holds: {used - Counter(DECK)}"
    fields: dict[str, Any] = {
        "hands": tuple(hand(text) for text in hands),
        "turn": turn,
        "current": combo,
        "current_by": current_by,
        "direction": direction,
        "must_include": None,
        "phase": Phase.PLAY,
    }
    fields.update(changes)
    return msgspec.structs.replace(base, **fields)


def apply_all(
    state: GangOfFourState, actions: Iterable[Action]
) -> tuple[GangOfFourState, list[Event]]:
    """Apply ``actions`` in order; the events of all of them, concatenated."""
    events: list[Event] = []
    for seat, move in actions:
        state, more = GAME.apply(state, seat, move)
        events += more
    return state, events


def reason_of(state: GangOfFourState, seat: int, move: Any) -> tuple[type[MoveError], str] | None:
    """``None`` if ``check`` accepts the move, else the error's class and reason."""
    try:
        GAME.check(state, seat, move)
    except MoveError as error:
        return type(error), error.reason
    return None


def play(text: str, announce: bool = False) -> Play:
    """The Play of these cards, sorted as the listing and the codec give them."""
    return Play(hand(text), announce_last_card=announce)


def finish_hand(state: GangOfFourState, winner: int) -> tuple[GangOfFourState, list[Event]]:
    """End the hand in play: ``winner`` is left with his lowest card and plays it as the lead.

    The other hands are kept, so they score what they hold; the next deal comes from the
    table's own random source.
    """
    hands = list(state.hands)
    last = min(hands[winner])
    hands[winner] = (last,)
    rigged = msgspec.structs.replace(
        state,
        hands=tuple(hands),
        turn=winner,
        current=None,
        current_by=None,
        must_include=None,
        phase=Phase.PLAY,
        exchange=None,
    )
    return GAME.apply(rigged, winner, Play((last,)))


# --- candidate moves: a move space wider than the legal one ------------------------------


def candidate_moves(
    state: GangOfFourState, seat: int, rnd: random.Random, listed: int = 40, subsets: int = 25
) -> list[Move]:
    """Moves worth asking ``check`` about for ``seat``, legal or not.

    Passes; a give-back of every distinct card; up to ``listed`` combinations of the hand's
    listing and up to ``listed`` of those beating the play on the table; ``subsets`` random
    sub-multisets of the hand; cards the seat does not hold. Every play comes with both
    values of ``announce_last_card``.
    """
    held = state.hands[seat] if 0 <= seat < len(state.hands) else state.hands[0]
    moves: list[Move] = [Pass(), *(GiveBack(card) for card in DISTINCT_CARDS)]
    groups: list[tuple[GofCard, ...]] = []
    for source in (combinations_in(held), plays_beating(held, state.current)):
        picked = source if len(source) <= listed else rnd.sample(source, listed)
        groups += [combo.cards for combo in picked]
    for _ in range(subsets if held else 0):
        size = rnd.randint(1, min(len(held), 7))
        groups.append(tuple(sorted(rnd.sample(held, size))))
    missing = [card for card in DISTINCT_CARDS if Counter(held)[card] < COPIES[card]]
    if missing:
        extra = rnd.choice(missing)
        groups.append((extra,))
        if held:
            groups.append(tuple(sorted((*held[:2], extra))))
    groups.append(())
    for group in groups:
        moves += [Play(group, announce_last_card=flag) for flag in (False, True)]
    return list(dict.fromkeys(moves))


def forgets(move: Move, listed: set[Move]) -> bool:
    """The one known gap between ``check`` and ``legal_moves`` (see test_rules_last_card): a
    play going down to one card *without* the announcement, whose announced twin is listed."""
    return (
        isinstance(move, Play)
        and not move.announce_last_card
        and Play(move.cards, announce_last_card=True) in listed
    )


# --- strategies ------------------------------------------------------------------------


def random_action(state: GangOfFourState, rnd: random.Random, forget: float = 0.25) -> Action:
    """Any legal move of the seat to act, equally likely; an announced last card is
    forgotten (the flag dropped) with probability ``forget``."""
    (seat,) = GAME.to_act(state)
    move = rnd.choice(listed_moves(state, seat))
    return seat, _maybe_forget(move, rnd, forget)


def shedding_action(
    state: GangOfFourState,
    rnd: random.Random,
    forget: float = 0.25,
    greedy: float = 0.85,
    dawdler: int = 0,
    dawdle: float = 0.9,
) -> Action:
    """A quick game: most seats play a largest legal combination (with probability
    ``greedy``, else any legal move); the ``dawdler`` passes whenever it may with
    probability ``dawdle``, so it keeps many cards and the game reaches 100 points in a few
    hands. The winner gives back a random card; announcements are forgotten with
    probability ``forget``.
    """
    (seat,) = GAME.to_act(state)
    legal = listed_moves(state, seat)
    plays = [move for move in legal if isinstance(move, Play)]
    if seat == dawdler and Pass() in legal and rnd.random() < dawdle:
        return seat, Pass()
    if plays and seat != dawdler and rnd.random() < greedy:
        most = max(len(move.cards) for move in plays)
        move: Move = rnd.choice([move for move in plays if len(move.cards) == most])
    else:
        move = rnd.choice(legal)
    return seat, _maybe_forget(move, rnd, forget)


def listed_moves(state: GangOfFourState, seat: int) -> list[Move]:
    """``legal_moves`` without the forgetful twins of announced plays: the strategies
    decide about forgetting themselves (``_maybe_forget``)."""
    legal = GAME.legal_moves(state, seat)
    listed = set(legal)
    return [move for move in legal if not forgets(move, listed)]


def _maybe_forget(move: Move, rnd: random.Random, forget: float) -> Move:
    if isinstance(move, Play) and move.announce_last_card and rnd.random() < forget:
        return Play(move.cards, announce_last_card=False)
    return move


def play_out(
    state: GangOfFourState,
    rnd: random.Random,
    choose: Any = random_action,
    limit: int = 20_000,
) -> list[Action]:
    """The actions of a whole game from ``state`` by ``choose``; fails after ``limit`` moves."""
    actions: list[Action] = []
    while GAME.outcome(state) is None:
        assert len(actions) < limit, "the game does not end"
        action = choose(state, rnd)
        state, _ = GAME.apply(state, *action)
        actions.append(action)
    return actions


# --- what a viewer is shown ---------------------------------------------------------------


# Values that hold no card, skipped by their exact type before any isinstance test: the
# scan runs over every view, event and move of every playout, mostly through these.
_LEAVES: frozenset[type] = frozenset({int, str, bool, float, bytes, type(None)})


def cards_in(value: object) -> Iterator[GofCard]:
    """Every :class:`GofCard` inside a struct, tuple, list or dict, however deep, in order."""
    found: list[GofCard] = []
    _collect(value, found)
    return iter(found)


def _collect(value: object, found: list[GofCard]) -> None:
    """``cards_in`` as plain recursion: nested generators cost a frame per level for every
    card they pass up."""
    if type(value) in _LEAVES:
        return
    if isinstance(value, GofCard):
        found.append(value)
    elif isinstance(value, msgspec.Struct):
        for name in value.__struct_fields__:
            _collect(getattr(value, name), found)
    elif isinstance(value, dict):
        for item in value.values():
            _collect(item, found)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            _collect(item, found)


def view_leaks(
    state: GangOfFourState, viewer: int | None, seen: GangOfFourView | None = None
) -> list[str]:
    """What is wrong with ``viewer``'s view of ``state``; empty when nothing hidden shows.

    Structural, because two copies of every coloured card exist (a card equal to one in
    another hand may well be the viewer's own or a played one): the view's ``cards`` are
    exactly the viewer's hand; ``current``, ``must_include`` and ``exchange`` are exactly
    the public play to beat, the multicoloured 1 the first lead must include and the
    exchanged cards; ``revealed_hands`` and ``revealed_set_aside`` are empty until the game
    is over and then exactly every seat's hand and the set-aside cards (empty still under
    rules revision 1, whose views stay as they were played); no other field
    holds a card at all. ``seen`` replaces the engine's view (to show that the check is not
    blind).
    """
    if seen is None:
        seen = GAME.view(state, viewer)
    problems = []
    own = state.hands[viewer] if viewer is not None else ()
    if seen.cards != own:
        problems.append(f"cards {seen.cards} are not the viewer's hand {own}")
    if seen.current != (state.current.cards if state.current is not None else ()):
        problems.append("current is not the play on the table")
    if seen.must_include != state.must_include or (
        state.must_include is not None and str(state.must_include) != "m1"
    ):
        problems.append("must_include is not the multicoloured 1")
    if seen.exchange != state.exchange:
        problems.append("exchange is not the public exchange")
    problems += _reveal_problems(state, seen)
    rest = msgspec.structs.replace(
        seen,
        cards=(),
        current=(),
        must_include=None,
        exchange=None,
        revealed_hands=(),
        revealed_set_aside=(),
    )
    stray = list(cards_in(rest))
    if stray:
        problems.append(f"cards in other fields: {stray}")
    try:
        wire = msgspec.json.decode(msgspec.json.encode(seen), type=type(seen))
    except msgspec.ValidationError as error:
        problems.append(f"the wire form is not a view: {error}")
    else:
        if wire != seen:
            problems.append("the wire form differs from the view")
    return problems


def _reveal_problems(state: GangOfFourState, seen: GangOfFourView) -> list[str]:
    """After the end, everything is public; before it, nothing is revealed."""
    if state.phase is not Phase.OVER or rules_revision(state.config.rules_revision) < 2:
        if seen.revealed_hands or seen.revealed_set_aside:
            return ["cards revealed before the game is over (or under revision 1)"]
        return []
    problems = []
    if seen.revealed_hands != tuple(
        RevealedHand(seat, cards) for seat, cards in enumerate(state.hands)
    ):
        problems.append("revealed_hands are not every seat's hand")
    if seen.revealed_set_aside != state.set_aside:
        problems.append("revealed_set_aside is not the set-aside cards")
    return problems


PUBLIC_CARD_EVENTS = (Played, CardGiven, CardReturned)


def event_leaks(
    event: Event,
    viewer: int | None,
    redact: Callable[[Event, int | None], Event | None] = GAME.view_event,
) -> list[str]:
    """What is wrong with ``event`` as ``viewer`` receives it; empty when nothing leaks.

    A dealt hand reaches only its own seat (no spectator); plays and the two exchanged
    cards are public; every other event carries no card at all. ``redact`` replaces the
    engine's ``view_event`` (to show that the check is not blind).
    """
    shown = redact(event, viewer)
    if isinstance(event, HandDealt):
        if event.seat == viewer:
            return [] if shown == event else [f"{viewer} does not get its own deal"]
        return [] if shown is None else [f"seat {event.seat}'s deal reaches {viewer}"]
    if shown != event:
        return [f"{event} is changed for {viewer}"]
    if not isinstance(event, PUBLIC_CARD_EVENTS) and list(cards_in(event)):
        return [f"{event} carries cards"]
    return []


def deck_minus(*groups: Iterable[GofCard]) -> Counter[GofCard]:
    """The deck with ``groups`` taken out (a multiset; negative counts would be a bug)."""
    rest = Counter(DECK)
    for group in groups:
        rest.subtract(group)
    return rest


def all_sub_multisets(held: Sequence[GofCard]) -> set[tuple[GofCard, ...]]:
    """Every non-empty sub-multiset of a small sorted hand (brute force)."""
    return {
        chosen
        for size in range(1, len(held) + 1)
        for chosen in itertools.combinations(sorted(held), size)
    }
