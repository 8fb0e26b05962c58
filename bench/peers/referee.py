"""The referee's side of bench.peers: Gang of Four tables paced to the peers' game length.

Both faces replay games planned ahead by :func:`bench.play_stream.plan` (a seeded local
replay of the engine, the seat to act playing its first legal move), cut to the peers'
mean moves per game: after that many moves a table is left and a new one created (with
its seat tokens), as the peers start a new match.

- **Play**: :class:`bench.play_stream.TableLoad` (4 seats, each its own stream and
  connection; prepared request bytes, answers read by their first byte only).
- **Unary**: :class:`UnaryLoad`, the same plans sent as ``SubmitMove`` calls (prepared
  bytes, the answer never parsed), one connection per seat, nobody watching.

:func:`check` refuses to go on unless the referee refuses an illegal move, typed, and
keeps other hands out of a seat's view.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import grpc
from google.protobuf.message import Message

from bench.e2e import CHANNEL_OPTIONS, Metadata, Stats, Worker, reason_of
from bench.play_stream import Plan, plan
from engines.gang_of_four import GAME
from engines.gang_of_four.moves import Play
from referee.v1 import gang_of_four_pb2, referee_pb2, referee_pb2_grpc
from service.edge.translate import moves_to_proto

if TYPE_CHECKING:
    from referee.v1.referee_pb2_grpc import RefereeServiceAsyncStub

SEATS = 4
SUBMIT_PATH = "/referee.v1.RefereeService/SubmitMove"


def plans(count: int, moves: int) -> list[Plan]:
    """``count`` Gang of Four games of 4 seats, each cut to ``moves`` moves."""
    return [plan(f"bench-peers-{n}".encode(), SEATS, moves) for n in range(count)]


def unary_bodies(game: Plan) -> tuple[bytes, ...]:
    """The plan's moves as ``SubmitMoveRequest`` bytes without the game id (prefixed per
    table: serialised messages concatenate into their merge)."""
    bodies = []
    for submit in game.submits:
        sent = referee_pb2.PlayRequest.FromString(submit).submit
        request = referee_pb2.SubmitMoveRequest(
            move=sent.move,
            client_move_id=sent.client_move_id,
            expected_version=sent.expected_version,
        )
        bodies.append(request.SerializeToString())
    return tuple(bodies)


class UnaryLoad:
    """``tables`` tables of 4 seats, each with one SubmitMove in flight, replaying plans."""

    def __init__(self, address: str, tables: int, games: Sequence[Plan]) -> None:
        self.games = [(game, unary_bodies(game)) for game in games]
        self.channels = [
            grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS)
            for _ in range(tables * SEATS)
        ]
        self.created = self.finished = 0
        self.workers: list[Worker] = [self._worker(n) for n in range(tables)]

    async def close(self) -> None:
        for channel in self.channels:
            await channel.close(grace=None)

    def _worker(self, table: int) -> Worker:
        channels = self.channels[table * SEATS : (table + 1) * SEATS]
        stub = referee_pb2_grpc.RefereeServiceStub(channels[0])
        submit = [
            channel.unary_unary(SUBMIT_PATH, request_serializer=None, response_deserializer=None)
            for channel in channels
        ]

        async def work(stats: Stats, stop: asyncio.Event) -> None:
            while not stop.is_set():
                game, bodies = self.games[(table + self.created) % len(self.games)]
                self.created += 1
                created = await stub.CreateGame(
                    referee_pb2.CreateGameRequest(game="gang_of_four", seats=SEATS, seed=game.seed)
                )
                prefix = referee_pb2.SubmitMoveRequest(game_id=created.game_id).SerializeToString()
                metadata: list[Metadata] = [
                    (("authorization", f"Bearer {token.token}"),) for token in created.seat_tokens
                ]
                for seat, body in zip(game.seats, bodies, strict=True):
                    if stop.is_set():
                        return
                    started = time.perf_counter()
                    try:
                        await submit[seat](prefix + body, metadata=metadata[seat])
                    except grpc.aio.AioRpcError as error:
                        stats.failure(reason_of(error))
                        break  # off the plan: a new table
                    stats.success(time.perf_counter() - started)
                else:
                    self.finished += 1

        return work


# --- the validation and redaction check ---------------------------------------------------


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str


def card_lists(message: Message) -> list[list[str]]:
    """Every list of Gang of Four cards in ``message`` (any depth), as codes."""
    found: list[list[str]] = []
    for field, value in message.ListFields():
        if field.message_type is None:
            continue
        values: list[Any] = [value] if isinstance(value, Message) else list(value)  # repeated
        if field.message_type.full_name == gang_of_four_pb2.GangOfFourCard.DESCRIPTOR.full_name:
            found.append(sorted(card.code for card in values))
            continue
        for item in values:
            found.extend(card_lists(item))
    return found


def redaction(view: Message, hands: Sequence[Sequence[str]], seat: int) -> Check:
    """A seat's view shows its own hand and no other seat's."""
    lists = card_lists(view)
    leaked = [other for other, hand in enumerate(hands) if other != seat and sorted(hand) in lists]
    ok = not leaked and sorted(hands[seat]) in lists
    detail = f"shows the hands of seats {leaked}" if leaked else "its own hand only"
    return Check(f"redacted: seat {seat}'s view", ok, detail)


@dataclass(frozen=True)
class CheckTable:
    """The checks' table: its id, each seat's authorization header, and a stub."""

    stub: RefereeServiceAsyncStub
    game_id: str
    metadata: list[Metadata]

    async def submit(self, move: Any, md: Metadata, move_id: str) -> str:
        """``accepted`` or ``CODE REASON`` of a refusal."""
        request = referee_pb2.SubmitMoveRequest(
            game_id=self.game_id,
            move=moves_to_proto("gang_of_four", [move])[0],
            client_move_id=move_id,
        )
        try:
            await self.stub.SubmitMove(request, metadata=md)
        except grpc.aio.AioRpcError as error:
            return reason_of(error)
        return "accepted"

    async def view(self, seat: int) -> Any:
        request = referee_pb2.GetViewRequest(game_id=self.game_id)
        return (await self.stub.GetView(request, metadata=self.metadata[seat])).view


def illegal_moves(state: Any, table: CheckTable) -> list[tuple[str, Any, Metadata, str]]:
    """Each illegal move of the checks: its name, the move, whose header, the refusal's
    expected code."""
    (mover,) = GAME.to_act(state)
    other = (mover + 1) % SEATS
    hand = state.hands[mover]
    foreign = next(card for card in state.hands[other] if card not in hand)
    token = table.metadata[mover][0][1]
    forged: Metadata = (("authorization", token[:-1] + ("A" if token[-1] != "A" else "B")),)
    tries = [
        (
            "a card not in hand",
            Play(cards=(foreign,)),
            table.metadata[mover],
            "FAILED_PRECONDITION",
        ),
        (
            f"a move out of turn (seat {other})",
            Play(cards=(state.hands[other][0],)),
            table.metadata[other],
            "FAILED_PRECONDITION",
        ),
        (
            "the mover's legal move with a forged token",
            GAME.legal_moves(state, mover)[0],
            forged,
            "UNAUTHENTICATED",
        ),
    ]
    if state.must_include is not None:  # hand 1's first lead must include the multicoloured 1
        without = next(card for card in hand if card != state.must_include)
        tries.insert(
            1,
            (
                f"a lead without {state.must_include}",
                Play(cards=(without,)),
                table.metadata[mover],
                "FAILED_PRECONDITION",
            ),
        )
    return tries


async def check(address: str) -> list[Check]:
    """An illegal move of each kind is refused typed and changes nothing; a legal one is
    accepted; every seat's view holds its own hand only."""
    seed = b"bench-peers-check"
    state = GAME.new_game(GAME.make_config(SEATS, {}), seed)
    (mover,) = GAME.to_act(state)
    async with grpc.aio.insecure_channel(address) as channel:
        stub: RefereeServiceAsyncStub = referee_pb2_grpc.RefereeServiceStub(channel)
        created = await stub.CreateGame(
            referee_pb2.CreateGameRequest(game="gang_of_four", seats=SEATS, seed=seed)
        )
        md: list[Metadata] = [
            (("authorization", f"Bearer {token.token}"),) for token in created.seat_tokens
        ]
        table = CheckTable(stub, created.game_id, md)
        checks = []
        for number, (name, move, header, code) in enumerate(illegal_moves(state, table)):
            what = await table.submit(move, header, f"illegal-{number}")
            version = (await table.view(mover)).version
            ok = what.startswith(f"{code} ") or what == code
            checks.append(
                Check(f"refused: {name}", ok and version == 0, f"{what}; version {version}")
            )
        legal = GAME.legal_moves(state, mover)[0]
        what = await table.submit(legal, md[mover], "legal")
        version = (await table.view(mover)).version
        checks.append(
            Check(
                "accepted: a legal move",
                what == "accepted" and version == 1,
                f"{what}; version {version}",
            )
        )
        state, _ = GAME.apply(state, mover, legal)
        hands = [[str(card) for card in hand] for hand in state.hands]
        for seat in range(SEATS):
            checks.append(redaction(await table.view(seat), hands, seat))
        return checks
