"""The post-game reveal (``revealed_view``): the spectator's view of any state of a game
with every hand and the set-aside cards shown. After the end everything is public
(RULES-NOTES, "After a game"), so a finished game's history may show each version whole.

Checked on whole random games, at every version: the revealed view is the spectator's view
plus its ``revealed_*`` fields; each seat's hand in it is exactly what that seat's own view
shows; and cards are conserved: the revealed hands, the set-aside cards and the cards
played so far this hand (public, from the events) are the 64 cards once each.
"""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest

from engines.gang_of_four import GAME, GangOfFourState
from engines.gang_of_four.cards import DECK
from engines.gang_of_four.events import HandDealt, Played
from engines.gang_of_four.model import Phase
from engines.gang_of_four.view import hidden, reveals
from tests.gang_of_four.support import new, play_out, shedding_action


def _versions(players: int, seed: int) -> list[tuple[GangOfFourState, Counter[object]]]:
    """Every state of a whole game, each with the cards played so far in its hand."""
    rnd = random.Random(seed)
    state = new(players, seed=bytes([seed]))
    actions = play_out(state, rnd, shedding_action)
    played: Counter[object] = Counter()
    out = [(state, Counter(played))]
    for action in actions:
        state, events = GAME.apply(state, *action)
        for event in events:
            if isinstance(event, HandDealt) and event.seat == 0:
                played = Counter()
            elif isinstance(event, Played):
                played.update(event.cards)
        out.append((state, Counter(played)))
    return out


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2)])
def test_the_revealed_view_of_every_version_shows_every_card_once(players: int, seed: int) -> None:
    versions = _versions(players, seed)
    assert versions[-1][0].phase is Phase.OVER
    for state, played in versions:
        revealed = GAME.revealed_view(state)
        spectator = GAME.view(state, None)
        # The spectator's view, plus what it hides: nothing else differs.
        back = {name: getattr(spectator, name) for name in hidden(state)}
        assert msgspec.structs.replace(revealed, **back) == spectator
        assert [row.seat for row in revealed.revealed_hands] == list(range(players))
        for seat in range(players):
            assert revealed.revealed_hands[seat].cards == GAME.view(state, seat).cards
        shown = Counter(card for row in revealed.revealed_hands for card in row.cards)
        shown.update(revealed.revealed_set_aside)
        assert shown + played == Counter(DECK), f"cards not conserved at hand {state.hand}"


def test_the_finished_view_shows_what_the_final_reveal_shows() -> None:
    """At the end (rules revision 2) every view already reveals: the reveal adds nothing."""
    final = _versions(3, 5)[-1][0]
    assert reveals(final)
    revealed = GAME.revealed_view(final)
    for viewer in (None, 0, 1, 2):
        seen = GAME.view(final, viewer)
        assert seen.revealed_hands == revealed.revealed_hands
        assert seen.revealed_set_aside == revealed.revealed_set_aside
    assert GAME.view(final, None) == revealed


def test_a_view_before_the_end_reveals_nothing_and_the_reveal_is_pure() -> None:
    """Only revealed_view shows the hands; it changes nothing and depends only on the state."""
    state = new(4)
    for viewer in (None, 0, 1, 2, 3):
        seen = GAME.view(state, viewer)
        assert seen.revealed_hands == () and seen.revealed_set_aside == ()
    assert GAME.revealed_view(state) == GAME.revealed_view(new(4))
    assert [row.cards for row in GAME.revealed_view(state).revealed_hands] == list(state.hands)
