"""The Gang's codec (derived from the contract): every move, event, view field and option
through ``referee.v1``.

Engine values are built directly here (no rules engine), so these tests pin the wire
contract on their own.
"""

from __future__ import annotations

import typing

import msgspec
import pytest
from google.protobuf import json_format

from engines.cards import DECK, Card, cards
from engines.the_gang import events as ev
from engines.the_gang import moves as mv
from engines.the_gang.model import (
    JACK_CARD,
    RULES_REVISION,
    Announcement,
    AnnouncementKind,
    Challenge,
    ChipRow,
    Colour,
    DarkChip,
    GuessHand,
    GuessRank,
    HeistResult,
    Mode,
    Pending,
    PendingKind,
    PileStart,
    Proposal,
    Reveal,
    ScanGuess,
    ScanResult,
    Specialist,
    TheGangConfig,
    UseSpecialist,
)
from engines.the_gang.rules import make_config
from engines.the_gang.view import PileView, TheGangView
from referee.codecs import CODECS
from referee.codecs.errors import Malformed
from referee.v1 import game_pb2, gang_of_four_pb2
from referee.v1 import the_gang_pb2 as pb

CODEC = CODECS["the_gang"]
M = pb.TheGangMove
E = pb.TheGangEvent

ACE_SPADES = Card.parse("As")
SEVEN_CLUBS = Card.parse("7c")

MOVES: list[mv.Move] = [
    mv.TakeChip(Colour.WHITE, 3),
    mv.TakeChip(Colour.RED, 1),
    mv.ReturnChip(Colour.ORANGE, 2),
    mv.ConfirmRoundEnd(),
    mv.Propose(UseSpecialist(0)),
    mv.Propose(UseSpecialist(2, viewer=0)),
    mv.Propose(UseSpecialist(1, rank=14)),
    mv.Propose(UseSpecialist(0, viewer=1, rank=2)),
    mv.Propose(GuessRank(7)),
    mv.Propose(GuessHand(1)),
    mv.Propose(GuessHand(10)),
    mv.Accept(1),
    mv.Accept(42),
    mv.Withdraw(3),
    mv.ShowCard(ACE_SPADES),
    mv.ShowCard(JACK_CARD),
    mv.DiscardCard(SEVEN_CLUBS),
    mv.DiscardCard(JACK_CARD),
    mv.PassCard(Card.parse("Td")),
]


def _move(**action: typing.Any) -> game_pb2.Move:
    return game_pb2.Move(the_gang=M(**action))


def _reason(move: game_pb2.Move) -> str:
    with pytest.raises(Malformed) as caught:
        CODEC.move_from_proto(move)
    return caught.value.reason


# --- moves -----------------------------------------------------------------------------


def test_every_move_type_is_covered() -> None:
    assert {type(move) for move in MOVES} == set(typing.get_args(mv.Move))


@pytest.mark.parametrize("move", MOVES, ids=repr)
def test_move_round_trips(move: mv.Move) -> None:
    message = CODEC.move_to_proto(move)
    assert CODEC.move_from_proto(message) == move
    # and through the bytes and the JSON a frontend sends
    again = game_pb2.Move.FromString(message.SerializeToString())
    assert CODEC.move_from_proto(again) == move
    parsed = json_format.Parse(json_format.MessageToJson(message), game_pb2.Move())
    assert CODEC.move_from_proto(parsed) == move


@pytest.mark.parametrize("card", [*DECK, JACK_CARD], ids=str)
def test_every_card_round_trips_in_card_moves(card: Card) -> None:
    for move in (mv.ShowCard(card), mv.DiscardCard(card), mv.PassCard(card)):
        assert CODEC.move_from_proto(CODEC.move_to_proto(move)) == move


def test_a_card_may_be_named_by_code_or_by_rank_and_suit() -> None:
    by_code = _move(pass_card=M.PassCard(card=pb.PlayingCard(code="Ah")))
    by_rank = _move(pass_card=M.PassCard(card=pb.PlayingCard(rank=14, suit=pb.SUIT_HEARTS)))
    ace = Card.parse("Ah")
    assert CODEC.move_from_proto(by_code) == mv.PassCard(ace)
    assert CODEC.move_from_proto(by_rank) == mv.PassCard(ace)
    jack = _move(discard_card=M.DiscardCard(card=pb.PlayingCard(rank=11)))
    assert CODEC.move_from_proto(jack) == mv.DiscardCard(JACK_CARD)
    assert CODEC.move_to_proto(mv.DiscardCard(JACK_CARD)).the_gang.discard_card.card == (
        pb.PlayingCard(rank=11, suit=pb.SUIT_UNSPECIFIED, code="J*")
    )


def test_json_from_a_frontend() -> None:
    text = '{"theGang": {"propose": {"useSpecialist": {"seat": 0, "viewer": 2}}}}'
    move = CODEC.move_from_proto(json_format.Parse(text, game_pb2.Move()))
    assert move == mv.Propose(UseSpecialist(0, viewer=2))
    text = '{"theGang": {"propose": {"guessHand": {"category": "POKER_HAND_FLUSH"}}}}'
    move = CODEC.move_from_proto(json_format.Parse(text, game_pb2.Move()))
    assert move == mv.Propose(GuessHand(6))
    text = '{"theGang": {"showCard": {"card": {"code": "J*"}}}}'
    assert CODEC.move_from_proto(json_format.Parse(text, game_pb2.Move())) == mv.ShowCard(JACK_CARD)


def test_seat_zero_and_unset_optionals_stay_apart() -> None:
    message = CODEC.move_to_proto(mv.Propose(UseSpecialist(0, viewer=0, rank=None)))
    use = message.the_gang.propose.use_specialist
    assert use.HasField("viewer") and use.viewer == 0
    assert not use.HasField("rank")


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (game_pb2.Move(), "MOVE_FOR_OTHER_GAME"),
        (
            game_pb2.Move(gang_of_four=gang_of_four_pb2.GangOfFourMove()),
            "MOVE_FOR_OTHER_GAME",
        ),
        (_move(), "MOVE_EMPTY"),
        (_move(take_chip=M.TakeChip(stars=2)), "CHIP_COLOUR_MISSING"),
        (_move(return_chip=M.ReturnChip(colour=17, stars=2)), "UNKNOWN_CHIP_COLOUR"),  # type: ignore[arg-type]
        (_move(propose=M.Propose()), "DECISION_MISSING"),
        (_move(propose=M.Propose(guess_hand=pb.GuessHand())), "POKER_HAND_MISSING"),
        (_move(show_card=M.ShowCard()), "CARD_MISSING"),
        (_move(discard_card=M.DiscardCard(card=pb.PlayingCard())), "CARD_MISSING"),
        (_move(pass_card=M.PassCard()), "CARD_MISSING"),
        (_move(show_card=M.ShowCard(card=pb.PlayingCard(code="Zz"))), "UNKNOWN_CARD"),
        (_move(show_card=M.ShowCard(card=pb.PlayingCard(code="As "))), "UNKNOWN_CARD"),
        (_move(show_card=M.ShowCard(card=pb.PlayingCard(code="2*"))), "UNKNOWN_CARD"),
        (
            _move(discard_card=M.DiscardCard(card=pb.PlayingCard(rank=15, suit=pb.SUIT_CLUBS))),
            "UNKNOWN_CARD",
        ),
        (_move(discard_card=M.DiscardCard(card=pb.PlayingCard(rank=7))), "UNKNOWN_CARD"),
        (_move(pass_card=M.PassCard(card=pb.PlayingCard(suit=pb.SUIT_HEARTS))), "UNKNOWN_CARD"),
        (
            _move(pass_card=M.PassCard(card=pb.PlayingCard(rank=7, suit=9))),  # type: ignore[arg-type]
            "UNKNOWN_CARD",
        ),
        (
            _move(
                pass_card=M.PassCard(card=pb.PlayingCard(rank=14, suit=pb.SUIT_SPADES, code="Ah"))
            ),
            "CARD_MISMATCH",
        ),
        (
            _move(show_card=M.ShowCard(card=pb.PlayingCard(rank=11, code="Js"))),
            "CARD_MISMATCH",
        ),
    ],
)
def test_bad_move_shapes_are_bad_requests(move: game_pb2.Move, reason: str) -> None:
    assert _reason(move) == reason


def test_values_are_left_to_the_rules() -> None:
    """Out-of-range numbers are the engine's to refuse, with its own reasons."""
    guess = _move(propose=M.Propose(guess_hand=pb.GuessHand(category=11)))  # type: ignore[arg-type]
    assert CODEC.move_from_proto(guess) == mv.Propose(GuessHand(11))
    rank = _move(propose=M.Propose(guess_rank=pb.GuessRank(rank=1)))
    assert CODEC.move_from_proto(rank) == mv.Propose(GuessRank(1))
    assert CODEC.move_from_proto(_move(accept=M.Accept())) == mv.Accept(0)


def test_moving_something_else_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        CODEC.move_to_proto("take a chip")
    with pytest.raises(TypeError):
        CODEC.move_to_proto(mv.Propose("a decision"))  # type: ignore[arg-type]


# --- events ----------------------------------------------------------------------------

PROPOSAL = Proposal(id=4, proposer=1, decision=UseSpecialist(2, viewer=0), accepted=(0, 1))
RESULT = HeistResult(
    heist=2,
    success=False,
    board=cards("2c 7d Jh Qs Ac"),
    reveals=(
        Reveal(0, 1, (JACK_CARD, SEVEN_CLUBS), 2, (7, 14), cards("7c 7d Ac Qs J*"), "pair", True),
        Reveal(2, 2, cards("3c 4c"), 1, (14,), cards("Ac Qs Jh 7d 4c"), "ace", False, True),
        Reveal(1, 3, cards("Ad Kd"), 2, (14,), cards("Ad Ac Kd Qs Jh"), "aces", True),
    ),
    chips=(ChipRow.of(Colour.YELLOW, (1, 0, 2)), ChipRow.of(Colour.RED, (0, 2, 1))),
    challenges=(Challenge.QUICK_ACCESS, Challenge.RETINA_SCAN, Challenge.HASTY_GETAWAY),
    specialist=Specialist.MUSCLE,
    scans=(ScanResult(Challenge.RETINA_SCAN, 1, 13, (14, 13), True),),
)

EVENTS: list[ev.Event] = [
    ev.PocketDealt(1, 0, cards("As Kd")),
    ev.BoardDealt(cards("2c 7d Jh")),
    ev.RoundStarted(1, Colour.YELLOW),
    ev.ChipTaken(0, Colour.WHITE, 3, None),
    ev.ChipTaken(0, Colour.WHITE, 3, 0),
    ev.ChipReturned(1, Colour.RED, 2),
    ev.RoundEndConfirmed(2),
    ev.RoundEnded(1, Colour.ORANGE),
    ev.HeistEnded(RESULT, vaults=1, alarms=1),
    ev.GameEnded(won=True),
    ev.CardsActive(2, (Challenge.NOISE_SENSORS,), None),
    ev.CardsActive(3, (), Specialist.COORDINATOR),
    ev.PileShuffled(specialist_pile=True),
    ev.PileShuffled(specialist_pile=False),
    ev.PocketsGathered(2),
    ev.PocketRedrawn(1, Challenge.MOTION_DETECTOR, cards("9h 9s")),
    ev.PocketRedrawn(1, Challenge.LASER_TRIPWIRES, ()),
    ev.ChipsSetAside(Colour.WHITE),
    ev.ProposalMade(PROPOSAL, replaces=None),
    ev.ProposalMade(Proposal(5, 0, GuessHand(3), (0,)), replaces=2),
    ev.ProposalAccepted(4, 2),
    ev.ProposalWithdrawn(4),
    ev.DecisionTaken(Proposal(6, 2, GuessRank(12), (0, 2))),
    ev.Announced(Announcement(AnnouncementKind.INVESTOR, 0, number=2)),
    ev.Announced(Announcement(AnnouncementKind.MASTERMIND, 1, number=1, rank=13)),
    ev.Announced(Announcement(AnnouncementKind.INFORMANT, 2, to_seat=0, card=ACE_SPADES)),
    ev.Announced(Announcement(AnnouncementKind.INFORMANT, 2, to_seat=0, card=None)),
    ev.CardDrawn(1, ACE_SPADES),
    ev.CardDrawn(1, None),
    ev.JackTaken(2),
    ev.CardDiscarded(2, JACK_CARD),
    ev.CardDiscarded(2, None),
    ev.PassChosen(0, SEVEN_CLUBS),
    ev.PassChosen(0, None),
    ev.CardPassed(2, 0, SEVEN_CLUBS),
    ev.CardPassed(2, 0, None),
    ev.GuessesDue(1, (Challenge.RETINA_SCAN, Challenge.FINGERPRINT_SCAN)),
]


def test_every_event_type_is_covered() -> None:
    assert {type(event) for event in EVENTS} == set(typing.get_args(ev.Event))


@pytest.mark.parametrize("event", EVENTS, ids=repr)
def test_every_event_converts(event: ev.Event) -> None:
    message = CODEC.event_to_proto(event)
    assert message.WhichOneof("game") == "the_gang"
    kind = message.the_gang.WhichOneof("kind")
    assert kind == type(event).__struct_config__.tag
    assert game_pb2.Event.FromString(message.SerializeToString()) == message
    json_format.MessageToJson(message)


def _event(event: ev.Event) -> pb.TheGangEvent:
    return CODEC.event_to_proto(event).the_gang


def test_a_hidden_card_is_left_out() -> None:
    assert _event(ev.CardDrawn(1, ACE_SPADES)).card_drawn.card.code == "As"
    assert not _event(ev.CardDrawn(1, None)).card_drawn.HasField("card")
    assert not _event(ev.CardDiscarded(1, None)).card_discarded.HasField("card")
    assert not _event(ev.PassChosen(1, None)).pass_chosen.HasField("card")
    passed = _event(ev.CardPassed(2, 0, None)).card_passed
    assert (passed.from_seat, passed.to_seat, passed.HasField("card")) == (2, 0, False)
    shown = _event(ev.Announced(Announcement(AnnouncementKind.INFORMANT, 2, to_seat=0)))
    assert not shown.announced.announcement.HasField("card")
    assert shown.announced.announcement.to_seat == 0
    assert shown.announced.announcement.kind == pb.Announcement.KIND_INFORMANT
    assert (
        list(_event(ev.PocketRedrawn(1, Challenge.LASER_TRIPWIRES, ())).pocket_redrawn.cards) == []
    )


def test_event_fields() -> None:
    made = _event(ev.ProposalMade(PROPOSAL, replaces=None)).proposal_made
    assert not made.HasField("replaces")
    assert made.proposal == pb.Proposal(
        id=4,
        proposer=1,
        use_specialist=pb.UseSpecialist(seat=2, viewer=0),
        accepted=[0, 1],
    )
    assert not made.proposal.use_specialist.HasField("rank")
    replaced = _event(ev.ProposalMade(Proposal(5, 0, GuessHand(3), (0,)), replaces=0))
    assert replaced.proposal_made.HasField("replaces") and replaced.proposal_made.replaces == 0
    assert replaced.proposal_made.proposal.guess_hand.category == pb.POKER_HAND_TWO_PAIR
    taken = _event(ev.DecisionTaken(Proposal(6, 2, GuessRank(12), (0, 2)))).decision_taken
    assert taken.proposal.WhichOneof("decision") == "guess_rank"
    assert taken.proposal.guess_rank.rank == 12
    active = _event(ev.CardsActive(2, (Challenge.NOISE_SENSORS,), None)).cards_active
    assert list(active.challenges) == [pb.CHALLENGE_CARD_NOISE_SENSORS]
    assert active.specialist == pb.SPECIALIST_CARD_UNSPECIFIED
    assert _event(ev.PileShuffled(True)).pile_shuffled.specialist_pile
    due = _event(ev.GuessesDue(1, (Challenge.FINGERPRINT_SCAN,))).guesses_due
    assert (due.seat, list(due.challenges)) == (1, [pb.CHALLENGE_CARD_FINGERPRINT_SCAN])


def test_card_numbers_are_the_printed_numbers() -> None:
    for challenge in Challenge:
        assert (
            pb.ChallengeCard.Name(pb.ChallengeCard.ValueType(challenge.value))
            == f"CHALLENGE_CARD_{challenge.name}"
        )
    for specialist in Specialist:
        assert (
            pb.SpecialistCard.Name(pb.SpecialistCard.ValueType(specialist.value))
            == f"SPECIALIST_CARD_{specialist.name}"
        )


def heist_to_proto(result: HeistResult) -> pb.HeistResult:
    return _event(ev.HeistEnded(result, vaults=0, alarms=0)).heist_ended.result


def test_heist_result_rows_carry_their_colours() -> None:
    message = heist_to_proto(RESULT)
    assert [row.colour for row in message.chips] == [pb.CHIP_COLOUR_YELLOW, pb.CHIP_COLOUR_RED]
    assert [chip.holder for chip in message.chips[1].chips] == [0, 2, 1]
    assert all(chip.colour == pb.CHIP_COLOUR_RED for chip in message.chips[1].chips)
    assert [r.muscle for r in message.reveals] == [False, True, False]
    assert message.reveals[0].pocket[0].code == "J*"
    assert message.reveals[0].best_five[4] == pb.PlayingCard(rank=11, code="J*")
    assert list(message.challenges) == [
        pb.CHALLENGE_CARD_QUICK_ACCESS,
        pb.CHALLENGE_CARD_RETINA_SCAN,
        pb.CHALLENGE_CARD_HASTY_GETAWAY,
    ]
    assert message.specialist == pb.SPECIALIST_CARD_MUSCLE
    assert message.scans[0] == pb.ScanResult(
        challenge=pb.CHALLENGE_CARD_RETINA_SCAN, seat=1, guess=13, actual=[14, 13], correct=True
    )


def test_a_basic_heist_result_is_white_to_red() -> None:
    rows = tuple(ChipRow.of(colour, (0, 1, 2)) for colour in Colour)
    basic = HeistResult(1, True, cards("2c 3c 4c 5c 9d"), (), rows)
    message = heist_to_proto(basic)
    assert [row.colour for row in message.chips] == [
        pb.CHIP_COLOUR_WHITE,
        pb.CHIP_COLOUR_YELLOW,
        pb.CHIP_COLOUR_ORANGE,
        pb.CHIP_COLOUR_RED,
    ]
    assert message.specialist == pb.SPECIALIST_CARD_UNSPECIFIED
    assert not message.challenges and not message.scans


# --- views -----------------------------------------------------------------------------

BASIC_VIEW = TheGangView(
    viewer=1,
    players=3,
    confirm_round_end=False,
    heist=1,
    round=Colour.YELLOW,
    vaults=0,
    alarms=0,
    vaults_to_win=3,
    alarms_to_lose=3,
    board=cards("2c 7d Jh"),
    pocket=cards("As Kd"),
    chips=(ChipRow.of(Colour.WHITE, (0, 1, 2)), ChipRow.of(Colour.YELLOW, (None, 2, None))),
    confirmed_seats=(),
    deck_size=44,
    heists=(),
    finished=False,
)


def _view(view: TheGangView) -> pb.TheGangView:
    target = game_pb2.View()
    CODEC.fill_view(view, target)
    assert target.WhichOneof("game_view") == "the_gang"
    return target.the_gang


def test_a_basic_view() -> None:
    message = _view(BASIC_VIEW)
    assert message.mode == pb.THE_GANG_MODE_BASIC
    assert [c.code for c in message.pocket] == ["As", "Kd"]
    assert [row.colour for row in message.chips] == [pb.CHIP_COLOUR_WHITE, pb.CHIP_COLOUR_YELLOW]
    yellow = message.chips[1].chips
    assert [chip.HasField("holder") for chip in yellow] == [False, True, False]
    assert not message.HasField("specialist_use") and not message.HasField("my_pass")
    assert not message.HasField("guessed_seat")
    assert message.specialist == pb.SPECIALIST_CARD_UNSPECIFIED
    assert message.challenge_pile == pb.PileView(known=True)


def test_a_view_with_every_mode_field() -> None:
    view = TheGangView(
        **{
            **{f: getattr(BASIC_VIEW, f) for f in BASIC_VIEW.__struct_fields__},
            "round": Colour.RED,
            "pocket": (ACE_SPADES, JACK_CARD, SEVEN_CLUBS),
            "chips": (ChipRow.of(Colour.RED, (1, None, 0)),),
            "heists": (RESULT,),
            "mode": Mode.PROFESSIONAL,
            "challenges": (Challenge.NOISE_SENSORS, Challenge.BLACKOUT),
            "standing_challenges": (Challenge.BLACKOUT,),
            "specialist": Specialist.INFORMANT,
            "specialist_use": UseSpecialist(2, viewer=0),
            "challenge_pile": PileView(7, (9, 10, 2, 3, 4, 5, 6), True, True),
            "specialist_pile": PileView(9, (), False, True),
            "skipped_colours": (Colour.WHITE,),
            "set_aside_colours": (Colour.YELLOW, Colour.ORANGE),
            "dark_chips": tuple(
                DarkChip(colour, 1) for colour in (Colour.WHITE, Colour.YELLOW, Colour.ORANGE)
            ),
            "proposals": (PROPOSAL, Proposal(7, 0, GuessRank(9), (0,))),
            "announcements": (
                Announcement(AnnouncementKind.MATH_WHIZ, 0, number=21),
                Announcement(AnnouncementKind.GETAWAY_DRIVER, 1, number=2),
                Announcement(AnnouncementKind.INFORMANT, 2, to_seat=0, card=None),
                Announcement(AnnouncementKind.INFORMANT, 2, to_seat=1, card=ACE_SPADES),
            ),
            "pending": (
                Pending(2, PendingKind.SHOW_CARD, to_seat=0),
                Pending(1, PendingKind.DISCARD),
            ),
            "passed_seats": (0, 2),
            "my_pass": JACK_CARD,
            "awaiting_guesses": True,
            "guessed_seat": 0,
            "guesses": (
                ScanGuess(Challenge.RETINA_SCAN, 14),
                ScanGuess(Challenge.FINGERPRINT_SCAN, 3),
            ),
            "discard_count": 3,
        }
    )
    message = _view(view)
    assert message.mode == pb.THE_GANG_MODE_PROFESSIONAL
    assert len(message.pocket) == 3 and message.pocket[1].code == "J*"
    assert [row.colour for row in message.chips] == [pb.CHIP_COLOUR_RED]
    assert message.heists[0] == heist_to_proto(RESULT)
    assert list(message.challenges) == [pb.CHALLENGE_CARD_NOISE_SENSORS, pb.CHALLENGE_CARD_BLACKOUT]
    assert list(message.standing_challenges) == [pb.CHALLENGE_CARD_BLACKOUT]
    assert message.specialist == pb.SPECIALIST_CARD_INFORMANT
    assert message.specialist_use == pb.UseSpecialist(seat=2, viewer=0)
    assert message.challenge_pile == pb.PileView(
        size=7, cards=[9, 10, 2, 3, 4, 5, 6], known=True, card_one_turned=True
    )
    assert message.specialist_pile == pb.PileView(size=9, known=False, card_one_turned=True)
    assert list(message.skipped_colours) == [pb.CHIP_COLOUR_WHITE]
    assert list(message.set_aside_colours) == [pb.CHIP_COLOUR_YELLOW, pb.CHIP_COLOUR_ORANGE]
    assert [(d.colour, d.stars) for d in message.dark_chips] == [
        (pb.CHIP_COLOUR_WHITE, 1),
        (pb.CHIP_COLOUR_YELLOW, 1),
        (pb.CHIP_COLOUR_ORANGE, 1),
    ]
    assert [p.id for p in message.proposals] == [4, 7]
    assert message.proposals[1].guess_rank.rank == 9
    math, driver, hidden, shown = message.announcements
    assert (math.kind, math.seat, math.number) == (pb.Announcement.KIND_MATH_WHIZ, 0, 21)
    assert (driver.kind, driver.number) == (pb.Announcement.KIND_GETAWAY_DRIVER, 2)
    assert not hidden.HasField("card") and hidden.HasField("to_seat")
    assert shown.card.code == "As" and shown.to_seat == 1
    assert not math.HasField("to_seat")
    show, discard = message.pending
    assert (show.seat, show.kind, show.to_seat) == (2, pb.Pending.KIND_SHOW_CARD, 0)
    assert discard.kind == pb.Pending.KIND_DISCARD and not discard.HasField("to_seat")
    assert list(message.passed_seats) == [0, 2]
    assert message.my_pass.code == "J*"
    assert message.awaiting_guesses
    assert message.HasField("guessed_seat") and message.guessed_seat == 0
    assert [(g.challenge, g.value) for g in message.guesses] == [
        (pb.CHALLENGE_CARD_RETINA_SCAN, 14),
        (pb.CHALLENGE_CARD_FINGERPRINT_SCAN, 3),
    ]
    assert message.discard_count == 3


# --- options ---------------------------------------------------------------------------

CONFIGS = [
    TheGangConfig(players=3),
    TheGangConfig(players=4, confirm_round_end=True),
    TheGangConfig(players=5, mode=Mode.ADVANCED),
    TheGangConfig(players=6, mode=Mode.ADVANCED, shuffle_piles=True),
    TheGangConfig(
        players=4,
        mode=Mode.PROFESSIONAL,
        challenge_pile=PileStart(cards=(5, 6, 7, 8, 9, 10, 2, 3, 4), card_one_turned=True),
        specialist_pile=PileStart(shuffled=True),
    ),
    TheGangConfig(players=3, mode=Mode.MASTER_THIEF, challenge_pile=PileStart()),
]


def _options(**given: typing.Any) -> game_pb2.TableOptions:
    return game_pb2.TableOptions(the_gang=pb.TheGangOptions(**given))


@pytest.mark.parametrize("config", CONFIGS, ids=repr)
def test_options_round_trip(config: TheGangConfig) -> None:
    options = CODEC.options_from_proto(CODEC.options_to_proto(config))
    # the engine's make_config may be mid-rewrite: build the config as it would
    made = msgspec.convert({"players": config.players, **options}, TheGangConfig)
    assert made == config


def test_basic_tables_leave_every_default_to_the_engine() -> None:
    """Only the options set are passed on, so a basic table's config is exactly what it was
    before the modes existed."""
    assert CODEC.options_from_proto(game_pb2.TableOptions()) == {}
    assert CODEC.options_from_proto(_options()) == {}
    for mode in (pb.THE_GANG_MODE_UNSPECIFIED, pb.THE_GANG_MODE_BASIC):
        given = CODEC.options_from_proto(_options(confirm_round_end=True, mode=mode))
        assert given.get("confirm_round_end") is True and given.get("mode", "basic") == "basic"
        assert make_config(3, given) == TheGangConfig(
            players=3, confirm_round_end=True, rules_revision=RULES_REVISION
        )
    basic = CODEC.options_to_proto(TheGangConfig(players=3)).the_gang
    assert basic.mode == pb.THE_GANG_MODE_BASIC
    assert not basic.HasField("challenge_pile") and not basic.HasField("specialist_pile")


def test_mode_options_are_the_engine_values() -> None:
    given = _options(
        mode=pb.THE_GANG_MODE_MASTER_THIEF,
        shuffle_piles=True,
        specialist_pile=pb.PileStart(cards=[3, 1, 2], card_one_turned=True),
    )
    assert CODEC.options_from_proto(given) == {
        "mode": "master_thief",
        "shuffle_piles": True,
        "specialist_pile": PileStart(cards=(3, 1, 2), card_one_turned=True),
    }
    for mode in Mode:
        name = f"THE_GANG_MODE_{mode.name}"
        found = CODEC.options_from_proto(_options(mode=pb.TheGangMode.Value(name)))
        assert found.get("mode", "basic") == mode.value
    text = '{"theGang": {"mode": "THE_GANG_MODE_ADVANCED", "challengePile": {"cards": [2, 1]}}}'
    assert CODEC.options_from_proto(json_format.Parse(text, game_pb2.TableOptions())) == {
        "mode": "advanced",
        "challenge_pile": PileStart(cards=(2, 1)),
    }


def test_bad_options() -> None:
    with pytest.raises(Malformed) as caught:
        CODEC.options_from_proto(_options(mode=9))
    assert caught.value.reason == "UNKNOWN_THE_GANG_MODE"
    other = game_pb2.TableOptions(gang_of_four=gang_of_four_pb2.GangOfFourOptions())
    with pytest.raises(Malformed) as caught:
        CODEC.options_from_proto(other)
    assert caught.value.reason == "OPTIONS_FOR_OTHER_GAME"
