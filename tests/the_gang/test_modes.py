"""The modes' flow of challenge and specialist cards, each test quoting the rule it checks.

Quotes are from the Dutch rule seed (``shared/seeds/000_*.txt``, "Spelmodi") unless marked
RULES-NOTES (``shared/RULES-NOTES.md``, The Gang). Heists are steered to success or
failure by the all-seeing gang of ``mode_bots`` (true red-chip order and right scan
guesses, or the reversed order and wrong guesses); every steered heist asserts that it
really ended as meant.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from engines.errors import InvalidConfigError
from engines.the_gang import GAME, TheGangConfig
from engines.the_gang.events import CardsActive, Event, GameEnded, HeistEnded, PileShuffled
from engines.the_gang.model import (
    JACK_CARD,
    RULES_REVISION,
    Challenge,
    Colour,
    HeistResult,
    Mode,
    PileStart,
    Specialist,
    TheGangState,
)
from engines.the_gang.view import PileView
from tests.the_gang.mode_bots import continued, mode_game, play_heist
from tests.the_gang.support import SEED

PLAYERS = [3, 4, 5, 6]
ONE_TO_TEN = tuple(range(1, 11))
TWO_TO_TEN = tuple(range(2, 11))


def heist(state: TheGangState, win: bool) -> tuple[TheGangState, list[Event], HeistResult]:
    """Play the current heist to ``win`` (or to lose); the state after, the events of the
    heist (those of the next heist's start included) and its result."""
    rnd = random.Random(f"{state.heist}-{win}")
    after, _, events = play_heist(state, rnd, win)
    (ended,) = [event for event in events if isinstance(event, HeistEnded)]
    assert ended.result.success == win, "the gang could not steer this heist"
    return after, events, ended.result


def play(state: TheGangState, plan: str) -> tuple[TheGangState, list[HeistResult]]:
    """Play one heist per letter of ``plan`` (W win, L lose); the state after and the
    results."""
    results = []
    for letter in plan:
        assert not state.finished
        state, _, result = heist(state, letter == "W")
        results.append(result)
    return state, results


def piles(state: TheGangState, viewer: int | None = None) -> tuple[PileView, PileView]:
    seen = GAME.view(state, viewer)
    return seen.challenge_pile, seen.specialist_pile


def sorted_pile(cards: tuple[int, ...] = ONE_TO_TEN, turned: bool = False) -> PileView:
    return PileView(len(cards), cards, known=True, card_one_turned=turned)


def config(players: int, **options: Any) -> TheGangConfig:
    return GAME.make_config(players, options)


# --- Advanced (Gevorderd) -----------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_advanced_piles_start_sorted_one_to_ten(players: int) -> None:
    """Seed: "Leg ze dicht in twee aparte stapels. Speel je er voor het eerst mee, sorteer
    dan beide stapels van 1 tot en met 10, zodat kaart 1 bovenop ligt." The sorted order is
    public, so every seat and a spectator see it."""
    state = mode_game(players, Mode.ADVANCED)
    for viewer in [None, *range(players)]:
        assert piles(state, viewer) == (sorted_pile(), sorted_pile())


def test_advanced_first_heist_has_no_cards() -> None:
    """Seed: "De eerste overval speel je zonder deze kaarten." """
    state = mode_game(4, Mode.ADVANCED)
    seen = GAME.view(state, 0)
    assert (state.heist, state.challenges, state.specialist) == (1, (), None)
    assert (seen.challenges, seen.standing_challenges, seen.specialist) == ((), (), None)
    _, _, result = heist(state, win=True)
    assert (result.challenges, result.specialist) == ((), None)


def test_after_a_success_the_top_challenge_for_the_next_heist_only() -> None:
    """Seed: "Is de overval gelukt, dan wordt de volgende moeilijker. Draai de bovenste
    uitdagingskaart open" and "Na afloop van die overval leg je de uitdagings- of
    specialistkaart onderop de stapel"."""
    state = mode_game(4, Mode.ADVANCED)
    state, events, _ = heist(state, win=True)
    assert CardsActive(2, (Challenge.QUICK_ACCESS,), None) in events
    assert (state.challenges, state.specialist) == ((Challenge.QUICK_ACCESS,), None)
    assert piles(state) == (sorted_pile(TWO_TO_TEN, turned=True), sorted_pile())
    # the next heist ends: Quick Access goes to the bottom, the next card comes up
    state, events, result = heist(state, win=True)
    assert result.challenges == (Challenge.QUICK_ACCESS,)
    assert CardsActive(3, (Challenge.NOISE_SENSORS,), None) in events
    assert state.challenges == (Challenge.NOISE_SENSORS,)
    assert piles(state)[0] == sorted_pile((*range(3, 11), 1), turned=True)


def test_after_a_failure_the_top_specialist_for_the_next_heist_only() -> None:
    """Seed: "Is de overval mislukt, dan wordt de volgende makkelijker. Draai de bovenste
    specialistkaart open" and "leg je de uitdagings- of specialistkaart onderop de stapel,
    ook als je de specialist niet hebt gebruikt"."""
    state = mode_game(4, Mode.ADVANCED)
    state, events, _ = heist(state, win=False)
    assert CardsActive(2, (), Specialist.INFORMANT) in events
    assert (state.challenges, state.specialist) == ((), Specialist.INFORMANT)
    assert piles(state) == (sorted_pile(), sorted_pile(TWO_TO_TEN, turned=True))
    state, events, result = heist(state, win=False)
    assert result.specialist is Specialist.INFORMANT
    assert CardsActive(3, (), Specialist.GETAWAY_DRIVER) in events
    assert piles(state)[1] == sorted_pile((*range(3, 11), 1), turned=True)
    # a success after failures turns the challenge pile, the specialist goes back
    state, events, _ = heist(state, win=True)
    assert (state.challenges, state.specialist) == ((Challenge.QUICK_ACCESS,), None)
    assert piles(state) == (
        sorted_pile(TWO_TO_TEN, turned=True),
        sorted_pile((*range(3, 11), 1, 2), turned=True),
    )


def predicted(plan: str) -> tuple[list[tuple[tuple[int, ...], int | None]], list[int], list[int]]:
    """The Advanced flow with sorted piles, worked out by hand: the cards of each heist and
    the final piles."""
    challenges, specialists = list(ONE_TO_TEN), list(ONE_TO_TEN)
    active: tuple[tuple[int, ...], int | None] = ((), None)
    out = [active]
    for index, letter in enumerate(plan):
        challenges += active[0]
        specialists += [] if active[1] is None else [active[1]]
        active = ((), None)
        if index < len(plan) - 1:
            active = ((challenges.pop(0),), None) if letter == "W" else ((), specialists.pop(0))
            out.append(active)
    return out, challenges, specialists


@pytest.mark.parametrize("plan", ["WWW", "LLL", "WLWLW", "LWLWL", "WWLLW", "LLWWL", "LWWLW"])
def test_advanced_cards_heist_by_heist(plan: str) -> None:
    """Seed: "Vanaf de tweede overval is er dus steeds één uitdagingskaart of één
    specialistkaart actief." Each heist's cards and the final piles follow the flow worked
    out by hand; at the game's end the last card is back at the bottom."""
    state = mode_game(5, Mode.ADVANCED, seed=plan.encode())
    state, results = play(state, plan)
    assert state.finished
    cards, challenge_pile, specialist_pile = predicted(plan)
    assert [(r.challenges, r.specialist) for r in results] == cards
    final = GAME.view(state, None)
    assert final.challenge_pile.cards == tuple(challenge_pile)
    assert final.specialist_pile.cards == tuple(specialist_pile)
    assert (final.challenges, final.specialist) == cards[-1]  # the last heist as played


@pytest.mark.parametrize("mode", [Mode.ADVANCED, Mode.PROFESSIONAL, Mode.MASTER_THIEF])
def test_shuffled_piles_keep_their_order_secret(mode: Mode) -> None:
    """RULES-NOTES: "First play: piles sorted 1..10; a shuffled order must be possible
    too." With ``shuffle_piles`` nobody sees the order, the seed decides it, and the
    card that comes up is still the top of the secret pile."""
    orders = set()
    for n in range(8):
        state = mode_game(4, mode, seed=bytes([n]), shuffle_piles=True)
        for viewer in [None, *range(4)]:
            challenge_view, specialist_view = piles(state, viewer)
            assert challenge_view.cards == specialist_view.cards == ()
            assert not challenge_view.known and not specialist_view.known
            assert challenge_view.size == len(state.challenge_pile.cards)
            assert specialist_view.size == 10
        orders.add((state.challenge_pile.cards, state.specialist_pile.cards))
    assert len(orders) == 8
    state = mode_game(4, mode, seed=b"shuffled", shuffle_piles=True)
    top = state.challenge_pile.cards[0]
    after, _, _ = heist(state, win=True)
    assert top in after.challenges
    assert piles(after)[0].cards == () and piles(after)[0].size == len(after.challenge_pile.cards)
    if mode is not Mode.MASTER_THIEF:
        top = state.specialist_pile.cards[0]
        after, _, _ = heist(state, win=False)
        assert after.specialist == top and piles(after)[1].cards == ()


def test_piles_continue_into_the_next_game() -> None:
    """Seed: "Wil je alle kaarten leren kennen, sorteer de stapels dan niet opnieuw na een
    potje. Speel ze over meerdere potjes door tot je alle tien kaarten hebt gezien." Game 2
    starts from game 1's final piles (as its final view shows them) and turns the next
    cards in order."""
    first, results = play(mode_game(4, Mode.ADVANCED), "WLWW")
    assert first.finished and GAME.outcome(first) is not None
    assert [(r.challenges, r.specialist) for r in results] == [
        ((), None),
        ((Challenge.QUICK_ACCESS,), None),
        ((), Specialist.INFORMANT),
        ((Challenge.NOISE_SENSORS,), None),
    ]
    end_challenges, end_specialists = piles(first)
    assert end_challenges == sorted_pile((*range(3, 11), 1, 2), turned=True)
    assert end_specialists == sorted_pile((*range(2, 11), 1), turned=True)

    options = {
        "mode": "advanced",
        "challenge_pile": continued(end_challenges),
        "specialist_pile": continued(end_specialists),
    }
    second = GAME.new_game(config(4, **options), b"game two")
    assert piles(second) == (end_challenges, end_specialists)
    assert (second.challenges, second.specialist) == ((), None), "heist 1 stays plain"
    second, _, _ = heist(second, win=True)
    assert second.challenges == (Challenge.MOTION_DETECTOR,)
    second, _, _ = heist(second, win=False)
    assert second.specialist is Specialist.GETAWAY_DRIVER
    assert piles(second) == (
        sorted_pile((*range(4, 11), 1, 2, 3), turned=True),
        sorted_pile((*range(3, 11), 1), turned=True),
    )


@pytest.mark.parametrize("specialists", [False, True], ids=["challenges", "specialists"])
def test_card_one_for_the_second_time_shuffles_the_pile(specialists: bool) -> None:
    """Seed: "Kom je voor de tweede keer bij kaart 1 uit, schud de stapel dan. Vanaf dat
    moment komen de kaarten in willekeurige volgorde." A continued pile whose card 1
    already came up once, with card 1 on top: turning it shuffles the pile first, and the
    order is secret from then on."""
    name = "specialist_pile" if specialists else "challenge_pile"
    which = int(specialists)
    start = PileStart(cards=ONE_TO_TEN, card_one_turned=True)
    state = GAME.new_game(config(4, mode="advanced", **{name: start}), SEED)
    assert piles(state)[which] == sorted_pile(turned=True)
    after, events, _ = heist(state, win=not specialists)
    assert [e for e in events if isinstance(e, PileShuffled)] == [PileShuffled(specialists)]
    shuffled = events.index(PileShuffled(specialists))
    assert any(isinstance(e, CardsActive) for e in events[shuffled:]), "shuffle, then turn"
    pile = (after.specialist_pile if specialists else after.challenge_pile).cards
    turned = after.specialist if specialists else after.challenges[0]
    assert turned is not None and sorted((*pile, turned)) == list(ONE_TO_TEN)
    assert (turned, *pile) != ONE_TO_TEN, "the pile was shuffled"
    for viewer in [None, *range(4)]:
        seen = piles(after, viewer)[which]
        assert (seen.cards, seen.known, seen.size) == ((), False, 9)
    # from then on the cards come in random order: no second shuffle
    for letter in "WL" if specialists else "LW":
        after, events, _ = heist(after, letter == "W")
        assert not [e for e in events if isinstance(e, PileShuffled)]
        assert piles(after)[which].cards == ()


def test_card_one_shuffles_only_when_it_comes_up_again() -> None:
    """Seed: "Kom je voor de tweede keer bij kaart 1 uit, schud de stapel dan." Card 1 came
    up before but is not on top: the pile stays in its known order until card 1 is turned
    again; the first turn of card 1 in a fresh sorted pile does not shuffle."""
    start = PileStart(cards=(3, 1, 2, *range(4, 11)), card_one_turned=True)
    state = GAME.new_game(config(4, mode="advanced", challenge_pile=start), SEED)
    state, events, _ = heist(state, win=True)
    assert not [e for e in events if isinstance(e, PileShuffled)]
    assert state.challenges == (Challenge.MOTION_DETECTOR,)
    assert piles(state)[0] == sorted_pile((1, 2, *range(4, 11)), turned=True)
    state, events, _ = heist(state, win=True)
    assert [e for e in events if isinstance(e, PileShuffled)] == [PileShuffled(False)]
    assert not piles(state)[0].known

    fresh = mode_game(4, Mode.ADVANCED)
    assert not piles(fresh)[0].card_one_turned
    fresh, events, _ = heist(fresh, win=True)
    assert not [e for e in events if isinstance(e, PileShuffled)]
    assert fresh.challenges == (Challenge.QUICK_ACCESS,)
    assert piles(fresh)[0] == sorted_pile(TWO_TO_TEN, turned=True)


# --- Professional (Professioneel) ------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_professional_removes_challenge_one_and_one_stands_all_game(players: int) -> None:
    """Seed: "Haal uitdagingskaart 1 (Snelle toegang) uit de stapel. Die gebruik je in deze
    modus niet." and "Draai aan het begin van het potje een willekeurige uitdagingskaart
    open. Die kaart blijft het hele potje actief, dus al vanaf de eerste overval." Revision 1:
    the card is drawn at random from the sorted pile, which stays sorted (revision 2 in
    ``test_revision2``)."""
    standings = set()
    for n in range(12):
        state = mode_game(players, Mode.PROFESSIONAL, seed=bytes([players, n]), rules_revision=1)
        (standing,) = state.standing_challenges
        standings.add(standing)
        assert standing is not Challenge.QUICK_ACCESS
        assert state.challenges == state.standing_challenges and state.specialist is None
        rest = tuple(card for card in TWO_TO_TEN if card != standing)
        assert piles(state) == (sorted_pile(rest), sorted_pile())
        seen = GAME.view(state, n % players)
        assert seen.standing_challenges == seen.challenges == (standing,)
    assert len(standings) >= 4, "the standing challenge is drawn at random"


@pytest.mark.parametrize("plan", ["WLWLW", "LWLWL", "WWLLL"])
def test_professional_adds_the_advanced_flow_to_the_standing_card(plan: str) -> None:
    """Seed: "Deze modus werkt zoals Gevorderd [...] Vanaf de tweede overval speel je zo
    met twee uitdagingskaarten of met een uitdagingskaart en een specialistkaart
    tegelijk." Quick Access never comes up; the standing card is in every heist. Revision 1:
    the later challenges come off the sorted pile."""
    state = mode_game(4, Mode.PROFESSIONAL, seed=plan.encode(), rules_revision=1)
    (standing,) = state.standing_challenges
    pile = [card for card in TWO_TO_TEN if card != standing]
    specialists = list(ONE_TO_TEN)
    state, results = play(state, plan)
    assert state.finished
    for index, result in enumerate(results):
        flipped = [c for c in result.challenges if c != standing]
        assert standing in result.challenges
        assert Challenge.QUICK_ACCESS not in result.challenges
        if index == 0:
            assert (flipped, result.specialist) == ([], None)
            continue
        back = results[index - 1]
        pile += [c for c in back.challenges if c != standing]
        specialists += [] if back.specialist is None else [back.specialist]
        if back.success:
            assert (flipped, result.specialist) == ([pile.pop(0)], None)
        else:
            assert (flipped, result.specialist) == ([], specialists.pop(0))
    final = GAME.view(state, None)
    last = results[-1]
    pile += [c for c in last.challenges if c != standing] + [standing]
    specialists += [] if last.specialist is None else [last.specialist]
    assert final.challenge_pile.cards == tuple(pile), "the standing card goes back last"
    assert final.specialist_pile.cards == tuple(specialists)
    assert (final.challenges, final.standing_challenges) == (
        last.challenges,
        (standing,),
    )  # as played


# --- Master Thief (Meesterdief) -------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_master_thief_starts_with_two_random_challenges_and_no_specialists(
    players: int,
) -> None:
    """Seed: "Haal uitdagingskaart 1 (Snelle toegang) uit de stapel.", "Je speelt zonder
    specialistkaarten." and "Draai aan het begin van het potje twee willekeurige
    uitdagingskaarten open. Die gelden voor de eerste overval." Revision 1: drawn at random
    from the sorted pile, which stays sorted."""
    pairs = set()
    for n in range(12):
        state = mode_game(players, Mode.MASTER_THIEF, seed=bytes([players, n]), rules_revision=1)
        assert len(state.challenges) == 2 and state.specialist is None
        assert Challenge.QUICK_ACCESS not in state.challenges and state.standing_challenges == ()
        pairs.add(state.challenges)
        rest = tuple(card for card in TWO_TO_TEN if card not in state.challenges)
        assert piles(state) == (sorted_pile(rest), sorted_pile())
        seen = GAME.view(state, None)
        assert seen.challenges == state.challenges and seen.alarms_to_lose == 2
    assert len(pairs) >= 6, "the two challenges are drawn at random"


@pytest.mark.parametrize("plan", ["WLWW", "LWWW", "WWLW", "WWW"])
def test_master_thief_replaces_the_lowest_challenge_each_heist(plan: str) -> None:
    """Seed: "Aan het begin van elke volgende overval leg je de uitdagingskaart met het
    laagste nummer weg en draai je een nieuwe open. Er zijn dus altijd twee
    uitdagingskaarten actief." Whether the heist succeeded or not; the card laid away goes
    to the bottom of the pile, the new one is the pile's top; no specialist ever comes.
    Revision 1: the pile stays sorted."""
    state = mode_game(6, Mode.MASTER_THIEF, seed=plan.encode(), rules_revision=1)
    pile = list(state.challenge_pile.cards)
    active = state.challenges
    for letter in plan:
        state, events, result = heist(state, letter == "W")
        assert result.challenges == active and result.specialist is None
        if state.finished:
            break
        pile.append(min(active))
        active = tuple(sorted((max(active), Challenge(pile.pop(0)))))
        assert state.challenges == active and state.specialist is None
        assert CardsActive(state.heist, active, None) in events
        assert piles(state) == (sorted_pile(tuple(pile)), sorted_pile())
    assert state.finished and state.vaults == 3
    assert piles(state)[1] == sorted_pile(), "the specialists never leave the box"


@pytest.mark.parametrize("plan", ["LL", "WLL", "LWWL"])
def test_master_thief_two_alarms_lose(plan: str) -> None:
    """Seed: "Haal een van de drie alarmkaarten uit het spel. Je verliest dus al als het
    alarm twee keer afgaat." and "In de modus Meesterdief is dat al na twee
    alarmkaarten." """
    state = mode_game(3, Mode.MASTER_THIEF, seed=plan.encode())
    assert state.alarms_to_lose == 2 and GAME.view(state, 0).alarms_to_lose == 2
    for index, letter in enumerate(plan):
        state, events, _ = heist(state, letter == "W")
        last = index == len(plan) - 1
        assert state.finished == last
        assert (GameEnded(won=False) in events) == last
    assert (state.vaults, state.alarms) == (plan.count("W"), 2)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ()
    assert GAME.legal_moves(state, 0) == []


@pytest.mark.parametrize("mode", [Mode.ADVANCED, Mode.PROFESSIONAL])
def test_other_modes_lose_at_three_alarms(mode: Mode) -> None:
    """Seed: "Gaat eerst drie keer het alarm, dan verliezen jullie samen." (only Master
    Thief removes an alarm card)."""
    state = mode_game(4, mode, seed=b"three alarms")
    assert GAME.view(state, None).alarms_to_lose == 3
    state, _ = play(state, "LL")
    assert not state.finished
    state, _ = play(state, "L")
    assert state.finished and state.alarms == 3


# --- the Jack card and the end of the game -----------------------------------------------------


def test_the_jack_card_goes_back_to_its_pile_for_the_next_game() -> None:
    """The Jack card is "deze specialistkaart" itself: it is in play at most once, in a
    pocket only while the Jack specialist is active. A game lost in a heist where the gang
    used the Jack keeps that heist as played (the Jack active, its card in one pocket), and
    the final view's pile, the one to continue with, has the Jack back at the bottom."""
    start = PileStart(cards=(1, 7, 2, 3, 4, 5, 6, 8, 9, 10))
    state = GAME.new_game(config(4, mode="advanced", specialist_pile=start), SEED)
    state, _ = play(state, "LL")
    assert state.specialist is Specialist.JACK
    state, _, result = heist(state, win=False)
    assert result.specialist is Specialist.JACK
    assert any(JACK_CARD in reveal.pocket for reveal in result.reveals), "the Jack was used"
    assert state.finished and state.specialist is Specialist.JACK
    assert Specialist.JACK not in state.specialist_pile.cards
    holders = [seat for seat, pocket in enumerate(state.pockets) if JACK_CARD in pocket]
    assert len(holders) == 1
    assert GAME.view(state, None).specialist_pile.cards[-1] == Specialist.JACK


def test_the_final_view_shows_the_last_heist_as_it_was_played() -> None:
    """Quick Access: "Je speelt deze overval zonder witte fiches." When the game ends in a
    heist played without white chips, its final view must not show a row of white chips
    (all in the centre) that never came into play: the rows shown are the rounds the
    heist's result lists."""
    start = PileStart(cards=(5, 1, 2, 3, 4, 6, 7, 8, 9, 10))
    state = GAME.new_game(config(3, mode="advanced", challenge_pile=start), b"x")
    state, results = play(state, "WWW")
    assert results[-1].challenges == (Challenge.QUICK_ACCESS,)
    assert state.finished
    seen = GAME.view(state, 0)
    assert [row.colour for row in seen.chips] == [row.colour for row in results[-1].chips]
    assert set(seen.skipped_colours) | {row.colour for row in results[-1].chips} == set(Colour)


# --- bad configs -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "reason"),
    [
        ({"mode": "expert"}, "BAD_OPTION"),
        ({"mode": ""}, "BAD_OPTION"),
        ({"mode": "advanced", "shuffle_piles": "yes"}, "BAD_OPTION"),
        ({"mode": "advanced", "challenge_pile": list(ONE_TO_TEN)}, "BAD_OPTION"),
        ({"mode": "advanced", "specialist_pile": {"cards": ONE_TO_TEN}}, "BAD_OPTION"),
        (
            {"mode": "advanced", "challenge_pile": PileStart(cards=(1, 1, *range(3, 11)))},
            "BAD_PILE",
        ),
        ({"mode": "advanced", "challenge_pile": PileStart(cards=tuple(range(0, 10)))}, "BAD_PILE"),
        ({"mode": "advanced", "challenge_pile": PileStart(cards=(*TWO_TO_TEN, 11))}, "BAD_PILE"),
        ({"mode": "advanced", "challenge_pile": PileStart(cards=(1, 2, 3))}, "BAD_PILE"),
        ({"mode": "advanced", "specialist_pile": PileStart(cards=TWO_TO_TEN)}, "BAD_PILE"),
        ({"mode": "professional", "specialist_pile": PileStart(cards=ONE_TO_TEN * 2)}, "BAD_PILE"),
        ({"mode": "master_thief", "challenge_pile": PileStart(cards=(2, 3))}, "BAD_PILE"),
        ({"shuffle_piles": True}, "OPTION_NEEDS_MODE"),
        ({"mode": "basic", "challenge_pile": PileStart(cards=ONE_TO_TEN)}, "OPTION_NEEDS_MODE"),
        ({"specialist_pile": PileStart(shuffled=True)}, "OPTION_NEEDS_MODE"),
        ({"mode": "advanced", "jack": True}, "UNKNOWN_OPTION"),
    ],
)
def test_bad_mode_configs_are_refused(options: dict[str, Any], reason: str) -> None:
    """A table in an unknown mode, with a pile that is not the cards 1..10 once each, or
    with pile options in the base game (which "Laat de uitdagingskaarten en de
    specialistkaarten in de doos") is refused with a typed reason; so is the same config
    built by hand and handed to ``new_game``."""
    with pytest.raises(InvalidConfigError) as info:
        GAME.make_config(4, options)
    assert info.value.reason == reason
    known = {"mode", "shuffle_piles", "challenge_pile", "specialist_pile"}
    if reason in ("BAD_PILE", "OPTION_NEEDS_MODE") and set(options) <= known:
        fields: dict[str, Any] = dict(options)
        fields["mode"] = Mode(options.get("mode", "basic"))
        by_hand = TheGangConfig(players=4, rules_revision=RULES_REVISION, **fields)
        with pytest.raises(InvalidConfigError) as again:
            GAME.new_game(by_hand, SEED)
        assert again.value.reason == reason


def test_good_mode_configs() -> None:
    """Every mode by name, sorted piles by default, and the config survives the wire
    (msgspec) unchanged. A start without cards is the sorted pile (or, shuffled, a fresh
    shuffle). A continued challenge pile may lack card 1 (it comes from a Professional or
    Master Thief game, which "Haal uitdagingskaart 1 (Snelle toegang) uit de stapel"); an
    Advanced game puts card 1 back, at the bottom."""
    for mode in Mode:
        made = GAME.make_config(3, {"mode": mode.value})
        assert made == TheGangConfig(3, mode=mode, rules_revision=RULES_REVISION)
        assert msgspec.json.decode(msgspec.json.encode(made), type=TheGangConfig) == made
    empty = GAME.make_config(4, {"mode": "advanced", "challenge_pile": PileStart()})
    assert piles(GAME.new_game(empty, SEED)) == (sorted_pile(), sorted_pile())
    nine = PileStart(cards=(*range(3, 11), 2))
    made = GAME.make_config(4, {"mode": "advanced", "challenge_pile": nine})
    assert piles(GAME.new_game(made, SEED))[0] == sorted_pile((*nine.cards, 1))
    made = GAME.make_config(4, {"mode": "master_thief", "challenge_pile": nine})
    state = GAME.new_game(made, SEED)
    assert sorted((*state.challenge_pile.cards, *state.challenges)) == list(TWO_TO_TEN)
    shuffled = PileStart(shuffled=True)
    made = GAME.make_config(4, {"mode": "professional", "specialist_pile": shuffled})
    state = GAME.new_game(made, SEED)
    assert piles(state)[1].cards == () and not piles(state)[1].known
    assert sorted(state.specialist_pile.cards) == list(ONE_TO_TEN)
