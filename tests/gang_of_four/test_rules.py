"""Gang of Four's turn flow: one test per rule, each quoting the rule it checks.

Quotes are from the German rule seed (``shared/seeds/003_*.txt``, OCR damage and all) unless
marked RULES-NOTES (``shared/RULES-NOTES.md``, Gang of Four). Tables come from the public
factory functions and, where a test needs exact hands, are rigged with
``msgspec.structs.replace`` (``support.table``). Seats are numbered clockwise; hand 1 is
played counter-clockwise, so there the turn passes from seat ``s`` to seat ``s - 1``.
The combinations themselves (what beats what) are tested in ``test_combos.py``.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
import msgspec.structs
import pytest

from engines.errors import IllegalMoveError, InvalidConfigError, InvalidMoveError, MoveError
from engines.gang_of_four import GAME, GangOfFourConfig, GangOfFourState, GiveBack, Pass, Play
from engines.gang_of_four.cards import DECK, MULTICOLOURED_ONE, Colour, GofCard, cards
from engines.gang_of_four.combos import Kind
from engines.gang_of_four.events import (
    CardGiven,
    CardReturned,
    Event,
    GameEnded,
    HandDealt,
    HandEnded,
    HandStarted,
    LastCardAnnounced,
    LastCardForgotten,
    Passed,
    Played,
    TrickWon,
)
from engines.gang_of_four.model import (
    CLOCKWISE,
    COUNTER_CLOCKWISE,
    Exchange,
    HandResult,
    Phase,
    points_for,
)
from tests.gang_of_four.support import (
    SCORE_TABLE,
    SEED,
    all_sub_multisets,
    apply_all,
    candidate_moves,
    deck_minus,
    event_leaks,
    finish_hand,
    hand,
    new,
    play,
    reason_of,
    table,
    view_leaks,
)

PLAYERS = [3, 4]


def rejects(
    state: GangOfFourState, seat: int, move: Any, kind: type[MoveError], reason: str
) -> None:
    """``check`` and ``apply`` both refuse ``move`` with this error kind and reason, the
    state is untouched, and ``legal_moves`` does not list it."""
    before = msgspec.msgpack.encode(state)
    assert reason_of(state, seat, move) == (kind, reason)
    with pytest.raises(kind) as info:
        GAME.apply(state, seat, move)
    assert info.value.reason == reason
    assert msgspec.msgpack.encode(state) == before
    assert move not in GAME.legal_moves(state, seat)


def accepts(state: GangOfFourState, seat: int, move: Any) -> list[Event]:
    """``move`` is legal, listed, and applies; its events."""
    assert reason_of(state, seat, move) is None
    assert move in GAME.legal_moves(state, seat)
    return GAME.apply(state, seat, move)[1]


def plays(state: GangOfFourState, seat: int) -> set[tuple[GofCard, ...]]:
    """The card groups ``seat`` may play now, as ``legal_moves`` lists them."""
    return {move.cards for move in GAME.legal_moves(state, seat) if isinstance(move, Play)}


def three_without_m1() -> GangOfFourState:
    """A 3-player table whose multicoloured 1 was set aside (the shared seed does that)."""
    state = new(3)
    assert MULTICOLOURED_ONE in state.set_aside
    return state


def ended_hand_one(
    players: int,
    winner: int,
    left: dict[int, int],
    *,
    totals: tuple[int, ...] | None = None,
    seed: bytes = SEED,
) -> tuple[GangOfFourState, list[Event]]:
    """Hand 1 ends: ``winner`` plays his last card, seat ``s`` keeps ``left[s]`` of its
    dealt cards (the lowest ones); ``totals`` are the scores before the hand."""
    state = new(players, seed=seed)
    hands = list(state.hands)
    for seat, count in left.items():
        hands[seat] = hands[seat][:count]
    changes: dict[str, Any] = {"hands": tuple(hands)}
    if totals is not None:
        changes["totals"] = totals
    return finish_hand(msgspec.structs.replace(state, **changes), winner)


# --- the deal -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [-1, 0, 1, 2, 5, 6])
def test_only_three_or_four_players(players: int) -> None:
    """Seed: "Partie mit vier Spieler" ... "Partie mit drei Spielern" ... "Alle folgenden
    Spielregeln sind für drei und vier Spieler identisch." (no other table sizes)."""
    with pytest.raises(InvalidConfigError) as info:
        GAME.make_config(players, {})
    assert info.value.reason == "SEAT_COUNT_UNSUPPORTED"
    with pytest.raises(InvalidConfigError) as info:
        GAME.new_game(GangOfFourConfig(players), SEED)
    assert info.value.reason == "SEAT_COUNT_UNSUPPORTED"


def test_table_options_are_checked() -> None:
    """RULES-NOTES 8: "make it an explicit flag on the move, with an auto-announce table
    option"; the option is a boolean and nothing else is an option."""
    assert GAME.make_config(3, {}) == GangOfFourConfig(3, auto_announce_last_card=False)
    assert GAME.make_config(4, {"auto_announce_last_card": True}) == GangOfFourConfig(4, True)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"auto_announce_last_card": "yes"}, "BAD_OPTION"),
        ({"auto_announce_last_card": 1}, "BAD_OPTION"),
        ({"dragon_wild": True}, "UNKNOWN_OPTION"),
    ]
    for options, reason in cases:
        with pytest.raises(InvalidConfigError) as info:
            GAME.make_config(4, options)
        assert info.value.reason == reason


def test_four_players_get_sixteen_cards_each() -> None:
    """Seed: "64 Karten" ... "Die Karten werden an die vier Spieler verteil, so dass jeder 16
    erhält."."""
    state = new(4)
    assert GAME.seat_count(state) == 4
    assert [len(cards) for cards in state.hands] == [16] * 4
    assert state.set_aside == ()
    assert Counter(card for cards in state.hands for card in cards) == Counter(DECK)


def test_three_players_get_sixteen_each_and_sixteen_are_set_aside_unseen() -> None:
    """Seed: "Auch bei der Partie zu dritt betrimm jeder Spieler 16 Karten. Die übrigen
    Karten werden verdeckt zur Seite gelegt und in dieser Runde nicht verwendet."."""
    state = new(3)
    assert [len(cards) for cards in state.hands] == [16] * 3
    assert len(state.set_aside) == 16
    assert deck_minus(state.set_aside, *state.hands) == Counter()
    for viewer in [None, 0, 1, 2]:
        assert GAME.view(state, viewer).set_aside_count == 16
        assert view_leaks(state, viewer) == []


def test_hands_are_held_sorted() -> None:
    """Seed: "Die Karten sollen auf der Hand nach Zahlen (1 bis 10) und Farben (grün, gelb,
    rot) geordnet werden." (the engine keeps every hand in single-card order)."""
    for players in PLAYERS:
        state = new(players)
        assert all(list(cards) == sorted(cards) for cards in state.hands)


def test_set_aside_cards_are_shuffled_back_every_hand() -> None:
    """Seed: "In der nachsten Runde werden die 16 Karten wieder unter die übrigen Karten
    gemischt. Beim erneuten Verteilen der Karten bleiben wiederum 16 Karten übrig, die in
    dieser Runde nicht berücksichtigt werden."

    Each deal is a fresh shuffle of all 64 cards: hands plus set-aside are the deck, the
    next set-aside differs, and the one-of-a-kind cards (multicoloured 1, Phoenixes,
    Dragon) set aside in hand 1 are dealt in hand 2 on most tables.
    """
    singles = [card for card, count in Counter(DECK).items() if count == 1]
    set_aside_then_dealt = 0
    for n in range(24):
        state = new(3, seed=bytes([n, 3]))
        first = state.set_aside
        state, events = finish_hand(state, state.turn)
        dealt = [event.cards for event in events if isinstance(event, HandDealt)]
        assert [len(cards) for cards in dealt] == [16] * 3
        assert len(state.set_aside) == 16
        assert deck_minus(state.set_aside, *dealt) == Counter()
        assert state.set_aside != first
        dealt_cards = {card for cards in dealt for card in cards}
        set_aside_then_dealt += sum(card in first and card in dealt_cards for card in singles)
    assert set_aside_then_dealt >= 10


# --- who leads, and in which direction --------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_holder_of_the_multicoloured_one_leads_hand_one(players: int) -> None:
    """Seed: "Wer die mehrfarbige Eins hat, beginnt die ersten Runde der Partie."."""
    seen = 0
    for n in range(12):
        state = new(players, seed=bytes([n]))
        holders = [seat for seat in range(players) if MULTICOLOURED_ONE in state.hands[seat]]
        if not holders:
            continue
        seen += 1
        assert GAME.to_act(state) == frozenset(holders)
        assert (state.hand, state.dealer, state.phase) == (1, 0, Phase.PLAY)
        assert state.must_include == MULTICOLOURED_ONE
    assert seen >= 6


def test_first_play_must_include_the_multicoloured_one() -> None:
    """Seed: "Er legt nun eine Einzelkarte oder eine Kombination aus (siehe weiter unter).
    Eine seiner ausgespielten Karten muss die mehrfarbige Eins sein."."""
    state = new(4)
    leader = state.turn
    assert MULTICOLOURED_ONE in state.hands[leader]
    listed = GAME.legal_moves(state, leader)
    assert listed and all(
        isinstance(move, Play) and MULTICOLOURED_ONE in move.cards for move in listed
    )
    assert Play((MULTICOLOURED_ONE,)) in listed
    assert play("g1 m1") in listed, "a pair with it is fine too"
    other = Play((max(state.hands[leader]),))
    rejects(state, leader, other, IllegalMoveError, "MUST_INCLUDE_MULTICOLOURED_ONE")
    rejects(state, leader, Pass(), IllegalMoveError, "MUST_LEAD")
    after, events = GAME.apply(state, leader, play("g1 m1"))
    assert events == [Played(leader, hand("g1 m1"), Kind.PAIR, 14)]
    assert after.must_include is None
    for viewer in [None, 0, 1, 2, 3]:
        assert GAME.view(state, viewer).must_include == MULTICOLOURED_ONE
        assert GAME.view(after, viewer).must_include is None


def test_three_players_without_the_multicoloured_one_the_player_right_of_the_dealer_leads() -> None:
    """Seed: "Sollte keiner der drei Spieler die mehrfarbige Eins besitzen, so beginnt der
    Spieler, der rechts vom Kartenverteiler sitzt." Seats run clockwise and the dealer of
    hand 1 is seat 0, so the player to his right (counter-clockwise) is seat 2; no card is
    then required in the first play."""
    state = three_without_m1()
    assert (state.dealer, state.turn, state.must_include) == (0, 2, None)
    lowest = Play((state.hands[2][0],))
    assert lowest in GAME.legal_moves(state, 2)
    assert len(plays(state, 2)) > 16, "any combination may be led"
    rejects(state, 2, Pass(), IllegalMoveError, "MUST_LEAD")


@pytest.mark.parametrize("players", PLAYERS)
def test_hand_one_is_played_counter_clockwise(players: int) -> None:
    """Seed: "In der ersten Runde wird gegen den Uhrzeigersinn gespielt" (seat s, then s - 1)."""
    state = table(["g2 g3", "y2 y3", "r2 r3", "g4 g5"][:players], turn=1)
    assert state.direction == COUNTER_CLOCKWISE
    state, _ = GAME.apply(state, 1, play("y2"))
    assert state.turn == 0
    state, _ = GAME.apply(state, 0, play("g3"))
    assert state.turn == players - 1


def test_later_hands_the_winner_deals_leads_and_the_direction_alternates() -> None:
    """Seed: "Die folgenden Spielrunden beginnt dann jeweils der Gewinner der vorherigen
    Runde." "In den folgenden Runden mischt und verteilt der jeweilige Gewinner der
    Vorrunde." "In der ersten Runde wird gegen den Uhrzeigersinn gespielt, in der zweiten im
    Uhrzeigersinn, dann wieder gegen den Uhrzeigersinn, usw."."""
    state = new(4)
    for hand_number, winner, direction in [(2, 1, CLOCKWISE), (3, 2, COUNTER_CLOCKWISE)]:
        state = msgspec.structs.replace(state, totals=(0, 0, 0, 0))  # no game end yet
        state, events = finish_hand(state, winner)
        assert HandStarted(hand_number, winner, direction, winner) in events
        assert (state.hand, state.dealer, state.direction) == (hand_number, winner, direction)
        assert state.phase is Phase.EXCHANGE and GAME.to_act(state) == {winner}
        state, _ = GAME.apply(state, winner, GiveBack(state.hands[winner][0]))
        assert state.phase is Phase.PLAY and GAME.to_act(state) == {winner}
        assert state.must_include is None, "only hand 1 needs the multicoloured 1"
        state, _ = GAME.apply(state, winner, Play((state.hands[winner][0],)))
        assert state.turn == (winner + direction) % 4


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
        (Play((GofCard(2, Colour.MULTI),)), "UNKNOWN_CARD"),
        (Play((GofCard(0, Colour.GREEN),)), "UNKNOWN_CARD"),
        (GiveBack(GofCard(11, Colour.RED)), "UNKNOWN_CARD"),
        (Play(cards("g5 g5 g5")), "TOO_MANY_COPIES"),
        (Play(cards("gP gP")), "TOO_MANY_COPIES"),
    ],
    ids=["value-13", "multicoloured-2", "value-0", "red-phoenix", "three-g5", "two-gP"],
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
    """A combination is a set of cards: the engine sorts them; the event shows them sorted."""
    state = table(["g9 r9", "r8 g8 y8 r10", "g7 y7"], turn=1)
    backwards = Play(cards("r8 y8 g8"))
    assert reason_of(state, 1, backwards) is None
    _, events = GAME.apply(state, 1, backwards)
    assert events[0] == Played(1, hand("g8 y8 r8"), Kind.TRIPLE, 1)


def test_seats_outside_the_table() -> None:
    """Only seats 0..players-1 exist."""
    state = new(3)
    for seat in (-1, 3, 4):
        rejects(state, seat, Pass(), InvalidMoveError, "SEAT_OUT_OF_RANGE")
        assert GAME.legal_moves(state, seat) == []
    with pytest.raises(ValueError):  # noqa: PT011 - the view refuses with a plain ValueError
        GAME.view(state, 3)


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


def test_before_a_last_card_a_single_must_be_the_highest_card() -> None:
    """Seed: "Wenn ein Spieler „letzte Karte" ankündigt, so muss der Spieler, der direkt vor
    ihm sitzt, versuchen zu verhindern, dass dieser seine letzte Karte ablegen kann. Werden
    gerade Einzelkarten gespielt, muss er seine hochste Karte - wenn er sie regelkonform
    spielten kann - oder eine Gang-Kombination legen." (seat 1 plays before seat 0 in hand
    1; passing stays allowed)."""
    hands = ["r2", "g5 y7 r9 g4 y4 y4 r4", "g7 y7 y8"]
    state = table(hands, turn=1, current="g3", current_by=2, announced=(0,))
    rejects(state, 1, play("y7"), IllegalMoveError, "MUST_PLAY_HIGHEST_SINGLE")
    rejects(state, 1, play("g5"), IllegalMoveError, "MUST_PLAY_HIGHEST_SINGLE")
    assert set(GAME.legal_moves(state, 1)) == {Pass(), play("r9"), play("g4 y4 y4 r4")}
    free = table(hands, turn=2, current="g3", current_by=1, announced=(0,))
    assert play("g7") in GAME.legal_moves(free, 2), "seat 2 does not sit before seat 0"


def test_before_a_last_card_a_highest_card_too_low_leaves_a_gang_or_a_pass() -> None:
    """Seed: "muss er seine hochste Karte - wenn er sie regelkonform spielten kann - oder eine
    Gang-Kombination legen" (he cannot play it: a Gang or nothing)."""
    hands = ["r2", "g5 y7 r9 g4 y4 y4 r4", "g7 y7 y8"]
    state = table(hands, turn=1, current="y10", current_by=2)
    assert set(GAME.legal_moves(state, 1)) == {Pass(), play("g4 y4 y4 r4")}
    no_gang = table(["r2", "g5 y7 r9", "g7 y7 y8"], turn=1, current="y10", current_by=2)
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


def test_the_duty_follows_the_direction_of_play() -> None:
    """Seed: "Diese Regel gilt für jeder, der direkt vor einem Spieler sitzt, welcher nur noch
    eine einzige Karte auf der Hand hat." In a clockwise hand seat 1 plays right before seat
    2, and seat 0 (before him counter-clockwise) is free."""
    hands = ["g5 y7 r9", "g5 y7 r9", "r2", "g7 r7 y8"]
    clockwise = table(hands, turn=1, direction=CLOCKWISE, current="g3", current_by=0)
    assert set(GAME.legal_moves(clockwise, 1)) == {Pass(), play("r9")}
    counter = table(hands, turn=1, direction=COUNTER_CLOCKWISE, current="g3", current_by=0)
    assert set(GAME.legal_moves(counter, 1)) == {Pass(), play("g5"), play("y7"), play("r9")}
    seat_three = table(hands, turn=3, direction=COUNTER_CLOCKWISE, current="g3", current_by=0)
    assert set(GAME.legal_moves(seat_three, 3)) == {Pass(), play("y8")}


def test_a_player_out_of_the_hand_imposes_no_duty_and_is_skipped() -> None:
    """Seed: "scheidet er aus der laufenden Runde aus" (his one card will not be played, so
    nobody has to stop it); DECISION: the duty falls on the player before the next one *in
    the hand* (seat 2 plays right before seat 0 when seat 1 is out)."""
    hands = ["r2", "g2", "g5 y7 r9", "g7 y7 y8"]
    state = table(hands, turn=2, current="g3", current_by=3, out=(1,))
    assert set(GAME.legal_moves(state, 2)) == {Pass(), play("r9")}
    hands = ["r2", "g2 g3", "g5 y7 r9", "g7 y7 y8"]
    skip = table(hands, turn=2, current="g3", current_by=3, out=(0,))
    assert set(GAME.legal_moves(skip, 2)) == {Pass(), play("g5"), play("y7"), play("r9")}


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


# --- one source of legality -----------------------------------------------------------------


LEGALITY_TABLES = {
    "leading": table(["g9 r9", "g1 y1 m1 y2 r3 g4 y5 gP yP rD", "g7 y7"], turn=1),
    "following a single": table(
        ["g9 r9", "g1 y1 m1 y2 r3 g4 y5 gP yP rD", "g7 y7"], turn=1, current="r2", current_by=2
    ),
    "following a pair, two cards left after": table(
        ["g9 r9", "g1 y1 r1 m1 y2", "g7 y7"], turn=1, current="g1 y1", current_by=2
    ),
    "before a last card": table(
        ["r2", "g5 g5 y5 y7 r9 r10 g8 y8", "g7 y7 y8"], turn=1, announced=(0,)
    ),
    "gang on the table": table(
        ["g9 r9", "g4 y4 y4 r4 g6 g6 y6 r6 rD", "g7"], turn=1, current="g5 y5 y5 r5", current_by=0
    ),
}


@pytest.mark.parametrize("auto", [False, True])
@pytest.mark.parametrize("name", list(LEGALITY_TABLES))
def test_legal_moves_are_exactly_what_check_accepts(name: str, auto: bool) -> None:
    """engines/base.py: "``check`` is the single source of legality: ``legal_moves`` lists
    exactly the moves ``check`` accepts, and ``apply`` calls ``check``". Every sub-multiset
    of a small hand, with and without the announcement, plus passes and give-backs."""
    state = msgspec.structs.replace(
        LEGALITY_TABLES[name],
        config=GangOfFourConfig(3, auto_announce_last_card=auto),
    )
    seat = state.turn
    listed = set(GAME.legal_moves(state, seat))
    assert len(listed) == len(GAME.legal_moves(state, seat)), "no duplicates"
    moves: list[Any] = [Pass(), *(GiveBack(card) for card in set(DECK))]
    moves += [
        Play(group, announce_last_card=flag)
        for group in all_sub_multisets(state.hands[seat])
        for flag in (False, True)
    ]
    accepted = {move for move in moves if reason_of(state, seat, move) is None}
    assert listed == accepted
    for move in listed:
        assert reason_of(state, seat, move) is None


def test_apply_refuses_what_check_refuses_with_the_same_error() -> None:
    """engines/base.py: "``apply`` calls ``check`` before it changes anything" (same error,
    state untouched), on every candidate move of every seat of a few positions."""
    rnd = random.Random(5)
    for state in [*LEGALITY_TABLES.values(), new(3), new(4), ended_hand_one(4, 2, {0: 4})[0]]:
        before = msgspec.msgpack.encode(state)
        for seat in range(state.config.players):
            for move in candidate_moves(state, seat, rnd, listed=15, subsets=10):
                refused = reason_of(state, seat, move)
                if refused is None:
                    continue
                with pytest.raises(refused[0]) as info:
                    GAME.apply(state, seat, move)
                assert info.value.reason == refused[1]
        assert msgspec.msgpack.encode(state) == before


def test_views_show_nothing_hidden_on_rigged_tables() -> None:
    """Notes and view.py: "Nobody sees another hand or the set-aside cards" (the structural
    check of ``support.view_leaks``; the playouts run it on every state)."""
    state, events = ended_hand_one(3, 1, {0: 5, 2: 8})
    for viewer in [None, 0, 1, 2]:
        assert view_leaks(state, viewer) == []
        assert all(event_leaks(event, viewer) == [] for event in events)
    dealt = [event for event in events if isinstance(event, HandDealt)]
    assert [GAME.view_event(event, None) for event in dealt] == [None] * 3
    assert [GAME.view_event(event, event.seat) for event in dealt] == dealt
