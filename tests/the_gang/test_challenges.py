"""One test (or a few) per challenge card of The Gang, each quoting the seed line it checks.

Quotes are from the Dutch rule seed (``shared/seeds/000_*.txt``, "Uitdagingskaarten")
unless marked RULES-NOTES (``shared/RULES-NOTES.md``, The Gang). Heists with a card active
are dealt by the engine's ``flow.start_heist`` (``cards_support.heist_with``); mid-heist
positions are rigged from them (``cards_support.rig`` / ``river``).
"""

from __future__ import annotations

from typing import Any

import pytest

from engines.cards import cards
from engines.errors import IllegalMoveError, InvalidMoveError
from engines.the_gang import GAME, ReturnChip, TakeChip, showdown
from engines.the_gang.events import (
    BoardDealt,
    ChipReturned,
    ChipsSetAside,
    ChipTaken,
    DecisionTaken,
    Event,
    GuessesDue,
    HeistEnded,
    PocketDealt,
    PocketRedrawn,
    RoundEnded,
    RoundStarted,
)
from engines.the_gang.model import (
    Challenge,
    ChipRow,
    Colour,
    DarkChip,
    GuessHand,
    GuessRank,
    HeistResult,
    ScanGuess,
    ScanResult,
    TheGangState,
)
from engines.the_gang.moves import Accept, Propose
from engines.the_gang.showdown import shown_before_guessing
from tests.the_gang.cards_support import (
    advanced,
    complete_round,
    conserved,
    decide,
    heist_with,
    of_type,
    predicted_deal,
    rejects,
    rig,
    river,
    views,
)
from tests.the_gang.support import apply_all, finish_round, strength

PLAYERS = [3, 4, 5, 6]


def ended(events: list[Event]) -> HeistResult:
    (end,) = of_type(events, HeistEnded)
    return end.result


def play_to_showdown(state: TheGangState) -> tuple[TheGangState, list[Event]]:
    """Complete every remaining round (chips by seat number) up to the heist's end."""
    events: list[Event] = []
    heist = state.heist
    while state.heist == heist and not state.finished:
        state, more = complete_round(state)
        events += more
    return state, events


# --- 1. Quick Access ----------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_quick_access_deals_the_flop_at_once_and_starts_in_round_two(players: int) -> None:
    """Seed, 1. Snelle toegang: "Je speelt deze overval zonder witte fiches. Na het delen van
    de handkaarten leg je meteen de drie gedeelde kaarten open en ga je door naar ronde
    2."."""
    deal = predicted_deal(advanced(players))
    state, events = heist_with(players, [Challenge.QUICK_ACCESS])
    dealt = 2 * players
    assert state.round is Colour.YELLOW
    assert state.board == deal[dealt : dealt + 3]
    assert state.deck == deal[dealt + 3 :]
    assert events[-2:] == [BoardDealt(deal[dealt : dealt + 3]), RoundStarted(2, Colour.YELLOW)]
    assert RoundStarted(2, Colour.WHITE) not in events
    assert state.chips[Colour.WHITE] == (None,) * players
    for seat in range(players):
        rejects(state, seat, TakeChip(Colour.WHITE, 1), IllegalMoveError, "CHIP_NOT_IN_PLAY")
        takes = [m for m in GAME.legal_moves(state, seat) if isinstance(m, TakeChip)]
        assert takes == [TakeChip(Colour.YELLOW, s) for s in range(1, players + 1)]
    for _, seen in views(state):
        assert seen.skipped_colours == (Colour.WHITE,)
        assert seen.chips == (ChipRow.of(Colour.YELLOW, (None,) * players),)
    after, more = play_to_showdown(state)
    result = ended(more)
    assert tuple(row.colour for row in result.chips) == (Colour.YELLOW, Colour.ORANGE, Colour.RED)
    assert len(result.chips) == 3
    assert of_type(more, RoundEnded) == [
        RoundEnded(2, Colour.YELLOW),
        RoundEnded(2, Colour.ORANGE),
        RoundEnded(2, Colour.RED),
    ]
    assert after.heist == 3


# --- 2. Noise Sensors, 6. Ventilation Shaft --------------------------------------------------

DARK_CASES = [
    pytest.param(Challenge.NOISE_SENSORS, players, id=f"noise-{players}") for players in PLAYERS
] + [
    pytest.param(Challenge.VENTILATION_SHAFT, players, id=f"vent-{players}") for players in PLAYERS
]


@pytest.mark.parametrize(("challenge", "players"), DARK_CASES)
def test_dark_chips_taken_from_the_centre_never_change_owner(
    challenge: Challenge, players: int
) -> None:
    """Seed, 2. Geluidssensoren: "Draai na het delen de fiches met één ster van ronde 1, 2 en 3
    om naar de donkere kant. Heeft iemand zo'n fiche uit het midden gepakt, dan kan het niet
    meer van eigenaar wisselen." 6. Ventilatieschacht: "Draai na het delen de fiches met de
    meeste sterren van ronde 1, 2 en 3 om naar de donkere kant. Zodra iemand zo'n fiche uit
    het midden heeft gepakt, kan het niet meer van eigenaar wisselen."

    In each of rounds 1-3: a dark chip in the centre is free (seat 0 swaps a light chip for
    it); once held it cannot be taken by another seat, returned, or swapped away.
    """
    dark = 1 if challenge is Challenge.NOISE_SENSORS else players
    light = players if challenge is Challenge.NOISE_SENSORS else 1
    state, _ = heist_with(players, [challenge])
    expected = tuple(DarkChip(c, dark) for c in (Colour.WHITE, Colour.YELLOW, Colour.ORANGE))
    for _, seen in views(state):
        assert seen.dark_chips == expected
    for colour in (Colour.WHITE, Colour.YELLOW, Colour.ORANGE):
        assert state.round is colour
        state, _ = GAME.apply(state, 0, TakeChip(colour, light))
        state, events = GAME.apply(state, 0, TakeChip(colour, dark))
        assert events == [ChipReturned(0, colour, light), ChipTaken(0, colour, dark, None)]
        rejects(state, 1, TakeChip(colour, dark), IllegalMoveError, "CHIP_LOCKED")
        rejects(state, 0, ReturnChip(colour, dark), IllegalMoveError, "CHIP_LOCKED")
        rejects(state, 0, TakeChip(colour, light), IllegalMoveError, "CHIP_LOCKED")
        # the light chips still change owner freely
        state, _ = GAME.apply(state, 1, TakeChip(colour, light))
        state, events = GAME.apply(state, 2, TakeChip(colour, light))
        assert events == [ChipTaken(2, colour, light, from_seat=1)]
        state, _ = complete_round(state)
        assert state.chips[colour][dark - 1] == 0
    assert state.round is Colour.RED


@pytest.mark.parametrize(("challenge", "players"), DARK_CASES)
def test_red_chips_are_never_dark(challenge: Challenge, players: int) -> None:
    """Seed: "de fiches met één ster [de meeste sterren] van ronde 1, 2 en 3" (not round 4):
    the red chip of the same stars changes owner as usual."""
    stars = 1 if challenge is Challenge.NOISE_SENSORS else players
    state, _ = heist_with(players, [challenge])
    for _ in range(3):
        state, _ = complete_round(state)
    assert state.round is Colour.RED
    state, _ = GAME.apply(state, 0, TakeChip(Colour.RED, stars))
    state, events = GAME.apply(state, 1, TakeChip(Colour.RED, stars))
    assert events == [ChipTaken(1, Colour.RED, stars, from_seat=0)]
    state, events = GAME.apply(state, 1, ReturnChip(Colour.RED, stars))
    assert events == [ChipReturned(1, Colour.RED, stars)]
    state, _ = GAME.apply(state, 2, TakeChip(Colour.RED, stars))
    other = 2 if stars == 1 else 1
    state, events = GAME.apply(state, 2, TakeChip(Colour.RED, other))
    assert events == [ChipReturned(2, Colour.RED, stars), ChipTaken(2, Colour.RED, other, None)]


def test_dark_chips_only_with_their_challenge() -> None:
    """Seed: the dark side "gebruik je alleen bij bepaalde uitdagingskaarten": without
    Noise Sensors or Ventilation Shaft the one-star and top chips move freely."""
    state, _ = heist_with(4, [Challenge.BLACKOUT])
    assert GAME.view(state, 0).dark_chips == ()
    state, _ = apply_all(state, [(0, TakeChip(Colour.WHITE, 1)), (0, TakeChip(Colour.WHITE, 4))])
    state, events = GAME.apply(state, 1, TakeChip(Colour.WHITE, 4))
    assert events == [ChipTaken(1, Colour.WHITE, 4, from_seat=0)]


# --- 3. Motion Detector, 7. Laser Tripwires --------------------------------------------------

POCKETS = ["2h 3h", "4h 5h", "6h 8h", "Th Qh"]


def white_round_with(
    challenges: list[Challenge], pockets: list[str], flop: str, redraw: str
) -> TheGangState:
    """A white round where seats 0-2 hold chips 2, 3, 1 and seat 3 is about to take 4; the
    flop and then the redraw cards are on top of the deck."""
    base, _ = heist_with(len(pockets), challenges)
    state = rig(base, pockets, top=f"{flop} {redraw}")
    return apply_all(
        state,
        [
            (0, TakeChip(Colour.WHITE, 2)),
            (1, TakeChip(Colour.WHITE, 3)),
            (2, TakeChip(Colour.WHITE, 1)),
        ],
    )[0]


def finish_white(state: TheGangState) -> tuple[TheGangState, list[Event]]:
    return GAME.apply(state, 3, TakeChip(Colour.WHITE, 4))


@pytest.mark.parametrize("face", ["Jd", "Qc", "Ks"])
def test_motion_detector_redraws_the_one_star_white_pocket_on_a_face_card(face: str) -> None:
    """Seed, 3. Bewegingsmelder: "Ligt er in ronde 2 minstens één boer, vrouw of heer tussen
    de gedeelde kaarten, dan legt de speler met het witte fiche met één ster zijn
    handkaarten dicht op de aflegstapel. Hij trekt twee nieuwe handkaarten van de
    stapel." Seat 2 holds the one-star white chip."""
    flop = f"5c {face} 7d"
    state = white_round_with([Challenge.MOTION_DETECTOR], POCKETS, flop, "9s As")
    after, events = finish_white(state)
    new = cards("9s As")
    assert events[-4:] == [
        RoundEnded(2, Colour.WHITE),
        BoardDealt(cards(flop)),
        PocketRedrawn(2, Challenge.MOTION_DETECTOR, new),
        RoundStarted(2, Colour.YELLOW),
    ]
    assert after.pockets == (cards("2h 3h"), cards("4h 5h"), new, cards("Th Qh"))
    assert after.discards == cards("6h 8h")
    assert after.deck == state.deck[5:]
    assert conserved(after)
    (redrawn,) = of_type(events, PocketRedrawn)
    for viewer, seen in views(after):
        assert seen.discard_count == 2
        assert GAME.view_event(redrawn, viewer) == (
            redrawn if viewer == 2 else PocketRedrawn(2, Challenge.MOTION_DETECTOR, ())
        )
        if viewer == 2:
            assert seen.pocket == new


@pytest.mark.parametrize("flop", ["5c 9d 7d", "Ac 2d Td"], ids=["low", "aces-and-tens"])
def test_motion_detector_stays_quiet_without_a_face_card(flop: str) -> None:
    """Seed, 3. Bewegingsmelder: "minstens één boer, vrouw of heer" (an ace or a ten is no
    face card): otherwise nobody redraws."""
    state = white_round_with([Challenge.MOTION_DETECTOR], POCKETS, flop, "9s As")
    after, events = finish_white(state)
    assert not of_type(events, PocketRedrawn)
    assert after.pockets == state.pockets
    assert after.discards == ()


def test_motion_detector_with_security_cameras_redraws_all_three_cards() -> None:
    """Seed, 3: "Hij trekt twee nieuwe handkaarten" — with 10. Beveiligingscamera's
    ("drie handkaarten in plaats van twee") the engine lets him draw as many as he put
    down, three (engines/the_gang/flow.py)."""
    pockets = ["2h 3h 4h", "5h 6h 7h", "8h 9h Th", "2s 3s 4s"]
    challenges = [Challenge.MOTION_DETECTOR, Challenge.SECURITY_CAMERAS]
    state = white_round_with(challenges, pockets, "Kc 5c 6c", "9s As Ad")
    after, events = finish_white(state)
    assert PocketRedrawn(2, Challenge.MOTION_DETECTOR, cards("9s As Ad")) in events
    assert after.pockets[2] == cards("9s As Ad")
    assert after.discards == cards("8h 9h Th")
    assert conserved(after)


@pytest.mark.parametrize("players", [3, 6])
def test_laser_tripwires_redraw_the_top_white_pocket_without_a_face_card(players: int) -> None:
    """Seed, 7. Laserstralen: "Ligt er in ronde 2 geen enkele boer, vrouw of heer tussen de
    gedeelde kaarten, dan legt de speler met het hoogste witte fiche zijn handkaarten dicht
    op de aflegstapel. Hij trekt twee nieuwe handkaarten van de stapel." RULES-NOTES 9:
    "the seed says redraw when the flop has NO J/Q/K (mirror of challenge 3). Follow the
    seed." Seat 0 takes the top white chip."""
    base, _ = heist_with(players, [Challenge.LASER_TRIPWIRES])
    pockets = ["2h 3h", "4h 5h", "6h 8h", "Th Qh", "2d 3d", "4d 5d"][:players]
    state = rig(base, pockets, top="5c 9d Ad 9s As")
    state, _ = GAME.apply(state, 0, TakeChip(Colour.WHITE, players))
    after, events = complete_round(state)
    assert events[-4:] == [
        RoundEnded(2, Colour.WHITE),
        BoardDealt(cards("5c 9d Ad")),
        PocketRedrawn(0, Challenge.LASER_TRIPWIRES, cards("9s As")),
        RoundStarted(2, Colour.YELLOW),
    ]
    assert after.pockets[0] == cards("9s As")
    assert after.pockets[1:] == state.pockets[1:]
    assert after.discards == cards("2h 3h")
    assert conserved(after)


@pytest.mark.parametrize("face", ["Jd", "Qc", "Ks"])
def test_laser_tripwires_stay_quiet_on_a_face_card(face: str) -> None:
    """Seed, 7. Laserstralen: "Ligt er in ronde 2 geen enkele boer, vrouw of heer" (one face
    card is enough to keep everyone's pocket)."""
    state = white_round_with([Challenge.LASER_TRIPWIRES], POCKETS, f"5c {face} 7d", "9s As")
    after, events = finish_white(state)
    assert not of_type(events, PocketRedrawn)
    assert after.pockets == state.pockets and after.discards == ()


# --- 4. Retina Scan, 9. Fingerprint Scan ----------------------------------------------------

# Four hands on one board, weakest first: high card, pair of nines, kings and twos, sevens.
BOARD = "2c 7d 9h Js Kd"
LADDER = ["3h 4c", "9c 5d", "Kc 2d", "7h 7s"]
RIGHT = [1, 2, 3, 4]
WRONG = [2, 1, 3, 4]  # high card and pair swapped: the order is wrong
TOP = 3  # seat 3 holds the four-star red chip in both orders


def at_guesses(
    challenges: list[Challenge], red: list[int] = RIGHT
) -> tuple[TheGangState, list[Event]]:
    """The moment the red chips are final under the scans."""
    state, play = river(LADDER, BOARD, red, challenges=challenges)
    return GAME.apply(state, *play)


def test_the_ladder_rises() -> None:
    """The rigged hands of the scan tests, ranked by eval7: weakest to strongest."""
    values = [strength(cards(f"{pocket} {BOARD}")) for pocket in LADDER]
    assert values == sorted(set(values))


@pytest.mark.parametrize("challenge", [Challenge.RETINA_SCAN, Challenge.FINGERPRINT_SCAN])
def test_scans_wait_for_the_guess_after_the_red_chips_are_final(challenge: Challenge) -> None:
    """Seed, 4/9: "Voordat de speler met het hoogste rode fiche zijn kaarten laat zien,
    overleggen de andere spelers." The red round ends and the showdown begins: every hand but
    the top red chip's holder's is shown (from one star up), the chips are final, and every
    view names the seat guessed about and shows the hands shown so far."""
    state, events = at_guesses([challenge])
    shown = showdown.shown_before_guessing(state)
    assert [r.seat for r in shown] == [seat for seat in range(4) if seat != TOP]
    assert all(r.pocket == state.pockets[r.seat] for r in shown)
    due = GuessesDue(TOP, (challenge,), shown)
    assert events[-2:] == [RoundEnded(state.heist, Colour.RED), due]
    assert not of_type(events, HeistEnded)
    assert state.awaiting_guesses and state.heists == ()
    for seat in range(4):
        rejects(state, seat, TakeChip(Colour.RED, 1), IllegalMoveError, "CHIPS_FINAL")
    rejects(state, 0, ReturnChip(Colour.RED, 1), IllegalMoveError, "CHIPS_FINAL")
    for viewer, seen in views(state):
        assert seen.awaiting_guesses and seen.guessed_seat == TOP
        assert seen.shown == shown
        assert GAME.view_event(events[-1], viewer) == events[-1]


RETINA_CASES = [
    pytest.param(7, RIGHT, True, id="right-guess-right-order"),
    pytest.param(8, RIGHT, False, id="wrong-guess-right-order"),
    pytest.param(7, WRONG, False, id="right-guess-wrong-order"),
    pytest.param(14, WRONG, False, id="wrong-guess-wrong-order"),
]


@pytest.mark.parametrize(("guess", "red", "success"), RETINA_CASES)
def test_retina_scan_a_wrong_value_fails_even_a_right_order(
    guess: int, red: list[int], success: bool
) -> None:
    """Seed, 4. Netvliesscan: "Samen kiezen ze één kaartwaarde (van 2 tot en met aas) waarvan
    ze denken dat die speler hem minstens één keer in zijn handkaarten heeft. [...] Zitten de
    anderen ernaast, dan mislukt de overval, ook als de volgorde van de rode fiches klopte."
    Seat 3 (the top red chip) holds 7h 7s."""
    state, _ = at_guesses([Challenge.RETINA_SCAN], red)
    after, events = decide(state, 0, GuessRank(guess), skip=[TOP])
    result = ended(events)
    assert result.scans == (ScanResult(Challenge.RETINA_SCAN, TOP, guess, (7,), guess == 7),)
    assert all(r.in_order for r in result.reveals) is (red == RIGHT)
    assert result.success is success
    assert (after.vaults, after.alarms) == ((1, 0) if success else (0, 1))


@pytest.mark.parametrize(("guess", "right"), [(13, True), (2, True), (14, False), (7, False)])
def test_retina_scan_any_value_in_the_pocket_is_right(guess: int, right: bool) -> None:
    """Seed, 4: "één kaartwaarde [...] waarvan ze denken dat die speler hem minstens één keer
    in zijn handkaarten heeft" — either of two pocket values (Kc 2d), not a board value."""
    state, play = river(LADDER[:3], BOARD, [1, 2, 3], challenges=[Challenge.RETINA_SCAN])
    state, events = GAME.apply(state, *play)
    assert events[-1] == GuessesDue(2, (Challenge.RETINA_SCAN,), shown_before_guessing(state))
    _, events = decide(state, 1, GuessRank(guess), skip=[2])
    (scan,) = ended(events).scans
    assert (scan.seat, scan.actual, scan.correct) == (2, (2, 13), right)
    assert ended(events).success is right


FINGERPRINT_CASES = [
    pytest.param(4, RIGHT, True, id="right-guess-right-order"),
    pytest.param(3, RIGHT, False, id="wrong-guess-right-order"),
    pytest.param(4, WRONG, False, id="right-guess-wrong-order"),
]


@pytest.mark.parametrize(("guess", "red", "success"), FINGERPRINT_CASES)
def test_fingerprint_scan_a_wrong_hand_fails_even_a_right_order(
    guess: int, red: list[int], success: bool
) -> None:
    """Seed, 9. Vingerafdrukscan: "Samen kiezen ze welke pokerhand (van hoge kaart tot royal
    flush) die speler volgens hen heeft. [...] Zitten de anderen ernaast, dan mislukt de
    overval, ook als de volgorde van de rode fiches klopte." Seat 3 holds three sevens
    (category 4 of the seed's list "Van zwak naar sterk")."""
    state, _ = at_guesses([Challenge.FINGERPRINT_SCAN], red)
    after, events = decide(state, 2, GuessHand(guess), skip=[TOP])
    result = ended(events)
    assert result.scans == (ScanResult(Challenge.FINGERPRINT_SCAN, TOP, guess, (4,), guess == 4),)
    assert result.success is success
    assert (after.vaults, after.alarms) == ((1, 0) if success else (0, 1))


@pytest.mark.parametrize(("guess", "right"), [(10, True), (9, False), (6, False)])
def test_fingerprint_scan_royal_flush_is_its_own_hand(guess: int, right: bool) -> None:
    """Seed, 9: "welke pokerhand (van hoge kaart tot royal flush)" with the seed's list of ten
    hands, "10. Royal flush": a royal flush is guessed as a royal flush, not as a straight
    flush or a flush."""
    pockets = ["2s 3s", "9c 9d", "Ah Kh"]
    state, play = river(
        pockets, "Qh Jh Th 2c 4d", [1, 2, 3], challenges=[Challenge.FINGERPRINT_SCAN]
    )
    state, _ = GAME.apply(state, *play)
    _, events = decide(state, 0, GuessHand(guess), skip=[2])
    (scan,) = ended(events).scans
    assert (scan.seat, scan.actual, scan.correct) == (2, (10,), right)
    assert ended(events).success is right


@pytest.mark.parametrize("challenge", [Challenge.RETINA_SCAN, Challenge.FINGERPRINT_SCAN])
def test_the_top_red_holder_takes_no_part_in_the_guess(challenge: Challenge) -> None:
    """Seed, 4/9: "De speler zelf doet niet mee en geeft geen hints." He can neither propose
    nor accept, and the others' agreement alone settles the guess."""
    guess: Any = GuessRank(7) if challenge is Challenge.RETINA_SCAN else GuessHand(4)
    state, _ = at_guesses([challenge])
    rejects(state, TOP, Propose(guess), IllegalMoveError, "SEAT_EXCLUDED")
    state, events = GAME.apply(state, 0, Propose(guess))
    rejects(state, TOP, Accept(1), IllegalMoveError, "SEAT_EXCLUDED")
    state, events = apply_all(state, [(1, Accept(1))])
    assert not of_type(events, DecisionTaken)
    state, events = GAME.apply(state, 2, Accept(1))
    (taken,) = of_type(events, DecisionTaken)
    assert taken.proposal.accepted == (0, 1, 2)
    assert ended(events).success


@pytest.mark.parametrize(
    ("challenge", "guess"),
    [
        (Challenge.RETINA_SCAN, GuessRank(1)),
        (Challenge.RETINA_SCAN, GuessRank(0)),
        (Challenge.RETINA_SCAN, GuessRank(15)),
        (Challenge.RETINA_SCAN, GuessRank(-7)),
        (Challenge.FINGERPRINT_SCAN, GuessHand(0)),
        (Challenge.FINGERPRINT_SCAN, GuessHand(11)),
        (Challenge.FINGERPRINT_SCAN, GuessHand(-1)),
    ],
)
def test_a_guess_outside_the_allowed_values_is_invalid(challenge: Challenge, guess: Any) -> None:
    """Seed, 4: "één kaartwaarde (van 2 tot en met aas)"; 9: "welke pokerhand (van hoge kaart
    tot royal flush)": the values 2..14 and the categories 1..10 only."""
    state, _ = at_guesses([challenge])
    rejects(state, 0, Propose(guess), InvalidMoveError, "GUESS_OUT_OF_RANGE")


@pytest.mark.parametrize("challenge", [Challenge.RETINA_SCAN, Challenge.FINGERPRINT_SCAN])
def test_no_guess_before_the_red_round_ends(challenge: Challenge) -> None:
    """Seed, 4/9: "Voordat de speler met het hoogste rode fiche zijn kaarten laat zien" — the
    guess is about the holder of the top red chip, so it is due once the red chips are
    final, not before."""
    guess: Any = GuessRank(7) if challenge is Challenge.RETINA_SCAN else GuessHand(4)
    fresh, _ = heist_with(4, [challenge])
    late, _ = river(LADDER, BOARD, RIGHT, challenges=[challenge])
    for state in (fresh, finish_round(fresh, [1, 2, 3, 4]), late):
        for seat in range(4):
            rejects(state, seat, Propose(guess), IllegalMoveError, "GUESS_NOT_DUE")


def test_a_guess_needs_its_scan() -> None:
    """Seed, 4/9: the guesses belong to their challenge card: no value guess without the
    Retina Scan, no hand guess without the Fingerprint Scan."""
    retina, _ = at_guesses([Challenge.RETINA_SCAN])
    rejects(retina, 0, Propose(GuessHand(4)), IllegalMoveError, "NO_SUCH_SCAN")
    fingerprint, _ = at_guesses([Challenge.FINGERPRINT_SCAN])
    rejects(fingerprint, 0, Propose(GuessRank(7)), IllegalMoveError, "NO_SUCH_SCAN")


def test_both_scans_need_both_guesses_before_the_showdown() -> None:
    """Seed, "Meesterdief": "Er zijn dus altijd twee uitdagingskaarten actief" — with both
    scans (4 and 9) active, the showdown waits for both agreed guesses; each guess counts."""
    state, events = at_guesses([Challenge.RETINA_SCAN, Challenge.FINGERPRINT_SCAN])
    both = (Challenge.RETINA_SCAN, Challenge.FINGERPRINT_SCAN)
    assert events[-1] == GuessesDue(TOP, both, shown_before_guessing(state))
    state, events = decide(state, 0, GuessRank(7), skip=[TOP])
    assert not of_type(events, HeistEnded)
    assert state.guesses == (ScanGuess(Challenge.RETINA_SCAN, 7),)
    rejects(state, 1, Propose(GuessRank(8)), IllegalMoveError, "ALREADY_GUESSED")
    _, events = decide(state, 1, GuessHand(2), skip=[TOP])
    result = ended(events)
    assert [scan.correct for scan in result.scans] == [True, False]
    assert not result.success


# --- 5. Hasty Getaway -------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 6])
def test_hasty_getaway_deals_turn_and_river_together_without_orange_chips(players: int) -> None:
    """Seed, 5. Haastige aftocht: "In ronde 3 verdeel je geen oranje fiches. Je legt de vierde
    gedeelde kaart open en gaat meteen door naar ronde 4."."""
    deal = predicted_deal(advanced(players))
    state, _ = heist_with(players, [Challenge.HASTY_GETAWAY])
    state, _ = complete_round(state)
    assert state.round is Colour.YELLOW
    rejects(state, 0, TakeChip(Colour.ORANGE, 1), IllegalMoveError, "CHIP_NOT_IN_PLAY")
    state, events = complete_round(state)
    flop = 2 * players + 3
    assert events[-4:] == [
        RoundEnded(2, Colour.YELLOW),
        BoardDealt((deal[flop],)),
        BoardDealt((deal[flop + 1],)),
        RoundStarted(2, Colour.RED),
    ]
    assert RoundStarted(2, Colour.ORANGE) not in events
    assert state.round is Colour.RED and state.board == deal[2 * players : flop + 2]
    assert state.chips[Colour.ORANGE] == (None,) * players
    for seat in range(players):
        rejects(state, seat, TakeChip(Colour.ORANGE, 1), IllegalMoveError, "CHIP_NOT_IN_PLAY")
    for _, seen in views(state):
        assert seen.skipped_colours == (Colour.ORANGE,)
        assert [row.colour for row in seen.chips] == [Colour.WHITE, Colour.YELLOW, Colour.RED]
    _, events = complete_round(state)
    assert tuple(row.colour for row in ended(events).chips) == (
        Colour.WHITE,
        Colour.YELLOW,
        Colour.RED,
    )


# --- 8. Blackout -----------------------------------------------------------------------


def test_blackout_sets_each_rounds_chips_aside_at_the_next_round() -> None:
    """Seed, 8. Stroomstoring: "Aan het begin van ronde 2 leg je allemaal je fiches van ronde
    1 weg. Aan het begin van ronde 3 gaan de fiches van ronde 2 weg en aan het begin van
    ronde 4 die van ronde 3. Je moet dus goed onthouden wie in elke ronde welk fiche had."

    Every seat's view and the spectator's show the current round's chips only.
    """
    state, _ = heist_with(4, [Challenge.BLACKOUT])
    for _, seen in views(state):
        assert (
            seen.chips == (ChipRow.of(Colour.WHITE, (None,) * 4),) and seen.set_aside_colours == ()
        )
    for colour in (Colour.WHITE, Colour.YELLOW, Colour.ORANGE):
        state, _ = GAME.apply(state, 1, TakeChip(colour, 4))
        for _, seen in views(state):
            assert seen.chips == (ChipRow.of(colour, (None, None, None, 1)),)
        plays = [(0, TakeChip(colour, 3)), (2, TakeChip(colour, 1)), (3, TakeChip(colour, 2))]
        state, events = apply_all(state, plays)
        nxt = Colour(colour + 1)
        assert events[-2:] == [ChipsSetAside(colour), RoundStarted(2, nxt)]
        gone = tuple(c for c in Colour if c <= colour)
        for viewer, seen in views(state):
            assert seen.chips == (ChipRow.of(nxt, (None,) * 4),)
            assert seen.set_aside_colours == gone
            assert GAME.view_event(ChipsSetAside(colour), viewer) == ChipsSetAside(colour)
    _, events = complete_round(state)
    assert len(ended(events).chips) == 4, "the heist's record keeps every round"


def test_blackout_with_hasty_getaway_sets_the_yellow_chips_aside_for_the_red_round() -> None:
    """Seed, 8: "aan het begin van ronde 4 die van ronde 3" — with 5. Haastige aftocht there
    are no round-3 chips, so round 2's leave the table when round 4 begins."""
    state, _ = heist_with(4, [Challenge.HASTY_GETAWAY, Challenge.BLACKOUT])
    state, _ = complete_round(state)
    state, events = complete_round(state)
    assert events[-2:] == [ChipsSetAside(Colour.YELLOW), RoundStarted(2, Colour.RED)]
    for _, seen in views(state):
        assert seen.chips == (ChipRow.of(Colour.RED, (None,) * 4),)
        assert seen.set_aside_colours == (Colour.WHITE, Colour.YELLOW)


def test_without_blackout_earlier_chips_stay_in_view() -> None:
    """Seed: "Fiches uit eerdere rondes [...] je laat ze op een rij voor je liggen" — only
    the Blackout takes them away."""
    state, _ = heist_with(4, [Challenge.NOISE_SENSORS])
    state, events = complete_round(state)
    assert not of_type(events, ChipsSetAside)
    for _, seen in views(state):
        assert [row.colour for row in seen.chips] == [Colour.WHITE, Colour.YELLOW]


# --- 10. Security Cameras ----------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_security_cameras_deal_three_pocket_cards(players: int) -> None:
    """Seed, 10. Beveiligingscamera's: "Iedereen krijgt drie handkaarten in plaats van
    twee."."""
    deal = predicted_deal(advanced(players))
    state, events = heist_with(players, [Challenge.SECURITY_CAMERAS])
    expected = tuple(tuple(deal[seat + players * i] for i in range(3)) for seat in range(players))
    assert state.pockets == expected
    assert state.deck == deal[3 * players :]
    assert of_type(events, PocketDealt) == [
        PocketDealt(2, seat, expected[seat]) for seat in range(players)
    ]
    for viewer, seen in views(state):
        assert seen.pocket == (() if viewer is None else expected[viewer])
        # How many cards each holds is no secret at a real table: everyone sees it.
        assert seen.pocket_sizes == (3,) * players


# Board J T 2 3 4 (two hearts). Seat 0 needs all three pocket cards for a royal flush.
CAMERA_BOARD = "Jh Th 2c 3d 4s"
CAMERA_POCKETS = ["Ah Kh Qh", "5c 6c 9d", "2d 2h 7c"]  # royal flush, straight, trips


def test_security_cameras_best_five_of_eight() -> None:
    """Seed, 10: "Bij de onthulling maak je de sterkste hand van vijf kaarten uit je drie
    handkaarten en de vijf gedeelde kaarten." RULES-NOTES 4: "best 5 of 8 under Security
    Cameras"."""
    values = [strength(cards(f"{pocket} {CAMERA_BOARD}")) for pocket in CAMERA_POCKETS]
    assert values[2] < values[1] < values[0]
    state, play = river(
        CAMERA_POCKETS, CAMERA_BOARD, [3, 2, 1], challenges=[Challenge.SECURITY_CAMERAS]
    )
    _, events = GAME.apply(state, *play)
    result = ended(events)
    assert result.success
    assert [(r.seat, r.category) for r in result.reveals] == [(2, 4), (1, 5), (0, 10)]
    assert set(result.reveals[2].best_five) == set(cards("Ah Kh Qh Jh Th"))
    assert set(result.reveals[1].best_five) == set(cards("2c 3d 4s 5c 6c"))
    assert result.reveals[2].pocket == cards("Ah Kh Qh")
    wrong, play = river(
        CAMERA_POCKETS, CAMERA_BOARD, [2, 3, 1], challenges=[Challenge.SECURITY_CAMERAS]
    )
    assert not ended(GAME.apply(wrong, *play)[1]).success


def test_cards_are_conserved_with_three_pocket_cards() -> None:
    """Seed, 10 with the deck rule "Leg de rest van de stapel dicht in het midden": 52 cards
    stay in play through a whole heist with three pocket cards each."""
    state, _ = heist_with(5, [Challenge.SECURITY_CAMERAS])
    while state.heist == 2:
        assert conserved(state)
        assert all(len(pocket) == 3 for pocket in state.pockets)
        state, _ = complete_round(state)
    assert len(state.heists[-1].reveals[0].pocket) == 3
