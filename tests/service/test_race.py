"""A real race: many concurrent clients, two referee servers, one Redis.

Two referees run side by side on the same Redis (two ``running(...)`` servers, so two
independent per-game locks: cross-instance compare-and-set conflicts really happen, and
the tests count them at the store). Clients on separate channels list legal moves and
submit random legal chip moves concurrently, some pinning ``expected_version``, some
re-sending a ``client_move_id`` (also to both servers at once). Afterwards Redis itself is
the witness: the log holds exactly one entry per acknowledged move and nothing else,
versions are contiguous, no (seat, client_move_id) is there twice, and the stored state
is byte for byte the replay of the log from the seed.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import grpc
import msgspec
import pytest
from redis.asyncio import Redis

from engines.base import replay
from engines.the_gang import GAME
from engines.the_gang.model import TheGangConfig
from engines.the_gang.moves import Move as EngineMove
from engines.the_gang.moves import TakeChip
from referee.codecs import CODECS
from referee.v1 import game_pb2, referee_pb2
from service.domain import records
from service.process.server import Running, running
from service.storage.store import CommitResult, GameRecord
from service.storage.tables import load_table
from tests.servers import settings_for
from tests.service.table import COLOURS, Metadata, Stub, Table, auth, reason_of, take

Move = game_pb2.Move
CODEC = CODECS["the_gang"]
CHANNELS_PER_SERVER = 3
WHITE = COLOURS[0]
# Rejections a racing client may rightly get: its view went stale under it.
EXPECTED_REJECTIONS = {
    (grpc.StatusCode.ABORTED, "VERSION_MISMATCH"),
    (grpc.StatusCode.ABORTED, "CONTENTION"),
    (grpc.StatusCode.FAILED_PRECONDITION, "CHIP_ALREADY_HELD"),
    (grpc.StatusCode.FAILED_PRECONDITION, "CHIP_NOT_HELD"),
    (grpc.StatusCode.FAILED_PRECONDITION, "CHIP_NOT_IN_PLAY"),
    (grpc.StatusCode.FAILED_PRECONDITION, "GAME_OVER"),
}


@dataclass(frozen=True)
class Endpoint:
    server: int
    stub: Stub


@dataclass
class Overlap:
    """Holds the first ``parties`` commits until all of them have decided their move.

    cosmicpython forces its two transactions to overlap with a sleep; this makes the
    overlap exact: both contenders have read the same version (from Redis or from their
    referee's copy) and decided before either may commit.
    """

    parties: int = 0
    arrived: int = 0
    all_in: asyncio.Event = field(default_factory=asyncio.Event)

    def arm(self, parties: int) -> None:
        self.parties, self.arrived, self.all_in = parties, 0, asyncio.Event()

    async def meet(self) -> None:
        if self.arrived >= self.parties:
            return
        self.arrived += 1
        if self.arrived == self.parties:
            self.all_in.set()
        await asyncio.wait_for(self.all_in.wait(), 5)


@dataclass
class Referees:
    handles: list[Running]
    endpoints: list[Endpoint]
    commits: list[Counter[str]]  # per server: commit.lua replies by status
    overlap: Overlap
    # Per server: when set, the next game load waits for this event (then it is cleared).
    held: list[asyncio.Event | None] = field(default_factory=lambda: [None, None])

    def on(self, server: int, rng: random.Random) -> Endpoint:
        return rng.choice([e for e in self.endpoints if e.server == server])

    @property
    def cross_instance_conflicts(self) -> int:
        # Within one referee a per-game lock serialises load -> commit, so a CONFLICT
        # reply from the store means the other referee committed in between.
        return sum(counter["CONFLICT"] for counter in self.commits)


def _instrument(referees: Referees, server: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Count the store's commit replies; let the test hold loads (test-side only)."""
    handle, counter, overlap = referees.handles[server], referees.commits[server], referees.overlap
    store = handle.referee.store
    original_commit, original_load = store.commit, store.load

    async def commit(game_id: str, **kwargs: Any) -> CommitResult:
        await overlap.meet()
        result = await original_commit(game_id, **kwargs)
        counter[result.status.name] += 1
        return result

    async def load(game_id: str) -> GameRecord | None:
        record = await original_load(game_id)
        gate = referees.held[server]
        if gate is not None:
            referees.held[server] = None
            await asyncio.wait_for(gate.wait(), 10)
        return record

    monkeypatch.setattr(store, "commit", commit)
    monkeypatch.setattr(store, "load", load)


@pytest.fixture
async def referees(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Referees]:
    async with contextlib.AsyncExitStack() as stack:
        handles = []
        for name in ("a", "b"):
            (tmp_path / name).mkdir()
            handles.append(
                await stack.enter_async_context(running(settings_for(redis_url, tmp_path / name)))
            )
        assert handles[0].port != handles[1].port
        endpoints: list[Endpoint] = []
        referees = Referees(handles, endpoints, [Counter(), Counter()], Overlap())
        for server in range(len(handles)):
            _instrument(referees, server, monkeypatch)
        for server, handle in enumerate(handles):
            for _ in range(CHANNELS_PER_SERVER):
                channel = await stack.enter_async_context(grpc.aio.insecure_channel(handle.address))
                endpoints.append(Endpoint(server, Stub(channel)))
        yield referees


# --- what the clients saw ---------------------------------------------------------------


@dataclass
class Ledger:
    """Everything the clients of one game were told."""

    table: Table
    acked: dict[tuple[int, str], int] = field(default_factory=dict)
    moves: dict[tuple[int, str], Move] = field(default_factory=dict)
    rejections: Counter[str] = field(default_factory=Counter)
    unexpected: list[str] = field(default_factory=list)
    duplicates: int = 0
    finished: bool = False

    def acknowledge(self, seat: int, move_id: str, move: Move, version: int) -> None:
        key = (seat, move_id)
        if key in self.acked:
            self.unexpected.append(f"{key} acknowledged twice: v{self.acked[key]} and v{version}")
        self.acked[key] = version
        self.moves[key] = move


def _aio(stub: Stub) -> Any:
    """The stub as grpc.aio really is: grpc-stubs types the synchronous API."""
    return stub


def _md(table: Table, seat: int | None) -> Metadata:
    return auth(None if seat is None else table.tokens[seat])


async def _submit(
    endpoint: Endpoint, table: Table, seat: int, move: Move, move_id: str, pin: int | None
) -> referee_pb2.SubmitMoveResponse:
    request = referee_pb2.SubmitMoveRequest(
        game_id=table.game_id, move=move, client_move_id=move_id
    )
    if pin is not None:
        request.expected_version = pin
    reply: referee_pb2.SubmitMoveResponse = await _aio(endpoint.stub).SubmitMove(
        request, metadata=_md(table, seat)
    )
    return reply


async def _legal(endpoint: Endpoint, table: Table, seat: int) -> referee_pb2.ListLegalMovesResponse:
    reply: referee_pb2.ListLegalMovesResponse = await _aio(endpoint.stub).ListLegalMoves(
        referee_pb2.ListLegalMovesRequest(game_id=table.game_id), metadata=_md(table, seat)
    )
    return reply


async def _view(endpoint: Endpoint, table: Table, seat: int) -> game_pb2.View:
    reply: referee_pb2.GetViewResponse = await _aio(endpoint.stub).GetView(
        referee_pb2.GetViewRequest(game_id=table.game_id), metadata=_md(table, seat)
    )
    return reply.view


async def _validate(endpoint: Endpoint, table: Table, seat: int, move: Move) -> None:
    await _aio(endpoint.stub).ValidateMove(
        referee_pb2.ValidateMoveRequest(game_id=table.game_id, move=move),
        metadata=_md(table, seat),
    )


def _rejected(ledger: Ledger, error: grpc.aio.AioRpcError, what: str) -> None:
    code, reason, metadata = reason_of(error)
    if (code, reason) not in EXPECTED_REJECTIONS:
        ledger.unexpected.append(f"{what}: {code.name} {reason} {error.details()}")
    elif code is grpc.StatusCode.ABORTED and not metadata.get("current_version", "").isdigit():
        ledger.unexpected.append(f"{what}: ABORTED without current_version: {metadata}")
    ledger.rejections[reason] += 1


async def one_move(
    referees: Referees, ledger: Ledger, seat: int, rng: random.Random, move_id: str, pin_odds: float
) -> None:
    """List legal moves, submit one random legal chip move, maybe re-send it."""
    table = ledger.table
    home = rng.randrange(2)
    view = await _view(referees.on(rng.randrange(2), rng), table, seat)
    legal = await _legal(referees.on(home, rng), table, seat)
    chips = [m for m in legal.moves if m.the_gang.WhichOneof("action") != "confirm_round_end"]
    if not chips:
        ledger.finished = True  # only a finished game leaves a seat without a chip move
        return
    # Chosen so that rounds end and games finish despite the crowd: a seat without a chip
    # mostly takes one that (as far as its view knows) lies in the centre; a seat with one
    # mostly only asks whether a move would pass. Otherwise any legal chip move: a steal,
    # a swap, a return.
    row = view.the_gang.chips[-1].chips
    holders = {chip.stars: chip.holder if chip.HasField("holder") else None for chip in row}
    free = [
        m
        for m in chips
        if m.the_gang.WhichOneof("action") == "take_chip"
        and holders.get(m.the_gang.take_chip.stars, seat) is None
    ]
    if seat in holders.values() and rng.random() < 0.7:
        await _validate(referees.on(home, rng), table, seat, rng.choice(chips))
        return
    move = rng.choice(free if free and rng.random() < 0.85 else chips)
    # A pinned move is pinned to the version the choice was made on (the view's).
    pin = view.version if rng.random() < pin_odds else None
    if rng.random() < 0.1:
        # The same move id to both referees at once: one applies it, the other must
        # answer with that result (or both refuse it), never apply it twice.
        answers = await asyncio.gather(
            _submit(referees.on(0, rng), table, seat, move, move_id, pin),
            _submit(referees.on(1, rng), table, seat, move, move_id, pin),
            return_exceptions=True,
        )
        done = [a for a in answers if isinstance(a, referee_pb2.SubmitMoveResponse)]
        for answer in answers:
            if isinstance(answer, grpc.aio.AioRpcError):
                _rejected(ledger, answer, f"twin {move_id}")
            elif not isinstance(answer, referee_pb2.SubmitMoveResponse):
                raise answer
        if done:
            if sum(not a.duplicate for a in done) != 1 or len({a.version for a in done}) != 1:
                seen = [(a.version, a.duplicate) for a in done]
                ledger.unexpected.append(f"twins {move_id}: (version, duplicate) {seen}")
            first = min(done, key=lambda a: a.duplicate)
            ledger.duplicates += sum(a.duplicate for a in done)
            ledger.acknowledge(seat, move_id, move, first.version)
            ledger.finished |= first.view.HasField("outcome")
        return
    try:
        reply = await _submit(referees.on(home, rng), table, seat, move, move_id, pin)
    except grpc.aio.AioRpcError as error:
        _rejected(ledger, error, move_id)
        return
    if reply.duplicate:
        ledger.unexpected.append(f"{move_id}: a first submission answered as a duplicate")
    ledger.acknowledge(seat, move_id, move, reply.version)
    ledger.finished |= reply.view.HasField("outcome")
    if rng.random() < 0.15:
        # A retry after a "lost reply", to the other referee, maybe pinned to an old version.
        other = referees.on(1 - home, rng)
        again_pin = pin if rng.random() < 0.5 else None
        again = await _submit(other, table, seat, move, move_id, again_pin)
        if not again.duplicate or again.version != reply.version:
            ledger.unexpected.append(
                f"{move_id}: re-sent, got v{again.version} duplicate={again.duplicate}, "
                f"first v{reply.version}"
            )
        ledger.duplicates += 1


# --- what Redis holds ------------------------------------------------------------------------


async def assert_log_matches(redis: Redis, ledger: Ledger) -> int:
    """The stored game is exactly the acknowledged moves, replayed; returns the version."""
    assert not ledger.unexpected, "\n".join(ledger.unexpected[:20])
    base = f"game:{{{ledger.table.game_id}}}"
    raw_log = records.log_entries(cast(list[bytes], await redis.lrange(f"{base}:log", 0, -1)))
    log = [records.log_decoder.decode(raw) for raw in raw_log]
    keys = [(entry.seat, entry.client_move_id) for entry in log]
    assert [entry.version for entry in log] == list(range(1, len(log) + 1))
    assert len(set(keys)) == len(keys), "a (seat, client_move_id) was applied twice"
    assert len(set(ledger.acked.values())) == len(ledger.acked), "two moves got one version"
    # Exactly the acknowledged moves, each at the version its client was told.
    assert dict(zip(keys, (entry.version for entry in log), strict=True)) == ledger.acked
    moves: list[tuple[int, EngineMove]] = []
    for key, entry in zip(keys, log, strict=True):
        move: EngineMove = msgspec.msgpack.decode(entry.move, type=EngineMove)
        assert move == CODEC.move_from_proto(ledger.moves[key]), key
        moves.append((entry.seat, move))

    stored = cast(list[bytes], await redis.hmget(base, ["version", "state", "meta"]))
    stored_version, state, raw_meta = stored
    assert int(stored_version) == len(log)
    meta = records.meta_decoder.decode(raw_meta)
    config = msgspec.msgpack.decode(meta.config, type=TheGangConfig)
    initial, steps = replay(GAME, config, meta.seed, moves)
    final = steps[-1].state if steps else initial
    stored_state = records.loaded_state(state)
    assert stored_state == records.encode(final), "stored state differs from the replay of the log"
    if ledger.finished:
        assert final.finished, "a client saw the end the stored game has not reached"
    assert state.startswith(records.PACKED) == final.finished, "compressed iff finished"

    move_records = cast(dict[bytes, bytes], await redis.hgetall(f"{base}:moves"))
    if final.finished:  # the finishing move dropped them: the log answers (RedisStore.move_record)
        assert not move_records, "a finished game kept its idempotency records"
        move_records = {
            records.short_key(records.move_key(entry.seat, entry.client_move_id)): records.encode(
                records.MoveRecord(entry.version)
            )
            for entry in log
        }
    assert len(move_records) == len(log)
    for (seat, move_id), version in ledger.acked.items():
        record = records.record_decoder.decode(
            move_records[records.short_key(records.move_key(seat, move_id))]
        )
        assert record.version == version
    stream = cast(list[tuple[bytes, Any]], await redis.xrange(f"{base}:events"))
    assert [int(entry_id.split(b"-")[0]) for entry_id, _ in stream] == list(
        range(len(log) - len(stream) + 1, len(log) + 1)
    )
    return len(log)


# --- the tests --------------------------------------------------------------------------------


async def test_sixteen_clients_race_on_one_game(referees: Referees, raw_redis: Redis) -> None:
    table = await Table.create(referees.endpoints[0].stub, 6, seed=b"race-one-game")
    ledger = Ledger(table)
    deadline = time.monotonic() + 25
    budget = 1500

    async def client(number: int) -> None:
        mine = random.Random(f"client {number}")
        seat = number % 6
        # Each seat has a never, an always and a sometimes pinning client.
        pin_odds = (0.0, 1.0, 0.5)[number // 6 % 3]
        count = 0
        while not ledger.finished and time.monotonic() < deadline and len(ledger.acked) < budget:
            count += 1
            await one_move(referees, ledger, seat, mine, f"c{number}-{count}", pin_odds)

    await asyncio.gather(*(client(number) for number in range(18)))
    version = await assert_log_matches(raw_redis, ledger)
    assert version == len(ledger.acked) > 50
    assert ledger.finished or len(ledger.acked) >= budget or time.monotonic() >= deadline
    assert ledger.duplicates > 0
    assert ledger.rejections["VERSION_MISMATCH"] > 0
    assert referees.cross_instance_conflicts > 0, referees.commits


async def test_clients_race_on_many_games(referees: Referees, raw_redis: Redis) -> None:
    rng = random.Random("many games")
    games = [
        Ledger(await Table.create(rng.choice(referees.endpoints).stub, 3 + n % 4, seed=b"m%d" % n))
        for n in range(20)
    ]
    deadline = time.monotonic() + 15
    budget = 1200

    def acked() -> int:
        return sum(len(ledger.acked) for ledger in games)

    async def client(number: int) -> None:
        mine = random.Random(f"many {number}")
        pin_odds = (0.0, 1.0, 0.5)[number % 3]
        count = 0
        while time.monotonic() < deadline and acked() < budget:
            running_games = [ledger for ledger in games if not ledger.finished]
            if not running_games:
                return
            # Few games per client at a time, so clients collide on the same game.
            crowd = running_games[: 4 + number % 5] if mine.random() < 0.7 else running_games
            ledger = mine.choice(crowd)
            count += 1
            seat = mine.randrange(len(ledger.table.tokens))
            await one_move(referees, ledger, seat, mine, f"m{number}-{count}", pin_odds)

    await asyncio.gather(*(client(number) for number in range(24)))
    total = 0
    for ledger in games:
        total += await assert_log_matches(raw_redis, ledger)
    assert total == acked() > 200
    assert all(ledger.acked for ledger in games)
    assert referees.cross_instance_conflicts > 0, referees.commits


@pytest.mark.parametrize("moves_before", [0, 3])
async def test_two_contenders_pinning_one_version_exactly_one_wins(
    referees: Referees, raw_redis: Redis, moves_before: int
) -> None:
    """cosmicpython's race: same expected_version, different moves, one winner."""
    outcomes: Counter[str] = Counter()
    for round_number in range(10):
        first = referees.endpoints[0]
        table = await Table.create(first.stub, 4, seed=b"contenders-%d" % round_number)
        ledger = Ledger(table)
        for seat in range(moves_before):
            reply = await _submit(first, table, seat, take(WHITE, seat + 1), f"pre{seat}", None)
            ledger.acknowledge(seat, f"pre{seat}", take(WHITE, seat + 1), reply.version)
        # Across referees on even rounds, through one referee on odd ones; same seat on
        # every third round (two devices of one player), else two seats.
        a = referees.endpoints[1]
        b = referees.endpoints[CHANNELS_PER_SERVER + 1 if round_number % 2 == 0 else 2]
        seat_a, seat_b = 3, (3 if round_number % 3 == 0 else 2)
        move_a, move_b = take(WHITE, 4), take(WHITE, 1)
        across = a.server != b.server
        before = [counter.copy() for counter in referees.commits]
        # Across referees both decide on the same version before either commits, so the
        # loser is stopped by the compare-and-set in Redis. Through one referee its lock
        # makes the loser see the winner's version and stop before committing.
        referees.overlap.arm(2 if across else 0)
        answers = await asyncio.gather(
            _submit(a, table, seat_a, move_a, "contender-a", moves_before),
            _submit(b, table, seat_b, move_b, "contender-b", moves_before),
            return_exceptions=True,
        )
        referees.overlap.arm(0)
        replies = [now - then for now, then in zip(referees.commits, before, strict=True)]
        assert sum(replies, Counter()) == Counter(OK=1, CONFLICT=1 if across else 0), replies
        wins = [
            (name, answer)
            for name, answer in zip("ab", answers, strict=True)
            if isinstance(answer, referee_pb2.SubmitMoveResponse)
        ]
        losses = [answer for answer in answers if isinstance(answer, grpc.aio.AioRpcError)]
        assert len(wins) == 1 and len(losses) == 1, answers
        name, win = wins[0]
        assert win.version == moves_before + 1
        assert not win.duplicate
        code, reason, metadata = reason_of(losses[0])
        assert (code, reason) == (grpc.StatusCode.ABORTED, "VERSION_MISMATCH")
        assert metadata == {"current_version": str(moves_before + 1)}
        seat, move = (seat_a, move_a) if name == "a" else (seat_b, move_b)
        ledger.acknowledge(seat, f"contender-{name}", move, win.version)
        assert await assert_log_matches(raw_redis, ledger) == moves_before + 1
        outcomes[name] += 1
    assert sum(outcomes.values()) == 10


def _scripted_game(seats: int, seed: bytes) -> list[tuple[int, Move]]:
    """A whole game by the engine: each round seat s takes the (s+1)-star chip."""
    state = GAME.new_game(TheGangConfig(players=seats), seed)
    moves: list[tuple[int, Move]] = []
    while not state.finished:
        seat = next(s for s in range(seats) if s not in state.chips[state.round])
        move = TakeChip(state.round, seat + 1)
        state, _ = GAME.apply(state, seat, move)
        moves.append((seat, CODEC.move_to_proto(move)))
    return moves


async def _watch(endpoint: Endpoint, table: Table, seat: int | None, out: list[int]) -> None:
    stream = _aio(endpoint.stub).WatchGame(
        referee_pb2.WatchGameRequest(game_id=table.game_id), metadata=_md(table, seat)
    )
    async for message in stream:
        out.append(message.version)


async def _until(condition: Callable[[], bool], seconds: float) -> None:
    async with asyncio.timeout(seconds):
        while not condition():
            await asyncio.sleep(0.01)


@pytest.mark.parametrize("missed", ["last move", "a move mid-game"])
async def test_a_watcher_joining_as_a_move_lands_gets_that_move(
    referees: Referees, monkeypatch: pytest.MonkeyPatch, missed: str
) -> None:
    seed = b"watch-join-race"
    moves = _scripted_game(3, seed)
    upto = len(moves) if missed == "last move" else len(moves) // 2  # the version it makes
    a, b = referees.endpoints[0], referees.endpoints[CHANNELS_PER_SERVER]
    table = await Table.create(b.stub, 3, seed=seed)
    for number, (seat, move) in enumerate(moves[: upto - 1]):
        await _submit(b, table, seat, move, f"s{number}", None)
    referee_a = referees.handles[0].referee
    # A watcher that reads slowly keeps referee A's feed channel for the game open.
    slow = await load_table(referee_a.store, table.game_id)
    async with referee_a.feed.subscribe(slow):
        # The next watcher on A loads the game (version upto-1), then is held until A's
        # channel has published version upto; only then does it subscribe. (A slow Redis
        # reply to its load does the same.)
        publish = referee_a.feed._publish
        published = asyncio.Event()

        def publish_then_release(channel: Any, change: Any) -> None:
            publish(channel, change)
            if change.version == upto:
                published.set()

        monkeypatch.setattr(referee_a.feed, "_publish", publish_then_release)
        referees.held[0] = published
        seen: list[int] = []
        watcher = asyncio.create_task(_watch(a, table, 1, seen))
        try:
            await asyncio.sleep(0.1)
            seat, move = moves[upto - 1]
            await _submit(b, table, seat, move, "the move", None)
            await asyncio.wait_for(published.wait(), 5)
            await _until(lambda: upto in seen, 3)  # no later move comes to push it out
            if upto == len(moves):
                await asyncio.wait_for(watcher, 3)  # and the stream ends with the game
        finally:
            watcher.cancel()
    assert seen[-1] == upto
    assert seen == sorted(set(seen))
