"""Pinched! through gRPC on real Redis: whole games watched and verified, sealed choices,
bad options and bad moves."""

from __future__ import annotations

import asyncio
import random
import uuid
from dataclasses import dataclass, field

import grpc
import pytest
from redis.asyncio import Redis

from engines.pinched.components import JOKER, Components, Sale, ValuableKind, kinds_of
from referee.client.calls import gathered_history
from referee.codecs import CODECS
from referee.codecs.game import DerivedCodec
from referee.v1 import game_pb2, gang_of_four_pb2, referee_pb2
from referee.v1 import pinched_pb2 as pb
from service.edge.verify import verify_history
from tests.service.table import Metadata, Stub, auth, reason_of, stored_bytes

PM = pb.PinchedMove
CROWN, STANDARD = pb.SIDE_CROWN, pb.SIDE_STANDARD
HIDDEN_PHASES = (pb.PINCHED_PHASE_DOGS, pb.PINCHED_PHASE_PLAN)


_CODEC = CODECS["pinched"]
assert isinstance(_CODEC, DerivedCodec)
_TABLE = pb.PinchedComponents.DESCRIPTOR
components_from_proto = _CODEC.deriver.decoder(Components, _TABLE)


def components_to_proto(table: Components) -> pb.PinchedComponents:
    """The table's message: a copy, as the encoder's own is cached (shared by every view)."""
    message = pb.PinchedComponents()
    message.CopyFrom(_CODEC.deriver.encoder(Components, _TABLE)(table))
    return message


def place(location: pb.Location.ValueType, side: pb.Side.ValueType) -> pb.LocationSide:
    return pb.LocationSide(location=location, side=side)


def options(
    setup: str = "",
    locations: list[pb.LocationSide] | None = None,
    components: Components | None = None,
) -> game_pb2.TableOptions:
    return game_pb2.TableOptions(
        pinched=pb.PinchedOptions(
            setup=setup,
            locations=locations or [],
            components=components_to_proto(components) if components is not None else None,
        )
    )


@dataclass
class Table:
    stub: Stub
    game_id: str
    tokens: list[str]
    created: referee_pb2.CreateGameResponse
    sent: list[referee_pb2.SubmitMoveResponse] = field(default_factory=list)

    @classmethod
    async def create(
        cls, stub: Stub, seats: int, seed: bytes, given: game_pb2.TableOptions | None = None
    ) -> Table:
        created = await stub.CreateGame(
            referee_pb2.CreateGameRequest(
                game="pinched",
                seats=seats,
                seed=seed,
                allow_spectators=True,
                options=given or game_pb2.TableOptions(),
            )
        )
        return cls(stub, created.game_id, [t.token for t in created.seat_tokens], created)

    def md(self, seat: int | None) -> Metadata:
        return auth(None if seat is None else self.tokens[seat])

    async def view(self, seat: int | None) -> game_pb2.View:
        reply = await self.stub.GetView(
            referee_pb2.GetViewRequest(game_id=self.game_id), metadata=self.md(seat)
        )
        return reply.view

    async def legal(self, seat: int) -> list[game_pb2.Move]:
        reply = await self.stub.ListLegalMoves(
            referee_pb2.ListLegalMovesRequest(game_id=self.game_id), metadata=self.md(seat)
        )
        return list(reply.moves)

    async def submit(self, seat: int, move: game_pb2.Move) -> referee_pb2.SubmitMoveResponse:
        reply = await self.stub.SubmitMove(
            referee_pb2.SubmitMoveRequest(
                game_id=self.game_id, move=move, client_move_id=uuid.uuid4().hex
            ),
            metadata=self.md(seat),
        )
        self.sent.append(reply)
        return reply

    async def validate(self, seat: int, move: game_pb2.Move) -> referee_pb2.ValidateMoveResponse:
        return await self.stub.ValidateMove(
            referee_pb2.ValidateMoveRequest(game_id=self.game_id, move=move),
            metadata=self.md(seat),
        )


async def step(table: Table, view: game_pb2.View, rng: random.Random) -> game_pb2.View:
    """One random legal move by a random seat of those to act; the spectator's view after."""
    seat = rng.choice(list(view.to_act))
    moves = await table.legal(seat)
    assert moves, f"seat {seat} is to act, so it has a legal move"
    reply = await table.submit(seat, rng.choice(moves))
    assert reply.view.seat == seat
    _check_own_reply(reply, seat)
    return await table.view(None)


async def play_to_the_end(table: Table, rng: random.Random) -> game_pb2.View:
    view = await table.view(None)
    for _ in range(3000):
        if view.HasField("outcome"):
            return view
        assert view.to_act, "a running game always has a seat to act"
        view = await step(table, view, rng)
    raise AssertionError("the game did not end")


def _kind_names(view: pb.PinchedView) -> list[str]:
    """The kind name of every card id, from the view's own component table."""
    table = components_from_proto(view.components)
    names = [kind.name for kind in table.kinds]
    return ["document" if k == JOKER else names[k] for k in kinds_of(table)]


def _check_own_reply(reply: referee_pb2.SubmitMoveResponse, seat: int) -> None:
    """What the mover got: its own view with its own cards named, others' secrets left out."""
    mine = reply.view.pinched
    names = _kind_names(mine)
    for card in (*mine.hand, *mine.sold, *mine.discard):
        assert card.kind == names[card.id]
    assert len(mine.hand) == mine.hand_sizes[seat]
    assert len(mine.sold) == mine.sold_counts[seat]
    assert len(mine.curses) == mine.curse_counts[seat]
    if mine.phase in HIDDEN_PHASES:
        assert not mine.choices, "nobody sees the others' sealed cards"
    if not mine.letter_opened and seat not in mine.letter_read_by:
        assert mine.letter == pb.LOCATION_UNSPECIFIED
    for event in reply.events:
        _check_event_for(event.pinched, seat)


def _check_event_for(event: pb.PinchedEvent, viewer: int | None) -> None:
    """Hidden parts of others' events are absent."""
    match event.WhichOneof("kind"):
        case "cards_drawn" if event.cards_drawn.seat != viewer:
            assert not event.cards_drawn.cards
        case "location_chosen" if event.location_chosen.seat != viewer:
            assert event.location_chosen.location == pb.LOCATION_UNSPECIFIED
        case "letter_read" if event.letter_read.seat != viewer:
            assert event.letter_read.location == pb.LOCATION_UNSPECIFIED
        case "curse_drawn" if event.curse_drawn.seat != viewer:
            assert not event.curse_drawn.HasField("curse")
        case "curse_passed" if viewer not in (
            event.curse_passed.from_seat,
            event.curse_passed.to_seat,
        ):
            assert not event.curse_passed.HasField("curse")


def _check_spectator(messages: list[referee_pb2.WatchGameResponse]) -> None:
    for message in messages:
        view = message.view.pinched
        assert not message.view.HasField("seat")
        assert not view.hand and not view.sold and not view.curses
        assert view.my_choice == pb.LOCATION_UNSPECIFIED
        if view.phase in HIDDEN_PHASES:
            assert not view.choices
        if not view.letter_opened:
            assert view.letter == pb.LOCATION_UNSPECIFIED
        for event in message.events:
            _check_event_for(event.pinched, None)


async def _watch(table: Table) -> list[referee_pb2.WatchGameResponse]:
    stream = table.stub.WatchGame(referee_pb2.WatchGameRequest(game_id=table.game_id))
    return [message async for message in stream]


CUSTOM_TABLE = Components(
    kinds=(
        ValuableKind("coins", 12, (Sale(3, 1), Sale(5, 3), Sale(7, 4))),
        ValuableKind("gold_bars", 10, (Sale(2, 1), Sale(3, 2), Sale(4, 4))),
        ValuableKind("cameos", 6, (Sale(2, 2), Sale(3, 3), Sale(4, 4), Sale(6, 6))),
    ),
    jokers=3,
    curses=(1, 2, 3, 3, 2, 1),
    vault_standard=(0, 2, 3),
    vault_crown=(1, 2, 4, 6),
    fields=2,
)

GAMES: list[tuple[str, int, game_pb2.TableOptions]] = [
    ("basic-2", 2, game_pb2.TableOptions()),
    ("basic-3", 3, options("basic")),
    ("basic-4", 4, game_pb2.TableOptions(pinched=pb.PinchedOptions())),
    ("basic-5", 5, options("basic")),
    ("paranoid_owner", 2, options("paranoid_owner")),
    ("search_for_lisa_mona", 3, options("search_for_lisa_mona")),
    ("cursed_secrets", 4, options("cursed_secrets")),
    ("the_whole_package", 5, options("the_whole_package")),
    (
        "custom-4",
        4,
        options(
            locations=[
                place(pb.LOCATION_HEARTS, CROWN),
                place(pb.LOCATION_CLUBS, STANDARD),
                place(pb.LOCATION_SPADES, CROWN),
                place(pb.LOCATION_BANK, CROWN),
            ],
            components=CUSTOM_TABLE,
        ),
    ),
]


@pytest.mark.parametrize(("name", "seats", "given"), GAMES, ids=[g[0] for g in GAMES])
async def test_a_whole_game_watched_and_verified(
    stub: Stub, name: str, seats: int, given: game_pb2.TableOptions
) -> None:
    table = await Table.create(stub, seats, f"pinched-{name}".encode(), given)
    setup = table.created.setup.options.pinched
    assert setup.HasField("components"), "the history names the table played with"
    spectator = asyncio.create_task(_watch(table))
    await asyncio.sleep(0.05)
    final = await play_to_the_end(table, random.Random(name))
    watched = await asyncio.wait_for(spectator, 30)

    result = final.pinched.result
    assert final.pinched.phase == pb.PINCHED_PHASE_OVER
    assert list(final.outcome.winners) == list(result.winners)
    best = max(score.total for score in result.scores)
    assert {s.seat for s in result.scores if s.total == best} >= set(result.winners)
    for score in result.scores:
        assert score.total == (
            score.sold + score.lisa_mona + score.diamonds + score.clues - score.curses
        )
        assert score.sold == final.pinched.sold_counts[score.seat]
    days = [e for r in table.sent for e in r.events if e.pinched.HasField("day_ended")]
    assert final.pinched.day == len(days)
    assert watched[-1].view.HasField("outcome")
    versions = [m.version for m in watched]
    assert versions == sorted(set(versions)) and versions[-1] == len(table.sent)
    _check_spectator(watched)

    history = await gathered_history(table.stub.GetHistory, table.game_id)
    assert history.seed and len(history.entries) == len(table.sent)
    assert history.setup.options == table.created.setup.options
    played = {entry.move.pinched.WhichOneof("action") for entry in history.entries}
    assert {"choose_location", "sell", "end_selling", "take_from_river"} <= played
    report = verify_history(history, [m.view for m in watched] + [r.view for r in table.sent])
    assert report.ok, str(report)


def test_the_games_cover_every_seat_count_and_setup() -> None:
    assert {seats for _, seats, _ in GAMES} == {2, 3, 4, 5}
    named = {g.pinched.setup for _, _, g in GAMES}
    assert {"paranoid_owner", "search_for_lisa_mona", "cursed_secrets"} <= named


# --- sealed choices --------------------------------------------------------------------


def choose(location: pb.Location.ValueType) -> game_pb2.Move:
    return game_pb2.Move(pinched=PM(choose_location=PM.ChooseLocation(location=location)))


async def _to_the_morning(table: Table, rng: random.Random) -> game_pb2.View:
    """Play on (randomly) until it is a morning where nobody has chosen yet and nobody owes
    storing (every seat may choose a location, and only that)."""
    view = await table.view(None)
    while True:
        if view.pinched.phase == pb.PINCHED_PHASE_PLAN and not view.pinched.chosen_seats:
            moves = [await table.legal(seat) for seat in range(len(table.tokens))]
            if all(m.pinched.HasField("choose_location") for seat in moves for m in seat):
                return view
        view = await step(table, view, rng)


async def test_a_location_card_stays_sealed_until_everyone_has_chosen(stub: Stub) -> None:
    table = await Table.create(stub, 3, b"sealed", options("search_for_lisa_mona"))
    rng = random.Random(3)
    await _to_the_morning(table, rng)
    reply = await table.submit(1, choose(pb.LOCATION_HEARTS))
    (chosen,) = [e.pinched.location_chosen for e in reply.events]
    assert chosen.location == pb.LOCATION_HEARTS
    assert reply.view.pinched.my_choice == pb.LOCATION_HEARTS
    for viewer in (None, 0, 2):
        other = (await table.view(viewer)).pinched
        assert list(other.chosen_seats) == [1]
        assert other.my_choice == pb.LOCATION_UNSPECIFIED and not other.choices
        history = await table.stub.GetHistory(
            referee_pb2.GetHistoryRequest(game_id=table.game_id), metadata=table.md(viewer)
        )
        last = history.entries[-1]
        assert not last.HasField("move"), "the choice is not in another seat's history"
        assert [e.pinched.location_chosen.location for e in last.events] == [
            pb.LOCATION_UNSPECIFIED
        ]
    own = await table.stub.GetHistory(
        referee_pb2.GetHistoryRequest(game_id=table.game_id), metadata=table.md(1)
    )
    assert own.entries[-1].move.pinched.choose_location.location == pb.LOCATION_HEARTS
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await table.submit(1, choose(pb.LOCATION_CLUBS))
    code, reason, _ = reason_of(caught.value)
    assert (code, reason) == (grpc.StatusCode.FAILED_PRECONDITION, "ALREADY_CHOSEN")
    assert "heart" not in (caught.value.details() or "").lower()
    await table.submit(0, choose(pb.LOCATION_HEARTS))
    reply = await table.submit(2, choose(pb.LOCATION_CLUBS))
    (revealed,) = [
        e.pinched.locations_revealed
        for e in reply.events
        if e.pinched.HasField("locations_revealed")
    ]
    assert revealed.choices[1] == pb.LOCATION_HEARTS
    assert (await table.view(None)).pinched.choices[1] == pb.LOCATION_HEARTS


# --- bad options and bad moves ---------------------------------------------------------

BAD_TABLE = components_to_proto(CUSTOM_TABLE)
del BAD_TABLE.curses[-1]
DOCUMENTS = components_to_proto(CUSTOM_TABLE)
DOCUMENTS.kinds[2].name = "document"
AGAINST_RARITY = components_to_proto(CUSTOM_TABLE)
AGAINST_RARITY.kinds[2].sales[-1].value = 3  # cameos, the rarest, would sell below coins

BAD_OPTIONS: list[tuple[str, int, game_pb2.TableOptions, str]] = [
    ("unknown-setup", 3, options("grand_heist"), "BAD_OPTION"),
    ("setup-for-5", 3, options("the_whole_package"), "SETUP_NOT_FOR_PLAYERS"),
    (
        "crown-diamonds-for-2",
        2,
        options(locations=[place(pb.LOCATION_DIAMONDS, CROWN), place(pb.LOCATION_CLUBS, STANDARD)]),
        "SIDE_NOT_FOR_PLAYERS",
    ),
    (
        "bank-for-3",
        3,
        options(locations=[place(pb.LOCATION_CLUBS, STANDARD), place(pb.LOCATION_BANK, CROWN)]),
        "SIDE_NOT_FOR_PLAYERS",
    ),
    (
        "five-without-bank",
        5,
        options(
            locations=[
                place(pb.LOCATION_DIAMONDS, STANDARD),
                place(pb.LOCATION_CLUBS, STANDARD),
                place(pb.LOCATION_SPADES, STANDARD),
                place(pb.LOCATION_HEARTS, STANDARD),
            ]
        ),
        "BANK_REQUIRED",
    ),
    (
        "standard-bank",
        4,
        options(locations=[place(pb.LOCATION_CLUBS, STANDARD), place(pb.LOCATION_BANK, STANDARD)]),
        "BAD_LOCATIONS",
    ),
    ("one-location", 2, options(locations=[place(pb.LOCATION_CLUBS, STANDARD)]), "BAD_LOCATIONS"),
    (
        "no-side",
        2,
        options(locations=[pb.LocationSide(location=pb.LOCATION_CLUBS)]),
        "BAD_LOCATIONS",
    ),
    (
        "setup-and-locations",
        2,
        game_pb2.TableOptions(
            pinched=pb.PinchedOptions(
                setup="basic",
                locations=[place(pb.LOCATION_CLUBS, STANDARD), place(pb.LOCATION_HEARTS, CROWN)],
            )
        ),
        "BAD_OPTION",
    ),
    (
        "five-curses",
        4,
        game_pb2.TableOptions(pinched=pb.PinchedOptions(components=BAD_TABLE)),
        "BAD_COMPONENTS",
    ),
    (
        "document-kind",
        4,
        game_pb2.TableOptions(pinched=pb.PinchedOptions(components=DOCUMENTS)),
        "BAD_COMPONENTS",
    ),
    (
        "rarer-sells-for-less",
        4,
        game_pb2.TableOptions(pinched=pb.PinchedOptions(components=AGAINST_RARITY)),
        "BAD_COMPONENTS",
    ),
    ("six-seats", 6, game_pb2.TableOptions(), "SEAT_COUNT_UNSUPPORTED"),
    ("one-seat", 1, game_pb2.TableOptions(), "SEAT_COUNT_UNSUPPORTED"),
    (
        "other-game",
        4,
        game_pb2.TableOptions(gang_of_four=gang_of_four_pb2.GangOfFourOptions()),
        "OPTIONS_FOR_OTHER_GAME",
    ),
]


@pytest.mark.parametrize(
    ("name", "seats", "given", "reason"), BAD_OPTIONS, ids=[b[0] for b in BAD_OPTIONS]
)
async def test_bad_options_get_the_reason(
    stub: Stub, name: str, seats: int, given: game_pb2.TableOptions, reason: str
) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stub.CreateGame(
            referee_pb2.CreateGameRequest(game="pinched", seats=seats, options=given)
        )
    assert reason_of(caught.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, reason)


async def _refused(
    table: Table, raw_redis: Redis, seat: int, move: game_pb2.Move
) -> tuple[grpc.StatusCode, str]:
    before = await stored_bytes(raw_redis, table.game_id)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await table.submit(seat, move)
    assert await stored_bytes(raw_redis, table.game_id) == before, "a rejection changes nothing"
    code, reason, _ = reason_of(caught.value)
    return code, reason


async def test_a_move_out_of_turn_is_refused_and_changes_nothing(
    stub: Stub, raw_redis: Redis
) -> None:
    table = await Table.create(stub, 3, b"out-of-turn", options("basic"))
    rng = random.Random(7)
    view = await table.view(None)
    while not view.HasField("outcome"):
        p = view.pinched
        if (
            p.phase == pb.PINCHED_PHASE_AFTER
            and len(p.river_turns) >= 2
            and p.river_turns[1] not in view.to_act
            and any(f.HasField("card") for f in p.river)
        ):
            break
        view = await step(table, view, rng)
    else:
        raise AssertionError("no day with two river picks to come")
    waiting = view.pinched.river_turns[1]
    field = next(f.field for f in view.pinched.river if f.HasField("card"))
    take = game_pb2.Move(pinched=PM(take_from_river=PM.TakeFromRiver(field=field)))
    assert await _refused(table, raw_redis, waiting, take) == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "NOT_YOUR_TURN",
    )
    assert not await table.legal(waiting)
    checked = await table.validate(waiting, take)
    assert (checked.legal, checked.reason) == (False, "NOT_YOUR_TURN")
    assert (await table.view(None)).version == view.version


async def test_bad_moves_get_their_reasons(stub: Stub, raw_redis: Redis) -> None:
    table = await Table.create(stub, 2, b"bad-moves", options("basic"))
    view = await _to_the_morning(table, random.Random(11))
    seat = view.pinched.mastermind
    cases: list[tuple[game_pb2.Move, grpc.StatusCode, str]] = [
        (game_pb2.Move(pinched=PM()), grpc.StatusCode.INVALID_ARGUMENT, "MOVE_EMPTY"),
        (choose(pb.LOCATION_UNSPECIFIED), grpc.StatusCode.INVALID_ARGUMENT, "LOCATION_MISSING"),
        (
            game_pb2.Move(pinched=PM(take_dog=PM.TakeDog())),
            grpc.StatusCode.INVALID_ARGUMENT,
            "DOG_MISSING",
        ),
        (
            game_pb2.Move(
                gang_of_four=gang_of_four_pb2.GangOfFourMove(
                    give_back=gang_of_four_pb2.GangOfFourMove.GiveBack(
                        card=gang_of_four_pb2.GangOfFourCard(
                            value=3, colour=gang_of_four_pb2.GANG_OF_FOUR_COLOUR_RED
                        )
                    )
                )
            ),
            grpc.StatusCode.INVALID_ARGUMENT,
            "MOVE_FOR_OTHER_GAME",
        ),
        (choose(pb.LOCATION_BANK), grpc.StatusCode.FAILED_PRECONDITION, "LOCATION_NOT_IN_PLAY"),
        (
            game_pb2.Move(pinched=PM(take_card=PM.TakeCard(field=0))),
            grpc.StatusCode.FAILED_PRECONDITION,
            "NOT_NOW",
        ),
        (
            game_pb2.Move(pinched=PM(take_from_river=PM.TakeFromRiver(field=0))),
            grpc.StatusCode.FAILED_PRECONDITION,
            "NOT_NOW",
        ),
        (
            game_pb2.Move(pinched=PM(sell=PM.Sell(slot=0))),
            grpc.StatusCode.FAILED_PRECONDITION,
            "NOT_SELLING",
        ),
    ]
    for move, code, reason in cases:
        assert await _refused(table, raw_redis, seat, move) == (code, reason), reason
