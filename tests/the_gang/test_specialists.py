"""One test (or a few) per specialist card of The Gang, each quoting the seed line it checks.

Quotes are from the Dutch rule seed (``shared/seeds/000_*.txt``, "Specialistkaarten" and
"Spelmodi") unless marked RULES-NOTES (``shared/RULES-NOTES.md``, The Gang). The
specialists that act at the deal (Investor, Coordinator, Math Whiz, Con Artist) are dealt
by the engine's ``flow.start_heist`` (``cards_support.heist_with``); the others are put to
use through the group decision moves.
"""

from __future__ import annotations

import pytest

from engines.cards import cards
from engines.errors import IllegalMoveError
from engines.the_gang import GAME, TakeChip
from engines.the_gang.events import (
    Announced,
    CardDiscarded,
    CardDrawn,
    CardPassed,
    DecisionTaken,
    Event,
    HeistEnded,
    JackTaken,
    PassChosen,
    PocketDealt,
    PocketsGathered,
    RoundEnded,
    RoundStarted,
)
from engines.the_gang.model import (
    JACK_CARD,
    Announcement,
    AnnouncementKind,
    Challenge,
    Colour,
    GuessRank,
    HeistResult,
    Pending,
    PendingKind,
    Specialist,
    TheGangState,
)
from engines.the_gang.moves import DiscardCard, PassCard, ShowCard
from tests.the_gang.cards_support import (
    advanced,
    conserved,
    decide,
    heist_with,
    of_type,
    pockets_around,
    predicted_deal,
    rejects,
    rig,
    river,
    use,
    views,
)
from tests.the_gang.support import apply_all, shows, strength

SEEDS = [bytes.fromhex(f"{index:016x}") for index in range(1, 13)]
FACES = {11, 12, 13}
PIPS = {rank: rank for rank in range(2, 11)} | {11: 10, 12: 10, 13: 10, 14: 11}


def ended(events: list[Event]) -> HeistResult:
    (end,) = of_type(events, HeistEnded)
    return end.result


def everyone_sees(state: TheGangState, announcement: Announcement) -> None:
    """A public announcement: in every seat's view and the spectator's, unredacted."""
    for viewer, seen in views(state):
        assert announcement in seen.announcements, viewer
        assert GAME.view_event(Announced(announcement), viewer) == Announced(announcement)


def take_all_chips(state: TheGangState) -> TheGangState:
    """Every seat takes a chip of the current colour (seat s the s+1-star chip)."""
    colour = state.round
    return apply_all(state, [(s, TakeChip(colour, s + 1)) for s in range(state.config.players)])[0]


# --- 1. Informant -----------------------------------------------------------------------

INFORMANT_POCKETS = ["Ah Kd", "9c 9d", "2s 7h", "Qc Jd"]


def test_informant_card_reaches_exactly_the_chosen_viewer() -> None:
    """Seed, 1. Informant: "Kies samen een speler die in het geheim precies één van zijn
    handkaarten aan één andere speler laat zien. Die andere speler vertelt de rest natuurlijk
    niet welke kaart hij heeft gezien." RULES-NOTES 12: "Informant: the shown card appears
    only in the chosen viewer's view."

    The gang names the shower (seat 1) and the viewer (seat 2); the shower picks the card.
    """
    base, _ = heist_with(4, specialist=Specialist.INFORMANT)
    state = rig(base, INFORMANT_POCKETS)
    state, events = use(state, 1, proposer=0, viewer=2)
    assert of_type(events, DecisionTaken)
    assert state.pending == (Pending(1, PendingKind.SHOW_CARD, to_seat=2),)
    assert not of_type(events, Announced), "the shower, not the gang, picks the card"
    rejects(state, 2, ShowCard(cards("2s")[0]), IllegalMoveError, "NOTHING_TO_SHOW")
    rejects(state, 0, ShowCard(cards("Ah")[0]), IllegalMoveError, "NOTHING_TO_SHOW")
    rejects(state, 1, ShowCard(cards("Ah")[0]), IllegalMoveError, "CARD_NOT_IN_POCKET")
    shown = cards("9d")[0]
    state, events = GAME.apply(state, 1, ShowCard(shown))
    said = Announcement(AnnouncementKind.INFORMANT, 1, to_seat=2, card=shown)
    assert events == [Announced(said)]
    assert state.pending == () and state.announcements == (said,)
    hidden = Announcement(AnnouncementKind.INFORMANT, 1, to_seat=2, card=None)
    for viewer, seen in views(state):
        knows = viewer in (1, 2)
        assert seen.announcements == ((said,) if knows else (hidden,)), viewer
        assert GAME.view_event(events[0], viewer) == Announced(said if knows else hidden)
        assert GAME.view_move(ShowCard(shown), 1, viewer) == (
            ShowCard(shown) if viewer == 1 else None
        )
        if not knows:
            assert shows(seen, {shown}) == set(), viewer
            assert shows(GAME.view_event(events[0], viewer), {shown}) == set(), viewer
    rejects(state, 1, ShowCard(shown), IllegalMoveError, "NOTHING_TO_SHOW")


def test_informant_round_waits_for_the_card() -> None:
    """Seed, 1: the chosen player "laat [...] zien" a card: the round does not end with the
    showing still owed (every seat holds a chip), and ends the moment it is shown."""
    base, _ = heist_with(4, specialist=Specialist.INFORMANT)
    state, _ = use(rig(base, INFORMANT_POCKETS), 3, proposer=2, viewer=0)
    state = take_all_chips(state)
    assert state.round is Colour.WHITE
    state, events = GAME.apply(state, 3, ShowCard(cards("Jd")[0]))
    assert RoundEnded(2, Colour.WHITE) in events
    assert state.round is Colour.YELLOW


# --- 2. Getaway Driver ------------------------------------------------------------------

DRIVER_CASES = [
    pytest.param("9c 9d", "", 2, id="preflop-pair"),
    pytest.param("9c 5d", "", 1, id="preflop-high-card"),
    pytest.param("9c 5d", "9h 5s 2c", 3, id="flop-two-pair"),
    pytest.param("9c 9d", "9h 5s 5c", 7, id="flop-full-house"),
    pytest.param("Ah Kh", "Qh Jh Th", 10, id="flop-royal-flush"),
    pytest.param("2c 3d", "4h 5s 6c 9d", 5, id="turn-straight"),
    pytest.param("2c 3c", "4c 9c Tc Kd", 6, id="turn-flush"),
    pytest.param("9c 5d", "Kh Qs 2c 3d 7s", 1, id="river-high-card"),
    pytest.param("Ac 2d", "2c 2h 2s 7d 7s", 8, id="river-four-of-a-kind"),
]


@pytest.mark.parametrize(("pocket", "board", "category"), DRIVER_CASES)
def test_getaway_driver_announces_the_hand_so_far(pocket: str, board: str, category: int) -> None:
    """Seed, 2. Vluchtautochauffeur: "Kies samen een speler die aan iedereen vertelt welke
    pokerhand hij op dit moment heeft, met zijn handkaarten en de gedeelde kaarten die al
    open liggen. Meer details mag hij niet geven. Hij zegt dus wel "ik heb een paar", maar
    niet welk paar." RULES-NOTES 12: "it computes the true value"."""
    rounds = {0: Colour.WHITE, 3: Colour.YELLOW, 4: Colour.ORANGE, 5: Colour.RED}
    colour = rounds[len(cards(board))]
    base, _ = heist_with(4, specialist=Specialist.GETAWAY_DRIVER)
    full = (0, 1, 2, 3)
    chips = [full if c < colour else (None,) * 4 for c in Colour]
    state = rig(base, pockets_around(4, {2: pocket}, board), board, round=colour, chips=chips)
    state, events = use(state, 2, proposer=3)
    said = Announcement(AnnouncementKind.GETAWAY_DRIVER, 2, number=category)
    assert events[-1] == Announced(said)
    assert state.announcements == (said,)
    assert (said.rank, said.card) == (0, None), "no more detail than the category"
    everyone_sees(state, said)


# --- 3. Investor ------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 6])
def test_investor_announces_every_pockets_face_cards_at_the_deal(players: int) -> None:
    """Seed, 3. Investeerder: "Na het delen van de handkaarten in ronde 1 vertelt iedere
    speler hoeveel plaatjes (boer, vrouw of heer) hij in zijn hand heeft." RULES-NOTES 12:
    the referee "computes the true value and reveals it in the views"."""
    counts: set[int] = set()
    aces = 0
    for seed in SEEDS:
        state, events = heist_with(players, specialist=Specialist.INVESTOR, seed=seed)
        expected = tuple(
            Announcement(
                AnnouncementKind.INVESTOR, seat, sum(c.rank in FACES for c in state.pockets[seat])
            )
            for seat in range(players)
        )
        assert state.announcements == expected
        assert of_type(events, Announced) == [Announced(item) for item in expected]
        assert events.index(Announced(expected[0])) > max(
            events.index(e) for e in of_type(events, PocketDealt)
        ), "announced after the deal"
        for item in expected:
            everyone_sees(state, item)
        counts |= {item.number for item in expected}
        aces += sum(c.rank == 14 for pocket in state.pockets for c in pocket)
    assert {0, 1} <= counts and aces > 0, "the seeds cover faces, no faces and aces"


# --- 4. Mastermind ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pocket", "rank", "count"),
    [("9c 9d", 9, 2), ("9c 9d", 14, 0), ("Ah 9d", 14, 1), ("Ah 9d", 9, 1), ("2c 3d", 2, 1)],
)
def test_mastermind_announces_the_true_count_of_a_value(pocket: str, rank: int, count: int) -> None:
    """Seed, 4. Brein: "Kies samen een speler en een kaartwaarde. Die speler vertelt aan
    iedereen hoeveel kaarten van die waarde hij in zijn hand heeft." (a board card of that
    value does not count: "in zijn hand")."""
    base, _ = heist_with(4, specialist=Specialist.MASTERMIND)
    board = "9h As 2h"
    full = (0, 1, 2, 3)
    state = rig(
        base,
        pockets_around(4, {1: pocket}, board),
        board,
        round=Colour.YELLOW,
        chips=[full, (None,) * 4, (None,) * 4, (None,) * 4],
    )
    state, events = use(state, 1, proposer=2, rank=rank)
    said = Announcement(AnnouncementKind.MASTERMIND, 1, number=count, rank=rank)
    assert events[-1] == Announced(said)
    everyone_sees(state, said)


# --- 5. Hacker --------------------------------------------------------------------------

HACKER_POCKETS = ["2h 3h", "4h 5h", "6h 8h", "Th Qh"]


@pytest.mark.parametrize("discard", ["Ks", "6h"], ids=["the-drawn-card", "an-old-card"])
def test_hacker_draws_the_top_card_and_discards_one(discard: str) -> None:
    """Seed, 5. Hacker: "Kies samen een speler die de bovenste kaart van de stapel bij zijn
    handkaarten neemt. Daarna legt hij een van zijn handkaarten dicht op de aflegstapel. Dat
    mag ook de kaart zijn die hij net heeft getrokken."."""
    base, _ = heist_with(4, specialist=Specialist.HACKER)
    state = rig(base, HACKER_POCKETS, top="Ks")
    deck = state.deck
    state, events = use(state, 2, proposer=0)
    drawn = cards("Ks")[0]
    (draw,) = of_type(events, CardDrawn)
    assert draw == CardDrawn(2, drawn)
    assert state.pockets[2] == cards("6h 8h Ks")
    assert state.deck == deck[1:]
    assert state.pending == (Pending(2, PendingKind.DISCARD),)
    assert conserved(state)
    for viewer, _ in views(state):
        assert GAME.view_event(draw, viewer) == (draw if viewer == 2 else CardDrawn(2, None))
    rejects(state, 1, DiscardCard(cards("4h")[0]), IllegalMoveError, "NOTHING_TO_DISCARD")
    rejects(state, 2, DiscardCard(cards("Th")[0]), IllegalMoveError, "CARD_NOT_IN_POCKET")
    # the round cannot end while the discard is owed
    state = take_all_chips(state)
    assert state.round is Colour.WHITE
    card = cards(discard)[0]
    state, events = GAME.apply(state, 2, DiscardCard(card))
    assert events[:2] == [CardDiscarded(2, card), RoundEnded(2, Colour.WHITE)]
    assert state.round is Colour.YELLOW
    assert state.pockets[2] == tuple(c for c in cards("6h 8h Ks") if c != card)
    assert state.discards == (card,) and state.pending == ()
    assert conserved(state)
    for viewer, seen in views(state):
        assert seen.discard_count == 1
        hidden = GAME.view_event(events[0], viewer)
        assert hidden == (events[0] if viewer == 2 else CardDiscarded(2, None))
    rejects(state, 2, DiscardCard(state.pockets[2][0]), IllegalMoveError, "NOTHING_TO_DISCARD")


# --- 6. Coordinator ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 5])
def test_coordinator_passes_one_card_left_sealed_until_all_chose(players: int) -> None:
    """Seed, 6. Coördinator: "Na het delen van de handkaarten in ronde 1 kiest iedere speler
    een van zijn handkaarten. Iedereen geeft die kaart tegelijk door aan zijn linkerbuur, die
    hem als handkaart gebruikt." Seats sit clockwise, so the left neighbour is the next
    seat number (engines/the_gang/tables.py)."""
    state, _ = heist_with(players, specialist=Specialist.COORDINATOR)
    dealt = state.pockets
    assert state.passes == (None,) * players
    choice = [dealt[seat][seat % 2] for seat in range(players)]
    for seat in range(players - 1):
        for other in range(players):
            rejects(state, other, TakeChip(Colour.WHITE, 1), IllegalMoveError, "CARDS_BEING_PASSED")
        state, events = GAME.apply(state, seat, PassCard(choice[seat]))
        assert events == [PassChosen(seat, choice[seat])]
        assert state.pockets == dealt, "nothing moves before everyone chose"
        rejects(
            state, seat, PassCard(dealt[seat][1 - seat % 2]), IllegalMoveError, "ALREADY_PASSED"
        )
        for viewer, seen in views(state):
            assert seen.passed_seats == tuple(range(seat + 1))
            sealed = {choice[s] for s in range(seat + 1) if s != viewer}
            assert shows(seen, sealed) == set(), (viewer, sealed)
            assert seen.my_pass == (
                choice[viewer] if viewer is not None and viewer <= seat else None
            )
            expected = events[0] if viewer == seat else PassChosen(seat, None)
            assert GAME.view_event(events[0], viewer) == expected
    last = players - 1
    state, events = GAME.apply(state, last, PassCard(choice[last]))
    assert events[0] == PassChosen(last, choice[last])
    passed = [CardPassed(seat, (seat + 1) % players, choice[seat]) for seat in range(players)]
    assert events[1:] == passed
    for seat in range(players):
        giver = (seat - 1) % players
        own = tuple(card for card in dealt[seat] if card != choice[seat])
        assert state.pockets[seat] == (*own, choice[giver])
    assert state.passes == () and conserved(state)
    for viewer, _ in views(state):
        for event in passed:
            redacted = GAME.view_event(event, viewer)
            knows = viewer in (event.from_seat, event.to_seat)
            hidden = CardPassed(event.from_seat, event.to_seat, None)
            assert redacted == (event if knows else hidden)
    rejects(state, 0, PassCard(state.pockets[0][0]), IllegalMoveError, "NO_PASS_DUE")
    state, events = GAME.apply(state, 0, TakeChip(Colour.WHITE, 1))
    assert state.chips[Colour.WHITE][0] == 0


def test_coordinator_pass_must_be_your_own_card() -> None:
    """Seed, 6: "kiest iedere speler een van zijn handkaarten"."""
    state, _ = heist_with(3, specialist=Specialist.COORDINATOR)
    rejects(state, 0, PassCard(state.pockets[1][0]), IllegalMoveError, "CARD_NOT_IN_POCKET")


# --- 7. Jack ----------------------------------------------------------------------------


def test_jack_joins_the_pocket_and_another_card_is_discarded() -> None:
    """Seed, 7. Jack: "Kies samen een speler die deze specialistkaart bij zijn handkaarten
    neemt. Daarna legt hij een van zijn andere handkaarten dicht op de aflegstapel."."""
    base, _ = heist_with(4, specialist=Specialist.JACK)
    state = rig(base, ["Jc 2d", "4h 5h", "6h 8h", "Th Qh"])
    state, events = use(state, 0, proposer=3)
    assert JackTaken(0) in events
    assert state.pockets[0] == (*cards("Jc 2d"), JACK_CARD)
    assert state.pending == (Pending(0, PendingKind.DISCARD),)
    rejects(state, 0, DiscardCard(JACK_CARD), IllegalMoveError, "JACK_STAYS")
    state = take_all_chips(state)
    assert state.round is Colour.WHITE, "the discard is owed"
    state, events = GAME.apply(state, 0, DiscardCard(cards("2d")[0]))
    assert events[0] == CardDiscarded(0, cards("2d")[0])
    assert state.pockets[0] == (*cards("Jc"), JACK_CARD)
    assert state.discards == cards("2d") and state.round is Colour.YELLOW
    assert conserved(state), "the Jack card is no card of the deck"
    for viewer, seen in views(state):
        assert seen.pocket == (() if viewer is None else state.pockets[viewer])


def jack_showdown(
    pockets: list[str], board: str, red: list[int], *, discard: str
) -> tuple[HeistResult, TheGangState]:
    """A red round where seat 0 takes the Jack and discards ``discard``; then the last chip."""
    state, play = river(pockets, board, red, specialist=Specialist.JACK)
    state, _ = use(state, 0, proposer=1)
    state, _ = GAME.apply(state, 0, DiscardCard(cards(discard)[0]))
    after, events = GAME.apply(state, *play)
    return ended(events), after


def test_five_jacks_are_four_of_a_kind_with_a_jack_kicker() -> None:
    """Seed, 7: "Heb je met de Jack en de vier gewone boeren vijf boeren, dan telt dat als een
    carré boeren met een boer als kicker." RULES-NOTES 13: "five jacks = four of a kind with a
    jack kicker"."""
    pockets = ["Jc 2d", "9c 9h", "Ad Kd"]  # five jacks; jacks full of nines; three jacks
    result, _ = jack_showdown(pockets, "Jd Jh Js 4c 9d", [3, 2, 1], discard="2d")
    assert result.success
    top = result.reveals[2]
    assert (top.seat, top.category, top.ranks) == (0, 8, (11, 11))
    assert set(top.best_five) == {*cards("Jc Jd Jh Js"), JACK_CARD}
    assert top.pocket == (*cards("Jc"), JACK_CARD)
    assert [(r.seat, r.category) for r in result.reveals[:2]] == [(2, 4), (1, 7)]


def test_the_jack_has_no_suit_for_a_flush() -> None:
    """Seed, 7: "De Jack telt als een boer, maar heeft geen kleur en telt dus niet mee voor een
    flush." Seat 0's J* with 8h 9h Th Qh is a queen-high straight, not a straight flush, so
    seat 1's ace-high flush sits above it."""
    pockets = ["Qh 2c", "Ah 4h", "Kc Kd"]
    board = "8h 9h Th 2s 3s"
    result, _ = jack_showdown(pockets, board, [2, 3, 1], discard="2c")
    assert [(r.seat, r.category) for r in result.reveals] == [(2, 2), (0, 5), (1, 6)]
    assert result.success
    flush, straight = (strength(cards(f"{pocket} {board}")) for pocket in ("Ah 4h", "Qh Jc"))
    assert straight < flush < strength(cards(f"Qh Jh {board}")), "a heart jack would fail"


def test_the_jack_counts_as_a_jack_for_the_retina_scan() -> None:
    """Seed, 7: "De Jack telt als een boer" — so with 4. Netvliesscan (Professional: a
    standing challenge and a specialist) a guess of jack about his pocket is right."""
    pockets = ["Ac 2d", "9c 5d", "Tc Td"]  # then: two jacks, two nines, two tens
    state, play = river(
        pockets,
        "2c 7d 9h Js 3d",
        [3, 1, 2],
        specialist=Specialist.JACK,
        challenges=[Challenge.RETINA_SCAN],
    )
    state, _ = use(state, 0, proposer=1)
    state, _ = GAME.apply(state, 0, DiscardCard(cards("2d")[0]))
    state, _ = GAME.apply(state, *play)
    assert state.awaiting_guesses
    _, events = decide(state, 1, GuessRank(11), skip=[0])
    (scan,) = ended(events).scans
    assert (scan.seat, scan.actual, scan.correct) == (0, (11, 14), True)


# --- 8. Math Whiz -----------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 5])
def test_math_whiz_announces_every_pockets_sum_at_the_deal(players: int) -> None:
    """Seed, 8. Rekenwonder: "Na het delen van de handkaarten in ronde 1 noemt iedere speler
    de som van de waarden van zijn handkaarten. De kaarten 2 tot en met 10 tellen voor hun
    eigen waarde, plaatjes tellen voor 10 en een aas telt voor 11."."""
    seen_ranks: set[int] = set()
    for seed in SEEDS:
        state, events = heist_with(players, specialist=Specialist.MATH_WHIZ, seed=seed)
        expected = tuple(
            Announcement(
                AnnouncementKind.MATH_WHIZ, seat, sum(PIPS[c.rank] for c in state.pockets[seat])
            )
            for seat in range(players)
        )
        assert state.announcements == expected
        assert of_type(events, Announced) == [Announced(item) for item in expected]
        for item in expected:
            everyone_sees(state, item)
        seen_ranks |= {c.rank for pocket in state.pockets for c in pocket}
    assert {10, 11, 12, 13, 14} <= seen_ranks, "the seeds cover tens, faces and aces"


# --- 9. Con Artist ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 6])
def test_con_artist_redeals_only_the_dealt_pockets(players: int) -> None:
    """Seed, 9. Oplichter: "Na het delen van de handkaarten in ronde 1 bekijkt iedereen zijn
    kaarten. Daarna leg je alle handkaarten dicht op een stapel in het midden, schud je ze en
    deel je ze opnieuw uit. Je schudt alleen de kaarten die al gedeeld waren."."""
    moved = 0
    for seed in SEEDS[:6]:
        deal = predicted_deal(advanced(players, seed))
        state, events = heist_with(players, specialist=Specialist.CON_ARTIST, seed=seed)
        first = tuple(tuple(deal[s + players * i] for i in range(2)) for s in range(players))
        assert sorted(c for p in state.pockets for c in p) == sorted(deal[: 2 * players])
        assert all(len(pocket) == 2 for pocket in state.pockets)
        assert state.deck == deal[2 * players :], "the deck is untouched"
        dealt = of_type(events, PocketDealt)
        assert dealt == [
            *(PocketDealt(2, s, first[s]) for s in range(players)),
            *(PocketDealt(2, s, state.pockets[s]) for s in range(players)),
        ]
        gathered = events.index(PocketsGathered(2))
        assert events.index(dealt[players - 1]) < gathered < events.index(dealt[players])
        for viewer, _ in views(state):
            for event in dealt:
                redacted = GAME.view_event(event, viewer)
                assert redacted == (event if event.seat == viewer else None)
        moved += state.pockets != first
        assert RoundStarted(2, Colour.WHITE) == events[-1]
    assert moved, "the redeal is a real shuffle"


# --- 10. Muscle -------------------------------------------------------------------------

# Board 2c 7d 9h Js Kd. Seat 0 pair of threes (the Muscle), seat 1 pair of aces, seat 2
# pair of nines, seat 3 three sevens.
MUSCLE_BOARD = "2c 7d 9h Js Kd"
MUSCLE_POCKETS = ["3h 3c", "Ah Ad", "9c 5d", "7h 7s"]


@pytest.mark.parametrize(
    ("red", "muscle", "success"),
    [
        pytest.param([3, 2, 1, 4], True, True, id="weakest-pair-on-top-of-pairs"),
        pytest.param([3, 2, 1, 4], False, False, id="same-order-without-the-muscle"),
        pytest.param([1, 3, 2, 4], True, False, id="muscle-below-a-pair"),
        pytest.param([1, 3, 2, 4], False, True, id="true-order-without-the-muscle"),
        pytest.param([4, 2, 1, 3], True, False, id="muscle-above-three-of-a-kind"),
    ],
)
def test_muscle_beats_every_hand_of_the_same_kind(
    red: list[int], muscle: bool, success: bool
) -> None:
    """Seed, 10. Spierbundel: "Kies samen een speler die deze specialistkaart voor zich legt.
    Bij de onthulling wint die speler van iedere andere speler met een hand van dezelfde
    soort. Heeft hij bijvoorbeeld het zwakste paar van alle spelers met een paar, dan geldt
    zijn paar toch als het sterkste paar. Tegen een sterkere soort hand, zoals drie gelijke,
    verliest hij nog steeds."."""
    values = [strength(cards(f"{pocket} {MUSCLE_BOARD}")) for pocket in MUSCLE_POCKETS]
    assert values[0] < values[2] < values[1] < values[3]
    state, play = river(MUSCLE_POCKETS, MUSCLE_BOARD, red, specialist=Specialist.MUSCLE)
    if muscle:
        state, events = use(state, 0, proposer=3)
        assert of_type(events, DecisionTaken) and not of_type(events, Announced)
    _, events = GAME.apply(state, *play)
    result = ended(events)
    assert result.success is success
    assert [r.muscle for r in result.reveals if r.seat == 0] == [muscle]
    assert not any(r.muscle for r in result.reveals if r.seat != 0)


def test_cards_of_the_jack_are_visible_only_to_their_holder() -> None:
    """Seed, 7 with "Praten mag [...] maar niet over je eigen kaarten": the Jack card in a
    pocket is seen by its holder only (its taking is public: JackTaken)."""
    base, _ = heist_with(3, specialist=Specialist.JACK)
    state, events = use(base, 1, proposer=0)
    for viewer, seen in views(state):
        assert (JACK_CARD in seen.pocket) is (viewer == 1)
        assert GAME.view_event(JackTaken(1), viewer) == JackTaken(1)
    assert JackTaken(1) in events


@pytest.mark.parametrize(("muscle_stars", "success"), [(3, True), (1, False), (2, False)])
def test_muscle_beats_even_an_equal_hand(muscle_stars: int, success: bool) -> None:
    """Seed, 10: "wint die speler van iedere andere speler met een hand van dezelfde soort" —
    when the board plays for everyone (a royal flush: "In dat geval maakt de onderlinge
    volgorde van hun fiches niet uit"), the Muscle must still sit above the others."""
    others = [s for s in (1, 2, 3) if s != muscle_stars]
    red = [muscle_stars, *others]
    state, play = river(
        ["2c 3d", "4h 5c", "6d 7h"], "As Ks Qs Js Ts", red, specialist=Specialist.MUSCLE
    )
    state, _ = use(state, 0, proposer=1)
    _, events = GAME.apply(state, *play)
    result = ended(events)
    assert {r.category for r in result.reveals} == {10}
    assert result.success is success


def test_getaway_driver_counts_three_pocket_cards_under_security_cameras() -> None:
    """Seed, 2: "welke pokerhand hij op dit moment heeft, met zijn handkaarten en de gedeelde
    kaarten die al open liggen" — with 10. Beveiligingscamera's three pocket cards pre-flop
    can already be three of a kind."""
    base, _ = heist_with(4, [Challenge.SECURITY_CAMERAS], specialist=Specialist.GETAWAY_DRIVER)
    state = rig(base, pockets_around(4, {0: "Ac Ad As"}, size=3))
    state, events = use(state, 0, proposer=1)
    said = Announcement(AnnouncementKind.GETAWAY_DRIVER, 0, number=4)
    assert events[-1] == Announced(said)
    everyone_sees(state, said)


def test_a_seat_whose_pass_is_made_has_nothing_to_do() -> None:
    """The view's ``to_act`` names the seats with a legal move: while the Coordinator's passes
    are being chosen, a seat that chose has nothing left to do until the others have."""
    state, _ = heist_with(3, specialist=Specialist.COORDINATOR)
    assert GAME.to_act(state) == {0, 1, 2}
    state, _ = GAME.apply(state, 0, PassCard(state.pockets[0][0]))
    assert GAME.to_act(state) == {1, 2}
    assert GAME.legal_moves(state, 0) == []
