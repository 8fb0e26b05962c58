"""The post-game reveal (``revealed_view``): the spectator's view of any state of a game
with everything hidden shown: every pocket, the deck, the face-down discards, the
Informant's card, the Coordinator's sealed passes and the piles' order. After the end
everything is public (RULES-NOTES, "After a game"), so a finished game's history may show
each version whole.

Checked on whole games of every mode (heists played to win and to lose, so specialists come
up), at every version: the revealed view is the spectator's view plus its ``revealed_*``
fields; each seat's pocket and sealed pass in it are what that seat's own view shows; and
cards are conserved: deck, pockets, board and discards are the 52 cards once each (plus the
Jack card at most once, while the Jack specialist lends it).
"""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest

from engines.cards import DECK
from engines.the_gang import GAME, TheGangState
from engines.the_gang.model import JACK_CARD, Mode, Specialist
from engines.the_gang.moves import PassCard
from engines.the_gang.view import FINISHED_REVEALS, hidden
from tests.the_gang.cards_support import heist_with
from tests.the_gang.mode_bots import mode_game, play_game


def _states(mode: Mode, players: int, seed: int) -> list[TheGangState]:
    state = mode_game(players, mode, seed=bytes([seed]))
    plays = play_game(state, "LWLWW", random.Random(seed))
    states = [state]
    for play in plays:
        state, _ = GAME.apply(state, *play)
        states.append(state)
    assert state.finished
    return states


def _check(state: TheGangState) -> None:
    players = state.config.players
    revealed = GAME.revealed_view(state)
    spectator = GAME.view(state, None)
    back = {name: getattr(spectator, name) for name in hidden(state)}
    assert msgspec.structs.replace(revealed, **back) == spectator
    assert [row.seat for row in revealed.revealed_pockets] == list(range(players))
    passes = {item.seat: item.card for item in revealed.revealed_passes}
    for seat in range(players):
        own = GAME.view(state, seat)
        if not state.finished:
            assert revealed.revealed_pockets[seat].cards == own.pocket
        assert passes.get(seat) == own.my_pass
    cards = Counter(revealed.revealed_deck)
    cards.update(card for row in revealed.revealed_pockets for card in row.cards)
    cards.update(revealed.board)
    cards.update(revealed.revealed_discards)
    jack = cards.pop(JACK_CARD, 0)
    assert cards == Counter(DECK) and jack <= 1, f"cards not conserved in heist {state.heist}"
    announced = [item.card for item in revealed.revealed_announcements]
    assert announced == [item.card for item in state.announcements]


@pytest.mark.parametrize(
    ("mode", "players", "seed"),
    [
        (Mode.BASIC, 3, 1),
        (Mode.ADVANCED, 4, 2),
        (Mode.PROFESSIONAL, 5, 3),
        (Mode.MASTER_THIEF, 3, 4),
    ],
)
def test_the_revealed_view_of_every_version_shows_every_card_once(
    mode: Mode, players: int, seed: int
) -> None:
    for state in _states(mode, players, seed):
        _check(state)


def test_the_finished_view_shows_what_the_final_reveal_shows() -> None:
    """At the end (rules revision 2) every view reveals what the final state hides; the
    reveal adds the pockets (shown at the showdown anyway) and no sealed pass."""
    final = _states(Mode.ADVANCED, 3, 7)[-1]
    revealed = GAME.revealed_view(final)
    assert revealed.revealed_passes == ()
    for viewer in (None, 0, 1, 2):
        seen = GAME.view(final, viewer)
        for name in FINISHED_REVEALS:
            assert getattr(seen, name) == getattr(revealed, name), name
        assert seen.revealed_pockets == ()


def test_a_view_before_the_end_reveals_nothing_and_the_reveal_is_pure() -> None:
    state = mode_game(4, Mode.PROFESSIONAL)
    for viewer in (None, 0, 1, 2, 3):
        seen = GAME.view(state, viewer)
        assert all(not getattr(seen, name) for name in hidden(state)), viewer
    assert GAME.revealed_view(state) == GAME.revealed_view(mode_game(4, Mode.PROFESSIONAL))
    assert [row.cards for row in GAME.revealed_view(state).revealed_pockets] == list(state.pockets)
    assert GAME.revealed_view(state).revealed_deck == state.deck


def test_the_reveal_shows_the_coordinators_sealed_passes() -> None:
    """Seed, 6. Coördinator: each seat chooses a card to pass, sealed until all chose; the
    reveal shows every choice made so far (and each seat's own view only its own)."""
    state, _ = heist_with(4, specialist=Specialist.COORDINATOR)
    chosen = {}
    for seat in range(3):
        chosen[seat] = state.pockets[seat][0]
        state, _ = GAME.apply(state, seat, PassCard(chosen[seat]))
        _check(state)
        revealed = GAME.revealed_view(state)
        assert {item.seat: item.card for item in revealed.revealed_passes} == chosen
        assert GAME.view(state, None).revealed_passes == ()
