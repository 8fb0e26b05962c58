"""The Gang's default move, what a turn clock plays for a seat whose time ran out.

Issue 17: "When a seat's time runs out, the referee applies that game's default move — a
pure, documented engine function (`default_move(state, seat)`; [...] in The Gang a seat
without a chip of the round takes the lowest free one [...])". Simultaneous phases "get a
phase clock", which plays for the seats the phase waits for (``awaited``). The choices
are documented in engines/the_gang/defaults.py and docs/rules/the_gang.md.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from engines.cards import cards
from engines.errors import IllegalMoveError, InvalidMoveError
from engines.the_gang import GAME, ConfirmRoundEnd, TakeChip
from engines.the_gang.model import (
    JACK_CARD,
    Challenge,
    Colour,
    GuessHand,
    GuessRank,
    Mode,
    Specialist,
    TheGangState,
    UseSpecialist,
)
from engines.the_gang.moves import Accept, DiscardCard, PassCard, Propose, ShowCard
from tests.clock_driver import by_clock, check_defaults, random_prefix
from tests.the_gang.cards_support import heist_with, rig, river, use
from tests.the_gang.support import apply_all, new

LIMIT = GAME.default_move_limit
W = Colour.WHITE


def defaults(state: TheGangState) -> dict[int, Any]:
    return {seat: GAME.default_move(state, seat) for seat in sorted(GAME.to_act(state))}


def test_a_seat_without_a_chip_takes_the_lowest_free_one() -> None:
    """Issue 17: "in The Gang a seat without a chip of the round takes the lowest free
    one" — from the centre, never from another seat."""
    state, _ = apply_all(new(4), [(1, TakeChip(W, 1)), (2, TakeChip(W, 3))])
    assert GAME.default_move(state, 0) == TakeChip(W, 2)
    assert GAME.default_move(state, 3) == TakeChip(W, 2)
    assert GAME.waiting_for(state) == {0, 3}
    state, _ = GAME.apply(state, 0, TakeChip(W, 2))
    assert GAME.default_move(state, 3) == TakeChip(W, 4)


def test_a_seat_with_its_chip_is_not_waited_for_and_moves_as_little_as_it_can() -> None:
    """Rules: "Zodra iedereen een fiche van de huidige ronde voor zich heeft, eindigt de
    ronde" — the round waits only for the seats without a chip. A holder asked anyway
    swaps for the free chip nearest its own (the lower on a tie), so it holds a chip still."""
    state, _ = apply_all(new(5), [(0, TakeChip(W, 3)), (1, TakeChip(W, 2))])
    assert GAME.waiting_for(state) == {2, 3, 4}
    assert GAME.to_act(state) == set(range(5))
    assert GAME.default_move(state, 0) == TakeChip(W, 4)  # free 1, 4, 5: 4 is nearest 3
    assert GAME.default_move(state, 1) == TakeChip(W, 1)


def test_with_confirmation_every_seat_confirms_once_all_hold_a_chip() -> None:
    """Option ``confirm_round_end``: the round ends once every seat has confirmed, so the
    clock confirms for a seat that has not (and waits only for those)."""
    state = new(3, confirm=True)
    state, _ = apply_all(state, [(0, TakeChip(W, 1)), (1, TakeChip(W, 2))])
    assert GAME.default_move(state, 0) != ConfirmRoundEnd(), "not before every chip is held"
    state, _ = apply_all(state, [(2, TakeChip(W, 3)), (1, ConfirmRoundEnd())])
    assert GAME.waiting_for(state) == {0, 2}
    assert defaults(state)[0] == defaults(state)[2] == ConfirmRoundEnd()
    state, _ = apply_all(state, [(0, ConfirmRoundEnd()), (2, ConfirmRoundEnd())])
    assert state.round is Colour.YELLOW


def test_the_coordinator_pass_is_the_lowest_pocket_card() -> None:
    """Specialist 6, Coördinator: "kiest iedere speler een van zijn handkaarten" — the clock
    passes the lowest; the passes wait for the seats that have not chosen."""
    state, _ = heist_with(3, specialist=Specialist.COORDINATOR)
    state = rig(state, ["9c 2d", "Ah Kd", "5s 5h"])
    assert defaults(state) == {
        0: PassCard(cards("2d")[0]),
        1: PassCard(cards("Kd")[0]),
        2: PassCard(cards("5h")[0]),
    }
    state, _ = GAME.apply(state, 1, PassCard(cards("Ah")[0]))
    assert GAME.waiting_for(state) == {0, 2}


def test_an_owed_card_action_is_made_with_the_lowest_card() -> None:
    """Informant ("laat [...] één van zijn handkaarten [...] zien"), Hacker and Jack ("legt
    hij een van zijn andere handkaarten dicht op de aflegstapel"): the seat owing the action
    is waited for, and the clock uses its lowest card; the Jack card stays."""
    base, _ = heist_with(4, specialist=Specialist.INFORMANT)
    state, _ = use(rig(base, ["Ah Kd", "9c 9d", "2s 7h", "Qc Jd"]), 1, viewer=2)
    assert GAME.default_move(state, 1) == ShowCard(cards("9c")[0])
    assert 1 in GAME.waiting_for(state)
    base, _ = heist_with(4, specialist=Specialist.HACKER)
    state, _ = use(rig(base, ["2h 3h", "4h 5h", "6h 8h", "Th Qh"], top="2c"), 2)
    assert GAME.default_move(state, 2) == DiscardCard(cards("2c")[0])
    base, _ = heist_with(4, specialist=Specialist.JACK)
    state, _ = use(rig(base, ["2h 3h", "4h 5h", "Jc Qh", "Th Kh"]), 2)
    assert JACK_CARD in state.pockets[2]
    assert GAME.default_move(state, 2) == DiscardCard(cards("Jc")[0])


def test_a_specialist_is_never_proposed_but_a_teammates_proposal_is_accepted_when_idle() -> None:
    """Seed: "Iedere speler mag [...] voorstellen om de specialist in te zetten" — may, so
    the clock never proposes; a seat holding its chip accepts an open proposal rather than
    move its chip."""
    base, _ = heist_with(3, specialist=Specialist.GETAWAY_DRIVER)
    state, _ = apply_all(base, [(0, Propose(UseSpecialist(1))), (2, TakeChip(W, 2))])
    (proposal,) = state.proposals
    assert GAME.default_move(state, 1) == TakeChip(W, 1)
    assert GAME.default_move(state, 2) == Accept(proposal.id)
    for move in defaults(base).values():
        assert not isinstance(move, Propose)


@pytest.mark.parametrize(
    ("challenge", "guess", "other"),
    [
        (Challenge.RETINA_SCAN, GuessRank(2), GuessRank(13)),
        (Challenge.FINGERPRINT_SCAN, GuessHand(1), GuessHand(2)),
    ],
)
def test_a_scan_guess_is_the_lowest_and_is_accepted(
    challenge: Challenge, guess: Any, other: Any
) -> None:
    """Scans 4/9: "Samen kiezen ze" a guess, without the top red chip's holder ("De speler
    zelf doet niet mee"). The clock proposes the lowest guess (a 2; a high card) when none is
    open and accepts an open one; the subject has nothing to do."""
    state, play = river(
        ["3h 4c", "9c 5d", "Kc 2d", "7h 7s"], "2c 7d 9h Js Kd", [1, 2, 3, 4], challenges=[challenge]
    )
    state, _ = GAME.apply(state, *play)
    assert GAME.waiting_for(state) == {0, 1, 2}
    assert defaults(state) == {seat: Propose(guess) for seat in (0, 1, 2)}
    with pytest.raises(IllegalMoveError) as info:
        GAME.default_move(state, 3)
    assert info.value.reason == "NOT_TO_ACT"
    state, _ = GAME.apply(state, 1, Propose(other))
    (open_guess,) = state.proposals
    assert GAME.waiting_for(state) == {0, 2}
    assert GAME.default_move(state, 0) == GAME.default_move(state, 2) == Accept(open_guess.id)


def test_no_default_move_for_a_seat_off_the_table_or_a_game_over() -> None:
    """engines/base.py: defined "for every seat in ``to_act`` of a game that is not over"
    (else SEAT_OUT_OF_RANGE, GAME_OVER, NOT_TO_ACT)."""
    state = new(3)
    for seat in (3, -1, True):
        with pytest.raises(InvalidMoveError) as info:
            GAME.default_move(state, seat)
        assert info.value.reason == "SEAT_OUT_OF_RANGE"
    over, _ = by_clock(GAME, state, LIMIT)
    with pytest.raises(IllegalMoveError) as stopped:
        GAME.default_move(over, 0)
    assert stopped.value.reason == "GAME_OVER"
    assert GAME.waiting_for(over) == frozenset()


def test_the_default_move_is_pure() -> None:
    """Issue 17: "a pure, documented engine function" — the same state (also decoded from
    its bytes) gives the same move, and asking changes nothing."""
    rnd = random.Random(7)
    state = random_prefix(
        GAME, GAME.new_game(GAME.make_config(4, {"mode": "professional"}), b"p"), rnd, 40
    )
    encoded = msgspec.msgpack.encode(state)
    again = msgspec.msgpack.decode(encoded, type=TheGangState)
    assert defaults(state) == defaults(again)
    assert msgspec.msgpack.encode(state) == encoded


TABLES = [
    pytest.param(
        players, {"mode": mode, "confirm_round_end": confirm}, id=f"{players}p-{mode}-{confirm}"
    )
    for players, mode, confirm in [
        (3, Mode.BASIC, False),
        (6, Mode.BASIC, True),
        (4, Mode.ADVANCED, False),
        (5, Mode.ADVANCED, True),
        (3, Mode.PROFESSIONAL, True),
        (6, Mode.PROFESSIONAL, False),
        (4, Mode.MASTER_THIEF, False),
        (5, Mode.MASTER_THIEF, True),
    ]
] + [pytest.param(4, {"mode": Mode.PROFESSIONAL, "rules_revision": 1}, id="4p-professional-rev1")]


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_the_clock_alone_ends_the_game_from_random_positions(
    players: int, options: dict[str, Any]
) -> None:
    """Issue 17 (progress): from states reached by random play, the seats the game waits for
    playing nothing but default moves end the game within the move limit (3,000); every
    default on the way is legal and repeatable."""
    config = GAME.make_config(players, options)
    for seed in range(3):
        rnd = random.Random(seed)
        state = GAME.new_game(config, bytes([seed, players]))
        state = random_prefix(GAME, state, rnd, rnd.randrange(0, 90))
        check_defaults(GAME, state)
        final, played = by_clock(GAME, state, LIMIT)
        assert GAME.outcome(final) is not None and played < LIMIT


def test_every_seat_to_act_has_a_legal_default_along_random_playouts() -> None:
    """engines/base.py: the default move "always one of ``legal_moves``", for every seat to
    act, at every state of random playouts with cards (challenges and specialists)."""
    for seed, mode in enumerate([Mode.ADVANCED, Mode.PROFESSIONAL, Mode.MASTER_THIEF]):
        rnd = random.Random(seed)
        state = GAME.new_game(GAME.make_config(4, {"mode": mode}), bytes([seed]))
        for _ in range(120):
            check_defaults(GAME, state)
            state = random_prefix(GAME, state, rnd, 1)
