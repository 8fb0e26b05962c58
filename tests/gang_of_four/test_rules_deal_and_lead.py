"""Gang of Four's turn flow: the deal and who leads.

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
from typing import Any

import msgspec
import msgspec.structs
import pytest

from engines.errors import IllegalMoveError, InvalidConfigError
from engines.gang_of_four import GAME, GangOfFourConfig, GiveBack, Pass, Play
from engines.gang_of_four.cards import DECK, MULTICOLOURED_ONE
from engines.gang_of_four.combos import Kind
from engines.gang_of_four.events import HandDealt, HandStarted, Played
from engines.gang_of_four.model import RULES_REVISION, Direction, Phase
from tests.gang_of_four.rules_support import PLAYERS, plays, rejects, three_without_m1
from tests.gang_of_four.support import (
    SEED,
    deck_minus,
    finish_hand,
    hand,
    new,
    play,
    table,
    view_leaks,
)

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
    assert GAME.make_config(3, {}) == GangOfFourConfig(
        3, auto_announce_last_card=False, rules_revision=RULES_REVISION
    )
    assert GAME.make_config(4, {"auto_announce_last_card": True}) == GangOfFourConfig(
        4, True, RULES_REVISION
    )
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
    assert state.direction == Direction.COUNTER_CLOCKWISE
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
    for hand_number, winner, direction in [
        (2, 1, Direction.CLOCKWISE),
        (3, 2, Direction.COUNTER_CLOCKWISE),
    ]:
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


def test_every_view_is_the_definitions_view_type() -> None:
    """engines/base.py: ``view_type`` is the Struct ``view`` returns, for seats and spectators
    alike (a codec derived from the types relies on it)."""
    state = new(4)
    for viewer in (None, 0, 1, 2, 3):
        seen = GAME.view(state, viewer)
        assert type(seen) is GAME.view_type
        assert msgspec.json.decode(msgspec.json.encode(seen), type=GAME.view_type) == seen
