"""Rules revision 2 of The Gang: random challenges in Professional and Master Thief, the
specialist window before the reveal, and the post-game reveal.

Every change applies only to tables of revision 2 (every new table); revision 1 plays as
the first release did (``test_golden_revision1``, and the revision-1 tests below).
"""

from __future__ import annotations

import random
from typing import Any

import msgspec.structs
import pytest

from engines.cards import cards
from engines.errors import IllegalMoveError, InvalidConfigError
from engines.the_gang import GAME, ConfirmRoundEnd, TakeChip, TheGangState
from engines.the_gang.events import GameEnded, RoundEnded, RoundStarted
from engines.the_gang.model import (
    DECISION_SPECIALISTS,
    RULES_REVISION,
    Announcement,
    AnnouncementKind,
    Colour,
    Mode,
    PileStart,
    Specialist,
)
from tests.the_gang.cards_support import advanced, rig, use, views
from tests.the_gang.mode_bots import mode_game, play_game
from tests.the_gang.support import apply_all

PLAYERS = (3, 4, 5, 6)
TWO_TO_TEN = tuple(range(2, 11))
RANDOM_MODES = (Mode.PROFESSIONAL, Mode.MASTER_THIEF)


# --- item 4: "een willekeurige uitdagingskaart" -----------------------------------------


def _turned(state: TheGangState) -> tuple[int, ...]:
    """The challenges turned at the start, then the pile: the order they come up in."""
    return (*state.challenges, *state.challenge_pile.cards)


@pytest.mark.parametrize("mode", RANDOM_MODES)
def test_random_modes_shuffle_the_challenge_pile(mode: Mode) -> None:
    """Seed (Professioneel): "Draai aan het begin van het potje een willekeurige
    uitdagingskaart open"; (Meesterdief): "twee willekeurige uitdagingskaarten open [...]
    draai je een nieuwe open". Revision 2 shuffles the challenge pile from the seed's
    random source, so every later card is random too (its order secret), and the cards
    turned come off its top."""
    orders = set()
    for n in range(10):
        state = mode_game(4, mode, seed=bytes([n]))
        assert state.config.rules_revision == RULES_REVISION
        pile = state.challenge_pile
        assert not pile.known
        assert sorted(_turned(state)) == list(TWO_TO_TEN)
        for viewer, seen in views(state):
            assert seen.challenge_pile.cards == () and not seen.challenge_pile.known, viewer
            assert seen.challenge_pile.size == len(pile.cards)
        orders.add(pile.cards)
    assert len(orders) == 10, "the later challenges come in a random order"
    again = mode_game(4, mode, seed=bytes([3]))
    assert again == mode_game(4, mode, seed=bytes([3])), "from the seed's random source"


@pytest.mark.parametrize("mode", RANDOM_MODES)
def test_a_continued_challenge_pile_is_shuffled_too(mode: Mode) -> None:
    """A pile continued from an earlier game is shuffled as well (the seed's challenges are
    random in these modes); the specialist pile keeps its continued order."""
    order = (*range(6, 11), *range(1, 6))
    options = {"challenge_pile": PileStart(order), "specialist_pile": PileStart(order)}
    state = mode_game(5, mode, seed=b"continued", **options)
    assert not state.challenge_pile.known
    assert sorted(_turned(state)) == list(TWO_TO_TEN)
    if mode is Mode.PROFESSIONAL:
        assert state.specialist_pile.known and state.specialist_pile.cards == order


@pytest.mark.parametrize("mode", RANDOM_MODES)
def test_ordered_challenges_keep_the_sorted_order_for_teaching(mode: Mode) -> None:
    """``ordered_challenges``: the pile stays in order and the cards come off its top:
    Professional's standing card is 2, Master Thief starts with 2 and 3; later cards
    follow in order."""
    state = mode_game(4, mode, ordered_challenges=True)
    assert state.config.ordered_challenges is True
    first = (2,) if mode is Mode.PROFESSIONAL else (2, 3)
    assert state.challenges == first
    assert state.challenge_pile.known
    assert state.challenge_pile.cards == TWO_TO_TEN[len(first) :]
    assert GAME.view(state, None).challenge_pile.cards == TWO_TO_TEN[len(first) :]
    order = (*range(6, 11), *range(2, 6))
    continued = mode_game(4, mode, ordered_challenges=True, challenge_pile=PileStart(order))
    assert _turned(continued)[: len(first)] == order[: len(first)]


def test_revision_one_keeps_the_sorted_pile() -> None:
    """Revision 1: the first card is drawn at random, the rest of the pile stays sorted."""
    state = mode_game(4, Mode.PROFESSIONAL, seed=b"old", rules_revision=1)
    (standing,) = state.challenges
    assert state.challenge_pile.known
    assert state.challenge_pile.cards == tuple(c for c in TWO_TO_TEN if c != standing)


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"mode": "advanced", "ordered_challenges": True}, "OPTION_NEEDS_MODE"),
        ({"ordered_challenges": True}, "OPTION_NEEDS_MODE"),
        ({"mode": "professional", "ordered_challenges": True, "rules_revision": 1}, "BAD_OPTION"),
        ({"mode": "master_thief", "ordered_challenges": True, "shuffle_piles": True}, "BAD_OPTION"),
        ({"mode": "professional", "ordered_challenges": "yes"}, "BAD_OPTION"),
    ],
)
def test_ordered_challenges_refused_where_it_means_nothing(
    options: dict[str, object], reason: str
) -> None:
    with pytest.raises(InvalidConfigError) as error:
        GAME.make_config(4, options)
    assert error.value.reason == reason


def test_ordered_challenges_stored_only_when_set() -> None:
    """A config without the option encodes as before it existed."""
    config = GAME.make_config(4, {"mode": "professional"})
    assert "ordered_challenges" not in msgspec.json.decode(msgspec.json.encode(config))


@pytest.mark.parametrize("mode", RANDOM_MODES)
def test_random_modes_play_to_the_end(mode: Mode) -> None:
    """Whole games by the gang on shuffled piles: every card turned is from the pile."""
    for n in range(3):
        state = mode_game(4, mode, seed=bytes([9, n]))
        plays = play_game(state, "WLW", random.Random(n))
        state, _ = apply_all(state, plays)
        assert state.finished


# --- item 5: "op elk moment voor de onthulling" -----------------------------------------

POCKETS = ["2c 3d", "9h 9s", "Kc Kd", "Ac Ah"]
BOARD = "4s 7h Jd 5c"


def at_last_orange_chip(specialist: Specialist | None, revision: int = 2) -> TheGangState:
    """A 4-seat Advanced table in round 3 with ``specialist`` active (unused): every seat
    but seat 3 holds its orange chip; seat 3 taking the 4-star chip starts the red round."""
    base = advanced(4) if revision == 2 else _advanced_revision1()
    full = (0, 1, 2, 3)
    return rig(
        base,
        POCKETS,
        BOARD,
        round=Colour.ORANGE,
        chips=[full, full, (0, 1, 2, None), (None,) * 4],
        specialist=specialist,
    )


def _advanced_revision1() -> TheGangState:
    return GAME.new_game(GAME.make_config(4, {"mode": "advanced", "rules_revision": 1}), b"r1")


def red_round(specialist: Specialist | None, revision: int = 2) -> TheGangState:
    state = at_last_orange_chip(specialist, revision)
    state, events = GAME.apply(state, 3, TakeChip(Colour.ORANGE, 4))
    assert RoundStarted(state.heist, Colour.RED) in events
    return state


def all_take_red(state: TheGangState) -> tuple[TheGangState, list[Any]]:
    return apply_all(state, [(seat, TakeChip(Colour.RED, seat + 1)) for seat in range(4)])


@pytest.mark.parametrize("specialist", sorted(DECISION_SPECIALISTS))
def test_unused_decision_specialist_keeps_the_red_round_open(specialist: Specialist) -> None:
    """Seed: "Iedere speler mag op elk moment voor de onthulling voorstellen om de
    specialist in te zetten." Revision 2: while a decision specialist is unused when the
    red round begins, the last red chip does not start the showdown; the round ends only
    once every seat confirmed, and the view tells the seats so."""
    state = red_round(specialist)
    heist = state.heist
    for _, seen in views(state):
        assert seen.round_needs_confirmation and not seen.confirm_round_end
    state, events = all_take_red(state)
    assert RoundEnded(heist, Colour.RED) not in events and len(state.heists) == heist - 1
    confirming = [seat for seat in range(4) if ConfirmRoundEnd() in GAME.legal_moves(state, seat)]
    assert confirming == [0, 1, 2, 3]
    state, events = apply_all(state, [(seat, ConfirmRoundEnd()) for seat in range(3)])
    assert RoundEnded(heist, Colour.RED) not in events
    state, events = GAME.apply(state, 3, ConfirmRoundEnd())
    assert RoundEnded(heist, Colour.RED) in events and state.heists[-1].heist == heist


def test_the_muscle_can_still_be_proposed_after_the_last_red_chip() -> None:
    """The gang takes every red chip, then agrees on the Muscle, then confirms: the Muscle
    counts at the showdown."""
    state, _ = all_take_red(red_round(Specialist.MUSCLE))
    state, _ = use(state, 0)
    assert state.specialist_use is not None and state.specialist_use.seat == 0
    assert GAME.view(state, 1).round_needs_confirmation, "the window stays open this round"
    heist = state.heist
    state, events = apply_all(state, [(seat, ConfirmRoundEnd()) for seat in range(4)])
    result = state.heists[-1]
    assert result.heist == heist and RoundEnded(heist, Colour.RED) in events
    assert [reveal.muscle for reveal in result.reveals] == [True, False, False, False]


def test_a_chip_change_clears_the_confirmations_in_the_window() -> None:
    state, _ = all_take_red(red_round(Specialist.GETAWAY_DRIVER))
    state, _ = apply_all(state, [(0, ConfirmRoundEnd()), (1, ConfirmRoundEnd())])
    assert state.confirmed_seats == (0, 1)
    state, _ = GAME.apply(state, 2, TakeChip(Colour.RED, 4))
    assert state.confirmed_seats == ()


@pytest.mark.parametrize("specialist", [None, Specialist.INVESTOR, Specialist.COORDINATOR])
def test_no_window_without_a_decision_specialist(specialist: Specialist | None) -> None:
    """Without a specialist to decide on, the seed's rule stands: "Zodra iedereen een fiche
    van de huidige ronde voor zich heeft, eindigt de ronde." """
    state = red_round(specialist)
    assert not GAME.view(state, 0).round_needs_confirmation
    assert ConfirmRoundEnd() not in GAME.legal_moves(state, 0)
    heist = state.heist
    state, events = all_take_red(state)
    assert RoundEnded(heist, Colour.RED) in events


def test_no_window_once_the_specialist_was_used_before_the_red_round() -> None:
    state = at_last_orange_chip(Specialist.GETAWAY_DRIVER)
    state, _ = use(state, 1)
    state, _ = GAME.apply(state, 3, TakeChip(Colour.ORANGE, 4))
    assert state.round is Colour.RED and not GAME.view(state, 0).round_needs_confirmation
    heist = state.heist
    state, events = all_take_red(state)
    assert RoundEnded(heist, Colour.RED) in events


def test_revision_one_ends_the_red_round_at_the_last_chip() -> None:
    """Revision 1: the last red chip starts the showdown, specialist or not."""
    state = red_round(Specialist.MUSCLE, revision=1)
    assert not GAME.view(state, 0).round_needs_confirmation
    with pytest.raises(IllegalMoveError) as error:
        GAME.check(state, 0, ConfirmRoundEnd())
    assert error.value.reason == "CONFIRMATION_NOT_USED"
    heist = state.heist
    state, events = all_take_red(state)
    assert RoundEnded(heist, Colour.RED) in events


# --- item 6: after the end everything is public -----------------------------------------


def _last_move(state: TheGangState) -> tuple[TheGangState, TheGangState]:
    """A whole game by the gang: the state one move before the end, and the end."""
    plays = play_game(state, "L", random.Random(1))
    before, _ = apply_all(state, plays[:-1])
    final, events = GAME.apply(before, *plays[-1])
    assert final.finished and isinstance(events[-1], GameEnded)
    return before, final


@pytest.mark.parametrize("mode", [Mode.BASIC, Mode.PROFESSIONAL, Mode.MASTER_THIEF])
def test_a_finished_view_reveals_what_the_state_hid(mode: Mode) -> None:
    """RULES-NOTES: "The seed is revealed at the end, so everything can be derived then:
    finished views and histories may show every hand (never one version earlier)." Every
    viewer, spectators too, sees the deck, the discards, every announcement whole and both
    piles' order; one move earlier nobody does."""
    options = {} if mode is Mode.BASIC else {"mode": str(mode)}
    state = GAME.new_game(GAME.make_config(4, options), b"reveal")
    before, final = _last_move(state)
    for viewer, seen in views(before):
        assert seen.revealed_deck == seen.revealed_discards == (), viewer
        assert seen.revealed_announcements == (), viewer
        assert seen.revealed_challenge_pile == seen.revealed_specialist_pile == (), viewer
    for viewer, seen in views(final):
        assert seen.revealed_deck == final.deck and len(seen.revealed_deck) > 0, viewer
        assert seen.revealed_discards == final.discards, viewer
        assert seen.revealed_announcements == final.announcements, viewer
        if mode is not Mode.BASIC:
            assert sorted(seen.revealed_challenge_pile) == list(TWO_TO_TEN), viewer
            assert seen.challenge_pile.cards in ((), seen.revealed_challenge_pile)
        else:
            assert seen.revealed_challenge_pile == (), "the base game has no piles in play"
    specialists = GAME.view(final, None).revealed_specialist_pile
    assert sorted(specialists) == ([] if mode is Mode.BASIC else list(range(1, 11)))


def test_the_informants_card_is_revealed_after_the_game() -> None:
    """The Informant's card, seen during the game only by the two seats, is in every
    finished view's ``revealed_announcements``."""
    shown = Announcement(AnnouncementKind.INFORMANT, 0, to_seat=1, card=cards("2c")[0])
    state = rig(
        advanced(4),
        POCKETS,
        BOARD + " 6d",
        round=Colour.RED,
        chips=[(0, 1, 2, 3)] * 3 + [(0, 1, 2, None)],
        specialist=Specialist.INFORMANT,
        announcements=(shown,),
        alarms=2,
    )
    assert GAME.view(state, 2).announcements[0].card is None
    assert GAME.view(state, 2).revealed_announcements == ()
    state, _ = GAME.apply(state, 3, TakeChip(Colour.RED, 4))
    assert state.finished, "the third alarm ends the game"
    for viewer, seen in views(state):
        assert seen.revealed_announcements == (shown,), viewer
    assert msgspec.structs.replace(shown, card=None) == GAME.view(state, 2).announcements[0]


def test_a_revision_one_game_reveals_nothing_after_the_end() -> None:
    """A game recorded under revision 1 keeps its finished views as they were, so a view a
    player kept from it still verifies against the replay."""
    state = GAME.new_game(GAME.make_config(4, {"rules_revision": 1}), b"reveal")
    _, final = _last_move(state)
    for viewer, seen in views(final):
        assert seen.revealed_deck == seen.revealed_discards == (), viewer
        assert seen.revealed_announcements == (), viewer
        assert seen.revealed_challenge_pile == seen.revealed_specialist_pile == (), viewer
