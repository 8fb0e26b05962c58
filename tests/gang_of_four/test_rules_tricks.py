"""Gang of Four's turn flow: passing and tricks.

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

from typing import Any, cast

import pytest

from engines.errors import IllegalMoveError, InvalidMoveError
from engines.gang_of_four import GAME, GiveBack, Pass, Play
from engines.gang_of_four.cards import Colour, GofCard, cards
from engines.gang_of_four.combos import Kind
from engines.gang_of_four.events import Passed, Played, TrickWon
from tests.gang_of_four.rules_support import PLAYERS, accepts, plays, rejects
from tests.gang_of_four.support import apply_all, finish_hand, hand, new, play, reason_of, table

# --- passing and tricks -------------------------------------------------------------------


def test_a_player_who_passed_may_play_at_his_next_turn() -> None:
    """Seed: "Wer passt, kann wieder einsteigen, wenn er das{nachste Mal an der Reihe ist."."""
    state = table(["g9 r9 r9", "g5 r10 r10", "g7 gP yP", "g2 g3 g4 g6"], turn=1)
    state, _ = apply_all(state, [(1, play("g5")), (0, Pass())])
    assert state.passed == (0,)
    state, _ = apply_all(state, [(3, play("g6")), (2, play("g7")), (1, Pass())])
    assert state.passed == (1,) and state.turn == 0
    assert {play("g9"), play("r9")} <= set(GAME.legal_moves(state, 0)), "seat 0 plays again"
    _, events = GAME.apply(state, 0, play("r9"))
    assert events == [Played(0, hand("r9"), Kind.SINGLE, 2)]


def test_the_leader_may_not_pass() -> None:
    """Seed: "Der Spieler, der als letzter eine Karte oder eine Kombination abgelegt hat,
    spielt neu aus." (leading, there is nothing to pass on)."""
    state = table(["g9 r9", "g5 r10", "g7 yP"], turn=2)
    rejects(state, 2, Pass(), IllegalMoveError, "MUST_LEAD")
    assert Pass() not in GAME.legal_moves(state, 2)


@pytest.mark.parametrize("players", PLAYERS)
def test_trick_ends_when_all_others_passed_and_the_last_player_leads_anything(
    players: int,
) -> None:
    """Seed: "Es werden solange hoherwertige Karten oder Kombinationen gelegt, bis der Reihe
    nach alle Spieler gesasst haben." ... "Der Spieler, der als letzter eine Karte oder eine
    Kombination abgelegt hat, spielt neu aus. Dafür kann er wiederum eine Einzelkarte oder
    eine beliebige Kombination wahren."."""
    hands = ["g2 g3 g4", "y8 y8 r2", "r5 r6 r7", "g9 y9 r9"][:players]
    state = table(hands, turn=1, current="g5 y5", current_by=players - 1)
    state, _ = GAME.apply(state, 1, play("y8 y8", announce=True))
    order = [(1 - step) % players for step in range(1, players)]
    for position, seat in enumerate(order):
        before = state
        state, events = GAME.apply(state, seat, Pass())
        if position < len(order) - 1:
            assert events == [Passed(seat)]
            assert state.current == before.current and state.current_by == 1
            assert state.turn == (seat - 1) % players
    assert events == [Passed(order[-1]), TrickWon(winner=1, leader=1)]
    assert (state.current, state.current_by, state.passes, state.passed) == (None, None, 0, ())
    assert state.turn == 1
    assert plays(state, 1) == {hand("r2")}, "a single on a trick of pairs"


def test_a_play_after_passes_restarts_the_round_of_passes() -> None:
    """Seed: "bis der Reihe nach alle Spieler gesasst haben" (the passes must come in turn,
    after the last play)."""
    state = table(["g9 r9 r9", "g5 r10 r10", "g7 y7 y7"], turn=1)
    state, _ = apply_all(state, [(1, play("g5")), (0, Pass()), (2, play("g7"))])
    assert state.passes == 0 and state.passed == ()
    state, events = GAME.apply(state, 1, Pass())
    assert events == [Passed(1)], "one pass is not everyone: seat 0 still answers seat 2"
    state, events = GAME.apply(state, 0, Pass())
    assert events == [Passed(0), TrickWon(2, 2)]


def test_playing_out_of_turn_is_refused() -> None:
    """Seed: "Es wird reihum gespielt. Wer an der Reihe ist, kann ... legen oder passen."."""
    state = table(["g9 r9", "g5 r10", "g7 y7", "y2 y3"], turn=1, current="g3", current_by=2)
    for seat in (0, 2, 3):
        rejects(state, seat, Pass(), IllegalMoveError, "NOT_YOUR_TURN")
        rejects(state, seat, Play((state.hands[seat][-1],)), IllegalMoveError, "NOT_YOUR_TURN")
        assert GAME.legal_moves(state, seat) == []
    assert GAME.to_act(state) == {1}


def test_a_weaker_or_equal_play_is_refused() -> None:
    """Seed: "Wer an der Reihe ist, kann auf die ausgespielten Karten entweder eine
    higherwertige Kombination mit derselben Anzahl Karten legen oder passen." and "Es ist
    nicht möglich, eine vollig identische Karte oder Kartenkombination zu legen"."""
    state = table(["g9 r9", "g2 y2 g5 r10", "g7 y7"], turn=1, current="r2 g2", current_by=2)
    rejects(state, 1, play("g2 y2"), IllegalMoveError, "WEAKER_PLAY")
    state = table(["g9 r9", "g2 y2 g5 r10", "g7 y7"], turn=1, current="g2 y2", current_by=2)
    rejects(state, 1, play("g2 y2"), IllegalMoveError, "WEAKER_PLAY")
    state = table(["g9 r9", "g2 y2 g5 r10", "g7 y7"], turn=1, current="y5", current_by=2)
    rejects(state, 1, play("g5"), IllegalMoveError, "WEAKER_PLAY")
    assert plays(state, 1) == {hand("r10")}


def test_a_play_of_another_size_is_refused() -> None:
    """Seed: "Ist beispiselsweise ein Drilling ausgespielt,)dürfen nur Drillinge gelegt
    werden." and "eine higherwertige Kombination mit derselben Anzahl Karten"."""
    state = table(["g9 r9", "g8 y8 r8 r10 y10", "g7 y7"], turn=1, current="g2 y2 r2", current_by=2)
    rejects(state, 1, play("y10 r10"), IllegalMoveError, "WRONG_CARD_COUNT")
    rejects(state, 1, play("r10"), IllegalMoveError, "WRONG_CARD_COUNT")
    rejects(state, 1, play("g8 y8 r8 y10 r10"), IllegalMoveError, "WRONG_CARD_COUNT")
    assert plays(state, 1) == {hand("g8 y8 r8")}


@pytest.mark.parametrize(
    "current", ["rD", "gP yP", "r10 r10 y10", "g6 y7 r8 y9 g10", "g2 y2 r2 gP yP", "r2 r3 r4 r5 r6"]
)
def test_a_gang_may_be_played_on_any_combination(current: str) -> None:
    """Seed: "Einzige Ausnahme: Die Gang-Kombinationen ("Gang of Four", "Gang of Five",
    "Gang of Six" oder "Gang of Seven") können auf jeder andere Kombination gespielt werden -
    unabhängig von deren Kartenzahl."."""
    hands = ["g9 r9", "g3 y3 y3 r3 g10 y10", "g7 y7"]
    state = table(hands, turn=1, current=current, current_by=0)
    events = accepts(state, 1, play("g3 y3 y3 r3"))
    assert events == [Played(1, hand("g3 y3 y3 r3"), Kind.GANG, 2)]


def test_a_gang_is_beaten_only_by_a_higher_gang() -> None:
    """Seed: "Sie können nur von jeweils higheren Gang-Kombinationen geschlagen werden." and
    "Gang of Seven > Gang of Six > Gang of Five > Gang of Four" ... "Vier Achter sind
    beispiselsweise hoher als vier Dreier."."""
    hands = ["g6 r6", "g2 y2 y2 r2 g8 y8 r8 r8 rD r10 r10 g5 g5 y5 y5 r5", "g7 y7"]
    state = table(hands, turn=1, current="g3 y3 y3 r3", current_by=0)
    rejects(state, 1, play("rD"), IllegalMoveError, "WRONG_CARD_COUNT")
    rejects(state, 1, play("r10 r10"), IllegalMoveError, "WRONG_CARD_COUNT")
    rejects(state, 1, play("g2 y2 y2 r2"), IllegalMoveError, "WEAKER_PLAY")
    assert plays(state, 1) == {
        hand("g8 y8 r8 r8"),
        hand("g5 g5 y5 y5"),
        hand("g5 y5 y5 r5"),
        hand("g5 g5 y5 r5"),
        hand("g5 g5 y5 y5 r5"),
    }
    bigger = table(hands, turn=1, current="g9 g9 y9 y9 r9", current_by=0)
    rejects(bigger, 1, play("g8 y8 r8 r8"), IllegalMoveError, "WEAKER_PLAY")
    assert plays(bigger, 1) == set()
    assert GAME.legal_moves(bigger, 1) == [Pass()]


def test_cards_not_in_your_hand_are_refused() -> None:
    """Seed: "Er legt nun eine Einzelkarte oder eine Kombination aus" (from his own hand; two
    copies of a card only if he holds both)."""
    state = table(["g9 r9", "g5 y5 r10", "g7 y7"], turn=1)
    rejects(state, 1, play("g6"), IllegalMoveError, "CARDS_NOT_IN_HAND")
    rejects(state, 1, play("g5 g5"), IllegalMoveError, "CARDS_NOT_IN_HAND")
    rejects(state, 1, play("g9 r9"), IllegalMoveError, "CARDS_NOT_IN_HAND")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "EMPTY_PLAY"),
        ("g5 r10", "NOT_A_COMBINATION"),
        ("g2 g3 g4 g5", "NOT_A_COMBINATION"),
        ("g2 y3 r4 g5 y6 r7", "NOT_A_COMBINATION"),
        ("rD r10", "DRAGON_ONLY_ALONE"),
        ("gP r10", "PHOENIX_NOT_ALLOWED_HERE"),
    ],
)
def test_cards_that_form_no_combination_are_refused(text: str, reason: str) -> None:
    """Seed: "Welche Kombinationen dürfen ausgespielt werden?" ... "Der Drache ... kann nur
    einzeln gespielt werden" ... the Phoenixes "sind ... in keiner anderen Kombination
    einsetzbar" (the reasons come from ``classify``)."""
    state = table(["g9 r9", "g2 g3 g4 g5 y3 y6 r4 r7 r10 rD gP", "g7 y7"], turn=1)
    rejects(state, 1, play(text), InvalidMoveError, reason)


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (Play((GofCard(13, Colour.RED),)), "UNKNOWN_CARD"),
        (Play((GofCard(2, Colour.MULTICOLOURED),)), "UNKNOWN_CARD"),
        (Play((GofCard(0, Colour.GREEN),)), "UNKNOWN_CARD"),
        (GiveBack(GofCard(11, Colour.RED)), "UNKNOWN_CARD"),
        (Play(cards("g5 g5 g5")), "TOO_MANY_COPIES"),
        (Play(cards("gP gP")), "TOO_MANY_COPIES"),
        # Junk an engine caller may send (the service's codec never builds these): a
        # number for the cards, a card code for a card, a card whose value cannot hash.
        (Play(cast(Any, 1.5)), "UNKNOWN_CARD"),
        (Play(cast(Any, ("g5",))), "UNKNOWN_CARD"),
        (Play((GofCard(cast(Any, [5]), Colour.GREEN),)), "UNKNOWN_CARD"),
        (GiveBack(GofCard(cast(Any, {}), Colour.RED)), "UNKNOWN_CARD"),
    ],
    ids=[
        "value-13",
        "multicoloured-2",
        "value-0",
        "red-phoenix",
        "three-g5",
        "two-gP",
        "a-number",
        "a-code",
        "unhashable-value",
        "unhashable-give-back",
    ],
)
def test_a_card_that_does_not_exist_is_an_invalid_move(move: Any, reason: str) -> None:
    """errors.py: InvalidMoveError is for a move "malformed for this table whatever the
    state (a chip that does not exist)"; ``classify`` says ``UNKNOWN_CARD`` or
    ``TOO_MANY_COPIES`` for such cards. (The gRPC codec refuses unknown cards before the
    engine sees them, so this is the engine's own contract.)"""
    state = table(["g9 r9", "g5 y5 r10", "g7 y7"], turn=1)
    if isinstance(move, GiveBack):
        state, _ = finish_hand(state, 0)
    rejects(state, state.turn, move, InvalidMoveError, reason)


def test_the_order_of_the_cards_in_a_play_does_not_matter() -> None:
    """A combination is a set of cards: the engine sorts them; the event shows them sorted.
    (The codec passes a play's cards on in the order the client sent them; a ``Play`` keeps
    them in single-card order, so its history record is the same either way.)"""
    state = table(["g9 r9", "r8 g8 y8 r10", "g7 y7"], turn=1)
    backwards = Play(cards("r8 y8 g8"))
    assert backwards == Play(hand("g8 y8 r8"))
    assert reason_of(state, 1, backwards) is None
    after, events = GAME.apply(state, 1, backwards)
    assert events[0] == Played(1, hand("g8 y8 r8"), Kind.THREE_OF_A_KIND, 1)
    assert (after, events) == GAME.apply(state, 1, Play(hand("g8 y8 r8")))


def test_seats_outside_the_table() -> None:
    """Only seats 0..players-1 exist (engines.base.check_seat, shared by every game): a
    bool or a float is no seat either, for moves, listings and views alike."""
    state = new(3)
    for seat in (-1, 3, 4, True, 1.0):
        rejects(state, seat, Pass(), InvalidMoveError, "SEAT_OUT_OF_RANGE")  # type: ignore[arg-type]
        assert GAME.legal_moves(state, seat) == []  # type: ignore[arg-type]
    for viewer in (3, True):
        with pytest.raises(InvalidMoveError, match="no seat") as refused:
            GAME.view(state, viewer)
        assert refused.value.reason == "SEAT_OUT_OF_RANGE"
