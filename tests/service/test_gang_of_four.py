"""Gang of Four through gRPC on real Redis: whole games, the views, and bad input."""

from __future__ import annotations

import asyncio
import random
import uuid

import grpc
import pytest
from redis.asyncio import Redis

from referee.client.calls import gathered_history
from referee.v1 import game_pb2, referee_pb2
from referee.v1 import gang_of_four_pb2 as pb
from service.edge.verify import verify_history
from tests.service.table import Metadata, Stub, auth, reason_of, stored_bytes

GM = pb.GangOfFourMove


class Table:
    def __init__(self, stub: Stub, game_id: str, tokens: list[str]) -> None:
        self.stub, self.game_id, self.tokens = stub, game_id, tokens

    @classmethod
    async def create(cls, stub: Stub, seats: int, seed: bytes, *, auto: bool = False) -> Table:
        created = await stub.CreateGame(
            referee_pb2.CreateGameRequest(
                game="gang_of_four",
                seats=seats,
                seed=seed,
                allow_spectators=True,
                options=game_pb2.TableOptions(
                    gang_of_four=pb.GangOfFourOptions(auto_announce_last_card=auto)
                ),
            )
        )
        return cls(stub, created.game_id, [t.token for t in created.seat_tokens])

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
        return await self.stub.SubmitMove(
            referee_pb2.SubmitMoveRequest(
                game_id=self.game_id, move=move, client_move_id=uuid.uuid4().hex
            ),
            metadata=self.md(seat),
        )


def play(*codes: str, announce: bool = False) -> game_pb2.Move:
    cards = [_card(code) for code in codes]
    return game_pb2.Move(gang_of_four=GM(play=GM.Play(cards=cards, announce_last_card=announce)))


def _card(code: str) -> pb.GangOfFourCard:
    colours = {
        "g": pb.GANG_OF_FOUR_COLOUR_GREEN,
        "y": pb.GANG_OF_FOUR_COLOUR_YELLOW,
        "r": pb.GANG_OF_FOUR_COLOUR_RED,
        "m": pb.GANG_OF_FOUR_COLOUR_MULTICOLOURED,
    }
    value = {"P": 11, "D": 12}.get(code[1:]) or int(code[1:])
    return pb.GangOfFourCard(value=value, colour=colours[code[0]])


def _shed_most(moves: list[game_pb2.Move], rng: random.Random) -> game_pb2.Move:
    """Mostly the play that sheds the most cards (games end sooner), now and then any."""
    plays = [m for m in moves if m.gang_of_four.WhichOneof("action") == "play"]
    if plays and rng.random() < 0.9:
        return max(plays, key=lambda m: len(m.gang_of_four.play.cards))
    return rng.choice(moves)


async def play_game(table: Table, seats: int, seed: int) -> list[game_pb2.View]:
    """Plays to the end; returns every view a seat got back, in order."""
    rng = random.Random(seed)
    views = [await table.view(0)]
    while not views[-1].HasField("outcome"):
        (seat,) = views[-1].to_act
        moves = await table.legal(seat)
        assert moves, "the seat to act always has a legal move"
        reply = await table.submit(seat, _shed_most(moves, rng))
        views.append(reply.view)
    return views


@pytest.mark.parametrize("seats", [3, 4])
async def test_a_whole_game_to_100_points(stub: Stub, seats: int) -> None:
    table = await Table.create(stub, seats, f"gof-{seats}".encode())
    spectator = asyncio.create_task(_watch(table))
    await asyncio.sleep(0.05)
    views = await play_game(table, seats, seats)
    final = views[-1]
    gof = final.gang_of_four
    assert max(gof.totals) >= 100
    assert list(final.outcome.winners) == [
        seat for seat, total in enumerate(gof.totals) if total == min(gof.totals)
    ]
    assert [sum(r.points[seat] for r in gof.results) for seat in range(seats)] == list(gof.totals)
    seen = [v.gang_of_four for v in views]
    assert {v.direction for v in seen} == {pb.DIRECTION_COUNTER_CLOCKWISE, pb.DIRECTION_CLOCKWISE}
    assert any(v.HasField("exchange") and v.exchange.HasField("returned") for v in seen)
    assert any(v.current and v.HasField("current_by") for v in seen)
    assert any(v.passed for v in seen)
    assert any(v.announced or v.out for v in seen)
    watched = await asyncio.wait_for(spectator, 30)
    assert watched[-1].view.HasField("outcome")
    assert all(not m.view.gang_of_four.cards for m in watched), "a spectator sees no hand"
    # After the end everything is public, and not one version earlier.
    revealed = [m.version for m in watched if m.view.gang_of_four.revealed_hands]
    assert revealed == [watched[-1].version]
    shown = watched[-1].view.gang_of_four
    assert [hand.seat for hand in shown.revealed_hands] == list(range(seats))
    assert [len(hand.cards) for hand in shown.revealed_hands] == list(gof.card_counts)
    assert len(shown.revealed_set_aside) == (16 if seats == 3 else 0)
    assert shown.revealed_hands == gof.revealed_hands
    history = await gathered_history(table.stub.GetHistory, table.game_id)
    report = verify_history(history, [m.view for m in watched])
    assert report.ok, str(report)


async def _watch(table: Table) -> list[referee_pb2.WatchGameResponse]:
    stream = table.stub.WatchGame(referee_pb2.WatchGameRequest(game_id=table.game_id))
    return [message async for message in stream]


async def test_each_seat_sees_its_own_hand_and_every_count(stub: Stub) -> None:
    table = await Table.create(stub, 3, b"views")
    views = [await table.view(seat) for seat in range(3)]
    hands = [[c.code for c in v.gang_of_four.cards] for v in views]
    for seat, v in enumerate(views):
        assert v.seat == seat
        assert len(hands[seat]) == 16 == v.gang_of_four.card_counts[seat]
        assert v.gang_of_four.set_aside_count == 16
    spectator = await table.view(None)
    assert not spectator.gang_of_four.cards
    assert list(spectator.gang_of_four.card_counts) == [16, 16, 16]


async def _first_turn(table: Table) -> tuple[int, list[str]]:
    view = await table.view(0)
    (seat,) = view.to_act
    mine = await table.view(seat)
    return seat, [c.code for c in mine.gang_of_four.cards]


async def test_bad_input_gets_a_reason_and_changes_nothing(stub: Stub, raw_redis: Redis) -> None:
    table = await Table.create(stub, 4, b"bad-input")
    seat, hand = await _first_turn(table)
    other = (seat + 1) % 4
    other_hand = [c.code for c in (await table.view(other)).gang_of_four.cards]
    not_mine = next(code for code in other_hand if code not in hand)
    lead = next(m for m in await table.legal(seat) if len(m.gang_of_four.play.cards) == 1)
    cases = [
        (seat, play(not_mine), grpc.StatusCode.FAILED_PRECONDITION, "CARDS_NOT_IN_HAND"),
        (other, lead, grpc.StatusCode.FAILED_PRECONDITION, "NOT_YOUR_TURN"),
        (seat, game_pb2.Move(gang_of_four=GM()), grpc.StatusCode.INVALID_ARGUMENT, "MOVE_EMPTY"),
        (
            seat,
            game_pb2.Move(gang_of_four=GM(give_back=GM.GiveBack(card=_card(hand[0])))),
            grpc.StatusCode.FAILED_PRECONDITION,
            "NO_EXCHANGE",
        ),
        (seat, play(*_no_combination(hand)), grpc.StatusCode.INVALID_ARGUMENT, "NOT_A_COMBINATION"),
    ]
    for who, move, code, reason in cases:
        before = await stored_bytes(raw_redis, table.game_id)
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await table.submit(who, move)
        assert reason_of(caught.value)[:2] == (code, reason)
        assert await stored_bytes(raw_redis, table.game_id) == before


def _no_combination(hand: list[str]) -> tuple[str, str]:
    """Two of the hand's cards of different values, neither a Phoenix: no combination."""
    plain = [code for code in hand if code[1:] not in {"P", "D"}]
    first = plain[0]
    second = next(code for code in plain if code[1:] != first[1:])
    return first, second


async def test_weaker_plays_and_wrong_counts_are_refused(stub: Stub, raw_redis: Redis) -> None:
    table = await Table.create(stub, 4, b"weaker")
    seat, _ = await _first_turn(table)
    lead = next(m for m in await table.legal(seat) if len(m.gang_of_four.play.cards) == 1)
    await table.submit(seat, lead)
    (nxt,) = (await table.view(None)).to_act
    hand = [c.code for c in (await table.view(nxt)).gang_of_four.cards]
    current = (await table.view(None)).gang_of_four.current[0]
    weaker = [
        code
        for code, c in zip(hand, (await table.view(nxt)).gang_of_four.cards, strict=True)
        if (c.value, c.colour) < (current.value, current.colour)
    ]
    assert weaker, "the seed gives the next seat a card below the lead"
    before = await stored_bytes(raw_redis, table.game_id)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await table.submit(nxt, play(weaker[0]))
    assert reason_of(caught.value)[:2] == (grpc.StatusCode.FAILED_PRECONDITION, "WEAKER_PLAY")
    assert await stored_bytes(raw_redis, table.game_id) == before
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await table.submit(nxt, play(*_no_combination(hand)))
    assert reason_of(caught.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "NOT_A_COMBINATION")
    pairs = [m for m in await table.legal(nxt) if len(m.gang_of_four.play.cards) == 2]
    assert not pairs, "only singles (or Gangs) may follow a single"
    legal = await table.legal(nxt)
    assert legal[0].gang_of_four.WhichOneof("action") == "pass"
