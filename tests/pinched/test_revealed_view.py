"""The post-game reveal (``revealed_view``): the spectator's view of any state of a game
with everything hidden shown: every hand, sold pile and curse stack, the sealed letter, the
draw pile, the curse pile and the location cards chosen this morning. After the end
everything is public (RULES-NOTES, "After a game"), so a finished game's history may show
each version whole.

Checked on whole games of every recommended setup, at every version: the revealed view is
the spectator's view plus its ``revealed_*`` fields; each seat's hand, sold cards, curses
and sealed choice in it are what that seat's own view shows; and cards are conserved: the
open fields, the river, the discards, the stashes, the hands, the sold piles and the draw
pile hold every card once, and the curses held and unturned are the same from start to end.
"""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest

from engines.pinched import GAME, PinchedState
from engines.pinched.components import kinds_of
from engines.pinched.model import Curse
from engines.pinched.view import FINISHED_REVEALS, PinchedView, hidden
from tests.pinched.bots import play_out, sensible_play
from tests.pinched.support import config_for, setups


def _states(players: int, setup: str, seed: int) -> list[PinchedState]:
    state = GAME.new_game(config_for(players, setup), bytes([seed]))
    states = [state]
    for play in play_out(state, sensible_play, random.Random(seed)):
        state, _ = GAME.apply(state, *play)
        states.append(state)
    assert state.finished
    return states


def _card_ids(view: PinchedView) -> Counter[int]:
    cards = [f.card for row in view.fields for f in row.fields] + [f.card for f in view.river]
    ids = Counter(card.id for card in cards if card is not None)
    ids.update(card.id for card in view.discard)
    ids.update(card.id for stash in view.stashes for slot in stash.slots for card in slot.cards)
    for rows in (view.revealed_hands, view.revealed_sold):
        ids.update(card.id for row in rows for card in row.cards)
    ids.update(card.id for card in view.revealed_deck)
    return ids


def _check(state: PinchedState, curses: Counter[Curse]) -> None:
    players = state.config.players
    revealed = GAME.revealed_view(state)
    spectator = GAME.view(state, None)
    back = {name: getattr(spectator, name) for name in hidden(state)}
    assert msgspec.structs.replace(revealed, **back) == spectator
    for seat in range(players):
        own = GAME.view(state, seat)
        assert revealed.revealed_hands[seat].cards == own.hand
        assert revealed.revealed_sold[seat].cards == own.sold
        assert revealed.revealed_curses[seat].curses == own.curses
        if own.my_choice is not None:
            assert revealed.revealed_choices[seat] == own.my_choice
    every = Counter(range(len(kinds_of(state.config.components))))
    assert _card_ids(revealed) == every, f"cards not conserved on day {state.day}"
    held = Counter(c for row in revealed.revealed_curses for c in row.curses)
    assert held + Counter(revealed.revealed_curse_pile) == curses


@pytest.mark.parametrize(("players", "setup"), [s for s in setups() if s[1] != "basic"])
def test_the_revealed_view_of_every_version_shows_every_card_once(players: int, setup: str) -> None:
    states = _states(players, setup, players)
    first = GAME.revealed_view(states[0])
    curses = Counter(c for row in first.revealed_curses for c in row.curses)
    curses.update(first.revealed_curse_pile)
    sealed = 0
    for state in states:
        _check(state, curses)
        revealed = GAME.revealed_view(state)
        sealed += any(revealed.revealed_choices) and not revealed.choices
    assert sealed, "some version had a sealed location card"


def test_the_finished_view_shows_what_the_final_reveal_shows() -> None:
    final = _states(4, "cursed_secrets", 9)[-1]
    revealed = GAME.revealed_view(final)
    for viewer in (None, 0, 1, 2, 3):
        seen = GAME.view(final, viewer)
        for name in FINISHED_REVEALS:
            assert getattr(seen, name) == getattr(revealed, name), name
        assert seen.revealed_choices == ()


def test_a_view_before_the_end_reveals_nothing_and_the_reveal_is_pure() -> None:
    state = GAME.new_game(config_for(5, "the_whole_package"), b"seed")
    for viewer in (None, 0, 1, 2, 3, 4):
        seen = GAME.view(state, viewer)
        assert all(not getattr(seen, name) for name in hidden(state)), viewer
    again = GAME.new_game(config_for(5, "the_whole_package"), b"seed")
    assert GAME.revealed_view(state) == GAME.revealed_view(again)
    assert [c.id for c in GAME.revealed_view(state).revealed_deck] == list(state.deck)
