"""Gang of Four's turn flow: the exchange, scoring and the end of the game.

One test per rule, each quoting the rule it checks. Quotes are from the German rule seed
(``shared/seeds/003_*.txt``, OCR damage and all) unless marked RULES-NOTES
(``shared/RULES-NOTES.md``, Gang of Four). Tables come from the public factory functions
and, where a test needs exact hands, are rigged with ``msgspec.structs.replace``
(``support.table``). Seats are numbered clockwise; hand 1 is played counter-clockwise, so
there the turn passes from seat ``s`` to seat ``s - 1``.

The rules are split by topic: ``test_rules_deal_and_lead.py``, ``test_rules_tricks.py``,
``test_rules_exchange_and_scoring.py``, ``test_rules_last_card.py`` and
``test_rules_legality.py``; the combinations themselves (what beats what) are tested in
``test_combos.py``.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engines.errors import IllegalMoveError
from engines.gang_of_four import GAME, GiveBack, Pass, Play
from engines.gang_of_four.cards import DECK
from engines.gang_of_four.events import CardGiven, CardReturned, GameEnded, HandDealt, HandEnded
from engines.gang_of_four.model import Exchange, HandResult, Phase, points_for
from engines.gang_of_four.view import RevealedHand
from tests.gang_of_four.rules_support import ended_hand_one, rejects
from tests.gang_of_four.support import SCORE_TABLE, hand, new, play, table, view_leaks

# --- the exchange -------------------------------------------------------------------------


def test_the_loser_gives_his_highest_card_to_the_winner() -> None:
    """Seed: "Mit Ausnahme der ersten Spielrunde muss zu Beginn jeder Runde der Verlierer der
    vorangegangenen Runde dem Gewinner seine höchste Karte geben." RULES-NOTES 7: "the
    player who scored most in the previous hand gives his highest card to the winner" (in
    single-card order: the Dragon is the highest card of all)."""
    dragons = 0
    for n in range(16):
        state, events = ended_hand_one(4, 1, {0: 3, 2: 9, 3: 5}, seed=bytes([n, 7]))
        dealt = {event.seat: event.cards for event in events if isinstance(event, HandDealt)}
        given = max(dealt[2])
        assert events[-1] == CardGiven(loser=2, winner=1, card=given)
        assert state.exchange == Exchange(loser=2, winner=1, given=given)
        assert Counter(state.hands[2]) == Counter(dealt[2]) - Counter([given])
        assert Counter(state.hands[1]) == Counter(dealt[1]) + Counter([given])
        assert len(state.hands[1]) == 17 and len(state.hands[2]) == 15
        dragons += str(given) == "rD"
    assert dragons >= 2


def test_the_winner_gives_back_any_card_of_his_choice() -> None:
    """Seed: "Diese gibt ihm eine Karte seiner Wahl aus seiner Hand zurück." (the card just
    received included)."""
    state, events = ended_hand_one(3, 0, {1: 10, 2: 4})
    given = events[-1]
    assert isinstance(given, CardGiven) and (given.loser, given.winner) == (1, 0)
    assert GAME.legal_moves(state, 0) == [GiveBack(card) for card in sorted(set(state.hands[0]))]
    assert GiveBack(given.card) in GAME.legal_moves(state, 0)
    after, returned = GAME.apply(state, 0, GiveBack(given.card))
    assert returned == [CardReturned(winner=0, loser=1, card=given.card)]
    assert Counter(after.hands[1]) == Counter(state.hands[1]) + Counter([given.card])
    assert len(after.hands[0]) == len(after.hands[1]) == 16
    assert (after.phase, after.turn, after.exchange) == (
        Phase.PLAY,
        0,
        Exchange(1, 0, given.card, given.card),
    )
    lowest = state.hands[0][0]
    after, returned = GAME.apply(state, 0, GiveBack(lowest))
    assert returned == [CardReturned(0, 1, lowest)]
    assert after.hands[1] == tuple(sorted((*state.hands[1], lowest)))


def test_only_the_winner_acts_during_the_exchange() -> None:
    """Seed: "Diese gibt ihm eine Karte seiner Wahl aus seiner Hand zurück." (nothing else
    happens before he has)."""
    state, _ = ended_hand_one(4, 3, {0: 3, 1: 12, 2: 5})
    assert GAME.to_act(state) == {3}
    for seat in (0, 1, 2):
        assert GAME.legal_moves(state, seat) == []
        rejects(state, seat, GiveBack(state.hands[seat][0]), IllegalMoveError, "NOT_YOUR_TURN")
        rejects(state, seat, Pass(), IllegalMoveError, "EXCHANGE_PENDING")
        rejects(state, seat, Play((state.hands[seat][0],)), IllegalMoveError, "EXCHANGE_PENDING")
    rejects(state, 3, Pass(), IllegalMoveError, "EXCHANGE_PENDING")
    rejects(state, 3, Play((state.hands[3][0],)), IllegalMoveError, "EXCHANGE_PENDING")


def test_give_back_a_card_not_in_hand_or_outside_the_exchange() -> None:
    """Seed: "eine Karte seiner Wahl aus seiner Hand" (his own hand; and only in the exchange)."""
    state, _ = ended_hand_one(4, 3, {0: 3, 1: 12, 2: 5})
    missing = next(card for card in DECK if card not in state.hands[3])
    rejects(state, 3, GiveBack(missing), IllegalMoveError, "CARDS_NOT_IN_HAND")
    after, _ = GAME.apply(state, 3, GiveBack(state.hands[3][0]))
    rejects(after, 3, GiveBack(after.hands[3][0]), IllegalMoveError, "NO_EXCHANGE")
    rejects(new(4), 0, GiveBack(new(4).hands[0][0]), IllegalMoveError, "NO_EXCHANGE")


def test_both_exchanged_cards_are_shown_to_everyone() -> None:
    """Seed: "Den anderen Spieler werden die beiden ausgetauschen Karten gezeigt."."""
    state, events = ended_hand_one(4, 3, {0: 3, 1: 12, 2: 5})
    given = events[-1]
    assert isinstance(given, CardGiven)
    back = state.hands[3][0]
    after, returned = GAME.apply(state, 3, GiveBack(back))
    for viewer in [None, 0, 1, 2, 3]:
        assert GAME.view_event(given, viewer) == given
        assert GAME.view_event(returned[0], viewer) == returned[0]
        assert GAME.view_move(GiveBack(back), 3, viewer) == GiveBack(back)
        assert GAME.view(state, viewer).exchange == Exchange(1, 3, given.card)
        assert GAME.view(after, viewer).exchange == Exchange(1, 3, given.card, back)
        assert view_leaks(state, viewer) == view_leaks(after, viewer) == []


def test_exchange_tie_on_points_the_highest_total_gives() -> None:
    """Seed: "Sollten mehrere Spieler bei der vorherigen Runde die höchste Punktzahl erreicht
    haben, muss derjenige von ihren dem Gewinner seine höchste Karte abgeben, der die
    höchste Gesamtpunktzahl hat."."""
    state, events = ended_hand_one(4, 0, {1: 9, 2: 4, 3: 9}, totals=(10, 30, 0, 31))
    assert events[1] == HandEnded(HandResult(1, 0, (0, 9, 4, 9), (0, 18, 4, 18)), (10, 48, 4, 49))
    assert state.exchange is not None and state.exchange.loser == 3
    state, _ = ended_hand_one(4, 0, {1: 9, 2: 4, 3: 9}, totals=(10, 32, 0, 31))
    assert state.exchange is not None and state.exchange.loser == 1


@pytest.mark.parametrize(
    ("players", "winner", "tied", "loser"),
    [
        (4, 2, (0, 1, 3), 1),
        (4, 2, (0, 3), 0),
        (4, 0, (1, 2, 3), 3),
        (4, 0, (1, 2), 2),
        (3, 1, (0, 2), 0),
        (3, 0, (1, 2), 2),
    ],
)
def test_exchange_tie_on_totals_the_nearest_counter_clockwise_gives(
    players: int, winner: int, tied: tuple[int, ...], loser: int
) -> None:
    """Seed: "Besteht auch hier Gleichstand, muss derjenige von ihren seine höchste Karte
    abgeben, der entgegen dem Uhrzeigersinn erhäner am Gewinner der letzten Runde sitzt."
    (seats run clockwise: counter-clockwise from the winner come winner-1, winner-2, ...)."""
    left = {seat: (6 if seat in tied else 2) for seat in range(players) if seat != winner}
    state, _ = ended_hand_one(players, winner, left, totals=(20,) * players)
    assert state.exchange is not None
    assert (state.exchange.winner, state.exchange.loser) == (winner, loser)


# --- scoring and the end of the game --------------------------------------------------------


def test_the_scoring_table() -> None:
    """Seed: "1 bis 7 Karten - 1 Punkt pro Karte / 8 bis 10 Karten - 2 Punkte pro Karte /
    11 bis 13 Karten - 3 Punkte pro Karte / 14 oder 15 Karten - 4 Punkte pro Karte / 16
    Karten - 5 Punkte pro Karte, also 80 Punkte"."""
    assert {n: points_for(n) for n in range(17)} == SCORE_TABLE


def test_the_seed_example_scores() -> None:
    """Seed: "Maria hat am Ende der Runde noch fünf Karten auf der Hand und erhält deshalb 5
    Punkte (5 x 1). Da Johannes noch neun Karten hat, bereits mit 18 Punkte (9 x 2). Für Lisa,
    die noch 15 Karten besitzt, werden für diese Runde 60 Punkte (15 x 4) notiert."."""
    state, events = ended_hand_one(4, 0, {1: 5, 2: 9, 3: 15}, totals=(1, 2, 3, 4))
    assert events[1] == HandEnded(
        HandResult(1, 0, (0, 5, 9, 15), (0, 5, 18, 60)), totals=(1, 7, 21, 64)
    )
    assert state.totals == (1, 7, 21, 64)
    assert state.results == (HandResult(1, 0, (0, 5, 9, 15), (0, 5, 18, 60)),)


def test_sixteen_cards_left_score_eighty() -> None:
    """Seed: "16 Karten - 5 Punkte pro Karte, also 80 Punkte" (a player who never played)."""
    _, events = ended_hand_one(3, 2, {0: 16, 1: 1})
    assert events[1] == HandEnded(HandResult(1, 2, (16, 1, 0), (80, 1, 0)), (80, 1, 0))


def test_the_game_ends_when_a_player_reaches_one_hundred() -> None:
    """Seed: "Das Spiel endet, wenn einer oder mehrere Spieler 100 Punkte erreicht haben.
    Gewonnen hat dann derjenige, der die niedrigste Punktezahl hat."."""
    state, events = ended_hand_one(4, 1, {0: 3, 2: 10, 3: 1}, totals=(20, 50, 80, 60))
    assert events[1:] == [
        HandEnded(HandResult(1, 1, (3, 0, 10, 1), (3, 0, 20, 1)), (23, 50, 100, 61)),
        GameEnded(winners=(0,), totals=(23, 50, 100, 61)),
    ]
    assert state.phase is Phase.OVER and GAME.to_act(state) == frozenset()
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)
    for seat in range(4):
        assert GAME.legal_moves(state, seat) == []
        card = (state.hands[seat] or DECK)[0]
        for move in [Pass(), Play((card,)), GiveBack(card)]:
            rejects(state, seat, move, IllegalMoveError, "GAME_OVER")


def test_the_game_goes_on_below_one_hundred() -> None:
    """Seed: "Dann werden die Karten wieder gemischt und verteil." (99 is not 100)."""
    state, events = ended_hand_one(4, 1, {0: 3, 2: 10, 3: 1}, totals=(20, 50, 79, 60))
    assert events[1] == HandEnded(HandResult(1, 1, (3, 0, 10, 1), (3, 0, 20, 1)), (23, 50, 99, 61))
    assert not [event for event in events if isinstance(event, GameEnded)]
    assert GAME.outcome(state) is None and state.hand == 2


def test_several_players_may_reach_one_hundred_and_tied_lowest_totals_share_the_win() -> None:
    """Seed: "Das Spiel endet, wenn einer oder mehrere Spieler 100 Punkte erreicht haben.
    Gewonnen hat dann derjenige, der die niedrigste Punktezahl hat." (equal lowest totals
    share the win)."""
    state, events = ended_hand_one(4, 1, {0: 10, 2: 10, 3: 5}, totals=(90, 35, 85, 30))
    assert events[-1] == GameEnded(winners=(1, 3), totals=(110, 35, 105, 35))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (1, 3)
    assert "seat 1: 35" in outcome.summary
    assert outcome.placings == (4, 1, 3, 1)  # the tied lowest totals share first place


def test_the_outcome_carries_the_totals_and_the_places_of_opponents() -> None:
    """Seed: "Gewonnen hat dann derjenige, der die niedrigste Punktezahl hat." The outcome's
    scores are the penalty totals, seat 0 first; the lowest total places first; the seats
    are opponents, not a team, and there is no tie-break."""
    state, _ = ended_hand_one(4, 1, {0: 3, 2: 10, 3: 1}, totals=(20, 50, 80, 60))
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == (23, 50, 100, 61)
    assert outcome.placings == (1, 2, 4, 3)
    assert outcome.tiebreaks == (0, 0, 0, 0)
    assert outcome.team is False


# --- after the end, everything is public ----------------------------------------------------


def test_after_the_end_every_hand_and_the_set_aside_cards_are_shown() -> None:
    """Seed: "Sobald ein Spieler seine letzte Karte abgelegt hat, endet die Runde. Die Karten,
    welche die anderen Spieler noch auf der Hand haben, werden gezählt." RULES-NOTES (after a
    game): "finished views and histories may show every hand (never one version earlier)".
    Every viewer, spectators too, sees the hands and the 16 cards dealt to nobody."""
    hands = ["g5 y7 r9", "g2", "g7 y7 y8 rD"]
    before = table(hands, turn=1, totals=(97, 0, 60))
    after, events = GAME.apply(before, 1, play("g2"))
    assert isinstance(events[-1], GameEnded) and after.phase is Phase.OVER
    for viewer in [None, 0, 1, 2]:
        early = GAME.view(before, viewer)
        assert early.revealed_hands == () and early.revealed_set_aside == ()
        seen = GAME.view(after, viewer)
        assert seen.revealed_hands == (
            RevealedHand(0, hand("g5 y7 r9")),
            RevealedHand(1, ()),
            RevealedHand(2, hand("g7 y7 y8 rD")),
        )
        assert seen.revealed_set_aside == before.set_aside and len(before.set_aside) == 16
        assert seen.cards == (after.hands[viewer] if viewer is not None else ())
        assert view_leaks(before, viewer) == view_leaks(after, viewer) == []


def test_the_end_of_a_hand_reveals_nothing_and_four_players_set_nothing_aside() -> None:
    """Seed: "Dann werden die Karten wieder gemischt und verteil." (a hand's end is not the
    game's end: the next hand's cards stay hidden); with four players all 64 cards are dealt,
    so only the hands are revealed."""
    going_on, _ = ended_hand_one(4, 1, {0: 3, 2: 10, 3: 1}, totals=(20, 50, 79, 60))
    for viewer in [None, 0, 1, 2, 3]:
        seen = GAME.view(going_on, viewer)
        assert seen.revealed_hands == () and seen.revealed_set_aside == ()
    over, _ = ended_hand_one(4, 1, {0: 3, 2: 10, 3: 1}, totals=(20, 50, 80, 60))
    seen = GAME.view(over, None)
    assert [len(shown.cards) for shown in seen.revealed_hands] == [3, 0, 10, 1]
    assert seen.revealed_hands == tuple(
        RevealedHand(seat, cards) for seat, cards in enumerate(over.hands)
    )
    assert seen.revealed_set_aside == ()


def test_a_revision_one_game_keeps_the_views_it_was_played_with() -> None:
    """RULES-NOTES (after a game): "finished views and histories may show every hand"; a
    game played under rules revision 1 had no reveal, and a view kept from it must still
    match its replay, so its finished views reveal nothing."""
    hands = ["g5 y7 r9", "g2", "g7 y7 y8 rD"]
    before = table(hands, turn=1, totals=(97, 0, 60), revision=1)
    after, _ = GAME.apply(before, 1, play("g2"))
    assert after.phase is Phase.OVER
    for viewer in [None, 0, 1, 2]:
        seen = GAME.view(after, viewer)
        assert seen.revealed_hands == () and seen.revealed_set_aside == ()
        assert view_leaks(after, viewer) == []
