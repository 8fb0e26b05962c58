"""What a turn clock plays for the seat of Gang of Four whose time ran out (issue 17: "pass
in Gang of Four, or its lowest legal single when it must lead").

1. The exchange: the hand's winner gives back his lowest card.
2. A play on the table: pass. Where the rules refuse the pass (the seat before a one-card
   player who can beat a single with his highest card or a Gang, revision 2), the cheapest
   play the rules then allow: his highest single, else his weakest Gang.
3. Leading: the lowest legal single (the multicoloured 1 in the game's first lead). Where
   no single may be led (the next player holds one card and the hand has a combination of
   several), the cheapest legal combination: fewest cards, then the weakest.

A play that leaves one card announces it (forgetting is legal, but punished). Passing
ends every trick within a round of the table and a lead always sheds a card, so a hand
played by the clock ends within 16 leads and the game within a few hands.
"""

from __future__ import annotations

from engines.base import Seat
from engines.checks import check_seat, check_to_act
from engines.errors import MoveError
from engines.gang_of_four import rules
from engines.gang_of_four.cards import GofCard
from engines.gang_of_four.combos import Combination, plays_beating
from engines.gang_of_four.model import GangOfFourState, Phase
from engines.gang_of_four.moves import GiveBack, Move, Pass, Play


def default_move(state: GangOfFourState, seat: object) -> Move:
    """The move the clock plays for ``seat`` (see the module docstring)."""
    seat = check_seat(seat, state.config.players, over=state.phase is Phase.OVER)
    check_to_act(seat, rules.to_act(state))
    hand = state.hands[seat]
    if state.phase is Phase.EXCHANGE:
        return GiveBack(hand[0])  # a hand is kept sorted: its lowest card first
    if state.current is not None and _legal(state, seat, Pass()):
        return Pass()
    if state.current is None:
        for card in sorted(set(hand)):
            single = _play(hand, (card,))
            if _legal(state, seat, single):
                return single
    for combo in sorted(plays_beating(hand, state.current), key=_cheapness):
        play = _play(hand, combo.cards)
        if _legal(state, seat, play):
            return play
    raise AssertionError("a seat to play always has a pass or a play")


def _cheapness(combo: Combination) -> tuple[int, tuple[int, ...]]:
    return combo.size, combo.key


def _play(hand: tuple[GofCard, ...], cards: tuple[GofCard, ...]) -> Play:
    return Play(cards, announce_last_card=len(hand) - len(cards) == 1)


def _legal(state: GangOfFourState, seat: Seat, move: Move) -> bool:
    try:
        rules.check(state, seat, move)
    except MoveError:
        return False
    return True
