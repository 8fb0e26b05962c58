"""Random playouts to the end of the game, with every invariant checked after every move.

Checked after each move: the 52 cards are conserved; each colour row has exactly one chip
per seat count and no seat holds two of a colour; earlier rows are full and frozen; the
heist, vault and alarm counters agree with the history and the game ends exactly at three
vaults or three alarms; every showdown agrees with a second poker evaluator (eval7);
``legal_moves`` is exactly what ``check`` accepts and ``apply`` refuses the rest with the
same reason; no view, event or move shown to a seat or a spectator contains a card of
another seat's pocket before that heist's showdown. At the end ``replay`` from the seed
reproduces every event and the final state byte for byte.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import msgspec
import msgspec.structs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.base import Viewer, replay
from engines.cards import DECK, Card
from engines.the_gang import GAME, TheGangState
from engines.the_gang.events import Event, GameEnded, HeistEnded, PocketDealt
from engines.the_gang.model import (
    ALARMS_TO_LOSE,
    BOARD_AFTER_ROUND,
    POCKET_SIZE,
    VAULTS_TO_WIN,
    ChipRow,
    Colour,
)
from tests.scale import scaled
from tests.the_gang.support import (
    Play,
    candidate_moves,
    cards_in,
    encoded_cards,
    new,
    oracle_play,
    random_play,
    reason_of,
    shows,
    strength,
)

Chooser = Callable[[TheGangState, random.Random], Play]


# --- invariants ----------------------------------------------------------------------


def check_cards(state: TheGangState) -> None:
    players = state.config.players
    assert len(state.pockets) == players
    assert all(len(pocket) == POCKET_SIZE for pocket in state.pockets)
    everything = [*state.deck, *(card for pocket in state.pockets for card in pocket)]
    everything += state.board
    assert len(everything) == len(DECK) == 52
    assert set(everything) == set(DECK)
    assert len(state.board) == BOARD_AFTER_ROUND[state.round]


def check_chips(prev: TheGangState, state: TheGangState) -> None:
    players = state.config.players
    assert len(state.chips) == len(Colour)
    for colour, row in enumerate(state.chips):
        assert len(row) == players
        held = [holder for holder in row if holder is not None]
        assert all(0 <= holder < players for holder in held)
        assert len(held) == len(set(held)), "a seat holds two chips of one colour"
        if colour > state.round:
            assert not held, "a chip of a later round is taken"
        if colour < state.round or state.finished:
            assert len(held) == players, "an earlier round ended with a chip in the centre"
    if state.heist == prev.heist and not state.finished:
        assert state.chips[: prev.round] == prev.chips[: prev.round], "an old row changed"
    assert list(state.confirmed_seats) == sorted(set(state.confirmed_seats))
    assert set(state.confirmed_seats) <= set(range(players))
    if state.confirmed_seats:
        assert state.config.confirm_round_end
        assert None not in state.chips[state.round]


def check_counters(prev: TheGangState, state: TheGangState, events: list[Event]) -> None:
    history = state.heists
    assert [result.heist for result in history] == list(range(1, len(history) + 1))
    assert state.vaults == sum(result.success for result in history)
    assert state.vaults + state.alarms == len(history)
    assert 0 <= state.vaults <= VAULTS_TO_WIN and 0 <= state.alarms <= ALARMS_TO_LOSE
    assert state.finished == (state.vaults == VAULTS_TO_WIN or state.alarms == ALARMS_TO_LOSE)
    assert state.heist == len(history) + (0 if state.finished else 1)
    assert history[: len(prev.heists)] == prev.heists
    heists = [event for event in events if isinstance(event, HeistEnded)]
    assert len(heists) == len(history) - len(prev.heists) <= 1
    ended = [event for event in events if isinstance(event, GameEnded)]
    assert len(ended) == (state.finished and not prev.finished)
    outcome = GAME.outcome(state)
    if not state.finished:
        assert outcome is None
        assert GAME.to_act(state) == frozenset(range(state.config.players))
        return
    assert ended == [GameEnded(won=state.vaults == VAULTS_TO_WIN)]
    assert events[-1] == ended[0], "nothing may happen after the game ended"
    assert outcome is not None
    won = state.vaults == VAULTS_TO_WIN
    assert outcome.winners == (tuple(range(state.config.players)) if won else ())
    assert GAME.to_act(state) == frozenset()


def check_showdown(prev: TheGangState, state: TheGangState, events: list[Event]) -> None:
    """The heist's result, recomputed with eval7 from the table before the last move."""
    for event in events:
        if not isinstance(event, HeistEnded):
            continue
        result = event.result
        assert result.heist == prev.heist
        assert result.board == prev.board and len(result.board) == 5
        holders = result.chips[Colour.RED].holders
        red = [seat for seat in holders if seat is not None]
        assert len(red) == len(holders)  # every red chip was held at the showdown
        assert sorted(red) == list(range(prev.config.players))
        assert [reveal.seat for reveal in result.reveals] == list(red)
        assert [reveal.red_stars for reveal in result.reveals] == list(range(1, len(red) + 1))
        best = -1
        flags = []
        for reveal in result.reveals:
            assert reveal.pocket == prev.pockets[reveal.seat]
            value = strength(reveal.pocket + prev.board)
            flags.append(value >= best)
            best = max(best, value)
        assert [reveal.in_order for reveal in result.reveals] == flags
        assert result.success == all(flags)
        assert (event.vaults, event.alarms) == (state.vaults, state.alarms)


def check_legality(state: TheGangState, seats: list[int], deep: bool) -> None:
    """``legal_moves`` is exactly what ``check`` accepts; ``apply`` refuses the rest
    (``deep``: every one of them is tried) with the same error and leaves the state alone."""
    before = msgspec.msgpack.encode(state)
    for seat in seats:
        legal = GAME.legal_moves(state, seat)
        assert len(legal) == len(set(legal))
        accepted = set()
        for move in candidate_moves(state.config.players):
            refused = reason_of(state, seat, move)
            if refused is None:
                accepted.add(move)
            elif deep:
                with pytest.raises(refused[0]) as info:
                    GAME.apply(state, seat, move)
                assert info.value.reason == refused[1]
        assert set(legal) == accepted
    assert msgspec.msgpack.encode(state) == before


def hidden(state: TheGangState, viewer: Viewer) -> set[Card]:
    """Cards ``viewer`` must not see: other seats' pockets of a heist not yet shown down."""
    if state.finished:
        return set()
    secret = {
        card for seat, pocket in enumerate(state.pockets) if seat != viewer for card in pocket
    }
    return secret - set(state.board)


def check_views(
    prev: TheGangState, state: TheGangState, play: Play, events: list[Event], deep: bool
) -> None:
    """Nothing shown to anyone holds another seat's unrevealed pocket card.

    Finished heists' results (``history``, ``HeistEnded``) reveal every pocket by design;
    they are compared as a whole instead of being scanned, because their cards may be
    dealt again, hidden, in a later heist.
    """
    seat, move = play
    for viewer in [None, *range(state.config.players)]:
        seen = GAME.view(state, viewer)
        own = state.pockets[viewer] if viewer is not None and not state.finished else ()
        assert seen.pocket == own
        rows = tuple(ChipRow.of(colour, state.chips[colour]) for colour in state.rounds_played())
        assert seen.board == state.board and seen.chips == rows
        assert seen.heists == state.heists
        assert seen.confirmed_seats == state.confirmed_seats
        assert (seen.heist, seen.round, seen.vaults, seen.alarms, seen.finished) == (
            state.heist,
            state.round,
            state.vaults,
            state.alarms,
            state.finished,
        )
        now = hidden(state, viewer)
        public = msgspec.structs.replace(seen, heists=())
        if deep:
            assert not shows(public, now)
        else:
            assert not set(cards_in(public)) & now
        if viewer is not None:
            assert not list(cards_in(GAME.legal_moves(state, viewer)))
        assert GAME.view_move(move, seat, viewer) == move
        secret = hidden(prev, viewer)
        for event in events:
            shown = GAME.view_event(event, viewer)
            if isinstance(event, HeistEnded):
                assert shown == event
                assert event.result.heist == prev.heist
                secret = hidden(state, viewer)
                continue
            if isinstance(event, PocketDealt):
                assert (shown is None) == (event.seat != viewer)
            else:
                assert shown == event
            if shown is not None:
                assert not shows(shown, secret), f"{shown} leaks to {viewer}"


def run_checked(
    players: int, confirm: bool, seed: bytes, choose: Chooser, rnd: random.Random
) -> int:
    """Play one game with ``choose`` and check everything after every move; its length."""
    state = new(players, confirm, seed)
    check_cards(state)
    check_views(state, state, (0, GAME.legal_moves(state, 0)[0]), [], deep=True)
    plays: list[Play] = []
    log: list[list[Event]] = []
    while not state.finished:
        play = choose(state, rnd)
        deep = len(plays) % 5 == 0
        check_legality(state, [play[0]], deep)
        prev = state
        state, events = GAME.apply(state, *play)
        plays.append(play)
        log.append(events)
        check_cards(state)
        check_chips(prev, state)
        check_counters(prev, state, events)
        check_showdown(prev, state, events)
        check_views(prev, state, play, events, deep or state.heist > prev.heist)
    check_legality(state, list(range(-1, players + 1)), deep=True)
    assert all(GAME.legal_moves(state, seat) == [] for seat in range(players))

    config = GAME.make_config(players, {"confirm_round_end": confirm})
    _, steps = replay(GAME, config, seed, plays)
    assert [step.version for step in steps] == list(range(1, len(plays) + 1))
    assert [step.events for step in steps] == log
    assert msgspec.msgpack.encode(steps[-1].state) == msgspec.msgpack.encode(state)
    return len(plays)


def oracle_chooser(plan_seed: int) -> Chooser:
    """The all-seeing gang, hesitating, playing some heists reversed on purpose."""
    plan = random.Random(plan_seed).choices("WWL", k=8)

    def choose(state: TheGangState, rnd: random.Random) -> Play:
        return oracle_play(state, rnd, 0.3, plan[min(state.heist, 8) - 1] == "L")

    return choose


# --- the tests -------------------------------------------------------------------------


@pytest.mark.parametrize("confirm", [False, True], ids=["instant", "confirm"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_playouts_keep_every_invariant(players: int, confirm: bool) -> None:
    seed = bytes([players, confirm, 0x6A])
    moves = run_checked(players, confirm, seed, random_play, random.Random(seed))
    assert moves >= 4 * 3 * players


@pytest.mark.parametrize("confirm", [False, True], ids=["instant", "confirm"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_oracle_playouts_keep_every_invariant(players: int, confirm: bool) -> None:
    """Mostly successful heists, so winning endings are checked as well as losing ones."""
    seed = bytes([players, confirm, 0x0C])
    moves = run_checked(players, confirm, seed, oracle_chooser(players), random.Random(seed))
    assert moves >= 4 * 3 * players


@settings(
    max_examples=scaled(30),
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    players=st.integers(3, 6),
    confirm=st.booleans(),
    seed=st.binary(max_size=32),
    moves_seed=st.integers(0, 2**32 - 1),
    oracle=st.booleans(),
)
def test_playouts_from_any_seed(
    players: int, confirm: bool, seed: bytes, moves_seed: int, oracle: bool
) -> None:
    choose = oracle_chooser(moves_seed) if oracle else random_play
    assert run_checked(players, confirm, seed, choose, random.Random(moves_seed)) > 0


def test_the_leak_detector_sees_planted_cards() -> None:
    """The scanners are not blind: another seat's card planted in a view, as a card or as
    its text, is found; a view without it is clean."""
    state = new(3)
    secret = hidden(state, 0)
    honest = GAME.view(state, 0)
    assert not shows(honest, secret)
    planted = msgspec.structs.replace(honest, pocket=state.pockets[1])
    assert shows(planted, secret) == set(state.pockets[1])
    assert encoded_cards(planted, secret) == set(state.pockets[1])
    card = state.pockets[2][0]
    assert shows({"note": f"seat 2 holds {card}"}, secret) == {card}
    assert shows([[card.rank, card.suit]], secret) == {card}


def test_different_seeds_deal_differently() -> None:
    """Chance flows from the seed: two seeds, two deals; one seed, one deal."""
    deals = {new(4, seed=bytes([n])).pockets for n in range(20)}
    assert len(deals) == 20
    assert new(4, seed=b"same") == new(4, seed=b"same")
