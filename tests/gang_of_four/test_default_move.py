"""Gang of Four's default move, what a turn clock plays for the seat whose time ran out.

Issue 17: "the referee applies that game's default move — a pure, documented engine
function (`default_move(state, seat)`; e.g. pass in Gang of Four, or its lowest legal single
when it must lead [...])". The choices are documented in engines/gang_of_four/defaults.py
and docs/rules/gang_of_four.md.
"""

from __future__ import annotations

import random

import msgspec
import pytest

from engines.errors import IllegalMoveError, InvalidMoveError
from engines.gang_of_four import GAME, GangOfFourState, GiveBack, Pass
from engines.gang_of_four.cards import MULTICOLOURED_ONE
from engines.gang_of_four.model import Phase
from tests.clock_driver import by_clock, check_defaults, random_prefix
from tests.gang_of_four.rules_support import ended_hand_one
from tests.gang_of_four.support import new, play, table

LIMIT = GAME.default_move_limit


def test_on_a_play_the_clock_passes() -> None:
    """Issue 17: "pass in Gang of Four" — the seed's "kann ... eine höherwertige Kombination
    ... legen oder passen": passing costs nothing now."""
    state = table(["g5 y7 r9", "g2 g3 rD", "y4 y4 r6"], turn=1, current="g4", current_by=0)
    assert GAME.default_move(state, 1) == Pass()


def test_leading_the_clock_plays_the_lowest_single() -> None:
    """Issue 17: "or its lowest legal single when it must lead" — the lowest card, though the
    hand holds pairs."""
    state = table(["g5 y7 r9", "y2 g3 g3 rD", "y4 y4 r6"], turn=1)
    assert GAME.default_move(state, 1) == play("y2")


def test_the_first_lead_of_the_game_is_the_multicoloured_one() -> None:
    """Seed: the first play must include the multicoloured 1; the lowest legal single is then
    the multicoloured 1 itself, though the hand may hold lower 1s."""
    state = new(4)
    leader = state.turn
    assert state.must_include == MULTICOLOURED_ONE
    assert GAME.default_move(state, leader) == play("m1")


def test_a_refused_pass_becomes_the_highest_single() -> None:
    """Seed: the seat before a one-card player "muss seine höchste Karte - wenn er sie
    regelkonform spielen kann - oder eine Gang-Kombination legen" (revision 2 refuses the
    pass): the clock plays the highest single, the cheaper of the two."""
    hands = ["r2", "g6 r8 rD g4 y4 r4 r4", "g7"]
    state = table(hands, turn=1, current="y6", current_by=2)
    assert GAME.default_move(state, 1) == play("rD")


def test_a_refused_pass_without_a_high_enough_single_becomes_the_weakest_gang() -> None:
    """The same duty when the highest card cannot beat the table: "oder eine Gang-Kombination
    legen"; of two Gangs the clock plays the weaker (fewest cards, then lowest)."""
    hands = ["r2", "g3 g4 y4 r4 r4 g9 g9 y9 y9 r9", "g7"]
    state = table(hands, turn=1, current="rD", current_by=2)
    assert GAME.default_move(state, 1) == play("g4 y4 r4 r4")
    old = table(hands, turn=1, current="rD", current_by=2, revision=1)
    assert GAME.default_move(old, 1) == Pass(), "revision 1 let him pass"


def test_leading_before_a_last_card_the_clock_leads_the_cheapest_combination() -> None:
    """RULES-NOTES 8: he "must lead a multi-card combination when leading if he can": no
    single may be led, so the clock leads the cheapest combination (fewest cards, lowest)."""
    state = table(["r2", "g5 g5 y7 y7 r10", "g7 r7 y8"], turn=1)
    assert GAME.default_move(state, 1) == play("g5 g5")
    alone = table(["r2", "g5 y7 r9 r10", "g7 y7 y8"], turn=1)
    assert GAME.default_move(alone, 1) == play("r10"), "without one, his highest single"


def test_a_play_down_to_one_card_announces_it() -> None:
    """Notes 8: forgetting to announce the last card is legal but punished; the clock says
    "last card"."""
    state = table(["g5 y7 r9", "y2 rD", "y4 y4 r6"], turn=1)
    assert GAME.default_move(state, 1) == play("y2", announce=True)
    auto = table(["g5 y7 r9", "y2 rD", "y4 y4 r6"], turn=1, auto=True)
    assert GAME.default_move(auto, 1) == play("y2", announce=True)


def test_in_the_exchange_the_winner_gives_back_his_lowest_card() -> None:
    """Seed: the winner "gibt ... eine Karte seiner Wahl" back to the loser: the clock gives
    his lowest."""
    state, _ = ended_hand_one(4, 1, {0: 3, 2: 9, 3: 5})
    assert state.phase is Phase.EXCHANGE
    winner = state.exchange.winner if state.exchange else -1
    assert GAME.to_act(state) == {winner}
    assert GAME.default_move(state, winner) == GiveBack(min(state.hands[winner]))


def test_no_default_move_off_turn_off_the_table_or_after_the_end() -> None:
    """engines/base.py: defined "for every seat in ``to_act`` of a game that is not over"
    (else NOT_TO_ACT, SEAT_OUT_OF_RANGE, GAME_OVER)."""
    state = new(3)
    other = (state.turn + 1) % 3
    with pytest.raises(IllegalMoveError) as info:
        GAME.default_move(state, other)
    assert info.value.reason == "NOT_TO_ACT"
    with pytest.raises(InvalidMoveError) as off:
        GAME.default_move(state, 3)
    assert off.value.reason == "SEAT_OUT_OF_RANGE"
    over, _ = by_clock(GAME, state, LIMIT)
    with pytest.raises(IllegalMoveError) as stopped:
        GAME.default_move(over, over.turn)
    assert stopped.value.reason == "GAME_OVER"


def test_the_default_move_is_pure() -> None:
    """Issue 17: "a pure, documented engine function" — the same state (also decoded from
    its bytes) gives the same move, and asking changes nothing."""
    state = random_prefix(GAME, new(4), random.Random(3), 30)
    encoded = msgspec.msgpack.encode(state)
    again = msgspec.msgpack.decode(encoded, type=GangOfFourState)
    seat = state.turn
    assert GAME.default_move(state, seat) == GAME.default_move(again, seat)
    assert msgspec.msgpack.encode(state) == encoded


TABLES = [
    pytest.param(3, {}, id="3p"),
    pytest.param(4, {}, id="4p"),
    pytest.param(3, {"auto_announce_last_card": True}, id="3p-auto"),
    pytest.param(4, {"rules_revision": 1}, id="4p-revision1"),
]


@pytest.mark.parametrize(("players", "options"), TABLES)
def test_the_clock_alone_ends_the_game_from_random_positions(
    players: int, options: dict[str, object]
) -> None:
    """Issue 17 (progress): from states reached by random play, the seat to act playing
    nothing but default moves ends the game within the move limit (16,000); every default
    on the way is legal and repeatable."""
    config = GAME.make_config(players, options)
    for seed in range(3):
        rnd = random.Random(seed)
        state = GAME.new_game(config, bytes([seed, players]))
        state = random_prefix(GAME, state, rnd, rnd.randrange(0, 400))
        check_defaults(GAME, state)
        final, played = by_clock(GAME, state, LIMIT)
        assert GAME.outcome(final) is not None and played < LIMIT


def test_the_default_is_legal_along_random_playouts() -> None:
    """engines/base.py: the default move is "always one of ``legal_moves``", at every state of
    random playouts (exchanges, leads, last-card duties included)."""
    for seed in range(2):
        rnd = random.Random(seed)
        state = GAME.new_game(GAME.make_config(3 + seed, {}), bytes([seed]))
        for _ in range(250):
            if GAME.outcome(state) is not None:
                break
            check_defaults(GAME, state)
            state = random_prefix(GAME, state, rnd, 1)
