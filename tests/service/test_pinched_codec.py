"""Pinched!'s derived codec: every move, event, view field and option through ``referee.v1``.

Engine values are built directly (plus states from one short engine playout for the views
and events a real table produces), so these tests pin the wire contract on their own.
"""

from __future__ import annotations

import random
import typing

import msgspec
import pytest
from google.protobuf import json_format
from google.protobuf.descriptor import FieldDescriptor

from engines.errors import InvalidConfigError
from engines.pinched import GAME
from engines.pinched import events as ev
from engines.pinched import moves as mv
from engines.pinched.components import (
    DEFAULT,
    JOKER,
    MAX_CARDS,
    Components,
    Sale,
    ValuableKind,
    kinds_of,
)
from engines.pinched.model import (
    RULES_REVISION,
    Curse,
    Dog,
    Location,
    Phase,
    PinchedConfig,
    PinchedState,
    Placement,
    Side,
    Slot,
    Take,
)
from engines.pinched.setup import BASIC, RECOMMENDED
from engines.pinched.view import (
    LocationFields,
    OpenField,
    PinchedView,
    Stash,
    StashSlot,
    Valuable,
    view,
    view_event,
)
from referee.codecs import CODECS
from referee.codecs.errors import Malformed
from referee.codecs.game import DerivedCodec
from referee.v1 import game_pb2, gang_of_four_pb2
from referee.v1 import pinched_pb2 as pb

_CODEC = CODECS["pinched"]
assert isinstance(_CODEC, DerivedCodec)
CODEC: DerivedCodec = _CODEC
_COMPONENTS = CODEC.deriver.encoder(Components, pb.PinchedComponents.DESCRIPTOR)


def components_to_proto(table: Components) -> pb.PinchedComponents:
    """The table's message: a copy, as the encoder's own is cached (shared by every view)."""
    message = pb.PinchedComponents()
    message.CopyFrom(_COMPONENTS(table))
    return message


M = pb.PinchedMove
E = pb.PinchedEvent
D, C, S, H, B = (
    Location.DIAMONDS,
    Location.CLUBS,
    Location.SPADES,
    Location.HEARTS,
    Location.BANK,
)

MOVES: list[mv.Move] = [
    *(mv.ChooseLocation(where) for where in Location),
    mv.TakeCard(0),
    mv.TakeCard(2),
    mv.UsePassage((mv.FieldRef(D, 1),)),
    mv.UsePassage((mv.FieldRef(C, 0), mv.FieldRef(S, 2))),
    mv.UsePassage(()),
    mv.SkipPassage(),
    mv.TakeDog(Dog.RUFUS),
    mv.TakeDog(Dog.GORDIE),
    mv.PassCurse(0, 0),
    mv.PassCurse(5, 3),
    mv.KeepCurses(),
    mv.TakeWithGordie(mv.FieldRef(H, 0)),
    mv.TakeWithGordie(mv.FieldRef(D, 2)),
    mv.Store(0, 0),
    mv.Store(53, 2),
    mv.Sell(0),
    mv.Sell(2),
    mv.EndSelling(),
    mv.TakeFromRiver(0),
    mv.TakeFromRiver(2),
]


def test_the_codec_is_registered() -> None:
    assert isinstance(CODECS["pinched"], DerivedCodec)


# --- moves -----------------------------------------------------------------------------


def test_every_move_type_is_covered() -> None:
    assert {type(move) for move in MOVES} == set(typing.get_args(mv.Move))


@pytest.mark.parametrize("move", MOVES, ids=repr)
def test_move_round_trips(move: mv.Move) -> None:
    message = CODEC.move_to_proto(move)
    assert message.WhichOneof("game") == "pinched"
    assert message.pinched.WhichOneof("action") == type(move).__struct_config__.tag
    assert CODEC.move_from_proto(message) == move
    again = game_pb2.Move.FromString(message.SerializeToString())
    assert CODEC.move_from_proto(again) == move
    parsed = json_format.Parse(json_format.MessageToJson(message), game_pb2.Move())
    assert CODEC.move_from_proto(parsed) == move


def test_json_from_a_frontend() -> None:
    def parse(text: str) -> mv.Move:
        move: mv.Move = CODEC.move_from_proto(json_format.Parse(text, game_pb2.Move()))
        return move

    assert parse('{"pinched": {"chooseLocation": {"location": "LOCATION_BANK"}}}') == (
        mv.ChooseLocation(B)
    )
    text = (
        '{"pinched": {"usePassage": {"cards": [{"location": "LOCATION_DIAMONDS"},'
        ' {"location": "LOCATION_CLUBS", "field": 2}]}}}'
    )
    assert parse(text) == mv.UsePassage((mv.FieldRef(D, 0), mv.FieldRef(C, 2)))
    assert parse('{"pinched": {"takeDog": {"dog": "DOG_GORDIE"}}}') == mv.TakeDog(Dog.GORDIE)
    assert parse('{"pinched": {"store": {"card": 7}}}') == mv.Store(7, 0)
    assert parse('{"pinched": {"passCurse": {"curse": 2, "toSeat": 1}}}') == mv.PassCurse(2, 1)
    assert parse('{"pinched": {"endSelling": {}}}') == mv.EndSelling()


def _move(**action: typing.Any) -> game_pb2.Move:
    return game_pb2.Move(pinched=M(**action))


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (game_pb2.Move(), "MOVE_FOR_OTHER_GAME"),
        (game_pb2.Move(gang_of_four=gang_of_four_pb2.GangOfFourMove()), "MOVE_FOR_OTHER_GAME"),
        (_move(), "MOVE_EMPTY"),
        (_move(choose_location=M.ChooseLocation()), "LOCATION_MISSING"),
        (_move(choose_location=M.ChooseLocation(location=9)), "UNKNOWN_LOCATION"),  # type: ignore[arg-type]
        (_move(take_dog=M.TakeDog()), "DOG_MISSING"),
        (_move(take_dog=M.TakeDog(dog=3)), "UNKNOWN_DOG"),  # type: ignore[arg-type]
        (_move(take_with_gordie=M.TakeWithGordie()), "CARD_MISSING"),
        (
            _move(take_with_gordie=M.TakeWithGordie(card=M.FieldRef(field=1))),
            "LOCATION_MISSING",
        ),
        (
            _move(
                use_passage=M.UsePassage(
                    cards=[M.FieldRef(location=pb.LOCATION_CLUBS), M.FieldRef(field=2)]
                )
            ),
            "LOCATION_MISSING",
        ),
    ],
)
def test_bad_move_shapes_are_bad_requests(move: game_pb2.Move, reason: str) -> None:
    with pytest.raises(Malformed) as caught:
        CODEC.move_from_proto(move)
    assert caught.value.reason == reason


def test_numbers_are_left_to_the_rules() -> None:
    """Fields, slots, seats and ids out of range are the engine's to refuse."""
    assert CODEC.move_from_proto(_move(take_card=M.TakeCard(field=-1))) == mv.TakeCard(-1)
    assert CODEC.move_from_proto(_move(store=M.Store(card=999, slot=7))) == mv.Store(999, 7)
    assert CODEC.move_from_proto(_move(pass_curse=M.PassCurse(curse=9, to_seat=-2))) == (
        mv.PassCurse(9, -2)
    )


# --- events ----------------------------------------------------------------------------

SCORES = ev.GameEnded(
    (
        ev.Score(0, 12, 3, 1, 2, 3, 15, 4),
        ev.Score(1, 15, 0, 0, 0, 0, 15, 4),
        ev.Score(2, 7, 0, 0, 4, 1, 10, 0),
    ),
    (0, 1),
)

EVENTS: list[ev.Event] = [
    ev.DayStarted(1, 5, 0),
    ev.DayStarted(7, 1, 2),
    ev.CardsDrawn(1, 3, (0, 53, 17), ev.DrawReason.START),
    ev.CardsDrawn(0, 1, (4,), ev.DrawReason.LAST_TAKE),
    ev.CardsDrawn(2, 4, (1, 2, 3, 5), ev.DrawReason.VAULT),
    ev.CardsDrawn(3, 2, (8, 9), ev.DrawReason.BANK),
    ev.CardTaken(0, D, 2, 11),
    ev.CardTaken(2, None, 1, 0),
    ev.FieldRefilled(H, 0, 40),
    ev.FieldRefilled(None, 2, 52),
    ev.DeckReshuffled(33),
    ev.LocationChosen(1, S),
    ev.LocationsRevealed((D, D, B), D, (1, 0)),
    ev.PassageUsed(3),
    ev.CurseDrawn(2, Curse(4, 3)),
    ev.CursePassed(2, 0, Curse(4, 3)),
    ev.CursesKept(1),
    ev.VaultMoved(2, 4),
    ev.VaultMoved(0, 0),
    ev.DogTaken(1, Dog.RUFUS, None),
    ev.DogTaken(0, Dog.GORDIE, 3),
    ev.DogTaken(0, Dog.RUFUS, 0),
    ev.DogUsed(2, Dog.GORDIE),
    ev.TreasureTaken(1, ev.Treasure.LISA_MONA, 5),
    ev.TreasureTaken(1, ev.Treasure.DIAMOND, 1),
    ev.TreasureTaken(2, ev.Treasure.CLUE, 2),
    ev.LetterRead(0, B),
    ev.LetterOpened(C),
    ev.BankFailed(),
    ev.Stored(1, 53, 2),
    ev.Stored(0, 0, 0),
    ev.Sold(1, 2, 0, 5, 3),
    ev.Sold(0, 0, 4, 1, 0),
    ev.Discarded(1, (3, 4)),
    ev.DayEnded(4, 1, 3),
    SCORES,
]

REDACTED: list[ev.Event] = [
    ev.CardsDrawn(1, 3, (), ev.DrawReason.START),
    ev.LocationChosen(1, None),
    ev.LetterRead(0, None),
    ev.CurseDrawn(2, None),
    ev.CursePassed(2, 0, None),
]

_ENUMS: dict[str, typing.Any] = {
    "Location": Location,
    "Dog": Dog,
    "DrawReason": ev.DrawReason,
    "Treasure": ev.Treasure,
}


def _back(message: typing.Any, descriptor: FieldDescriptor) -> typing.Any:
    """One proto field's value as the engine spells it (the test's own decoder)."""
    if descriptor.type == FieldDescriptor.TYPE_ENUM:
        enum = descriptor.enum_type
        assert enum is not None
        name = enum.values_by_number[message].name
        if message == 0:
            return None
        short = name.removeprefix(f"{_snake(enum.name).upper()}_")
        return _ENUMS[enum.name][short]
    if descriptor.type != FieldDescriptor.TYPE_MESSAGE:
        return message  # cards among them: events name them by id
    assert descriptor.message_type is not None
    name = descriptor.message_type.name
    if name == "Curse":
        return Curse(message.id, message.points)
    if name == "PinchedScore":
        return ev.Score(**{f.name: getattr(message, f.name) for f in message.DESCRIPTOR.fields})
    raise AssertionError(f"unexpected message {name}")


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")


def event_from_proto(message: game_pb2.Event) -> ev.Event:
    """Decode a ``PinchedEvent`` back into the engine's event, field by field."""
    assert message.WhichOneof("game") == "pinched"
    which = message.pinched.WhichOneof("kind")
    assert which is not None
    body = getattr(message.pinched, which)
    kind = next(t for t in typing.get_args(ev.Event) if t.__struct_config__.tag == which)
    values: dict[str, typing.Any] = {}
    for name in kind.__struct_fields__:
        descriptor = body.DESCRIPTOR.fields_by_name[name]
        value = getattr(body, descriptor.name)
        if descriptor.is_repeated:
            values[name] = tuple(_back(item, descriptor) for item in value)
        elif descriptor.has_presence and not body.HasField(descriptor.name):
            values[name] = None
        else:
            values[name] = _back(value, descriptor)
    made: ev.Event = kind(**values)
    return made


def test_every_event_type_is_covered() -> None:
    assert {type(event) for event in EVENTS} == set(typing.get_args(ev.Event))
    oneof = E.DESCRIPTOR.oneofs_by_name["kind"]
    assert {field.name for field in oneof.fields} == {
        t.__struct_config__.tag for t in typing.get_args(ev.Event)
    }


@pytest.mark.parametrize("event", EVENTS + REDACTED, ids=repr)
def test_event_round_trips(event: ev.Event) -> None:
    message = CODEC.event_to_proto(event)
    assert event_from_proto(message) == event
    again = game_pb2.Event.FromString(message.SerializeToString())
    assert event_from_proto(again) == event


def test_hidden_parts_are_absent() -> None:
    drawn = CODEC.event_to_proto(ev.CardsDrawn(1, 3, (), ev.DrawReason.START)).pinched.cards_drawn
    assert drawn.count == 3 and not drawn.cards
    chosen = CODEC.event_to_proto(ev.LocationChosen(1, None)).pinched.location_chosen
    assert chosen.location == pb.LOCATION_UNSPECIFIED
    assert "location" not in json_format.MessageToDict(chosen)
    letter = CODEC.event_to_proto(ev.LetterRead(0, None)).pinched.letter_read
    assert letter.location == pb.LOCATION_UNSPECIFIED
    assert not CODEC.event_to_proto(ev.CurseDrawn(2, None)).pinched.curse_drawn.HasField("curse")
    passed = CODEC.event_to_proto(ev.CursePassed(2, 0, None)).pinched.curse_passed
    assert not passed.HasField("curse") and (passed.from_seat, passed.to_seat) == (2, 0)


def test_seat_zero_and_unset_optionals_stay_apart() -> None:
    mine = CODEC.event_to_proto(ev.DogTaken(0, Dog.RUFUS, 0)).pinched.dog_taken
    assert mine.HasField("from_seat") and mine.from_seat == 0
    free = CODEC.event_to_proto(ev.DogTaken(1, Dog.RUFUS, None)).pinched.dog_taken
    assert not free.HasField("from_seat")
    river = CODEC.event_to_proto(ev.CardTaken(2, None, 1, 0)).pinched.card_taken
    assert river.location == pb.LOCATION_UNSPECIFIED
    assert river.card == 0 and river.field == 1


def test_game_ended_carries_every_score() -> None:
    ended = CODEC.event_to_proto(SCORES).pinched.game_ended
    assert list(ended.winners) == [0, 1]
    assert ended.scores[2] == pb.PinchedScore(
        seat=2, sold=7, lisa_mona=0, diamonds=0, clues=4, curses=1, total=10, tiebreak=0
    )


def test_unknown_values_fail_loudly() -> None:
    with pytest.raises(TypeError):
        CODEC.event_to_proto(mv.SkipPassage())
    with pytest.raises(TypeError):
        CODEC.move_to_proto(ev.BankFailed())
    with pytest.raises(KeyError):
        CODEC.event_to_proto(ev.CardsDrawn(1, 1, (), "magic"))  # type: ignore[arg-type]  # no reason


# --- views -----------------------------------------------------------------------------

FIVE = RECOMMENDED["the_whole_package"][1]


def _view(body: PinchedView) -> pb.PinchedView:
    target = game_pb2.View()
    CODEC.fill_view(body, target)
    assert target.WhichOneof("game_view") == "pinched"
    return target.pinched


# Engine view fields not on the wire (``viewer`` is View.seat); every other has its name.
RENAMED: dict[str, set[str]] = {"viewer": set()}


def test_every_view_field_is_on_the_wire() -> None:
    wire = {field.name for field in pb.PinchedView.DESCRIPTOR.fields}
    expected: set[str] = set()
    for name in PinchedView.__struct_fields__:
        expected |= RENAMED.get(name, {name})
    assert wire == expected


_KINDS = kinds_of(DEFAULT)
_NAMES = [kind.name for kind in DEFAULT.kinds]


def _card(card: int) -> Valuable:
    return Valuable(card, "document" if _KINDS[card] == JOKER else _NAMES[_KINDS[card]])


def _cards(*cards: int) -> tuple[Valuable, ...]:
    return tuple(_card(card) for card in cards)


def _row(*cards: int | None) -> tuple[OpenField, ...]:
    return tuple(
        OpenField(field, _card(card) if card is not None else None)
        for field, card in enumerate(cards)
    )


def _stash(*slots: Slot) -> Stash:
    return Stash(
        tuple(
            StashSlot(_NAMES[slot.kind] if slot.kind is not None else "", _cards(*slot.cards))
            for slot in slots
        )
    )


FULL_VIEW = PinchedView(
    viewer=1,
    players=5,
    locations=FIVE,
    components=DEFAULT,
    day=6,
    watch=2,
    first_mastermind=3,
    mastermind=4,
    phase=Phase.NIGHT,
    fields=tuple(
        LocationFields(placement.location, _row(*row))
        for placement, row in zip(
            FIVE,
            ((0, None, 14), (15, 16, 17), (26, None, None), (36, 37, 38), ()),
            strict=True,
        )
    ),
    river=_row(None, 46, 100),
    deck_size=12,
    discard=_cards(1, 2, 100),
    stashes=(
        _stash(Slot(0, (3, 102)), Slot(None, (101,)), Slot()),
        _stash(Slot(), Slot(), Slot()),
        _stash(Slot(4, (44, 45)), Slot(2, (27,)), Slot(3, (39, 40))),
        _stash(Slot(), Slot(1, (20,)), Slot()),
        _stash(Slot(), Slot(), Slot()),
    ),
    hand=_cards(5, 72),
    hand_sizes=(0, 2, 0, 1, 0),
    sold=_cards(6, 7),
    sold_counts=(0, 2, 4, 0, 1),
    chosen_seats=(0, 1, 2, 3, 4),
    my_choice=B,
    choices=(D, B, D, H, D),
    heist=D,
    present=(4, 0, 2),
    takes=(Take(0), Take(2), Take(4, last=True)),
    passage_open=False,
    passage_due=True,
    dog_due=True,
    curse_turns=(0, 2),
    river_turns=(0, 1),
    selling=(4,),
    gordie_due=(3,),
    vault=2,
    vault_value=4,
    rufus_holder=0,
    gordie_holder=None,
    lisa_mona_holder=0,
    lisa_mona_points=5,
    diamonds_left=1,
    diamonds=(0, 1, 0, 0, 0),
    clues_left=3,
    clues=(1, 0, 1, 0, 0),
    letter=S,
    letter_opened=True,
    letter_read_by=(0, 2),
    curses=(Curse(0, 1), Curse(5, 3)),
    curse_counts=(1, 2, 0, 0, 0),
    curse_pile=3,
    result=SCORES,
)


def test_a_view_with_every_field() -> None:
    kinds = kinds_of(DEFAULT)
    names = [kind.name for kind in DEFAULT.kinds]

    def kind(card: int) -> str:
        return "document" if kinds[card] == JOKER else names[kinds[card]]

    message = _view(FULL_VIEW)
    assert message.players == 5
    assert [(p.location, p.side) for p in message.locations] == [
        (pb.LOCATION_DIAMONDS, pb.SIDE_CROWN),
        (pb.LOCATION_CLUBS, pb.SIDE_CROWN),
        (pb.LOCATION_SPADES, pb.SIDE_CROWN),
        (pb.LOCATION_HEARTS, pb.SIDE_CROWN),
        (pb.LOCATION_BANK, pb.SIDE_CROWN),
    ]
    assert message.components == components_to_proto(DEFAULT)
    assert (message.day, message.watch, message.first_mastermind, message.mastermind) == (
        6,
        2,
        3,
        4,
    )
    assert message.phase == pb.PINCHED_PHASE_NIGHT
    diamonds = message.fields[0]
    assert diamonds.location == pb.LOCATION_DIAMONDS
    assert [f.field for f in diamonds.fields] == [0, 1, 2]
    assert [f.HasField("card") for f in diamonds.fields] == [True, False, True]
    assert diamonds.fields[2].card == pb.Valuable(id=14, kind=kind(14))
    assert message.fields[4].location == pb.LOCATION_BANK and not message.fields[4].fields
    assert [f.HasField("card") for f in message.river] == [False, True, True]
    assert message.river[2].card == pb.Valuable(id=100, kind="document")  # the first joker
    assert message.deck_size == 12
    assert [(c.id, c.kind) for c in message.discard] == [(c, kind(c)) for c in (1, 2, 100)]
    first = message.stashes[0].slots
    assert (first[0].kind, [c.id for c in first[0].cards]) == ("coins", [3, 102])
    assert [c.kind for c in first[0].cards] == ["coins", "document"]
    assert (first[1].kind, [c.id for c in first[1].cards]) == ("", [101]), "documents only"
    assert (first[2].kind, list(first[2].cards)) == ("", [])
    assert [slot.kind for slot in message.stashes[2].slots] == [
        "statues",
        "paintings",
        "jewels",
    ]
    assert [(c.id, c.kind) for c in message.hand] == [(5, "coins"), (72, "jewels")]
    assert list(message.hand_sizes) == [0, 2, 0, 1, 0]
    assert [c.id for c in message.sold] == [6, 7]
    assert list(message.sold_counts) == [0, 2, 4, 0, 1]
    assert list(message.chosen_seats) == [0, 1, 2, 3, 4]
    assert message.my_choice == pb.LOCATION_BANK
    assert list(message.choices) == [
        pb.LOCATION_DIAMONDS,
        pb.LOCATION_BANK,
        pb.LOCATION_DIAMONDS,
        pb.LOCATION_HEARTS,
        pb.LOCATION_DIAMONDS,
    ]
    assert message.heist == pb.LOCATION_DIAMONDS
    assert list(message.present) == [4, 0, 2]
    assert [(t.seat, t.last) for t in message.takes] == [(0, False), (2, False), (4, True)]
    assert (message.passage_open, message.passage_due, message.dog_due) == (False, True, True)
    assert list(message.curse_turns) == [0, 2]
    assert list(message.river_turns) == [0, 1]
    assert list(message.selling) == [4]
    assert list(message.gordie_due) == [3]
    assert (message.vault, message.vault_value) == (2, 4)
    assert message.HasField("rufus_holder") and message.rufus_holder == 0
    assert not message.HasField("gordie_holder")
    assert message.HasField("lisa_mona_holder") and message.lisa_mona_holder == 0
    assert message.lisa_mona_points == 5
    assert (message.diamonds_left, list(message.diamonds)) == (1, [0, 1, 0, 0, 0])
    assert (message.clues_left, list(message.clues)) == (3, [1, 0, 1, 0, 0])
    assert (message.letter, message.letter_opened) == (pb.LOCATION_SPADES, True)
    assert list(message.letter_read_by) == [0, 2]
    assert [(c.id, c.points) for c in message.curses] == [(0, 1), (5, 3)]
    assert list(message.curse_counts) == [1, 2, 0, 0, 0]
    assert message.curse_pile == 3
    assert list(message.result.winners) == [0, 1]
    assert [s.total for s in message.result.scores] == [15, 15, 10]


def test_a_quiet_view_leaves_the_optionals_unset() -> None:
    quiet = msgspec.structs.replace(
        FULL_VIEW,
        viewer=None,
        my_choice=None,
        choices=(),
        heist=None,
        rufus_holder=None,
        gordie_holder=None,
        lisa_mona_holder=None,
        letter=None,
        result=None,
        hand=(),
        sold=(),
        curses=(),
    )
    message = _view(quiet)
    assert message.my_choice == message.heist == message.letter == pb.LOCATION_UNSPECIFIED
    assert not message.choices and not message.hand and not message.sold and not message.curses
    for name in ("rufus_holder", "gordie_holder", "lisa_mona_holder", "result"):
        assert not message.HasField(name), name


def test_kinds_follow_the_games_own_table() -> None:
    table = Components(
        kinds=(
            ValuableKind("rubies", 2, (Sale(1, 1),)),
            ValuableKind("gold_bars", 3, (Sale(2, 1),)),  # rubies, rarer, sell for more
        ),
        jokers=1,
        curses=DEFAULT.curses,
        vault_standard=(0, 1),
        vault_crown=(1, 2),
        fields=2,
    )
    config = GAME.make_config(5, {"setup": "the_whole_package", "components": table})
    state = msgspec.structs.replace(
        GAME.new_game(config, b"kinds"),
        fields=((0, None), (1, None), (None, None), (4, None), ()),
        river=(None, None, 2),
        discard=(),
        hands=((0, 1, 2, 4, 5), (), (), (), ()),
        sold=((3,), (), (), (), ()),
        stashes=((Slot(1, (3, 5)), Slot(), Slot()),) * 5,
    )
    message = _view(view(state, 0))
    assert [c.kind for c in message.hand] == [
        "rubies",
        "rubies",
        "gold_bars",
        "gold_bars",
        "document",
    ]
    assert message.stashes[0].slots[0].kind == "gold_bars"
    assert message.components.kinds[0] == pb.PinchedComponents.ValuableKind(
        name="rubies", copies=2, sales=[pb.PinchedComponents.Sale(threshold=1, value=1)]
    )


def _playout(config: PinchedConfig, seed: bytes) -> list[tuple[PinchedState, list[ev.Event]]]:
    rng = random.Random(seed)
    state = GAME.new_game(config, seed)
    steps: list[tuple[PinchedState, list[ev.Event]]] = [(state, [])]
    while GAME.outcome(state) is None:
        seat = rng.choice(sorted(GAME.to_act(state)))
        state, events = GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        steps.append((state, events))
    return steps


@pytest.mark.parametrize("setup", ["cursed_secrets", "search_for_lisa_mona"])
def test_every_view_and_event_of_a_real_game_translates(setup: str) -> None:
    players, _ = RECOMMENDED[setup]
    config = GAME.make_config(players, {"setup": setup})
    kinds = kinds_of(config.components)
    names = [kind.name for kind in config.components.kinds]
    for state, events in _playout(config, setup.encode()):
        for viewer in (None, *range(players)):
            message = _view(view(state, viewer))
            assert len(message.stashes) == players
            for card in (*message.hand, *message.discard, *message.sold):
                expected = "document" if kinds[card.id] == JOKER else names[kinds[card.id]]
                assert card.kind == expected
            for event in events:
                seen = view_event(event, viewer)
                if seen is not None:
                    assert event_from_proto(CODEC.event_to_proto(seen)) == seen


# --- options ---------------------------------------------------------------------------

TABLE = Components(
    kinds=(
        ValuableKind("coins", 10, (Sale(3, 1), Sale(6, 4))),
        ValuableKind("gold_bars", 9, (Sale(2, 1), Sale(3, 2), Sale(4, 4))),
        ValuableKind("cameos", 4, (Sale(2, 2), Sale(3, 3), Sale(4, 4), Sale(5, 5))),
    ),
    jokers=2,
    curses=(1, 2, 3, 1, 2, 3),
    vault_standard=(0, 2, 3),
    vault_crown=(1, 2, 4, 6),
    fields=2,
    tiebreak_kind="cameos",
)

CONFIGS = [
    *(
        PinchedConfig(players, locations, DEFAULT, RULES_REVISION)
        for players, locations in BASIC.items()
    ),
    *(
        PinchedConfig(players, locations, DEFAULT, RULES_REVISION)
        for players, locations in RECOMMENDED.values()
    ),
    PinchedConfig(
        3,
        (Placement(C, Side.CROWN), Placement(S, Side.STANDARD), Placement(H, Side.STANDARD)),
        TABLE,
        RULES_REVISION,
    ),
    PinchedConfig(4, (Placement(D, Side.CROWN), Placement(B, Side.CROWN)), DEFAULT, RULES_REVISION),
    PinchedConfig(2, BASIC[2], TABLE, RULES_REVISION),
]


@pytest.mark.parametrize("config", CONFIGS, ids=repr)
def test_options_round_trip(config: PinchedConfig) -> None:
    message = CODEC.options_to_proto(config)
    assert message.WhichOneof("game") == "pinched"
    options = CODEC.options_from_proto(message)
    assert GAME.make_config(config.players, options) == config
    parsed = json_format.Parse(json_format.MessageToJson(message), game_pb2.TableOptions())
    assert GAME.make_config(config.players, CODEC.options_from_proto(parsed)) == config


def test_the_rules_setups_go_by_name_and_the_table_is_always_given() -> None:
    basic = CODEC.options_to_proto(PinchedConfig(3, BASIC[3], DEFAULT)).pinched
    assert (basic.setup, list(basic.locations)) == ("basic", [])
    assert basic.components == components_to_proto(DEFAULT)
    named = CODEC.options_to_proto(PinchedConfig(5, FIVE, DEFAULT)).pinched
    assert named.setup == "the_whole_package"
    custom = CODEC.options_to_proto(CONFIGS[-2]).pinched
    assert custom.setup == ""
    assert [(p.location, p.side) for p in custom.locations] == [
        (pb.LOCATION_DIAMONDS, pb.SIDE_CROWN),
        (pb.LOCATION_BANK, pb.SIDE_CROWN),
    ]


def _options(**given: typing.Any) -> game_pb2.TableOptions:
    return game_pb2.TableOptions(pinched=pb.PinchedOptions(**given))


def test_only_the_options_set_reach_the_engine() -> None:
    assert CODEC.options_from_proto(game_pb2.TableOptions()) == {}
    assert CODEC.options_from_proto(_options()) == {}
    assert CODEC.options_from_proto(_options(setup="cursed_secrets")) == {"setup": "cursed_secrets"}
    given = _options(
        locations=[
            pb.LocationSide(location=pb.LOCATION_HEARTS, side=pb.SIDE_CROWN),
            pb.LocationSide(location=pb.LOCATION_DIAMONDS, side=pb.SIDE_STANDARD),
        ]
    )
    assert CODEC.options_from_proto(given) == {
        "locations": (Placement(H, Side.CROWN), Placement(D, Side.STANDARD))
    }
    with_table = CODEC.options_from_proto(_options(components=components_to_proto(TABLE)))
    assert with_table == {"components": TABLE}
    # both given: passed on as given, for the engine to refuse
    both = CODEC.options_from_proto(_options(setup="basic", locations=given.pinched.locations))
    assert set(both) == {"setup", "locations"}


def test_json_options_from_a_frontend() -> None:
    text = (
        '{"pinched": {"locations": [{"location": "LOCATION_CLUBS", "side": "SIDE_CROWN"},'
        ' {"location": "LOCATION_HEARTS", "side": "SIDE_STANDARD"}]}}'
    )
    options = CODEC.options_from_proto(json_format.Parse(text, game_pb2.TableOptions()))
    assert GAME.make_config(2, options).locations == (
        Placement(C, Side.CROWN),
        Placement(H, Side.STANDARD),
    )


def test_an_empty_tiebreak_kind_is_the_rules_gold_bars() -> None:
    message = components_to_proto(DEFAULT)
    message.ClearField("tiebreak_kind")
    options = CODEC.options_from_proto(_options(components=message))
    assert options["components"] == DEFAULT


def _bad_options(options: game_pb2.TableOptions) -> str:
    with pytest.raises(Malformed) as caught:
        CODEC.options_from_proto(options)
    return caught.value.reason


def test_bad_option_shapes() -> None:
    other = game_pb2.TableOptions(gang_of_four=gang_of_four_pb2.GangOfFourOptions())
    assert _bad_options(other) == "OPTIONS_FOR_OTHER_GAME"
    for placement in (
        pb.LocationSide(side=pb.SIDE_CROWN),
        pb.LocationSide(location=pb.LOCATION_CLUBS),
        pb.LocationSide(location=8, side=pb.SIDE_CROWN),  # type: ignore[arg-type]
    ):
        assert _bad_options(_options(locations=[placement])) == "BAD_LOCATIONS"
    document = components_to_proto(DEFAULT)
    document.kinds[1].name = "document"
    with pytest.raises(InvalidConfigError) as refused:  # the engine reserves the name
        GAME.make_config(4, CODEC.options_from_proto(_options(components=document)))
    assert refused.value.reason == "BAD_COMPONENTS"
    for copies, jokers in ((MAX_CARDS, 4), (14, 2**31 - 1)):
        huge = components_to_proto(DEFAULT)
        huge.kinds[0].copies, huge.jokers = copies, jokers
        options = CODEC.options_from_proto(_options(components=huge))
        with pytest.raises(InvalidConfigError) as caught:
            GAME.make_config(4, options)
        assert caught.value.reason == "BAD_COMPONENTS"
