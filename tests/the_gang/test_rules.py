"""One test per rule of The Gang's base game, each quoting the rule it checks.

Quotes are from the Dutch rule seed (``shared/seeds/000_*.txt``) unless marked
RULES-NOTES (``shared/RULES-NOTES.md``, The Gang). Tables are built through the public
factory functions and, where a test needs exact cards or chips, rigged with
``msgspec.structs.replace`` (see ``support.rigged``).
"""

from __future__ import annotations

import itertools
from typing import Any

import msgspec
import pytest

from engines.cards import DECK, cards
from engines.errors import IllegalMoveError, InvalidConfigError, InvalidMoveError, MoveError
from engines.the_gang import GAME, ConfirmRoundEnd, ReturnChip, TakeChip, TheGangConfig
from engines.the_gang.events import (
    BoardDealt,
    ChipReturned,
    ChipTaken,
    GameEnded,
    HeistEnded,
    PocketDealt,
    RoundEndConfirmed,
    RoundEnded,
    RoundStarted,
)
from engines.the_gang.model import RULES_REVISION, ChipRow, Colour, HeistResult, TheGangState
from tests.the_gang.support import (
    SEED,
    apply_all,
    at_last_red_chip,
    candidate_moves,
    finish_round,
    new,
    reason_of,
    rigged,
    strength,
)

PLAYERS = [3, 4, 5, 6]


def rejects(state: TheGangState, seat: int, move: Any, kind: type[MoveError], reason: str) -> None:
    """``check`` and ``apply`` both refuse ``move`` with this error kind and reason."""
    assert reason_of(state, seat, move) == (kind, reason)
    with pytest.raises(kind) as info:
        GAME.apply(state, seat, move)
    assert info.value.reason == reason
    assert move not in GAME.legal_moves(state, seat)


def showdown(state: TheGangState, play: tuple[int, Any]) -> tuple[TheGangState, HeistEnded]:
    """Apply the move that completes the red round; the state after and the heist's result."""
    after, events = GAME.apply(state, *play)
    (ended,) = [event for event in events if isinstance(event, HeistEnded)]
    return after, ended


# --- setup -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_each_player_is_dealt_two_pocket_cards(players: int) -> None:
    """Seed: "Schud de 52 speelkaarten en geef iedere speler twee kaarten met de afbeelding naar
    beneden. Dit zijn je handkaarten" ... "Leg de rest van de stapel dicht in het midden"."""
    state = new(players)
    assert [len(pocket) for pocket in state.pockets] == [2] * players
    dealt = [card for pocket in state.pockets for card in pocket]
    assert len(set(dealt)) == 2 * players
    assert len(state.deck) == 52 - 2 * players
    assert sorted([*dealt, *state.deck]) == sorted(DECK)
    assert (state.heist, state.round, state.board) == (1, Colour.WHITE, ())
    assert (state.vaults, state.alarms, state.finished) == (0, 0, False)


@pytest.mark.parametrize("players", PLAYERS)
def test_chips_have_one_to_as_many_stars_as_players(players: int) -> None:
    """Seed: "Haal de fiches weg met meer sterren dan er spelers zijn. Speel je met vier spelers,
    dan gebruik je in elke kleur de fiches met 1 tot en met 4 sterren." and
    "Leg dan de witte fiches in het midden"."""
    state = new(players)
    assert state.chips == ((None,) * players,) * 4
    takes = [move for move in GAME.legal_moves(state, 0) if isinstance(move, TakeChip)]
    assert takes == [TakeChip(Colour.WHITE, stars) for stars in range(1, players + 1)]
    rejects(state, 0, TakeChip(Colour.WHITE, players + 1), InvalidMoveError, "CHIP_OUT_OF_RANGE")


@pytest.mark.parametrize("players", [-1, 0, 1, 2, 7, 24])
def test_only_three_to_six_players(players: int) -> None:
    """Seed: "The Gang is een coöperatief kaartspel voor 3 tot 6 spelers"."""
    with pytest.raises(InvalidConfigError) as info:
        GAME.make_config(players, {})
    assert info.value.reason == "SEAT_COUNT_UNSUPPORTED"
    with pytest.raises(InvalidConfigError) as info:
        GAME.new_game(TheGangConfig(players), SEED)
    assert info.value.reason == "SEAT_COUNT_UNSUPPORTED"


@pytest.mark.parametrize("players", PLAYERS)
def test_three_to_six_players_can_sit_down(players: int) -> None:
    """Seed: "The Gang is een coöperatief kaartspel voor 3 tot 6 spelers"."""
    config = GAME.make_config(players, {})
    assert config == TheGangConfig(players, confirm_round_end=False, rules_revision=RULES_REVISION)
    state = GAME.new_game(config, SEED)
    assert GAME.seat_count(state) == players
    assert GAME.to_act(state) == frozenset(range(players)), "no turn order: all act at once"


def test_table_options_are_checked() -> None:
    """RULES-NOTES: "Digital tables may also want a `confirm_round_end` option (every seat
    confirms; any chip change clears confirmations)"."""
    assert GAME.make_config(4, {"confirm_round_end": True}) == TheGangConfig(
        4, True, rules_revision=RULES_REVISION
    )
    cases: list[tuple[dict[str, Any], str]] = [
        ({"confirm_round_end": "yes"}, "BAD_OPTION"),
        ({"confirm_round_end": 1}, "BAD_OPTION"),
        ({"master_thief": True}, "UNKNOWN_OPTION"),
    ]
    for options, reason in cases:
        with pytest.raises(InvalidConfigError) as info:
            GAME.make_config(4, options)
        assert info.value.reason == reason


# --- the four rounds ---------------------------------------------------------------------


@pytest.mark.parametrize("confirm", [False, True], ids=["instant", "confirm"])
def test_four_rounds_deal_boards_of_zero_three_four_five_cards(confirm: bool) -> None:
    """Seed: "Elke overval bestaat uit vier rondes. In elke ronde komen er eerst kaarten bij en
    daarna pakt iedereen een fiche in de kleur van die ronde." Flop: "Eén speler legt de
    bovenste drie kaarten van de stapel open"; turn: "één nieuwe kaart"; river: "de vijfde
    gedeelde kaart"; then "Leg daarna de gele [oranje, rode] fiches in het midden"."""
    state = new(4, confirm)
    for colour, size, more in [(Colour.WHITE, 0, 3), (Colour.YELLOW, 3, 1), (Colour.ORANGE, 4, 1)]:
        assert (state.round, len(state.board)) == (colour, size)
        assert state.chips[colour] == (None,) * 4
        top, board = state.deck[:more], state.board
        plays: list[tuple[int, Any]] = [(seat, TakeChip(colour, seat + 1)) for seat in range(4)]
        if confirm:
            plays += [(seat, ConfirmRoundEnd()) for seat in range(4)]
        state, events = apply_all(state, plays)
        assert events[-3:] == [
            RoundEnded(1, colour),
            BoardDealt(top),
            RoundStarted(1, Colour(colour + 1)),
        ]
        assert state.board == board + top
        assert len(state.deck) == 52 - 8 - size - more
    assert (state.round, len(state.board), len(state.chips)) == (Colour.RED, 5, 4)
    state = finish_round(state, [1, 2, 3, 4])
    assert (state.heist, state.round, len(state.heists)) == (2, Colour.WHITE, 1)


# --- taking and returning chips ---------------------------------------------------------


def test_take_a_chip_from_the_centre() -> None:
    """Seed: "Je mag op elk moment een fiche van de huidige ronde pakken. Dat kan een fiche uit
    het midden zijn"."""
    state, events = GAME.apply(new(3), 1, TakeChip(Colour.WHITE, 2))
    assert events == [ChipTaken(1, Colour.WHITE, 2, from_seat=None)]
    assert state.chips[Colour.WHITE] == (None, 1, None)


def test_take_a_chip_from_another_player_who_is_then_without_one() -> None:
    """Seed: "...maar ook een fiche dat al voor een andere speler ligt." RULES-NOTES: "take from
    the centre or from another player (who is then without one)"."""
    state, _ = GAME.apply(new(3), 0, TakeChip(Colour.WHITE, 3))
    state, events = GAME.apply(state, 2, TakeChip(Colour.WHITE, 3))
    assert events == [ChipTaken(2, Colour.WHITE, 3, from_seat=0)]
    assert state.chips[Colour.WHITE] == (None, None, 2)
    assert TakeChip(Colour.WHITE, 3) in GAME.legal_moves(state, 0), "seat 0 may take it back"


def test_never_two_chips_of_one_colour() -> None:
    """Seed: "Je mag nooit meer dan één fiche van dezelfde kleur voor je hebben liggen." Our
    choice (moves.TakeChip): taking while holding one returns the old one to the centre in
    the same move."""
    state, _ = GAME.apply(new(4), 0, TakeChip(Colour.WHITE, 1))
    state, events = GAME.apply(state, 0, TakeChip(Colour.WHITE, 4))
    assert events == [
        ChipReturned(0, Colour.WHITE, 1),
        ChipTaken(0, Colour.WHITE, 4, from_seat=None),
    ]
    assert state.chips[Colour.WHITE] == (None, None, None, 0)


def test_taking_from_another_while_holding_one_returns_yours_to_the_centre() -> None:
    """Seed: "Je mag nooit meer dan één fiche van dezelfde kleur voor je hebben liggen." and
    "Je legt nooit zelf een fiche voor een andere speler neer." (the robbed player does not
    get your old chip)."""
    state, _ = apply_all(new(4), [(0, TakeChip(Colour.WHITE, 1)), (1, TakeChip(Colour.WHITE, 2))])
    state, events = GAME.apply(state, 0, TakeChip(Colour.WHITE, 2))
    assert events == [ChipReturned(0, Colour.WHITE, 1), ChipTaken(0, Colour.WHITE, 2, from_seat=1)]
    assert state.chips[Colour.WHITE] == (None, 0, None, None)


def test_return_a_chip_to_the_centre() -> None:
    """Seed: "Je mag een fiche van de huidige ronde terugleggen in het midden."."""
    state, _ = GAME.apply(new(3), 2, TakeChip(Colour.WHITE, 1))
    state, events = GAME.apply(state, 2, ReturnChip(Colour.WHITE, 1))
    assert events == [ChipReturned(2, Colour.WHITE, 1)]
    assert state.chips[Colour.WHITE] == (None, None, None)


def test_no_move_puts_a_chip_in_front_of_another_player() -> None:
    """Seed: "Je legt nooit zelf een fiche voor een andere speler neer."

    No move names a receiving seat, and no legal move of any seat, in any of a range of
    positions, ever adds a chip to another seat's holdings.
    """
    for move_type in (TakeChip, ReturnChip, ConfirmRoundEnd):
        assert set(move_type.__struct_fields__) <= {"colour", "stars"}
    positions = [
        new(4),
        apply_all(new(4), [(0, TakeChip(Colour.WHITE, 1)), (1, TakeChip(Colour.WHITE, 3))])[0],
        apply_all(new(4, True), [(seat, TakeChip(Colour.WHITE, 4 - seat)) for seat in range(4)])[0],
        finish_round(new(4), [4, 3, 2, 1]),
    ]
    for state in positions:
        for seat in range(4):
            for move in GAME.legal_moves(state, seat):
                after, _ = GAME.apply(state, seat, move)
                for colour, row in enumerate(state.chips):
                    new_row = after.chips[colour]
                    for other in set(range(4)) - {seat}:
                        gained = {i for i, h in enumerate(new_row) if h == other}
                        assert gained <= {i for i, h in enumerate(row) if h == other}


# --- refused moves --------------------------------------------------------------------


def test_chips_of_other_rounds_are_not_in_play() -> None:
    """Seed: "Je mag op elk moment een fiche van de huidige ronde pakken." and "Fiches uit eerdere
    rondes doen daarna niet meer mee"."""
    start = new(3)
    rejects(start, 0, TakeChip(Colour.YELLOW, 1), IllegalMoveError, "CHIP_NOT_IN_PLAY")
    rejects(start, 0, TakeChip(Colour.RED, 3), IllegalMoveError, "CHIP_NOT_IN_PLAY")
    flop = finish_round(start, [1, 2, 3])
    assert flop.round is Colour.YELLOW
    rejects(flop, 0, TakeChip(Colour.WHITE, 2), IllegalMoveError, "CHIP_NOT_IN_PLAY")
    rejects(flop, 0, ReturnChip(Colour.WHITE, 1), IllegalMoveError, "CHIP_NOT_IN_PLAY")
    rejects(flop, 1, TakeChip(Colour.ORANGE, 1), IllegalMoveError, "CHIP_NOT_IN_PLAY")


@pytest.mark.parametrize("stars", [-1, 0, 5, 6, 7])
@pytest.mark.parametrize("kind", [TakeChip, ReturnChip])
def test_stars_out_of_range(kind: type[TakeChip | ReturnChip], stars: int) -> None:
    """Seed: "Haal de fiches weg met meer sterren dan er spelers zijn." (4 players: 1 to 4)."""
    rejects(new(4), 0, kind(Colour.WHITE, stars), InvalidMoveError, "CHIP_OUT_OF_RANGE")


def test_taking_a_chip_you_already_hold() -> None:
    """Seed: "Je mag nooit meer dan één fiche van dezelfde kleur voor je hebben liggen." (taking
    your own chip again is not a move)."""
    state, _ = GAME.apply(new(3), 1, TakeChip(Colour.WHITE, 2))
    rejects(state, 1, TakeChip(Colour.WHITE, 2), IllegalMoveError, "CHIP_ALREADY_HELD")


def test_returning_a_chip_you_do_not_hold() -> None:
    """Seed: "Je mag een fiche van de huidige ronde terugleggen in het midden. Je legt nooit zelf
    een fiche voor een andere speler neer." (only your own chip goes back)."""
    state, _ = GAME.apply(new(3), 1, TakeChip(Colour.WHITE, 2))
    rejects(state, 0, ReturnChip(Colour.WHITE, 1), IllegalMoveError, "CHIP_NOT_HELD")
    rejects(state, 0, ReturnChip(Colour.WHITE, 2), IllegalMoveError, "CHIP_NOT_HELD")


# --- end of a round ---------------------------------------------------------------------


def test_round_ends_the_moment_everyone_holds_a_chip() -> None:
    """Seed: "Zodra iedereen een fiche van de huidige ronde voor zich heeft, eindigt de ronde."."""
    state = new(5)
    for seat in range(4):
        state, events = GAME.apply(state, seat, TakeChip(Colour.WHITE, seat + 1))
        assert state.round is Colour.WHITE
        assert not [event for event in events if isinstance(event, RoundEnded)]
    state, events = GAME.apply(state, 4, TakeChip(Colour.WHITE, 5))
    assert events[:2] == [ChipTaken(4, Colour.WHITE, 5, None), RoundEnded(1, Colour.WHITE)]
    assert state.round is Colour.YELLOW


def test_round_does_not_end_while_a_robbed_player_has_no_chip() -> None:
    """Seed: "Zodra iedereen een fiche van de huidige ronde voor zich heeft, eindigt de ronde."
    (not before: three chips taken in total is not enough if one was taken from a player)."""
    state, events = apply_all(
        new(3),
        [
            (0, TakeChip(Colour.WHITE, 1)),
            (1, TakeChip(Colour.WHITE, 2)),
            (2, TakeChip(Colour.WHITE, 1)),
        ],
    )
    assert state.round is Colour.WHITE and state.chips[Colour.WHITE] == (2, 1, None)
    assert not [event for event in events if isinstance(event, RoundEnded)]


def all_hold(players: int = 4) -> TheGangState:
    """A ``confirm_round_end`` table where every seat holds a white chip, none confirmed."""
    plays = [(seat, TakeChip(Colour.WHITE, seat + 1)) for seat in range(players)]
    return apply_all(new(players, confirm=True), plays)[0]


def test_with_confirmation_the_round_waits_for_every_seat() -> None:
    """RULES-NOTES: "Digital tables may also want a `confirm_round_end` option (every seat
    confirms; any chip change clears confirmations)"."""
    state = all_hold()
    assert state.round is Colour.WHITE, "everyone holds a chip but nobody confirmed"
    for seat in range(3):
        state, events = GAME.apply(state, seat, ConfirmRoundEnd())
        assert events == [RoundEndConfirmed(seat)]
    assert (state.round, state.confirmed_seats) == (Colour.WHITE, (0, 1, 2))
    state, events = GAME.apply(state, 3, ConfirmRoundEnd())
    assert events[:2] == [RoundEndConfirmed(3), RoundEnded(1, Colour.WHITE)]
    assert (state.round, state.confirmed_seats) == (Colour.YELLOW, ())


@pytest.mark.parametrize(
    "change",
    [
        (3, ReturnChip(Colour.WHITE, 4)),
        (0, TakeChip(Colour.WHITE, 4)),
        (3, TakeChip(Colour.WHITE, 1)),
    ],
    ids=["return", "take-by-confirmed-seat", "take-by-waiting-seat"],
)
def test_any_chip_change_clears_confirmations(change: tuple[int, Any]) -> None:
    """RULES-NOTES: "every seat confirms; any chip change clears confirmations"."""
    state, _ = apply_all(all_hold(), [(0, ConfirmRoundEnd()), (1, ConfirmRoundEnd())])
    assert state.confirmed_seats == (0, 1)
    state, _ = GAME.apply(state, *change)
    assert (state.round, state.confirmed_seats) == (Colour.WHITE, ())
    plays = [(seat, TakeChip(Colour.WHITE, seat + 1)) for seat in range(4)]
    state, _ = apply_all(state, [play for play in plays if GAME.is_legal(state, *play)])
    state, _ = apply_all(state, [(seat, ConfirmRoundEnd()) for seat in (0, 1, 2)])
    assert state.round is Colour.WHITE, "seats 0 and 1 confirmed again, seat 3 has not"
    state, _ = GAME.apply(state, 3, ConfirmRoundEnd())
    assert state.round is Colour.YELLOW


def test_confirmation_refusals() -> None:
    """RULES-NOTES: "every seat confirms" (once, once everyone holds a chip, and only at
    tables that use the option: "the round ends the moment every player holds a chip")."""
    early = GAME.apply(new(4, confirm=True), 0, TakeChip(Colour.WHITE, 1))[0]
    rejects(early, 0, ConfirmRoundEnd(), IllegalMoveError, "ROUND_INCOMPLETE")
    rejects(early, 1, ConfirmRoundEnd(), IllegalMoveError, "ROUND_INCOMPLETE")
    once = GAME.apply(all_hold(), 2, ConfirmRoundEnd())[0]
    rejects(once, 2, ConfirmRoundEnd(), IllegalMoveError, "ALREADY_CONFIRMED")
    instant = GAME.apply(new(4), 0, TakeChip(Colour.WHITE, 1))[0]
    rejects(instant, 0, ConfirmRoundEnd(), IllegalMoveError, "CONFIRMATION_NOT_USED")


def test_earlier_rounds_chips_stay_visible_and_frozen() -> None:
    """Seed: "Fiches uit eerdere rondes doen daarna niet meer mee, maar je laat ze op een rij voor
    je liggen. Zo zien de anderen hoe jouw inschatting van ronde tot ronde verandert."."""
    state = finish_round(new(3), [2, 3, 1])
    state = finish_round(state, [1, 2, 3])
    white, yellow = (2, 0, 1), (0, 1, 2)
    state, _ = apply_all(
        state,
        [
            (0, TakeChip(Colour.ORANGE, 3)),
            (1, TakeChip(Colour.ORANGE, 3)),
            (1, ReturnChip(Colour.ORANGE, 3)),
        ],
    )
    assert state.chips[:3] == (white, yellow, (None, None, None))
    for viewer in [None, 0, 1, 2]:
        rows = GAME.view(state, viewer).chips
        assert rows[:2] == (ChipRow.of(Colour.WHITE, white), ChipRow.of(Colour.YELLOW, yellow))
    for seat in range(3):
        legal = GAME.legal_moves(state, seat)
        assert legal
        assert all(isinstance(move, TakeChip | ReturnChip) for move in legal)
        assert {getattr(move, "colour", None) for move in legal} == {Colour.ORANGE}


# --- the showdown -----------------------------------------------------------------------

# Four hands on one board, weakest first: high card, pair of nines, kings and twos, sevens.
BOARD = "2c 7d 9h Js Kd"
WEAK, PAIR, TWO_PAIR, TRIPS = "3h 4c", "9c 5d", "Kc 2d", "7h 7s"
# Seat by seat: trips, high card, two pair, pair. The true red order is seat 1, 3, 2, 0.
POCKETS = [TRIPS, WEAK, TWO_PAIR, PAIR]
TRUE_RED = [4, 1, 3, 2]


def test_the_test_hands_rank_as_intended() -> None:
    """The rigged hands of the showdown tests, ranked by eval7: weakest to strongest."""
    values = [strength(cards(f"{pocket} {BOARD}")) for pocket in (WEAK, PAIR, TWO_PAIR, TRIPS)]
    assert values == sorted(set(values))


def test_showdown_reveals_in_red_chip_order_and_success_opens_a_vault() -> None:
    """Seed: "Alleen de rode fiches tellen nu nog. De speler met het rode fiche met één ster laat
    als eerste zijn handkaarten zien. Daarna volgt de speler met twee sterren, enzovoort."
    "Klopt dat bij iedereen, dan is de overval geslaagd en draai je een kluiskaart om naar de
    gouden kant."."""
    state, play = at_last_red_chip(4, POCKETS, BOARD, TRUE_RED)
    after, ended = showdown(state, play)
    result = ended.result
    assert [reveal.seat for reveal in result.reveals] == [1, 3, 2, 0]
    assert [reveal.red_stars for reveal in result.reveals] == [1, 2, 3, 4]
    assert [reveal.pocket for reveal in result.reveals] == [
        cards(p) for p in (WEAK, PAIR, TWO_PAIR, TRIPS)
    ]
    assert all(reveal.in_order for reveal in result.reveals)
    assert result.success and result.board == cards(BOARD)
    assert (ended.vaults, ended.alarms) == (after.vaults, after.alarms) == (1, 0)
    assert after.heists == (result,)


def test_weaker_hand_after_a_stronger_one_sounds_the_alarm() -> None:
    """Seed: "Elke hand die op tafel komt, moet even sterk of sterker zijn dan de hand die net
    daarvoor werd getoond." ... "Laat iemand een zwakkere hand zien dan een eerder getoonde
    hand, dan klopte de volgorde van de fiches niet. De overval mislukt en je draait een
    alarmkaart om naar de rode kant."."""
    state, play = at_last_red_chip(4, POCKETS, BOARD, [4, 2, 3, 1])  # pair, then high card
    after, ended = showdown(state, play)
    assert [reveal.seat for reveal in ended.result.reveals] == [3, 1, 2, 0]
    assert [reveal.in_order for reveal in ended.result.reveals] == [True, False, True, True]
    assert not ended.result.success
    assert (after.vaults, after.alarms) == (0, 1)


def test_each_hand_must_match_every_hand_before_it() -> None:
    """Seed: "Laat iemand een zwakkere hand zien dan een eerder getoonde hand" (any earlier hand,
    not only the one just before): trips, high card, pair, two pair fails from the second
    reveal on, although pair and two pair each beat the hand just before them."""
    state, play = at_last_red_chip(4, POCKETS, BOARD, [1, 2, 4, 3])
    _, ended = showdown(state, play)
    assert [reveal.seat for reveal in ended.result.reveals] == [0, 1, 3, 2]
    assert [reveal.in_order for reveal in ended.result.reveals] == [True, False, False, False]
    assert not ended.result.success


# Seats 0 and 1 hold exactly equal hands (ace, king, jack, eight, five: suits never rank);
# seat 2 is weaker (king high), seat 3 stronger (a pair).
TIE_BOARD = "2c 5d 8h Jc Ks"
TIE_POCKETS = ["Ah 3d", "Ad 4c", "Qh 7d", "9s 9d"]


@pytest.mark.parametrize(
    ("red", "success"),
    [
        ([2, 3, 1, 4], True),
        ([3, 2, 1, 4], True),
        ([1, 3, 2, 4], False),
        ([2, 4, 1, 3], False),
        ([4, 3, 1, 2], False),
    ],
    ids=["tied-in-order", "tied-swapped", "tie-above-weaker", "tie-above-stronger", "upside"],
)
def test_exactly_equal_hands_stand_in_either_order(red: list[int], success: bool) -> None:
    """Seed: "Soms hebben spelers exact dezelfde hand, ook als je de kickers meetelt. ... In dat
    geval maakt de onderlinge volgorde van hun fiches niet uit. Hun plek ten opzichte van de
    andere spelers moet wel kloppen."."""
    values = [strength(cards(f"{pocket} {TIE_BOARD}")) for pocket in TIE_POCKETS]
    assert values[2] < values[0] == values[1] < values[3]
    state, play = at_last_red_chip(4, TIE_POCKETS, TIE_BOARD, red)
    after, ended = showdown(state, play)
    assert ended.result.success is success
    assert (after.vaults, after.alarms) == ((1, 0) if success else (0, 1))


def test_kickers_break_ties() -> None:
    """Seed: "Soms hebben spelers exact dezelfde hand, ook als je de kickers meetelt." Ace, king,
    jack, eight, six beats ace, king, jack, eight, five: not equal, so the order counts."""
    pockets = ["Ah 3d", "Ac 6c", "Qh 7d"]
    state, play = at_last_red_chip(3, pockets, TIE_BOARD, [3, 2, 1])
    assert not showdown(state, play)[1].result.success
    state, play = at_last_red_chip(3, pockets, TIE_BOARD, [2, 3, 1])
    assert showdown(state, play)[1].result.success


@pytest.mark.parametrize("red", list(itertools.permutations([1, 2, 3])))
def test_when_the_board_plays_for_everyone_any_order_succeeds(red: tuple[int, ...]) -> None:
    """Seed: "Dat gebeurt bijvoorbeeld als de vijf gedeelde kaarten de sterkste combinatie vormen
    en niemand zijn handkaarten nodig heeft. In dat geval maakt de onderlinge volgorde van
    hun fiches niet uit."."""
    state, play = at_last_red_chip(3, ["2c 3d", "4h 5c", "6d 7h"], "As Ks Qs Js Ts", list(red))
    assert showdown(state, play)[1].result.success


# --- winning, losing, and the next heist -------------------------------------------------


# Six hands on BOARD, weakest first: high card, nines, aces, kings and twos, sevens, jacks.
LADDER = ["3h 4c", "9c 5d", "Ah Ad", "Kc 2d", "7h 7s", "Jd Jh"]


def test_the_ladder_rises() -> None:
    """The rigged hands of the win/lose tests, ranked by eval7: weakest to strongest."""
    values = [strength(cards(f"{pocket} {BOARD}")) for pocket in LADDER]
    assert values == sorted(set(values))


def ordered_table(
    players: int, *, vaults: int, alarms: int, reverse: bool = False
) -> tuple[TheGangState, tuple[int, Any]]:
    """A river round whose red chips are right (or, ``reverse``, upside down)."""
    red = list(range(players, 0, -1)) if reverse else list(range(1, players + 1))
    return at_last_red_chip(players, LADDER[:players], BOARD, red, vaults=vaults, alarms=alarms)


def game_over(players: int = 3, won: bool = True) -> TheGangState:
    """A finished game, won (three vaults) or lost (three alarms)."""
    state, play = ordered_table(players, vaults=2, alarms=2, reverse=not won)
    return GAME.apply(state, *play)[0]


@pytest.mark.parametrize("players", PLAYERS)
def test_three_vaults_win_for_everyone(players: int) -> None:
    """Seed: "Kraak je drie kluizen voordat het alarm drie keer afgaat, dan winnen jullie
    allemaal."."""
    state, play = ordered_table(players, vaults=2, alarms=2)
    after, events = GAME.apply(state, *play)
    assert events[-1] == GameEnded(won=True)
    assert not [event for event in events if isinstance(event, PocketDealt)]
    assert after.finished and (after.vaults, after.alarms) == (3, 2)
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == tuple(range(players))
    assert GAME.to_act(after) == frozenset()
    # one team: every seat shares the vaults, first place and the alarms (negated)
    assert outcome.team is True
    assert outcome.scores == (3,) * players
    assert outcome.placings == (1,) * players
    assert outcome.tiebreaks == (-2,) * players


@pytest.mark.parametrize("players", PLAYERS)
def test_three_alarms_lose_for_everyone(players: int) -> None:
    """Seed: "Gaat eerst drie keer het alarm, dan verliezen jullie samen."."""
    state, play = ordered_table(players, vaults=2, alarms=2, reverse=True)
    after, events = GAME.apply(state, *play)
    assert events[-1] == GameEnded(won=False)
    assert after.finished and (after.vaults, after.alarms) == (2, 3)
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.winners == ()
    # losing together: still one team sharing one place, the vaults and the alarms
    assert outcome.team is True
    assert outcome.scores == (2,) * players
    assert outcome.placings == (1,) * players
    assert outcome.tiebreaks == (-3,) * players


def test_no_move_after_the_game_ended() -> None:
    """Seed: "Kraak je drie kluizen ... dan winnen jullie allemaal." / "Gaat eerst drie keer het
    alarm, dan verliezen jullie samen." (either way the game is over: nothing more to do)."""
    for over in (game_over(won=True), game_over(won=False)):
        assert over.finished
        for seat in range(3):
            assert GAME.legal_moves(over, seat) == []
            for move in candidate_moves(3):
                rejects(over, seat, move, IllegalMoveError, "GAME_OVER")


def test_a_new_heist_reshuffles_all_52_cards() -> None:
    """Seed: "Daarna begint de volgende overval weer bij ronde 1." and "Schud de 52 speelkaarten
    en geef iedere speler twee kaarten"."""
    state, play = ordered_table(4, vaults=0, alarms=0)
    shuffled, _ = state.rng.shuffled(DECK)
    after, events = GAME.apply(state, *play)
    assert (after.heist, after.round, after.board, after.confirmed_seats) == (
        2,
        Colour.WHITE,
        (),
        (),
    )
    assert after.chips == ((None,) * 4,) * 4
    assert after.pockets == tuple((shuffled[seat], shuffled[seat + 4]) for seat in range(4))
    assert after.deck == shuffled[8:]
    assert sorted([*after.deck, *(card for pocket in after.pockets for card in pocket)]) == sorted(
        DECK
    )
    assert events[-5:] == [
        *(PocketDealt(2, seat, after.pockets[seat]) for seat in range(4)),
        RoundStarted(2, Colour.WHITE),
    ]


# --- one source of legality -------------------------------------------------------------


def positions() -> list[TheGangState]:
    """Tables in every phase a move can meet."""
    half = apply_all(new(5), [(0, TakeChip(Colour.WHITE, 2)), (3, TakeChip(Colour.WHITE, 5))])[0]
    held = all_hold(3)
    return [
        new(3),
        new(6, confirm=True),
        half,
        held,
        GAME.apply(held, 1, ConfirmRoundEnd())[0],
        finish_round(finish_round(new(4), [1, 2, 3, 4]), [4, 3, 2, 1]),
        ordered_table(4, vaults=1, alarms=1)[0],
        game_over(3, won=False),
        game_over(5, won=True),
    ]


def test_legal_moves_are_exactly_the_moves_check_accepts() -> None:
    """One check per rule (STYLE.md principle 2): ``legal_moves`` lists exactly what
    ``check`` accepts, from a move space wider than the table's."""
    for state in positions():
        players = state.config.players
        for seat in range(-1, players + 1):
            legal = GAME.legal_moves(state, seat)
            accepted = [m for m in candidate_moves(players) if GAME.is_legal(state, seat, m)]
            assert len(legal) == len(set(legal))
            assert set(legal) == set(accepted)
            if not 0 <= seat < players:
                assert legal == []
                rejects(
                    state, seat, TakeChip(Colour.WHITE, 1), InvalidMoveError, "SEAT_OUT_OF_RANGE"
                )


def test_apply_refuses_what_check_refuses_and_changes_nothing() -> None:
    """``apply`` calls ``check`` before it changes anything (engines/base.py contract)."""
    for state in positions():
        before = msgspec.msgpack.encode(state)
        for seat in range(-1, state.config.players + 1):
            moves: list[Any] = [*candidate_moves(state.config.players), "take_chip"]
            for move in moves:
                refused = reason_of(state, seat, move)
                if refused is None:
                    GAME.apply(state, seat, move)
                    continue
                with pytest.raises(refused[0]) as info:
                    GAME.apply(state, seat, move)
                assert info.value.reason == refused[1]
        assert msgspec.msgpack.encode(state) == before


def test_unknown_move_is_invalid() -> None:
    """Only the three moves of The Gang exist (moves.py)."""
    rejects(new(3), 0, "take_chip", InvalidMoveError, "UNKNOWN_MOVE")
    rejects(new(3), 0, HeistResult(1, True, (), (), ()), InvalidMoveError, "UNKNOWN_MOVE")


def test_rigged_tables_conserve_the_deck() -> None:
    """The helper the showdown tests rely on keeps all 52 cards in play."""
    state = rigged(new(3), ["As Kd", "2c 3c", "9h 9s"], "Td Jd Qd")
    everything = [*state.deck, *state.board, *(c for p in state.pockets for c in p)]
    assert sorted(everything) == sorted(DECK)
    assert state.pockets == (cards("As Kd"), cards("2c 3c"), cards("9h 9s"))
    assert state.board == cards("Td Jd Qd")


def test_every_view_is_the_definitions_view_type() -> None:
    """engines/base.py: ``view_type`` is the Struct ``view`` returns, for seats and spectators
    alike (a codec derived from the types relies on it)."""
    state = GAME.new_game(GAME.make_config(3, {}), SEED)
    for viewer in (None, 0, 1, 2):
        seen = GAME.view(state, viewer)
        assert type(seen) is GAME.view_type
        assert msgspec.json.decode(msgspec.json.encode(seen), type=GAME.view_type) == seen
