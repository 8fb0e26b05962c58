"""Play: one bidirectional stream per seat, with SubmitMove's rules and WatchGame's updates.

A whole game of The Gang with every seat on its own stream (updates 0..N in order, each
the view GetView gave at that version, no card the seat may not see); every in-band
rejection equals the unary call's; the errors that end a stream; resuming after a cut
connection with no gap, no repeat and a re-sent move applied once; and the Connect face,
which can only be driven half-duplex over HTTP/1.1.
"""

from __future__ import annotations

import asyncio
import json
import struct
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import grpc
import httpx
import pytest
from google.protobuf import json_format
from google.rpc import code_pb2

from bench import echo
from engines.base import replay
from engines.the_gang import GAME
from referee.codecs import CODECS
from referee.v1 import game_pb2, referee_pb2, referee_pb2_grpc
from service.process.server import Running
from tests.clients.python_client_proxy import CuttableProxy
from tests.service.players import play_to_end
from tests.service.table import COLOURS, Metadata, Move, Stub, Table, auth, reason_of, take
from tests.the_gang.leakcheck import Recorder, check, truth_of

WHITE, YELLOW, ORANGE, RED = COLOURS
PlayCall: TypeAlias = grpc.aio.StreamStreamCall[referee_pb2.PlayRequest, referee_pb2.PlayResponse]
Answer = referee_pb2.PlayResponse
Status = tuple[grpc.StatusCode, str, dict[str, str]]
CODEC = CODECS["the_gang"]
TIMEOUT = 10
# gRPC's own reconnect backoff starts at a second; the tests' outages are shorter. (Not
# grpc.min_reconnect_backoff_ms: it is also the time a connection attempt gets, and 20 ms
# fails the first connect on a busy machine.)
FAST_RECONNECT = [
    ("grpc.initial_reconnect_backoff_ms", 20),
    ("grpc.max_reconnect_backoff_ms", 100),
]


def join(game_id: str, after: int | None = None) -> referee_pb2.PlayRequest:
    request = referee_pb2.PlayRequest(join=referee_pb2.PlayRequest.Join(game_id=game_id))
    if after is not None:
        request.join.after_version = after
    return request


def submit(
    move: Move, move_id: str | None = None, expected_version: int | None = None
) -> referee_pb2.PlayRequest:
    request = referee_pb2.PlayRequest(
        submit=referee_pb2.PlayRequest.Submit(
            move=move, client_move_id=new_id() if move_id is None else move_id
        )
    )
    if expected_version is not None:
        request.submit.expected_version = expected_version
    return request


LIST = referee_pb2.PlayRequest(list_legal_moves=referee_pb2.PlayRequest.ListLegalMoves())


def new_id() -> str:
    return uuid.uuid4().hex


@dataclass
class Seat:
    """One seat's Play stream: a reader keeps updates apart and queues the answers."""

    call: PlayCall
    updates: list[referee_pb2.WatchGameResponse] = field(default_factory=list)
    answers: asyncio.Queue[Answer | BaseException] = field(default_factory=asyncio.Queue)
    reader: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, stub: Stub, game_id: str, md: Metadata, after: int | None = None) -> Seat:
        seat = cls(stub.Play(None, metadata=md))
        await seat.call.write(join(game_id, after))
        seat.reader = asyncio.create_task(seat._read())
        return seat

    async def joined(self) -> None:
        """Until the join's first update (the snapshot) is here: ``open`` only sends it."""

        async def arrived() -> bool:
            return bool(self.updates)

        await wait_for(arrived)

    async def _read(self) -> None:
        try:
            async for response in self.call:
                if response.WhichOneof("kind") == "update":
                    self.updates.append(response.update)
                else:
                    self.answers.put_nowait(response)
        except BaseException as error:  # the stream's end, for whoever waits on an answer
            self.answers.put_nowait(error)
            raise

    async def ask(self, request: referee_pb2.PlayRequest) -> Answer:
        await self.call.write(request)
        return await self.answer()

    async def answer(self) -> Answer:
        got = await asyncio.wait_for(self.answers.get(), TIMEOUT)
        if isinstance(got, BaseException):
            raise got
        return got

    async def accepted(self, request: referee_pb2.PlayRequest) -> Answer.MoveResult:
        answer = await self.ask(request)
        assert answer.WhichOneof("kind") == "move_result", answer
        assert answer.move_result.client_move_id == request.submit.client_move_id
        return answer.move_result

    async def rejected(self, request: referee_pb2.PlayRequest) -> Status:
        answer = await self.ask(request)
        assert answer.WhichOneof("kind") == "rejection", answer
        refused = answer.rejection
        assert refused.client_move_id == request.submit.client_move_id
        code = next(c for c in grpc.StatusCode if c.value[0] == refused.code)
        return code, refused.reason, dict(refused.metadata)

    async def close(self) -> None:
        await self.call.done_writing()

    def cancel(self) -> None:
        self.call.cancel()
        if self.reader is not None:
            self.reader.cancel()


async def unary_refusal(table: Table, seat: int, request: referee_pb2.PlayRequest) -> Status:
    """What SubmitMove says to the same move from the same seat."""
    sent = request.submit
    unary = referee_pb2.SubmitMoveRequest(
        game_id=table.game_id, move=sent.move, client_move_id=sent.client_move_id
    )
    if sent.HasField("expected_version"):
        unary.expected_version = sent.expected_version
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await table.stub.SubmitMove(unary, metadata=table.md(seat))
    return reason_of(caught.value)


async def wait_for(predicate: Callable[[], Awaitable[bool]], timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not await predicate():
        assert time.monotonic() < deadline, "timed out waiting"
        await asyncio.sleep(0.01)


# --- a whole game ------------------------------------------------------------------------


async def test_a_whole_game_with_every_seat_on_its_own_stream(stub: Stub) -> None:
    seats = 4
    table = await Table.create(stub, seats, seed=b"play-whole-game")
    streams = [await Seat.open(stub, table.game_id, table.md(k)) for k in range(seats)]
    for stream in streams:  # every seat joined at version 0 before the first move
        await stream.joined()
    unary: dict[tuple[int, int], game_pb2.View] = {}  # (seat, version) -> GetView then
    view = await table.view(None)
    moves = 0
    while not view.HasField("outcome"):
        colour, heist = view.the_gang.round, view.the_gang.heist
        for k, stream in enumerate(streams):  # seat k takes the chip of k+1 stars
            result = await stream.accepted(submit(take(colour, k + 1)))
            moves += 1
            assert result.version == moves and not result.duplicate
            # The result comes after the update it speaks of: the seat holds that view.
            assert stream.updates[-1].version == result.version
            view = stream.updates[-1].view
            for seat in range(seats):
                unary[seat, result.version] = await table.view(seat)
            if view.the_gang.heist != heist or view.HasField("outcome"):
                break
    final = view.version
    assert final == moves
    for stream in streams:
        await stream.close()  # the game is over: closing our side ends the stream, OK
        assert stream.reader is not None
        await asyncio.wait_for(stream.reader, TIMEOUT)
        assert await stream.call.code() == grpc.StatusCode.OK

    history = await table.history(None)
    moves_logged = [(e.seat, CODEC.move_from_proto(e.move)) for e in history.entries]
    config = GAME.make_config(seats, CODEC.options_from_proto(history.setup.options))
    initial, steps = replay(GAME, config, history.seed, moves_logged)
    states, events = truth_of(initial, steps)
    recorder = Recorder()
    for seat, stream in enumerate(streams):
        versions = [update.version for update in stream.updates]
        assert versions == list(range(final + 1)), f"seat {seat}"
        assert [u.snapshot for u in stream.updates] == [True] + [False] * final
        assert all(update.events for update in stream.updates[1:])
        for update in stream.updates:
            assert update.view.seat == seat and update.view.version == update.version
            if update.version:
                assert update.view == unary[seat, update.version], (seat, update.version)
            recorder.add(seat, update.version, "Play", update)
        assert stream.updates[-1].view == await table.view(seat)
        for update in stream.updates[:-1]:  # its own pocket, never another seat's
            state = states[update.version]
            pocket = {card.code for card in update.view.the_gang.pocket}
            assert pocket == {str(card) for card in state.pockets[seat]}
            for other, cards in enumerate(state.pockets):
                assert other == seat or not pocket & {str(card) for card in cards}
    # And the judge of every card in every message (events included), from the truth alone.
    report = check(recorder.items, states, history.seed, events)
    assert not report.problems, str(report)
    for seat in range(seats):
        assert report.own_pockets_seen[seat] >= final


# --- in-band answers -----------------------------------------------------------------------


async def test_refused_moves_are_answered_in_band_with_the_unary_reason(stub: Stub) -> None:
    table = await Table.create(stub, 3, seed=b"play-rejections")
    seat = await Seat.open(stub, table.game_id, table.md(0))
    first = await seat.accepted(submit(take(WHITE, 1), move_id="first"))
    assert first.version == 1
    cases = {
        "illegal": submit(take(RED, 1)),  # not the round's colour
        "empty move": submit(Move()),
        "no such chip": submit(take(WHITE, 9)),
        "no move id": submit(take(WHITE, 1), move_id=""),
        "stale version": submit(take(WHITE, 2), expected_version=0),
        "ahead": submit(take(WHITE, 2), expected_version=7),
        "id reused for another move": submit(take(WHITE, 3), move_id="first"),
        "its own chip again": submit(take(WHITE, 1)),
    }
    seen: dict[str, Status] = {}
    for name, request in cases.items():
        in_band = await seat.rejected(request)
        assert in_band == await unary_refusal(table, 0, request), name
        seen[name] = in_band
    assert seen["illegal"][0] == grpc.StatusCode.FAILED_PRECONDITION
    assert seen["empty move"][:2] == (grpc.StatusCode.INVALID_ARGUMENT, "MOVE_EMPTY")
    assert seen["no move id"][1] == "MOVE_ID_INVALID"
    assert seen["stale version"] == (
        grpc.StatusCode.ABORTED,
        "VERSION_MISMATCH",
        {"current_version": "1"},
    )
    assert seen["id reused for another move"][1] == "MOVE_ID_REUSED"
    assert seen["its own chip again"][:2] == (
        grpc.StatusCode.FAILED_PRECONDITION,
        "CHIP_ALREADY_HELD",
    )

    # A repeated id is the first result again; the stream went on through every refusal.
    again = await seat.accepted(submit(take(WHITE, 1), move_id="first"))
    assert (again.version, again.duplicate) == (1, True)
    legal = await seat.ask(LIST)
    assert legal.legal_moves == await table.legal(0)
    other = await Seat.open(stub, table.game_id, table.md(1))
    moved = await other.accepted(submit(take(WHITE, 2), expected_version=1))
    assert moved.version == 2
    await wait_for(lambda: _at(seat, 2))
    assert [u.version for u in seat.updates] == [0, 1, 2]
    assert len((await table.history(None)).entries) == 2

    again_join = await seat.ask(join(table.game_id))
    assert again_join.rejection.reason == "PLAY_JOINED"
    empty = await seat.ask(referee_pb2.PlayRequest())
    assert empty.rejection.reason == "PLAY_REQUEST_EMPTY"
    assert empty.rejection.code == code_pb2.INVALID_ARGUMENT
    for stream in (seat, other):
        stream.cancel()


async def _at(seat: Seat, version: int) -> bool:
    return bool(seat.updates) and seat.updates[-1].version >= version


async def test_answers_come_in_request_order_after_the_update_they_speak_of(stub: Stub) -> None:
    table = await Table.create(stub, 3, seed=b"play-order")
    seat = await Seat.open(stub, table.game_id, table.md(2), after=0)
    requests = [LIST, submit(take(WHITE, 3), move_id="a"), LIST, submit(take(WHITE, 3), "a")]
    for request in requests:  # pipelined: all sent before any answer is read
        await seat.call.write(request)
    answers = [await seat.answer() for _ in requests]
    assert [a.WhichOneof("kind") for a in answers] == [
        "legal_moves",
        "move_result",
        "legal_moves",
        "move_result",
    ]
    assert answers[0].legal_moves.version == 0 and answers[0].legal_moves.moves
    assert answers[1].move_result.version == 1 and not answers[1].move_result.duplicate
    assert answers[2].legal_moves.version == 1 and answers[3].move_result.duplicate
    assert [u.version for u in seat.updates] == [1]  # after_version 0: no snapshot
    seat.cancel()


# --- errors that end the stream --------------------------------------------------------------


async def _ended(
    stub: Stub, requests: list[referee_pb2.PlayRequest], md: Metadata
) -> tuple[Status, int]:
    """The status a stream ends with, and how many messages came before."""
    call = stub.Play(None, metadata=md)
    for request in requests:
        await call.write(request)
    await call.done_writing()
    received: list[Answer] = []
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await _drain(call, received)
    return reason_of(caught.value), len(received)


async def _drain(call: PlayCall, into: list[Answer]) -> None:
    async for response in call:
        into.append(response)


async def test_a_bad_join_ends_the_stream_with_the_usual_status(stub: Stub) -> None:
    table = await Table.create(stub, 3)
    other = await Table.create(stub, 3)
    seat0 = table.md(0)
    cases: dict[str, tuple[list[referee_pb2.PlayRequest], Metadata, grpc.StatusCode, str]] = {
        "no token": ([join(table.game_id)], (), grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MISSING"),
        "unknown game": ([join("no-such-game")], seat0, grpc.StatusCode.NOT_FOUND, ""),
        "bad game id": ([join("bad id!")], seat0, grpc.StatusCode.INVALID_ARGUMENT, ""),
        "submit first": (
            [submit(take(WHITE, 1))],
            seat0,
            grpc.StatusCode.INVALID_ARGUMENT,
            "PLAY_JOIN_FIRST",
        ),
        "nothing sent": ([], seat0, grpc.StatusCode.INVALID_ARGUMENT, "PLAY_JOIN_FIRST"),
        "resume ahead": (
            [join(table.game_id, after=5)],
            seat0,
            grpc.StatusCode.INVALID_ARGUMENT,
            "VERSION_AHEAD",
        ),
        "garbage token": ([join(table.game_id)], auth("v1.garbage"), grpc.StatusCode.OK, ""),
        "another game's token": ([join(table.game_id)], other.md(0), grpc.StatusCode.OK, ""),
    }
    for name, (requests, md, code, reason) in cases.items():
        (got_code, got_reason, _), received = await asyncio.wait_for(
            _ended(stub, requests, md), TIMEOUT
        )
        assert received == 0, name
        if code is grpc.StatusCode.OK:  # whatever the unary calls say to that token
            with pytest.raises(grpc.aio.AioRpcError) as unary:
                await stub.GetView(referee_pb2.GetViewRequest(game_id=table.game_id), metadata=md)
            code, reason, _ = reason_of(unary.value)
            assert code in {grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED}
        assert got_code == code, name
        if reason:
            assert got_reason == reason, name
    assert (await table.view(None)).version == 0


# --- resuming --------------------------------------------------------------------------------


async def test_resume_after_a_cut_connection_misses_nothing_and_applies_once(
    referee_server: Running, stub: Stub
) -> None:
    table = await Table.create(stub, 3, seed=b"play-resume")
    async with (
        CuttableProxy(referee_server.address) as proxy,
        grpc.aio.insecure_channel(proxy.address, options=FAST_RECONNECT) as channel,
    ):
        cut_stub = referee_pb2_grpc.RefereeServiceStub(channel)
        seat = await Seat.open(cut_stub, table.game_id, table.md(0))
        await seat.accepted(submit(take(WHITE, 1)))
        await table.submit(1, take(WHITE, 2))
        await table.submit(2, take(WHITE, 3))  # v3 ends the white round
        # A move sent and applied, then the line cut: the client takes it as unanswered.
        resent = submit(take(YELLOW, 1), move_id="resent")
        await seat.call.write(resent)
        await wait_for(lambda: _version_is(table, 4))
        proxy.cut()
        assert seat.reader is not None
        with pytest.raises(grpc.aio.AioRpcError) as cut:
            await asyncio.wait_for(seat.reader, TIMEOUT)
        assert cut.value.code() == grpc.StatusCode.UNAVAILABLE
        for k in (1, 2):  # the game goes on meanwhile
            await table.submit(k, take(YELLOW, k + 1))

        before = [u.version for u in seat.updates]
        again = await Seat.open(cut_stub, table.game_id, table.md(0), after=before[-1])
        result = await again.accepted(resent)
        assert (result.version, result.duplicate) == (4, True)
        await wait_for(lambda: _at(again, 6))
        versions = before + [u.version for u in again.updates]
        assert versions == list(range(7))  # snapshot 0, then 1..6: no gap, no repeat
        again.cancel()
        assert proxy.forwarded >= 2
    history = await table.history(None)
    assert [e.seat for e in history.entries] == [0, 1, 2, 0, 1, 2]  # the re-sent move once
    assert history.entries[3].move == take(YELLOW, 1)


async def _version_is(table: Table, version: int) -> bool:
    return (await table.view(None)).version == version


async def test_a_cancelled_stream_resumes_after_its_last_version(stub: Stub) -> None:
    table = await Table.create(stub, 3, seed=b"play-cancel")
    seat = await Seat.open(stub, table.game_id, table.md(1))
    await table.submit(0, take(WHITE, 1))
    await wait_for(lambda: _at(seat, 1))
    seat.cancel()
    await table.submit(2, take(WHITE, 3))
    again = await Seat.open(stub, table.game_id, table.md(1), after=1)
    result = await again.accepted(submit(take(WHITE, 2)))
    assert result.version == 3
    assert [u.version for u in again.updates] == [2, 3]
    kinds = [event.the_gang.WhichOneof("kind") for event in again.updates[1].events]
    assert kinds[-1] == "round_started"
    again.cancel()


# --- the Connect face --------------------------------------------------------------------------


def _frame(request: referee_pb2.PlayRequest) -> bytes:
    payload = json_format.MessageToJson(request).encode()
    return struct.pack(">BI", 0, len(payload)) + payload


def _frames(body: bytes) -> list[tuple[int, Any]]:
    out = []
    while body:
        flags, length = struct.unpack(">BI", body[:5])
        out.append((flags, json.loads(body[5 : 5 + length])))
        body = body[5 + length :]
    return out


async def _connect_play(
    running: Running, token: str, requests: list[referee_pb2.PlayRequest], tail: bytes = b""
) -> list[tuple[int, Any]]:
    """Play over HTTP/1.1, half-duplex: every request in the body, then every answer."""
    headers = {
        "Content-Type": "application/connect+json",
        "Connect-Protocol-Version": "1",
        "Authorization": f"Bearer {token}",
    }
    async with httpx.AsyncClient(base_url=running.http_url, timeout=TIMEOUT) as http:
        response = await http.post(
            "/referee.v1.RefereeService/Play",
            content=b"".join(_frame(r) for r in requests) + tail,
            headers=headers,
        )
    assert response.status_code == 200, response.text
    return _frames(response.content)


async def test_the_connect_face_plays_a_finished_game_half_duplex(
    referee_server: Running, stub: Stub
) -> None:
    table = await Table.create(stub, 3, seed=b"play-connect")
    final = await play_to_end(table, 3, win=True)
    frames = await _connect_play(
        referee_server, table.tokens[0], [join(table.game_id), LIST, submit(take(WHITE, 1))]
    )
    assert [flags for flags, _ in frames] == [0, 0, 0, 2]
    update, legal, refused, end = (message for _, message in frames)
    assert int(update["update"]["version"]) == final.version and update["update"]["snapshot"]
    assert "outcome" in update["update"]["view"]
    assert int(legal["legalMoves"]["version"]) == final.version
    assert not legal["legalMoves"].get("moves")
    assert refused["rejection"]["reason"] == "GAME_OVER"
    assert refused["rejection"]["code"] == code_pb2.FAILED_PRECONDITION
    assert "error" not in end

    frames = await _connect_play(referee_server, table.tokens[0], [LIST])
    assert len(frames) == 1 and frames[0][0] == 2
    assert frames[0][1]["error"]["code"] == "invalid_argument"

    garbage = b"{not json"
    frames = await _connect_play(
        referee_server,
        table.tokens[0],
        [join(table.game_id)],
        struct.pack(">BI", 0, len(garbage)) + garbage,
    )
    flags, end = frames[-1]
    assert flags == 2 and end["error"]["code"] == "invalid_argument"
    assert end["error"]["details"][0]["debug"]["reason"] == "MALFORMED_REQUEST"


# --- the benchmark's baseline ------------------------------------------------------------------


async def test_the_streaming_echo_answers_each_message_in_order() -> None:
    """bench.echo's EchoStream, Play's baseline: one response of the asked size per request."""
    server = grpc.aio.server()
    server.add_generic_rpc_handlers([echo.handler()])
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            call = echo.stream_method(channel)(None)
            sizes = [0, 5, 300, 5]
            for size in sizes:
                await call.write(echo.request_bytes(40, size))
                assert await call.read() == b"y" * size
            await call.done_writing()
            assert await call.read() is grpc.aio.EOF  # type: ignore[attr-defined]
            assert await call.code() == grpc.StatusCode.OK
            unary = echo.method(channel)
            assert await unary(echo.request_bytes(10, 7)) == b"y" * 7
    finally:
        await server.stop(None)
