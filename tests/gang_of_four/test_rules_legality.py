"""Gang of Four's turn flow: one source of legality.

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

import random
from typing import Any

import msgspec
import msgspec.structs
import pytest

from engines.gang_of_four import GAME, GangOfFourConfig, GiveBack, Pass, Play
from engines.gang_of_four.cards import DECK
from engines.gang_of_four.events import HandDealt
from tests.gang_of_four.rules_support import ended_hand_one
from tests.gang_of_four.support import (
    all_sub_multisets,
    candidate_moves,
    event_leaks,
    new,
    reason_of,
    table,
    view_leaks,
)

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
