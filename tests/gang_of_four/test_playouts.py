"""Random playouts to the end of the game, with every invariant checked after every move.

Checked after each move: the 64 cards are conserved (hands + set-aside + cards played this
hand = the deck, as multisets) and each deal is 16 cards a seat from a fresh deck; the turn
flow agrees with an independent model of it (whose turn, when a trick is won and who leads,
announcements and forgetting, the exchange); ``legal_moves`` is what ``check`` accepts on a
wide sample of candidate moves, up to the known gap (forgetful twins, see test_rules_last_card), and
``apply`` refuses the rest with the same reason without touching the state; the duties of
the player before a one-card player hold for every listed move; hand scores follow the
table, totals are their sums and the game ends exactly when someone reaches 100; nothing
shown to a seat or a spectator holds another seat's hand or the set-aside cards. At the end
``replay`` from the seed reproduces every event and the final state byte for byte.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.base import replay
from engines.gang_of_four import GAME, GangOfFourState, GiveBack, Move, Pass, Play
from engines.gang_of_four.cards import DECK, MULTICOLOURED_ONE, GofCard
from engines.gang_of_four.combos import Kind, classify, combinations_in
from engines.gang_of_four.events import (
    CardReturned,
    Event,
    GameEnded,
    HandDealt,
    HandEnded,
    LastCardAnnounced,
    LastCardForgotten,
    Passed,
    Played,
    TrickWon,
)
from engines.gang_of_four.model import GAME_END_SCORE, Phase
from engines.gang_of_four.view import RevealedHand
from tests.gang_of_four.support import (
    SCORE_TABLE,
    Action,
    candidate_moves,
    cards_in,
    event_leaks,
    finish_hand,
    forgets,
    new,
    random_action,
    reason_of,
    shedding_action,
    view_leaks,
)
from tests.scale import scaled

Chooser = Callable[[GangOfFourState, random.Random], Action]


# --- an independent model of whose turn it is ----------------------------------------------


def next_active(state: GangOfFourState, seat: int, out: tuple[int, ...]) -> int:
    """The next seat after ``seat`` in this hand's direction that is not out."""
    players = state.config.players
    nxt = (seat + state.direction) % players
    while nxt in out and nxt != seat:
        nxt = (nxt + state.direction) % players
    return nxt


def check_flow(
    prev: GangOfFourState, state: GangOfFourState, action: Action, events: list[Event]
) -> None:
    seat, move = action
    assert GAME.to_act(prev) == {seat} == {prev.turn}
    if isinstance(move, GiveBack):
        assert prev.phase is Phase.EXCHANGE and prev.exchange is not None
        assert seat == prev.exchange.winner
        assert events == [CardReturned(seat, prev.exchange.loser, move.card)]
        assert state.phase is Phase.PLAY and state.turn == seat and state.current is None
        assert state.exchange == msgspec.structs.replace(prev.exchange, returned=move.card)
        return
    assert prev.phase is Phase.PLAY and seat not in prev.out
    active = [s for s in range(prev.config.players) if s not in prev.out]
    if isinstance(move, Pass):
        assert prev.current is not None and prev.current_by is not None
        by = prev.current_by
        passers = [*prev.passed, seat]
        assert len(passers) == len(set(passers)), "nobody passes twice on one play"
        waiting = set(active) - {by} - set(passers)
        if waiting:
            assert events == [Passed(seat)]
            assert state.turn == next_active(prev, seat, prev.out)
            assert (state.current, state.current_by) == (prev.current, by)
            assert state.passed == tuple(passers)
        else:
            leader = by if by not in prev.out else next_active(prev, by, prev.out)
            assert events == [Passed(seat), TrickWon(by, leader)]
            assert (state.turn, state.current, state.current_by, state.passed) == (
                leader,
                None,
                None,
                (),
            )
        return
    assert isinstance(move, Play)
    combo = classify(move.cards)
    if prev.must_include is not None:
        assert prev.must_include == MULTICOLOURED_ONE in combo.cards
    left = len(prev.hands[seat]) - combo.size
    assert events[0] == Played(seat, combo.cards, combo.kind, left)
    if left == 0:
        assert isinstance(events[1], HandEnded) and events[1].result.winner == seat
        return
    assert (Counter(prev.hands[seat]) - Counter(combo.cards)) == Counter(state.hands[seat])
    rest = events[1:]
    out = prev.out
    others = [s for s in active if s != seat]
    if left == 1:
        if move.announce_last_card or prev.config.auto_announce_last_card or not others:
            assert rest[0] == LastCardAnnounced(seat) and seat in state.announced
        else:
            assert rest[0] == LastCardForgotten(seat) and seat in state.out
            out = (*out, seat)
        rest = rest[1:]
    assert state.out == out
    if not others:
        assert rest == [TrickWon(seat, seat)] and state.turn == seat and state.current is None
    else:
        assert rest == []
        assert state.turn == next_active(prev, seat, out)
        assert (state.current, state.current_by, state.passed) == (combo, seat, ())


def check_duties(state: GangOfFourState, seat: int, legal: Sequence[Move]) -> None:
    """The player right before a one-card player: on singles only his highest single or a
    Gang; leading, several cards if he can, else his highest single."""
    if state.phase is not Phase.PLAY:
        return
    nxt = next_active(state, seat, state.out)
    if nxt == seat or len(state.hands[nxt]) != 1:
        return
    held = state.hands[seat]
    singles = [move for move in legal if isinstance(move, Play) and len(move.cards) == 1]
    assert all(move.cards == (max(held),) for move in singles)
    if state.current is None and any(c.size > 1 for c in combinations_in(held)):
        assert singles == []


# --- cards and scores -------------------------------------------------------------------


def check_cards(state: GangOfFourState, played: Counter[GofCard]) -> None:
    players = state.config.players
    assert len(state.set_aside) == (16 if players == 3 else 0)
    everything = Counter(state.set_aside) + played
    for held in state.hands:
        assert list(held) == sorted(held)
        everything.update(held)
    assert everything == Counter(DECK)


def check_deals(state: GangOfFourState, events: list[Event]) -> None:
    dealt = [event for event in events if isinstance(event, HandDealt)]
    if not dealt:
        return
    assert [event.seat for event in dealt] == list(range(state.config.players))
    assert all(event.hand == state.hand and len(event.cards) == 16 for event in dealt)
    everything = Counter(state.set_aside)
    for event in dealt:
        everything.update(event.cards)
    assert everything == Counter(DECK)


def check_scores(prev: GangOfFourState, state: GangOfFourState, events: list[Event]) -> None:
    ended = [event for event in events if isinstance(event, HandEnded)]
    assert len(ended) <= 1
    assert len(state.results) == len(prev.results) + len(ended)
    assert state.results[: len(prev.results)] == prev.results
    for seat in range(state.config.players):
        assert state.totals[seat] == sum(result.points[seat] for result in state.results)
    if not ended:
        assert state.totals == prev.totals and state.hand == prev.hand
        assert GAME.outcome(state) is None and state.phase is not Phase.OVER
        return
    result = ended[0].result
    assert result.hand == prev.hand and result == state.results[-1]
    winner = result.winner
    assert result.cards_left == tuple(
        0 if seat == winner else len(held) for seat, held in enumerate(prev.hands)
    )
    assert result.points == tuple(SCORE_TABLE[n] for n in result.cards_left)
    assert all(result.points[seat] == 1 for seat in prev.out)
    assert ended[0].totals == state.totals
    over = max(state.totals) >= GAME_END_SCORE
    finished = [event for event in events if isinstance(event, GameEnded)]
    outcome = GAME.outcome(state)
    if not over:
        assert finished == [] and outcome is None
        assert state.hand == prev.hand + 1 and state.phase is Phase.EXCHANGE
        assert (state.dealer, state.turn, state.direction) == (winner, winner, -prev.direction)
        assert state.exchange is not None and state.exchange.winner == winner
        return
    low = min(state.totals)
    winners = tuple(seat for seat, total in enumerate(state.totals) if total == low)
    assert events[-1] == finished[0] == GameEnded(winners, state.totals)
    assert outcome is not None and outcome.winners == winners
    assert state.phase is Phase.OVER and GAME.to_act(state) == frozenset()


# --- legality and views ---------------------------------------------------------------


def check_legality(
    state: GangOfFourState, seats: list[int], rnd: random.Random, deep: bool
) -> None:
    """``legal_moves`` against ``check`` on candidate moves; ``deep``: ``apply`` refuses every
    refused candidate with the same error. The state is untouched throughout."""
    before = msgspec.msgpack.encode(state)
    for seat in seats:
        legal = GAME.legal_moves(state, seat)
        listed = set(legal)
        assert len(listed) == len(legal)
        for move in legal:
            assert reason_of(state, seat, move) is None, move
        check_duties(state, seat, legal)
        for move in candidate_moves(state, seat, rnd, 25 if deep else 10, 15 if deep else 5):
            refused = reason_of(state, seat, move)
            if refused is None:
                assert move in listed or forgets(move, listed), move
                continue
            assert move not in listed
            if deep:
                with pytest.raises(refused[0]) as info:
                    GAME.apply(state, seat, move)
                assert info.value.reason == refused[1]
    assert msgspec.msgpack.encode(state) == before


def check_views(state: GangOfFourState, action: Action, events: list[Event]) -> None:
    seat, move = action
    players = state.config.players
    for viewer in [None, *range(players)]:
        seen = GAME.view(state, viewer)  # built once: view_leaks checks this very view
        assert view_leaks(state, viewer, seen) == []
        assert seen.card_counts == tuple(len(held) for held in state.hands)
        assert (seen.turn, seen.phase, seen.totals, seen.out) == (
            state.turn,
            state.phase,
            state.totals,
            state.out,
        )
        assert GAME.view_move(move, seat, viewer) == move
        for event in events:
            assert event_leaks(event, viewer) == []
        if viewer is not None:
            own = Counter(state.hands[viewer])
            for listed in GAME.legal_moves(state, viewer):
                assert not Counter(cards_in(listed)) - own, "a listed move names a card not held"


# --- the playout --------------------------------------------------------------------------


def run_checked(
    players: int, auto: bool, seed: bytes, choose: Chooser, rnd: random.Random, every: int = 4
) -> int:
    """Play one game with ``choose`` and check everything after every move; its length.

    The legality sample is drawn for the seat to act every ``every`` moves (``apply`` tried
    on each refused candidate every ``4 * every`` moves) and for every seat at each hand's
    start."""
    state = new(players, auto, seed)
    played: Counter[GofCard] = Counter()
    check_cards(state, played)
    check_legality(state, list(range(players)), rnd, deep=True)
    for viewer in [None, *range(players)]:
        assert view_leaks(state, viewer) == []
    actions: list[Action] = []
    log: list[list[Event]] = []
    while GAME.outcome(state) is None:
        action = choose(state, rnd)
        if len(actions) % every == 0:
            check_legality(state, [action[0]], rnd, deep=len(actions) % (4 * every) == 0)
        prev = state
        state, events = GAME.apply(state, *action)
        actions.append(action)
        log.append(events)
        for event in events:
            if isinstance(event, Played):
                played.update(event.cards)
            elif isinstance(event, HandDealt) and event.seat == 0:
                played = Counter()
        check_cards(state, played)
        check_deals(state, events)
        check_flow(prev, state, action, events)
        check_scores(prev, state, events)
        check_views(state, action, events)
        if state.hand != prev.hand:
            check_legality(state, list(range(players)), rnd, deep=True)
    check_legality(state, list(range(-1, players + 1)), rnd, deep=True)
    assert all(GAME.legal_moves(state, seat) == [] for seat in range(players))

    config = GAME.make_config(players, {"auto_announce_last_card": auto})
    _, steps = replay(GAME, config, seed, actions)
    assert [step.version for step in steps] == list(range(1, len(actions) + 1))
    assert [step.events for step in steps] == log
    assert msgspec.msgpack.encode(steps[-1].state) == msgspec.msgpack.encode(state)
    return len(actions)


def shedder(dawdler: int) -> Chooser:
    def choose(state: GangOfFourState, rnd: random.Random) -> Action:
        return shedding_action(state, rnd, dawdler=dawdler, dawdle=0.5)

    return choose


# --- the tests -------------------------------------------------------------------------


@pytest.mark.parametrize("auto", [False, True], ids=["announce", "auto"])
@pytest.mark.parametrize("players", [3, 4])
def test_random_playouts_keep_every_invariant(players: int, auto: bool) -> None:
    """Uniformly random legal moves (many passes: long hands, big scores, few hands)."""
    seed = bytes([players, auto, 0x4F])
    moves = run_checked(players, auto, seed, random_action, random.Random(seed))
    assert moves > 100


@pytest.mark.parametrize("auto", [False, True], ids=["announce", "auto"])
@pytest.mark.parametrize("players", [3, 4])
def test_shedding_playouts_keep_every_invariant(players: int, auto: bool) -> None:
    """Mostly the largest plays: short hands, many last cards, forgetting and exchanges."""
    seed = bytes([players, auto, 0x5D])
    moves = run_checked(players, auto, seed, shedder(players - 1), random.Random(seed))
    assert moves > 50


@settings(
    max_examples=scaled(12),
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    players=st.integers(3, 4),
    auto=st.booleans(),
    seed=st.binary(max_size=32),
    moves_seed=st.integers(0, 2**32 - 1),
    shedding=st.booleans(),
)
def test_playouts_from_any_seed(
    players: int, auto: bool, seed: bytes, moves_seed: int, shedding: bool
) -> None:
    choose = shedder(moves_seed % players) if shedding else random_action
    assert run_checked(players, auto, seed, choose, random.Random(moves_seed), every=8) > 0


def test_the_leak_checks_see_planted_cards() -> None:
    """The structural checks are not blind: another seat's hand, a set-aside card in a field
    that should hold none, a changed exchange, or a deal sent to the wrong viewer is
    reported; the honest view and events are clean."""
    state, events = finish_hand(new(3), 1)
    assert state.exchange is not None
    honest = GAME.view(state, 0)
    assert view_leaks(state, 0, honest) == []
    hidden = state.set_aside[0]
    forged = [
        msgspec.structs.replace(honest, cards=state.hands[1]),
        msgspec.structs.replace(honest, must_include=hidden),
        msgspec.structs.replace(
            honest, exchange=msgspec.structs.replace(state.exchange, given=hidden)
        ),
        msgspec.structs.replace(honest, current=(hidden,)),
        msgspec.structs.replace(honest, results=((hidden,),)),
    ]
    for view in forged:
        assert view_leaks(state, 0, view) != []
    dealt = [event for event in events if isinstance(event, HandDealt)]
    assert all(event_leaks(event, viewer) == [] for event in dealt for viewer in [None, 0, 1, 2])

    def unfiltered(event: Event, viewer: int | None) -> Event | None:
        return event

    assert event_leaks(dealt[2], 0, unfiltered) != []
    assert event_leaks(dealt[2], None, unfiltered) != []
    assert event_leaks(dealt[0], 0, lambda event, viewer: None) != []
    assert (
        event_leaks(Passed(1), 0, lambda event, viewer: Played(1, (hidden,), Kind.SINGLE, 3)) != []
    )


def test_the_leak_check_accepts_the_reveal_only_after_the_end() -> None:
    """RULES-NOTES (after a game): "finished views and histories may show every hand (never
    one version earlier)". The check reports a reveal while the game goes on, and a finished
    view that hides or changes a hand or the set-aside cards; the honest ones are clean."""
    playing = new(3)
    honest = GAME.view(playing, 0)
    shown = tuple(RevealedHand(seat, cards) for seat, cards in enumerate(playing.hands))
    assert view_leaks(playing, 0, honest) == []
    assert view_leaks(playing, 0, msgspec.structs.replace(honest, revealed_hands=shown)) != []
    early_set_aside = msgspec.structs.replace(honest, revealed_set_aside=playing.set_aside)
    assert view_leaks(playing, 0, early_set_aside) != []
    over = msgspec.structs.replace(playing, phase=Phase.OVER)
    final = GAME.view(over, None)
    assert final.revealed_hands == shown and view_leaks(over, None, final) == []
    forged = [
        msgspec.structs.replace(final, revealed_hands=()),
        msgspec.structs.replace(final, revealed_hands=shown[::-1]),
        msgspec.structs.replace(final, revealed_set_aside=()),
        msgspec.structs.replace(final, revealed_set_aside=playing.set_aside[1:]),
    ]
    for view in forged:
        assert view_leaks(over, None, view) != []


def test_different_seeds_deal_differently() -> None:
    """Chance flows from the seed: twenty seeds, twenty deals; one seed, one deal."""
    deals = {new(4, seed=bytes([n])).hands for n in range(20)}
    assert len(deals) == 20
    assert new(3, seed=b"same") == new(3, seed=b"same")
