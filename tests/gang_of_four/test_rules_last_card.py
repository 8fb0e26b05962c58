"""Gang of Four's turn flow: the last card.

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

from typing import Any

import pytest

from engines.errors import IllegalMoveError
from engines.gang_of_four import GAME, Move, Pass
from engines.gang_of_four.combos import Kind
from engines.gang_of_four.events import (
    HandEnded,
    LastCardAnnounced,
    LastCardForgotten,
    Passed,
    Played,
    TrickWon,
)
from engines.gang_of_four.model import RULES_REVISION, Direction, HandResult
from tests.gang_of_four.rules_support import rejects
from tests.gang_of_four.support import apply_all, hand, play, reason_of, table

# --- the last card ------------------------------------------------------------------------


def test_announcing_the_last_card() -> None:
    """Seed: "Wenn ein Spieler seine vorletzte Karte abgelegt hat, muss er laut „Letzte
    Karte!" ansagen." RULES-NOTES 8: "make it an explicit flag on the move"."""
    state = table(["g9 r9", "g5 y5 r10", "g7 y7"], turn=1)
    after, events = GAME.apply(state, 1, play("g5 y5", announce=True))
    assert events == [Played(1, hand("g5 y5"), Kind.PAIR, 1), LastCardAnnounced(1)]
    assert after.announced == (1,) and after.out == () and after.turn == 0
    for viewer in [None, 0, 1, 2]:
        assert GAME.view(after, viewer).announced == (1,)
        assert GAME.view(after, viewer).card_counts == (2, 1, 2)


def test_forgetting_the_last_card_puts_the_player_out_of_the_hand() -> None:
    """Seed: "Vergisst er die Ansage, scheidet er aus der laufenden Runde aus und kann seine
    letzte Karte nicht mehr ablegen. Fürihn wird ein Punkt auf dem Wertungsblock notiert. Die
    übrigen Spieler setzen die Runde fort, bis ein Spieler regelgerecht seine letzte Karte
    ausgespielt hat."."""
    state = table(["g9 r9 r9 y10", "g5 y5 r10", "g7 y7 y8", "g2 g3 g4"], turn=1)
    state, events = GAME.apply(state, 1, play("g5 y5"))
    assert events == [Played(1, hand("g5 y5"), Kind.PAIR, 1), LastCardForgotten(1)]
    assert state.out == (1,) and state.announced == ()
    assert GAME.view(state, 3).out == (1,)
    assert state.turn == 0
    state, _ = apply_all(state, [(0, play("r9 r9")), (3, Pass())])
    state, events = GAME.apply(state, 2, Pass())
    assert events == [Passed(2), TrickWon(0, 0)], "seat 1 is not waited for"
    state, _ = apply_all(state, [(0, play("g9", announce=True)), (3, Pass())])
    assert state.turn == 2
    state, events = GAME.apply(state, 2, Pass())
    assert events == [Passed(2), TrickWon(0, 0)], "seat 1 takes no turn"
    assert GAME.legal_moves(state, 1) == []
    rejects(state, 1, play("r10"), IllegalMoveError, "NOT_YOUR_TURN")
    _, events = GAME.apply(state, 0, play("y10"))
    assert events[:2] == [
        Played(0, hand("y10"), Kind.SINGLE, 0),
        HandEnded(HandResult(1, 0, (0, 1, 3, 3), (0, 1, 3, 3)), (0, 1, 3, 3)),
    ]


def test_a_forgetful_player_who_would_lead_is_replaced_by_the_next() -> None:
    """Seed: "Wenn ein Spieler die Ansage „letzte Karte" vergisst, aber mit Ausspielern an der
    Reihe ware, ist an seiner Stelle nun der hinter ihm sitzende Spieler an der Reihe."
    (seat 1 forgets on his play, everyone passes: seat 0, next after him, leads)."""
    state = table(["g9 r9 r9", "g5 y5 r10", "g7 y7 y8", "g2 g3 g4"], turn=1)
    state, _ = apply_all(state, [(1, play("g5 y5")), (0, Pass()), (3, Pass())])
    assert state.current is not None
    state, events = GAME.apply(state, 2, Pass())
    assert events == [Passed(2), TrickWon(winner=1, leader=0)]
    assert state.turn == 0 and state.current is None


def test_the_table_may_announce_for_the_players() -> None:
    """RULES-NOTES 8: "make it an explicit flag on the move, with an auto-announce table
    option" (with the option, nobody can forget)."""
    state = table(["g9 r9", "g5 y5 r10", "g7 y7"], turn=1, auto=True)
    assert GAME.view(state, None).auto_announce_last_card
    after, events = GAME.apply(state, 1, play("g5 y5"))
    assert events == [Played(1, hand("g5 y5"), Kind.PAIR, 1), LastCardAnnounced(1)]
    assert after.announced == (1,) and after.out == ()
    _, events = GAME.apply(state, 1, play("g5 y5", announce=True))
    assert events[1:] == [LastCardAnnounced(1)]


@pytest.mark.parametrize("auto", [False, True])
def test_announcing_without_going_down_to_one_card_is_refused(auto: bool) -> None:
    """Seed: "Wenn ein Spieler seine vorletzte Karte abgelegt hat, muss er ... ansagen" (only
    then: not with more cards left, nor with the last card itself)."""
    state = table(["g9 r9", "g5 y5 y6 r10", "g7 y7"], turn=1, auto=auto)
    rejects(state, 1, play("g5", announce=True), IllegalMoveError, "NOT_LAST_CARD")
    finishing = table(["g9 r9", "g5 y5", "g7 y7"], turn=1, auto=auto)
    rejects(finishing, 1, play("g5 y5", announce=True), IllegalMoveError, "NOT_LAST_CARD")


def test_finishing_with_a_combination_needs_no_announcement() -> None:
    """Seed: "Beendet ein Spieler die Runde durch das Ausspielen einer Kombination (z.B.
    Pärchen oder Full House),statt mit einer Einzelkarte, muss er zuvor nicht seine „letzte
    Karte"ankündigen."."""
    state = table(["g9 r9 r9", "g5 y5", "g7 y7 y8"], turn=1)
    _, events = GAME.apply(state, 1, play("g5 y5"))
    assert events[0] == Played(1, hand("g5 y5"), Kind.PAIR, 0)
    assert isinstance(events[1], HandEnded) and events[1].result.winner == 1
    assert not [e for e in events if isinstance(e, LastCardAnnounced | LastCardForgotten)]


def test_the_last_player_in_the_hand_is_never_put_out() -> None:
    """DECISION (rules.py ``_play``): the seed's penalty lets "die übrigen Spieler" go on;
    when nobody else is left in the hand, the engine announces for the last active player
    instead of putting him out, and he leads again at once."""
    state = table(["g9 r9 r9", "g5", "y7"], turn=0, out=(1, 2))
    state, events = GAME.apply(state, 0, play("r9 r9"))
    assert events == [
        Played(0, hand("r9 r9"), Kind.PAIR, 1),
        LastCardAnnounced(0),
        TrickWon(0, 0),
    ]
    assert state.out == (1, 2) and state.announced == (0,) and state.turn == 0
    _, events = GAME.apply(state, 0, play("g9"))
    assert isinstance(events[1], HandEnded)
    assert events[1].result.points == (0, 1, 1)


@pytest.mark.parametrize("auto", [False, True])
def test_legal_moves_list_the_play_that_forgets_the_announcement(auto: bool) -> None:
    """engines/base.py: "``legal_moves`` lists exactly the moves ``check`` accepts". Seed:
    "Vergisst er die Ansage, scheidet er aus der laufenden Runde aus" (forgetting is a
    legal, punished move; with auto-announce both flags mean the same)."""
    state = table(["g9 r9", "g5 y5 r10", "g7 y7"], turn=1, auto=auto)
    forgetful = play("g5 y5")
    assert reason_of(state, 1, forgetful) is None
    assert forgetful in GAME.legal_moves(state, 1)


# --- the player before a player with one card ----------------------------------------------

REVISIONS = [1, RULES_REVISION]
"""Revision 1 let the player before a one-card player pass whatever he held."""


def may_pass(revision: int) -> set[Move]:
    """The pass listed beside the duty's plays: only revision 1 lists it."""
    return {Pass()} if revision == 1 else set()


@pytest.mark.parametrize("revision", REVISIONS)
def test_before_a_last_card_a_single_must_be_the_highest_card(revision: int) -> None:
    """Seed: "Wenn ein Spieler „letzte Karte" ankündigt, so muss der Spieler, der direkt vor
    ihm sitzt, versuchen zu verhindern, dass dieser seine letzte Karte ablegen kann. Werden
    gerade Einzelkarten gespielt, muss er seine hochste Karte - wenn er sie regelkonform
    spielten kann - oder eine Gang-Kombination legen." (seat 1 plays before seat 0 in hand
    1; revision 1 let him pass, revision 2 does not: his highest card beats the table)."""
    hands = ["r2", "g5 y7 r9 g4 y4 y4 r4", "g7 y7 y8"]
    state = table(hands, turn=1, current="g3", current_by=2, announced=(0,), revision=revision)
    rejects(state, 1, play("y7"), IllegalMoveError, "MUST_PLAY_HIGHEST_SINGLE")
    rejects(state, 1, play("g5"), IllegalMoveError, "MUST_PLAY_HIGHEST_SINGLE")
    assert set(GAME.legal_moves(state, 1)) == {play("r9"), play("g4 y4 y4 r4")} | may_pass(revision)
    free = table(hands, turn=2, current="g3", current_by=1, announced=(0,), revision=revision)
    assert play("g7") in GAME.legal_moves(free, 2), "seat 2 does not sit before seat 0"


@pytest.mark.parametrize("revision", REVISIONS)
def test_before_a_last_card_a_highest_card_too_low_leaves_a_gang_or_a_pass(
    revision: int,
) -> None:
    """Seed: "muss er seine hochste Karte - wenn er sie regelkonform spielten kann - oder eine
    Gang-Kombination legen" (he cannot play it: a Gang; revision 2 lets him pass only
    without one, revision 1 always did)."""
    hands = ["r2", "g5 y7 r9 g4 y4 y4 r4", "g7 y7 y8"]
    state = table(hands, turn=1, current="y10", current_by=2, revision=revision)
    assert set(GAME.legal_moves(state, 1)) == {play("g4 y4 y4 r4")} | may_pass(revision)
    no_gang = table(
        ["r2", "g5 y7 r9", "g7 y7 y8"], turn=1, current="y10", current_by=2, revision=revision
    )
    assert GAME.legal_moves(no_gang, 1) == [Pass()]


def test_before_a_last_card_other_tricks_are_free() -> None:
    """Seed: "Werden gerade Einzelkarten gespielt" (the duty is about singles; on pairs any
    higher pair will do)."""
    state = table(["r2", "g5 g5 y7 y7 r9", "g7 r7 y8"], turn=1, current="g3 y3", current_by=2)
    assert set(GAME.legal_moves(state, 1)) == {Pass(), play("g5 g5"), play("y7 y7")}


def test_before_a_last_card_the_leader_must_lead_several_cards() -> None:
    """Seed: "Außen dem muss er versuchen, Kombinationen aus mehreren Karten zu legen, falls er
    eine neue Runde eröffnet." RULES-NOTES 8: "must lead a multi-card combination when
    leading if he can"."""
    state = table(["r2", "g5 g5 y7 r9 r10", "g7 y7 y8"], turn=1)
    rejects(state, 1, play("r10"), IllegalMoveError, "MUST_LEAD_COMBINATION")
    rejects(state, 1, play("g5"), IllegalMoveError, "MUST_LEAD_COMBINATION")
    assert GAME.legal_moves(state, 1) == [play("g5 g5")]


def test_before_a_last_card_a_leader_without_combinations_leads_his_highest() -> None:
    """RULES-NOTES 8: "must lead a multi-card combination when leading if he can"; else the
    seed's "muss er seine hochste Karte ... legen"."""
    state = table(["r2", "g5 y7 r9 r10", "g7 y7 y8"], turn=1)
    rejects(state, 1, play("r9"), IllegalMoveError, "MUST_PLAY_HIGHEST_SINGLE")
    assert GAME.legal_moves(state, 1) == [play("r10")]


@pytest.mark.parametrize("revision", REVISIONS)
def test_the_duty_follows_the_direction_of_play(revision: int) -> None:
    """Seed: "Diese Regel gilt für jeder, der direkt vor einem Spieler sitzt, welcher nur noch
    eine einzige Karte auf der Hand hat." In a clockwise hand seat 1 plays right before seat
    2, and seat 0 (before him counter-clockwise) is free."""
    hands = ["g5 y7 r9", "g5 y7 r9", "r2", "g7 r7 y8"]
    cw, ccw = Direction.CLOCKWISE, Direction.COUNTER_CLOCKWISE
    at: dict[str, Any] = {"current": "g3", "current_by": 0, "revision": revision}
    clockwise = table(hands, turn=1, direction=cw, **at)
    assert set(GAME.legal_moves(clockwise, 1)) == {play("r9")} | may_pass(revision)
    counter = table(hands, turn=1, direction=ccw, **at)
    assert set(GAME.legal_moves(counter, 1)) == {Pass(), play("g5"), play("y7"), play("r9")}
    seat_three = table(hands, turn=3, direction=ccw, **at)
    assert set(GAME.legal_moves(seat_three, 3)) == {play("y8")} | may_pass(revision)


@pytest.mark.parametrize("revision", REVISIONS)
def test_a_player_out_of_the_hand_imposes_no_duty_and_is_skipped(revision: int) -> None:
    """Seed: "scheidet er aus der laufenden Runde aus" (his one card will not be played, so
    nobody has to stop it); DECISION: the duty falls on the player before the next one *in
    the hand* (seat 2 plays right before seat 0 when seat 1 is out)."""
    hands = ["r2", "g2", "g5 y7 r9", "g7 y7 y8"]
    state = table(hands, turn=2, current="g3", current_by=3, out=(1,), revision=revision)
    assert set(GAME.legal_moves(state, 2)) == {play("r9")} | may_pass(revision)
    hands = ["r2", "g2 g3", "g5 y7 r9", "g7 y7 y8"]
    skip = table(hands, turn=2, current="g3", current_by=3, out=(0,), revision=revision)
    assert set(GAME.legal_moves(skip, 2)) == {Pass(), play("g5"), play("y7"), play("r9")}


def test_before_a_last_card_a_pass_needs_a_hand_that_cannot_stop_him() -> None:
    """Seed: "Werden gerade Einzelkarten gespielt, muss er seine höchste Karte - wenn er sie
    regelkonform spielen kann - oder eine Gang-Kombination legen." RULES-NOTES 8: "he may
    pass only when he can do neither". The issue's probe: y6 on the table, he holds g6 r8
    rD; only the Dragon (his highest card) is left him, no pass and no lower single."""
    state = table(["r2", "g6 r8 rD", "g7 y7 y8"], turn=1, current="y6", current_by=2)
    rejects(state, 1, Pass(), IllegalMoveError, "MUST_PLAY_HIGHEST_SINGLE")
    rejects(state, 1, play("r8"), IllegalMoveError, "MUST_PLAY_HIGHEST_SINGLE")
    assert GAME.legal_moves(state, 1) == [play("rD")]
    with_gang = table(["r2", "g6 r8 rD g4 y4 r4 r4", "g7"], turn=1, current="y6", current_by=2)
    rejects(with_gang, 1, Pass(), IllegalMoveError, "MUST_PLAY_HIGHEST_SINGLE")
    assert set(GAME.legal_moves(with_gang, 1)) == {play("rD"), play("g4 y4 r4 r4")}
    old = table(["r2", "g6 r8 rD", "g7 y7 y8"], turn=1, current="y6", current_by=2, revision=1)
    assert set(GAME.legal_moves(old, 1)) == {Pass(), play("rD")}


def test_before_a_last_card_a_pass_on_other_plays_stays_free() -> None:
    """Seed: "Werden gerade Einzelkarten gespielt" (only singles: on a pair, or when the one
    card is not next, he may pass though he holds the Dragon and a Gang)."""
    hands = ["r2", "g5 g5 rD g4 y4 r4 r4", "g7 y7 y8"]
    pair = table(hands, turn=1, current="g3 y3", current_by=2)
    assert Pass() in GAME.legal_moves(pair, 1)
    assert reason_of(pair, 1, Pass()) is None
    not_next = table(["g2 g3", *hands[1:]], turn=1, current="g3", current_by=2)
    assert reason_of(not_next, 1, Pass()) is None
    leading = table(hands, turn=1)
    rejects(leading, 1, Pass(), IllegalMoveError, "MUST_LEAD")
