"""Group decisions of The Gang (who uses a specialist, with which value; the scan guesses)
and the typed refusals of every decision and card move.

Seed ("Spelmodi", Gevorderd): "Bij andere specialisten bepaal je samen wie de kaart gebruikt
en wanneer. Iedere speler mag op elk moment voor de onthulling voorstellen om de specialist
in te zetten. Gaan de anderen akkoord, dan gebruik je hem." RULES-NOTES 11: "any player
proposes; it takes effect when all required players accept. Model it as moves."
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engines.cards import DECK, Card, Suit, cards
from engines.errors import IllegalMoveError, InvalidMoveError, MoveError
from engines.the_gang import GAME, TakeChip
from engines.the_gang.events import (
    Announced,
    DecisionTaken,
    ProposalAccepted,
    ProposalMade,
    ProposalWithdrawn,
)
from engines.the_gang.model import (
    JACK_CARD,
    Announcement,
    AnnouncementKind,
    Challenge,
    Colour,
    GuessHand,
    GuessRank,
    Proposal,
    Specialist,
    TheGangState,
    UseSpecialist,
)
from engines.the_gang.moves import (
    Accept,
    DiscardCard,
    Move,
    PassCard,
    Propose,
    ShowCard,
    Withdraw,
)
from tests.the_gang.cards_support import (
    advanced,
    encoded,
    heist_with,
    of_type,
    rejects,
    rig,
    river,
    use,
    views,
)
from tests.the_gang.support import SEED, apply_all, candidate_moves, reason_of

POCKETS = ["Ah Kd", "9c 9d", "2s 7h", "Qc Jd"]
PAIR = Announcement(AnnouncementKind.GETAWAY_DRIVER, 1, number=2)


def driver_table() -> TheGangState:
    """A white round with the Getaway Driver active; seat 1 holds a pair of nines."""
    base, _ = heist_with(4, specialist=Specialist.GETAWAY_DRIVER)
    return rig(base, POCKETS)


def proposals_public(state: TheGangState) -> None:
    for _, seen in views(state):
        assert seen.proposals == state.proposals


# --- taking effect ----------------------------------------------------------------------


def test_a_decision_takes_effect_only_when_every_seat_accepted() -> None:
    """Seed: "Iedere speler mag op elk moment voor de onthulling voorstellen om de specialist
    in te zetten. Gaan de anderen akkoord, dan gebruik je hem." The proposer counts as
    accepting; nothing happens until the last seat accepts."""
    state = driver_table()
    decision = UseSpecialist(1)
    state, events = GAME.apply(state, 3, Propose(decision))
    assert events == [ProposalMade(Proposal(1, 3, decision, (3,)), replaces=None)]
    proposals_public(state)
    for seat, accepted in ((0, (0, 3)), (2, (0, 2, 3))):
        state, events = GAME.apply(state, seat, Accept(1))
        assert events == [ProposalAccepted(1, seat)]
        assert state.proposals == (Proposal(1, 3, decision, accepted),)
        assert (state.specialist_use, state.announcements) == (None, ())
        proposals_public(state)
    state, events = GAME.apply(state, 1, Accept(1))
    assert events == [
        ProposalAccepted(1, 1),
        DecisionTaken(Proposal(1, 3, decision, (0, 1, 2, 3))),
        Announced(PAIR),
    ]
    assert (state.specialist_use, state.proposals, state.announcements) == (decision, (), (PAIR,))
    for _, seen in views(state):
        assert seen.specialist_use == decision and seen.proposals == ()
    rejects(state, 0, Accept(1), IllegalMoveError, "NO_SUCH_PROPOSAL")


def test_decisions_can_be_made_in_any_round_before_the_showdown() -> None:
    """Seed: "op elk moment voor de onthulling" — also in the red round, with chips held."""
    state, play = river(POCKETS, "2c 5d 8h Jc Ks", [1, 3, 2, 4], specialist=Specialist.MUSCLE)
    state, events = use(state, 3, proposer=2)
    assert of_type(events, DecisionTaken) and state.specialist_use == UseSpecialist(3)
    state, _ = GAME.apply(state, *play)
    assert [r.muscle for r in state.heists[-1].reveals] == [False, False, False, True]


# --- withdrawing and superseding ---------------------------------------------------------


def test_only_the_proposer_withdraws() -> None:
    """RULES-NOTES 11 / issue 5: "proposals can be withdrawn or superseded" — withdrawn by the
    seat that made it; a withdrawn proposal cannot be accepted any more."""
    state, _ = GAME.apply(driver_table(), 2, Propose(UseSpecialist(0)))
    state, _ = GAME.apply(state, 1, Accept(1))
    for seat in (0, 1, 3):
        rejects(state, seat, Withdraw(1), IllegalMoveError, "NOT_YOUR_PROPOSAL")
    state, events = GAME.apply(state, 2, Withdraw(1))
    assert events == [ProposalWithdrawn(1)]
    assert state.proposals == () and state.specialist_use is None
    proposals_public(state)
    rejects(state, 0, Accept(1), IllegalMoveError, "NO_SUCH_PROPOSAL")
    rejects(state, 2, Withdraw(1), IllegalMoveError, "NO_SUCH_PROPOSAL")
    state, events = GAME.apply(state, 0, Propose(UseSpecialist(0)))
    assert events == [ProposalMade(Proposal(2, 0, UseSpecialist(0), (0,)), replaces=None)]


def test_a_new_proposal_on_the_same_matter_supersedes_the_open_one() -> None:
    """RULES-NOTES 11 / issue 5: "proposals can be withdrawn or superseded" — a new proposal
    about the specialist replaces the open one, whose acceptances do not carry over."""
    state, _ = GAME.apply(driver_table(), 0, Propose(UseSpecialist(1)))
    state, _ = apply_all(state, [(2, Accept(1)), (3, Accept(1))])
    state, events = GAME.apply(state, 3, Propose(UseSpecialist(2)))
    assert events == [ProposalMade(Proposal(2, 3, UseSpecialist(2), (3,)), replaces=1)]
    assert state.proposals == (Proposal(2, 3, UseSpecialist(2), (3,)),)
    rejects(state, 1, Accept(1), IllegalMoveError, "NO_SUCH_PROPOSAL")
    rejects(state, 0, Withdraw(1), IllegalMoveError, "NO_SUCH_PROPOSAL")
    state, events = apply_all(state, [(0, Accept(2)), (1, Accept(2))])
    assert not of_type(events, DecisionTaken), "seat 2 has not accepted the new proposal"
    state, events = GAME.apply(state, 2, Accept(2))
    assert of_type(events, DecisionTaken) and state.specialist_use == UseSpecialist(2)


def test_the_same_proposal_twice_is_refused() -> None:
    """RULES-NOTES 11: an open proposal is accepted, not proposed again."""
    state, _ = GAME.apply(driver_table(), 0, Propose(UseSpecialist(1)))
    for seat in range(4):
        rejects(state, seat, Propose(UseSpecialist(1)), IllegalMoveError, "ALREADY_PROPOSED")


def scans_and_driver() -> TheGangState:
    """Professional-like: both scans and the Getaway Driver, the red chips final (seat 3 is
    the top red chip's holder)."""
    state, play = river(
        POCKETS,
        "2c 5d 8h Jc Ks",
        [1, 2, 3, 4],
        challenges=[Challenge.RETINA_SCAN, Challenge.FINGERPRINT_SCAN],
        specialist=Specialist.GETAWAY_DRIVER,
    )
    state, _ = GAME.apply(state, *play)
    assert state.awaiting_guesses
    return state


def test_proposals_on_different_matters_stand_side_by_side() -> None:
    """Seed: the specialist's use and each scan's guess are separate choices ("Samen kiezen
    ze één kaartwaarde", "Samen kiezen ze welke pokerhand"): a proposal replaces only the
    open one on its own matter."""
    state, play = river(
        POCKETS,
        "2c 5d 8h Jc Ks",
        [1, 2, 3, 4],
        challenges=[Challenge.RETINA_SCAN, Challenge.FINGERPRINT_SCAN],
        specialist=Specialist.GETAWAY_DRIVER,
    )
    state, events = apply_all(state, [(2, Propose(UseSpecialist(0))), play])
    state, more = apply_all(state, [(0, Propose(GuessRank(12))), (1, Propose(GuessHand(2)))])
    made = of_type(events + more, ProposalMade)
    assert [event.replaces for event in made] == [None, None, None]
    assert [p.id for p in state.proposals] == [2, 3]
    state, events = GAME.apply(state, 1, Propose(GuessRank(11)))
    assert of_type(events, ProposalMade)[0].replaces == 2
    assert [p.id for p in state.proposals] == [3, 4]
    proposals_public(state)


def test_a_specialist_is_used_before_the_showdown() -> None:
    """Seed: "Iedere speler mag op elk moment voor de onthulling voorstellen om de specialist in
    te zetten." Under a scan the showdown begins when the red chips are final: an open
    specialist proposal lapses then (ProposalWithdrawn) and no new one can be made."""
    state, play = river(
        POCKETS,
        "2c 5d 8h Jc Ks",
        [1, 2, 3, 4],
        challenges=[Challenge.RETINA_SCAN],
        specialist=Specialist.GETAWAY_DRIVER,
    )
    state, _ = GAME.apply(state, 2, Propose(UseSpecialist(0)))
    state, events = GAME.apply(state, *play)
    assert ProposalWithdrawn(1) in events
    assert state.awaiting_guesses and state.proposals == ()
    rejects(state, 0, Propose(UseSpecialist(1)), IllegalMoveError, "SHOWDOWN_BEGUN")


# --- refusals ----------------------------------------------------------------------------


def test_accepting_a_proposal_that_does_not_exist() -> None:
    """Issue 5: "accepting a proposal that does not exist" gets a typed reason and changes
    nothing: an unknown number is illegal, a number that cannot name a proposal invalid."""
    state = driver_table()
    rejects(state, 0, Accept(1), IllegalMoveError, "NO_SUCH_PROPOSAL")
    rejects(state, 0, Withdraw(1), IllegalMoveError, "NO_SUCH_PROPOSAL")
    state, _ = GAME.apply(state, 0, Propose(UseSpecialist(1)))
    rejects(state, 1, Accept(2), IllegalMoveError, "NO_SUCH_PROPOSAL")
    rejects(state, 1, Accept(99), IllegalMoveError, "NO_SUCH_PROPOSAL")
    for number in (0, -1):
        rejects(state, 1, Accept(number), InvalidMoveError, "BAD_PROPOSAL_ID")
        rejects(state, 0, Withdraw(number), InvalidMoveError, "BAD_PROPOSAL_ID")


def test_accepting_twice() -> None:
    """RULES-NOTES 11: each required seat accepts once; the proposer has accepted already."""
    state, _ = GAME.apply(driver_table(), 2, Propose(UseSpecialist(1)))
    rejects(state, 2, Accept(1), IllegalMoveError, "ALREADY_ACCEPTED")
    state, _ = GAME.apply(state, 0, Accept(1))
    rejects(state, 0, Accept(1), IllegalMoveError, "ALREADY_ACCEPTED")


USES: list[tuple[Specialist, UseSpecialist]] = [
    (Specialist.INFORMANT, UseSpecialist(1, viewer=0)),
    (Specialist.GETAWAY_DRIVER, UseSpecialist(1)),
    (Specialist.MASTERMIND, UseSpecialist(1, rank=9)),
    (Specialist.HACKER, UseSpecialist(1)),
    (Specialist.JACK, UseSpecialist(1)),
    (Specialist.MUSCLE, UseSpecialist(1)),
]


@pytest.mark.parametrize(("specialist", "decision"), USES, ids=[s.name for s, _ in USES])
def test_using_a_specialist_twice(specialist: Specialist, decision: UseSpecialist) -> None:
    """Seed: "Na elke overval komt er één kaart in het spel die alleen voor de volgende overval
    geldt" and "Gaan de anderen akkoord, dan gebruik je hem" — one use per heist."""
    base, _ = heist_with(4, specialist=specialist)
    state, events = use(rig(base, POCKETS), decision.seat, proposer=3, **_extra(decision))
    assert of_type(events, DecisionTaken) and state.specialist_use == decision
    for seat in range(4):
        for again in (decision, msgspec.structs.replace(decision, seat=2)):
            rejects(state, seat, Propose(again), IllegalMoveError, "SPECIALIST_USED")


def _extra(decision: UseSpecialist) -> dict[str, int]:
    extra: dict[str, int] = {}
    if decision.viewer is not None:
        extra["viewer"] = decision.viewer
    if decision.rank is not None:
        extra["rank"] = decision.rank
    return extra


AUTOMATIC = [
    Specialist.INVESTOR,
    Specialist.COORDINATOR,
    Specialist.MATH_WHIZ,
    Specialist.CON_ARTIST,
]


@pytest.mark.parametrize("specialist", AUTOMATIC, ids=[s.name for s in AUTOMATIC])
def test_proposing_an_automatic_specialist(specialist: Specialist) -> None:
    """Seed: "Sommige specialisten werken voor iedereen vanaf ronde 1." (Investor,
    Coordinator, Math Whiz, Con Artist: "iedere speler" / "Iedereen" acts at the deal), so
    nobody proposes to use them."""
    state, _ = heist_with(4, specialist=specialist)
    for seat in range(4):
        rejects(state, seat, Propose(UseSpecialist(seat)), IllegalMoveError, "SPECIALIST_AUTOMATIC")


def no_specialist_tables() -> list[TheGangState]:
    master = GAME.new_game(GAME.make_config(4, {"mode": "master_thief"}), SEED)
    basic = GAME.new_game(GAME.make_config(4, {}), SEED)
    return [advanced(4), heist_with(4, [Challenge.BLACKOUT])[0], master, basic]


def test_proposing_without_a_specialist() -> None:
    """Seed: "De eerste overval speel je zonder deze kaarten", a heist after a success has a
    challenge, not a specialist, Meesterdief: "Je speelt zonder specialistkaarten", and the
    base game: "Laat de uitdagingskaarten en de specialistkaarten in de doos"."""
    for state in no_specialist_tables():
        assert state.specialist is None
        for seat in range(4):
            rejects(state, seat, Propose(UseSpecialist(1)), IllegalMoveError, "NO_SPECIALIST")


def test_informant_needs_one_other_seat_as_viewer() -> None:
    """Seed, 1. Informant: "een speler die in het geheim precies één van zijn handkaarten aan
    één andere speler laat zien" — a viewer must be named and be another seat."""
    base, _ = heist_with(4, specialist=Specialist.INFORMANT)
    state = rig(base, POCKETS)
    cases: list[tuple[UseSpecialist, type[MoveError], str]] = [
        (UseSpecialist(1), InvalidMoveError, "VIEWER_REQUIRED"),
        (UseSpecialist(1, viewer=1), InvalidMoveError, "VIEWER_REQUIRED"),
        (UseSpecialist(1, viewer=4), InvalidMoveError, "SEAT_OUT_OF_RANGE"),
        (UseSpecialist(1, viewer=-1), InvalidMoveError, "SEAT_OUT_OF_RANGE"),
        (UseSpecialist(4, viewer=1), InvalidMoveError, "SEAT_OUT_OF_RANGE"),
        (UseSpecialist(1, viewer=2, rank=9), InvalidMoveError, "UNEXPECTED_RANK"),
    ]
    for decision, kind, reason in cases:
        for seat in range(4):
            rejects(state, seat, Propose(decision), kind, reason)
    GAME.check(state, 1, Propose(UseSpecialist(1, viewer=2)))


def test_mastermind_needs_a_card_value() -> None:
    """Seed, 4. Brein: "Kies samen een speler en een kaartwaarde" — a value 2..14 (ace 14;
    the seed's "Waarde van de kaarten": aas, heer, vrouw, boer, 10 tot en met 2)."""
    base, _ = heist_with(4, specialist=Specialist.MASTERMIND)
    state = rig(base, POCKETS)
    cases: list[tuple[UseSpecialist, type[MoveError], str]] = [
        (UseSpecialist(1), InvalidMoveError, "RANK_REQUIRED"),
        (UseSpecialist(1, rank=1), InvalidMoveError, "RANK_OUT_OF_RANGE"),
        (UseSpecialist(1, rank=0), InvalidMoveError, "RANK_OUT_OF_RANGE"),
        (UseSpecialist(1, rank=15), InvalidMoveError, "RANK_OUT_OF_RANGE"),
        (UseSpecialist(1, rank=9, viewer=2), InvalidMoveError, "UNEXPECTED_VIEWER"),
        (UseSpecialist(6, rank=9), InvalidMoveError, "SEAT_OUT_OF_RANGE"),
    ]
    for decision, kind, reason in cases:
        rejects(state, 0, Propose(decision), kind, reason)
    for rank in range(2, 15):
        GAME.check(state, 0, Propose(UseSpecialist(1, rank=rank)))


@pytest.mark.parametrize(
    "specialist",
    [Specialist.GETAWAY_DRIVER, Specialist.HACKER, Specialist.JACK, Specialist.MUSCLE],
)
def test_other_specialists_take_only_a_seat(specialist: Specialist) -> None:
    """Seed: the Getaway Driver, Hacker, Jack and Muscle: "Kies samen een speler" — no viewer
    (Informant only), no card value (Mastermind only)."""
    state, _ = heist_with(4, specialist=specialist)
    rejects(state, 0, Propose(UseSpecialist(1, viewer=2)), InvalidMoveError, "UNEXPECTED_VIEWER")
    rejects(state, 0, Propose(UseSpecialist(1, rank=9)), InvalidMoveError, "UNEXPECTED_RANK")
    rejects(state, 0, Propose(UseSpecialist(-1)), InvalidMoveError, "SEAT_OUT_OF_RANGE")
    rejects(state, 0, Propose(UseSpecialist(4)), InvalidMoveError, "SEAT_OUT_OF_RANGE")


def test_unknown_decisions_and_card_moves_are_invalid() -> None:
    """moves.py: a decision is a UseSpecialist, GuessRank or GuessHand; a card is one of the
    52 playing cards or the Jack card."""
    state = driver_table()
    bad: Any = "use the driver"
    rejects(state, 0, Propose(bad), InvalidMoveError, "UNKNOWN_DECISION")
    for card in (Card(1, None), Card(15, Suit.SPADES), Card(0, Suit.CLUBS)):
        for move in (ShowCard(card), DiscardCard(card), PassCard(card)):
            rejects(state, 0, move, InvalidMoveError, "UNKNOWN_CARD")


# --- one source of legality ---------------------------------------------------------------


def decision_positions() -> list[TheGangState]:
    """Decision-heavy tables: open proposals, owed card actions, passes, guesses."""
    informant = rig(heist_with(4, specialist=Specialist.INFORMANT)[0], POCKETS)
    informant_open, _ = apply_all(
        informant, [(0, Propose(UseSpecialist(1, viewer=2))), (3, Accept(1))]
    )
    informant_owed, _ = use(informant, 1, viewer=2)
    mastermind = heist_with(5, specialist=Specialist.MASTERMIND)[0]
    mastermind_open, _ = GAME.apply(mastermind, 4, Propose(UseSpecialist(2, rank=9)))
    hacker = rig(heist_with(4, specialist=Specialist.HACKER)[0], POCKETS, top="Ks")
    hacker_owed, _ = use(hacker, 2)
    jack_owed, _ = use(rig(heist_with(4, specialist=Specialist.JACK)[0], POCKETS), 0)
    coordinator = heist_with(4, specialist=Specialist.COORDINATOR)[0]
    passing, _ = apply_all(
        coordinator,
        [(0, PassCard(coordinator.pockets[0][0])), (2, PassCard(coordinator.pockets[2][1]))],
    )
    guesses, _ = apply_all(
        scans_and_driver(),
        [
            (0, Propose(GuessRank(12))),
            (1, Propose(GuessHand(2))),
            (1, Accept(1)),
        ],
    )
    retina, play = river(
        POCKETS[:3], "2c 5d 8h Jc Ks", [1, 2, 3], challenges=[Challenge.RETINA_SCAN]
    )
    retina, _ = GAME.apply(retina, *play)
    noise, _ = GAME.apply(heist_with(4, [Challenge.NOISE_SENSORS])[0], 1, TakeChip(Colour.WHITE, 1))
    muscle_used, _ = use(heist_with(3, specialist=Specialist.MUSCLE)[0], 2)
    return [
        informant,
        informant_open,
        informant_owed,
        mastermind_open,
        hacker_owed,
        jack_owed,
        passing,
        guesses,
        retina,
        noise,
        muscle_used,
        *no_specialist_tables()[:1],
    ]


EXTRA_CARDS = (JACK_CARD, Card(1, None), Card(15, Suit.SPADES), Card(12, None))


def wide_candidates(state: TheGangState) -> list[Any]:
    """A move space wider than the table's: seats, viewers, values and proposal numbers
    out of range, every card, and the Jack card."""
    players = state.config.players
    seats = range(-1, players + 1)
    moves: list[Any] = [*candidate_moves(players)]
    moves += [
        Propose(UseSpecialist(seat, viewer=viewer, rank=rank))
        for seat in seats
        for viewer in (None, *seats)
        for rank in (None, *range(0, 17))
    ]
    moves += [Propose(GuessRank(rank)) for rank in range(-1, 17)]
    moves += [Propose(GuessHand(category)) for category in range(-1, 13)]
    numbers = range(-1, state.next_proposal + 3)
    moves += [Accept(number) for number in numbers] + [Withdraw(number) for number in numbers]
    for card in (*DECK, *EXTRA_CARDS):
        moves += [ShowCard(card), DiscardCard(card), PassCard(card)]
    return moves


def test_legal_moves_are_exactly_the_moves_check_accepts() -> None:
    """One check per rule: ``legal_moves`` lists exactly what ``check`` accepts, drawn from a
    move space wider than the table's (decisions and card moves included)."""
    for state in decision_positions():
        players = state.config.players
        candidates = wide_candidates(state)
        for seat in range(-1, players + 1):
            legal = GAME.legal_moves(state, seat)
            accepted = [move for move in candidates if GAME.is_legal(state, seat, move)]
            assert len(legal) == len(set(legal))
            assert set(legal) == set(accepted), (state.specialist, state.challenges, seat)
            if not 0 <= seat < players:
                assert legal == []


def test_every_refusal_is_typed_and_changes_nothing() -> None:
    """Issue 5: bad input "gets a typed reason and changes nothing": ``check`` and ``apply``
    raise the same InvalidMoveError or IllegalMoveError with the same reason, and the state
    is the same before and after; every accepted move applies."""
    kinds_seen: set[type[MoveError]] = set()
    for state in decision_positions():
        before = encoded(state)
        for seat in range(-1, state.config.players + 1):
            for move in wide_candidates(state):
                refused = reason_of(state, seat, move)
                if refused is None:
                    GAME.apply(state, seat, move)
                    continue
                kind, reason = refused
                assert kind in (InvalidMoveError, IllegalMoveError)
                assert reason and reason == reason.upper()
                kinds_seen.add(kind)
                with pytest.raises(MoveError) as info:
                    GAME.apply(state, seat, move)
                assert (type(info.value), info.value.reason) == refused
        assert encoded(state) == before
    assert kinds_seen == {InvalidMoveError, IllegalMoveError}


def test_moves_of_a_seat_out_of_range() -> None:
    """engines/base.py: a seat that is not at the table gets SEAT_OUT_OF_RANGE for every
    move, decisions included."""
    state = driver_table()
    moves: list[Move] = [Propose(UseSpecialist(1)), Accept(1), Withdraw(1)]
    moves += [ShowCard(cards("Ah")[0]), DiscardCard(cards("Ah")[0]), PassCard(cards("Ah")[0])]
    for seat in (-1, 4, 9):
        for move in moves:
            rejects(state, seat, move, InvalidMoveError, "SEAT_OUT_OF_RANGE")
