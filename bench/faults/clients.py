"""The load: tables played move by move, each move sent again under its id until it is
answered, and a ledger of what every client was told."""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, TypeVar

import grpc

from bench.e2e import CHANNEL_OPTIONS, reason_of
from engines.registry import GAMES
from engines.the_gang import TakeChip
from referee.client.policy import Backoff
from referee.codecs import CODECS
from referee.v1 import referee_pb2, referee_pb2_grpc

if TYPE_CHECKING:
    from referee.v1.referee_pb2_grpc import RefereeServiceAsyncStub

T = TypeVar("T")
TRANSIENT: Final = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED})
MOVE_DEADLINE: Final = 60.0  # one move is sent again (same id) for at most this long
RETRY: Final = Backoff(initial=0.05, maximum=0.5)
CLOSE_GRACE: Final = 10.0  # a replaced connection's calls in flight get this long
Metadata = tuple[tuple[str, str], ...]


# --- the games, as the clients play them ---------------------------------------------------


@dataclass
class Play:
    """One game as its client plays it: the engine's state from the same seed and options
    as the referee's, so the client knows each next move is legal without asking."""

    name: str
    state: Any
    rng: random.Random

    @classmethod
    def new(cls, name: str, seats: int, seed: bytes) -> Play:
        game = GAMES[name]
        return cls(name, game.new_game(game.make_config(seats, {}), seed), random.Random(seed))

    def next_move(self) -> tuple[int, Any] | None:
        """The next (seat, engine move), or None once the game is over."""
        game = GAMES[self.name]
        if game.outcome(self.state) is not None:
            return None
        if self.name == "the_gang":
            # Each round seat s takes the (s+1)-star chip: a whole game without chip swaps.
            held = self.state.chips[self.state.round]
            seat = next(s for s in range(len(self.state.pockets)) if s not in held)
            return seat, TakeChip(self.state.round, seat + 1)
        seat = self.rng.choice(sorted(game.to_act(self.state)))
        return seat, self.rng.choice(game.legal_moves(self.state, seat))

    def apply(self, seat: int, move: Any) -> None:
        self.state, _ = GAMES[self.name].apply(self.state, seat, move)


@dataclass(frozen=True)
class Sent:
    seat: int
    move_id: str
    move: Any  # the engine's move


@dataclass
class Ledger:
    """Everything the clients of one game were told."""

    name: str
    game_id: str
    tokens: list[str]
    acked: dict[int, Sent] = field(default_factory=dict)  # version -> the move acknowledged
    in_doubt: dict[str, Sent] = field(default_factory=dict)  # move id -> sent, answer lost
    finished: bool = False

    def md(self, seat: int) -> Metadata:
        return (("authorization", f"Bearer {self.tokens[seat]}"),)


@dataclass
class Table:
    """One table: games one after another; ``events`` are the times of its answered calls."""

    slot: int
    name: str
    seats: int
    games: list[Ledger] = field(default_factory=list)
    events: list[float] = field(default_factory=list)


# --- the clients ---------------------------------------------------------------------------


class Channels:
    """``count`` connections; one is replaced every ``lifetime / count`` seconds (its calls
    in flight finish on it), so each lives about ``lifetime`` and new ones spread over the
    workers listening then, as the connections of real clients that come and go do."""

    def __init__(self, address: str, count: int, lifetime: float) -> None:
        self.address, self.lifetime = address, lifetime
        self.channels = [self._open() for _ in range(count)]
        self.stubs: list[RefereeServiceAsyncStub] = [
            referee_pb2_grpc.RefereeServiceStub(c) for c in self.channels
        ]
        self.closing: set[asyncio.Task[None]] = set()

    def _open(self) -> grpc.aio.Channel:
        return grpc.aio.insecure_channel(self.address, options=CHANNEL_OPTIONS)

    def stub(self, slot: int) -> RefereeServiceAsyncStub:
        return self.stubs[slot % len(self.stubs)]

    async def rotate(self, stop: asyncio.Event) -> None:
        for number in range(sys.maxsize):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), self.lifetime / len(self.channels))
                return
            index = number % len(self.channels)
            old, self.channels[index] = self.channels[index], self._open()
            self.stubs[index] = referee_pb2_grpc.RefereeServiceStub(self.channels[index])
            task = asyncio.create_task(old.close(grace=CLOSE_GRACE))
            self.closing.add(task)
            task.add_done_callback(self.closing.discard)

    async def close(self) -> None:
        await asyncio.gather(*self.closing, return_exceptions=True)
        await asyncio.gather(*(c.close(grace=CLOSE_GRACE) for c in self.channels))


@dataclass
class Load:
    channels: Channels
    rpc_timeout: float
    pace: float
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    acked: int = 0
    resent: int = 0  # calls sent again after a transient failure
    duplicates: int = 0  # resent moves answered `duplicate`: applied before, answer lost
    failures: Counter[str] = field(default_factory=Counter)  # transient failures by reason
    anomalies: list[str] = field(default_factory=list)

    async def call(
        self, table: Table, send: Callable[[RefereeServiceAsyncStub], Awaitable[T]]
    ) -> tuple[T | None, int, str]:
        """``send`` on the table's connection until it is answered: (reply or None, how
        many tries failed transiently, the refusal's reason when it was refused)."""
        deadline = time.monotonic() + MOVE_DEADLINE
        delays = RETRY.delays()
        tries = 0
        while True:
            try:
                reply = await send(self.channels.stub(table.slot))
                table.events.append(time.monotonic())
                return reply, tries, ""
            except grpc.aio.AioRpcError as error:
                reason = reason_of(error)
                if error.code() not in TRANSIENT:
                    return None, tries, reason
                self.failures[reason] += 1
                if time.monotonic() > deadline:
                    return None, tries, f"no answer in {MOVE_DEADLINE:g}s (last: {reason})"
            tries += 1
            self.resent += 1
            await asyncio.sleep(next(delays))


async def create(load: Load, table: Table, seed: bytes) -> Ledger | None:
    request = referee_pb2.CreateGameRequest(game=table.name, seats=table.seats, seed=seed)
    reply, _, refused = await load.call(
        table, lambda stub: stub.CreateGame(request, timeout=load.rpc_timeout)
    )
    if reply is None:
        load.anomalies.append(f"table {table.slot}: CreateGame: {refused}")
        return None
    return Ledger(table.name, reply.game_id, [token.token for token in reply.seat_tokens])


async def submit(load: Load, table: Table, ledger: Ledger, index: int, sent: Sent) -> bool:
    """Move ``index`` of the game, sent until answered; whether it was acknowledged."""
    request = referee_pb2.SubmitMoveRequest(
        game_id=ledger.game_id,
        move=CODECS[ledger.name].move_to_proto(sent.move),
        client_move_id=sent.move_id,
    )
    metadata = ledger.md(sent.seat)
    ledger.in_doubt[sent.move_id] = sent  # until the answer is in
    reply, tries, refused = await load.call(
        table,
        lambda stub: stub.SubmitMove(request, metadata=metadata, timeout=load.rpc_timeout),
    )
    if reply is None:
        if not tries:  # refused at the first try: certainly not applied
            del ledger.in_doubt[sent.move_id]
        load.anomalies.append(
            f"{ledger.game_id} {sent.move_id} (seat {sent.seat}, after {tries} failed tries): "
            f"{refused}"
        )
        return False
    del ledger.in_doubt[sent.move_id]
    if reply.version != index + 1:
        load.anomalies.append(f"{ledger.game_id} {sent.move_id}: acknowledged at v{reply.version}")
    if reply.version in ledger.acked:
        load.anomalies.append(f"{ledger.game_id}: two moves acknowledged at v{reply.version}")
    ledger.acked[reply.version] = sent
    load.acked += 1
    load.duplicates += bool(tries and reply.duplicate)
    return True


async def play_game(load: Load, table: Table, ledger: Ledger, play: Play) -> None:
    for index in range(sys.maxsize):
        step = play.next_move()
        if step is None:
            ledger.finished = True
            return
        if load.stop.is_set():
            return
        began = time.monotonic()
        seat, move = step
        if not await submit(load, table, ledger, index, Sent(seat, f"m{index}", move)):
            return
        play.apply(seat, move)
        if load.pace:
            await asyncio.sleep(max(0.0, load.pace - (time.monotonic() - began)))


async def run_table(load: Load, table: Table) -> None:
    """Games one after another until the load stops (the move in flight is finished)."""
    for number in range(sys.maxsize):
        if load.stop.is_set():
            return
        seed = f"faults-{table.slot}-{number}".encode()
        ledger = await create(load, table, seed)
        if ledger is None:
            return
        table.games.append(ledger)
        await play_game(load, table, ledger, Play.new(table.name, table.seats, seed))
