"""No hidden information leaks: every message a seat or a spectator receives is checked.

Random games are played through gRPC (random legal moves of random seats, fixed seeds).
Every seat and one spectator watch the whole game, and every answer anyone gets is
recorded: views, submit results with their events, legal-move lists, dry runs, history
during the game and rejections (status, ErrorInfo, details string, trailing metadata).
After the game the revealed seed is replayed with the engine and :mod:`leakcheck` judges
each message against the true state at its version: no card of the deck or of another
seat's pocket of the heist in play, no seed before the end, and every view shows its
viewer's own true pocket (so the test cannot pass by seeing nothing).
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import uuid
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest
from google.protobuf import descriptor

from engines.base import replay
from engines.cards import Card
from engines.the_gang import GAME
from engines.the_gang.model import Colour, TheGangConfig, TheGangState
from engines.the_gang.moves import TakeChip
from referee.v1 import game_pb2, referee_pb2, the_gang_pb2
from service.codecs.the_gang import TheGangCodec, card_to_proto
from tests.service.leakcheck import Received, Recorder, Report, Viewer, check
from tests.service.table import COLOURS, TG, Metadata, Stub, Table, give_back, reason_of, take

Move = game_pb2.Move
CODEC = TheGangCodec()
MAX_STEPS = 1500
RESUME_AT = 15  # step at which resuming watchers join
CONFIRM = Move(the_gang=TG(confirm_round_end=TG.ConfirmRoundEnd()))


def seed_for(name: str) -> bytes:
    return hashlib.sha256(f"no-leaks/{name}".encode()).digest()


def action(move: Move) -> str | None:
    return move.the_gang.WhichOneof("action")


@dataclass
class Accepted:
    seat: int
    move_id: str
    move: Move
    version: int


@dataclass
class Played:
    """A finished game, everything its viewers received, and the truth from the replay."""

    seats: int
    seed: bytes
    final_version: int
    recorder: Recorder
    watched: dict[Viewer, list[referee_pb2.WatchGameResponse]]
    states: list[TheGangState]
    rejections: dict[str, int] = field(default_factory=dict)


async def _metadata(call: Any) -> list[tuple[str, str | bytes]]:
    """Initial and trailing metadata of a finished call: they reach the client too."""
    return [*(await call.initial_metadata() or ()), *(await call.trailing_metadata() or ())]


def _aio(table: Table) -> Any:
    """The table's stub as grpc.aio really is: grpc-stubs types the synchronous API."""
    return table.stub


class Driver:
    """Plays one game move by move, recording every answer at the version it is for."""

    def __init__(self, table: Table, seats: int, confirm: bool, rng: random.Random) -> None:
        self.table = table
        self.seats = seats
        self.confirm = confirm
        self.rng = rng
        self.recorder = Recorder()
        self.version = 0
        self.view: game_pb2.View = game_pb2.View()
        self.accepted: list[Accepted] = []
        self.rejections: dict[str, int] = {}

    @property
    def finished(self) -> bool:
        return self.view.HasField("outcome")

    def md(self, viewer: Viewer) -> Metadata:
        return self.table.md(viewer)

    # --- chips as the public view shows them ----------------------------------------------

    def holders(self) -> dict[int, int | None]:
        """Stars -> holder of the current round's chips (None: in the centre)."""
        row = self.view.the_gang.chips[-1]
        return {chip.stars: chip.holder if chip.HasField("holder") else None for chip in row.chips}

    def can_progress(self, seat: int) -> bool:
        holders = self.holders()
        if seat not in holders.values():
            return True
        everyone = all(holder is not None for holder in holders.values())
        return self.confirm and everyone and seat not in self.view.the_gang.confirmed_seats

    def pick_seat(self) -> int:
        hopeful = [seat for seat in range(self.seats) if self.can_progress(seat)]
        if hopeful and self.rng.random() < 0.85:
            return self.rng.choice(hopeful)
        return self.rng.randrange(self.seats)

    def pick_move(self, seat: int, legal: list[Move]) -> Move:
        if self.rng.random() < 0.85:
            confirms = [move for move in legal if action(move) == "confirm_round_end"]
            if confirms:
                return confirms[0]
            holders = self.holders()
            if seat not in holders.values():
                free = [
                    move
                    for move in legal
                    if action(move) == "take_chip"
                    and holders[move.the_gang.take_chip.stars] is None
                ]
                if free:
                    return self.rng.choice(free)
        return self.rng.choice(legal)

    # --- calls, each answer recorded ----------------------------------------------------------

    async def get_view(self, viewer: Viewer) -> game_pb2.View:
        call = _aio(self.table).GetView(
            referee_pb2.GetViewRequest(game_id=self.table.game_id), metadata=self.md(viewer)
        )
        reply: referee_pb2.GetViewResponse = await call
        assert reply.view.version == self.version
        self.recorder.add(viewer, self.version, "GetView", reply, await _metadata(call))
        return reply.view

    async def legal(self, seat: int) -> list[Move]:
        reply = await self.table.legal(seat)
        assert reply.version == self.version
        self.recorder.add(seat, self.version, "ListLegalMoves", reply)
        return list(reply.moves)

    async def validate(self, seat: int, move: Move) -> None:
        reply: referee_pb2.ValidateMoveResponse = await _aio(self.table).ValidateMove(
            referee_pb2.ValidateMoveRequest(game_id=self.table.game_id, move=move),
            metadata=self.md(seat),
        )
        assert reply.version == self.version
        self.recorder.add(seat, self.version, "ValidateMove", reply)

    async def history(self, viewer: Viewer) -> referee_pb2.GetHistoryResponse:
        reply = await self.table.history(viewer)
        assert reply.version == self.version
        self.recorder.add(viewer, self.version, "GetHistory", reply)
        return reply

    async def submit(
        self, seat: int, move: Move, *, pin: bool, move_id: str | None = None
    ) -> referee_pb2.SubmitMoveResponse:
        move_id = move_id or uuid.uuid4().hex
        request = referee_pb2.SubmitMoveRequest(
            game_id=self.table.game_id, move=move, client_move_id=move_id
        )
        if pin:
            request.expected_version = self.version
        call = _aio(self.table).SubmitMove(request, metadata=self.md(seat))
        reply: referee_pb2.SubmitMoveResponse = await call
        self.recorder.add(seat, reply.version, "SubmitMove", reply, await _metadata(call))
        if not reply.duplicate:
            assert reply.version == self.version + 1
            self.version = reply.version
            self.view = reply.view
            self.accepted.append(Accepted(seat, move_id, move, reply.version))
        return reply

    async def rejected(
        self, viewer: Viewer, source: str, call: Any, code: grpc.StatusCode, reason: str
    ) -> None:
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await call
        self.recorder.add_error(viewer, self.version, source, caught.value)
        got = reason_of(caught.value)
        assert (got[0], got[1]) == (code, reason), f"{source}: {got}"
        if reason == "VERSION_MISMATCH":
            assert got[2] == {"current_version": str(self.version)}
        self.rejections[reason] = self.rejections.get(reason, 0) + 1

    # --- provoking rejections -------------------------------------------------------------

    async def provoke(self, seat: int, legal: list[Move]) -> None:
        """One rejection of a kind that fits the table now, recorded like any answer."""
        holders = self.holders()
        colour = self.view.the_gang.round
        later = COLOURS[(COLOURS.index(colour) + 1) % 4]
        not_held = [stars for stars, holder in holders.items() if holder != seat]
        held = [stars for stars, holder in holders.items() if holder == seat]
        refused, invalid = grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.INVALID_ARGUMENT
        # (move, client_move_id, expected_version, code, reason)
        moves: list[tuple[Move, str | None, int | None, grpc.StatusCode, str]] = [
            (give_back(colour, not_held[0]), None, None, refused, "CHIP_NOT_HELD"),
            (take(later, 1), None, None, refused, "CHIP_NOT_IN_PLAY"),
            (take(colour, self.seats + 1), None, None, invalid, "CHIP_OUT_OF_RANGE"),
        ]
        if held:
            moves.append((take(colour, held[0]), None, None, refused, "CHIP_ALREADY_HELD"))
        if not self.confirm:
            moves.append((CONFIRM, None, None, refused, "CONFIRMATION_NOT_USED"))
        elif None in holders.values():
            moves.append((CONFIRM, None, None, refused, "ROUND_INCOMPLETE"))
        if self.version > 0:
            moves.append(
                (legal[0], None, self.version - 1, grpc.StatusCode.ABORTED, "VERSION_MISMATCH")
            )
        mine = [done for done in self.accepted if done.seat == seat]
        if mine:
            other = CONFIRM if action(mine[-1].move) == "take_chip" else take(colour, 1)
            moves.append((other, mine[-1].move_id, None, invalid, "MOVE_ID_REUSED"))
        if self.rng.random() < 0.15:
            # A spectator may not ask for legal moves.
            call = _legal_as(self.table, None)
            code, reason = grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MISSING"
            await self.rejected(None, "ListLegalMoves", call, code, reason)
            return
        move, move_id, pin, code, reason = self.rng.choice(moves)
        call = self.table.submit(seat, move, move_id=move_id, expected_version=pin)
        await self.rejected(seat, "SubmitMove", call, code, reason)

    def random_candidate(self) -> Move:
        kind = self.rng.randrange(3)
        colour = self.rng.choice(COLOURS)
        stars = self.rng.randint(0, self.seats + 1)
        if kind == 0:
            return take(colour, stars)
        if kind == 1:
            return give_back(colour, stars)
        return CONFIRM

    # --- one step ------------------------------------------------------------------------------

    async def step(self, number: int) -> None:
        seat = self.pick_seat()
        legal = await self.legal(seat)
        assert legal, "every seat may act in every round of The Gang"
        await self.validate(seat, self.random_candidate())
        await self.validate(seat, self.rng.choice(legal))
        if self.rng.random() < 0.2:
            await self.provoke(seat, legal)
        if self.accepted and self.rng.random() < 0.08:
            old = self.rng.choice(self.accepted)
            again = await self.submit(old.seat, old.move, pin=False, move_id=old.move_id)
            assert again.duplicate
            assert again.version == old.version
        await self.submit(seat, self.pick_move(seat, legal), pin=self.rng.random() < 0.5)
        await self.get_view(seat)
        await self.get_view(None)
        if number % 10 == 0:
            for other in range(self.seats):
                await self.get_view(other)
        if number % 12 == 0:
            await self.history(self.rng.choice([None, *range(self.seats)]))


async def _watch(
    table: Table,
    viewer: Viewer,
    out: list[referee_pb2.WatchGameResponse],
    started: asyncio.Event,
    after: int | None = None,
) -> None:
    request = referee_pb2.WatchGameRequest(game_id=table.game_id)
    if after is not None:
        request.after_version = after  # resume: the missed versions are replayed first
    stream = _aio(table).WatchGame(request, metadata=table.md(viewer))
    async for message in stream:
        out.append(message)
        started.set()


def _legal_as(table: Table, viewer: Viewer) -> Any:
    return _aio(table).ListLegalMoves(
        referee_pb2.ListLegalMovesRequest(game_id=table.game_id), metadata=table.md(viewer)
    )


async def play(stub: Stub, seats: int, confirm: bool, name: str) -> Played:
    seed = seed_for(name)
    rng = random.Random(name)
    table = await Table.create(stub, seats, seed=seed, confirm_round_end=confirm)
    viewers: list[Viewer] = [None, *range(seats)]
    watched: dict[Viewer, list[referee_pb2.WatchGameResponse]] = {v: [] for v in viewers}
    started = {viewer: asyncio.Event() for viewer in viewers}
    watchers = [asyncio.create_task(_watch(table, v, watched[v], started[v])) for v in viewers]
    resumed: list[tuple[Viewer, int, list[referee_pb2.WatchGameResponse]]] = []
    try:
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in started.values())), 10)
        driver = Driver(table, seats, confirm, rng)
        driver.view = await driver.get_view(None)
        for viewer in viewers:
            await driver.get_view(viewer)
        await driver.history(0)
        number = 0
        while not driver.finished:
            number += 1
            assert number <= MAX_STEPS, "the random game did not end"
            await driver.step(number)
            if number == RESUME_AT and not driver.finished:
                # Two late watchers resume from an earlier version (replayed, then live).
                for viewer in (None, rng.randrange(seats)):
                    after = max(0, driver.version - 8)
                    out: list[referee_pb2.WatchGameResponse] = []
                    resumed.append((viewer, after, out))
                    begun = asyncio.Event()
                    watchers.append(
                        asyncio.create_task(_watch(table, viewer, out, begun, after=after))
                    )
                    await asyncio.wait_for(begun.wait(), 10)  # subscribed before moving on
        await asyncio.wait_for(asyncio.gather(*watchers), 20)
    finally:
        for task in watchers:
            task.cancel()
    final = driver.version
    # After the end: the seed is revealed; a late move is refused without leaking anything.
    await driver.rejected(
        0,
        "SubmitMove",
        table.submit(0, take(COLOURS[0], 1)),
        grpc.StatusCode.FAILED_PRECONDITION,
        "GAME_OVER",
    )
    history = await driver.history(None)
    assert history.seed == seed
    assert hashlib.sha256(history.seed).hexdigest() == table.seed_sha256
    assert [(e.seat, e.move) for e in history.entries] == [
        (done.seat, done.move) for done in driver.accepted
    ]
    config = TheGangConfig(players=seats, confirm_round_end=confirm)
    moves = [(e.seat, CODEC.move_from_proto(e.move)) for e in history.entries]
    initial, steps = replay(GAME, config, history.seed, moves)
    states = [initial, *(step.state for step in steps)]
    assert len(states) == final + 1
    assert states[-1].finished
    for viewer, messages in watched.items():
        assert messages[0].snapshot
        assert messages[0].version == 0
        assert [m.version for m in messages] == list(range(final + 1)), f"watcher {viewer}"
        for message in messages:
            driver.recorder.add(viewer, message.version, "WatchGame", message)
    for viewer, after, messages in resumed:
        assert [m.version for m in messages] == list(range(after + 1, final + 1)), viewer
        assert not any(m.snapshot for m in messages)
        for message in messages:
            driver.recorder.add(viewer, message.version, "WatchGame(resumed)", message)
    return Played(seats, seed, final, driver.recorder, watched, states, driver.rejections)


def assert_no_leaks(played: Played) -> Report:
    report = check(played.recorder.items, played.states, played.seed)
    assert not report.problems, str(report)
    for seat in range(played.seats):
        # Versions 0..final-1 are all before the end: at least one own view for each.
        assert report.own_pockets_seen[seat] >= played.final_version, seat
    assert report.views_checked[None] >= played.final_version + 1
    assert report.own_pockets_seen[None] == 0
    assert report.cards_checked > 100 * played.seats
    expected_sources = {
        "GetView",
        "SubmitMove",
        "ListLegalMoves",
        "ValidateMove",
        "WatchGame",
        "WatchGame(resumed)",
        "GetHistory",
    }
    assert expected_sources <= set(report.sources)
    return report


GAMES = [(3, False), (4, True), (5, False), (6, True), (6, False)]


@pytest.mark.parametrize(("seats", "confirm"), GAMES)
async def test_no_message_shows_a_hidden_card(stub: Stub, seats: int, confirm: bool) -> None:
    played = await play(stub, seats, confirm, f"game-{seats}-{confirm}")
    assert_no_leaks(played)
    assert played.rejections, "the game provoked no rejection"
    assert len(played.states[-1].history) >= 3  # several heists: old showdowns are public


async def test_the_deck_order_and_the_seed_never_leave_the_referee(stub: Stub) -> None:
    # The contract: the deck appears only as a count, and no answer has a bytes field but
    # the seed of GetHistory (revealed at the end).
    view_fields = the_gang_pb2.TheGangView.DESCRIPTOR.fields_by_name
    card_fields = {
        name
        for name, fd in view_fields.items()
        if fd.message_type is not None and fd.message_type.full_name == "referee.v1.PlayingCard"
    }
    assert card_fields == {"board", "pocket"}
    assert [name for name in view_fields if "deck" in name] == ["deck_size"]
    assert view_fields["deck_size"].type == descriptor.FieldDescriptor.TYPE_INT32
    service = referee_pb2.DESCRIPTOR.services_by_name["RefereeService"]
    bytes_fields = set()
    for method in service.methods:
        for fd in _reachable_fields(method.output_type):
            if fd.type == descriptor.FieldDescriptor.TYPE_BYTES:
                bytes_fields.add(fd.full_name)
    assert bytes_fields == {"referee.v1.GetHistoryResponse.seed"}

    played = await play(stub, 4, False, "deck-and-seed")
    assert_no_leaks(played)  # includes: no seed (bytes, hex, base64) in any message before the end
    before_end = [item for item in played.recorder.items if item.version < played.final_version]
    histories = [item.message for item in before_end if item.source == "GetHistory"]
    assert histories
    assert all(isinstance(h, referee_pb2.GetHistoryResponse) and not h.seed for h in histories)
    # The search would find the seed: the history after the end holds it.
    final = [item for item in played.recorder.items if item.source == "GetHistory"][-1]
    assert final.version == played.final_version
    assert played.seed in final.message.SerializeToString()
    # deck_size is the true deck's size at every version; the deck's cards themselves
    # appear nowhere before they are dealt (leakcheck counts them as leaks).
    sizes = {m.version: m.view.the_gang.deck_size for m in played.watched[None]}
    assert sizes == {v: len(state.deck) for v, state in enumerate(played.states)}


def _reachable_fields(
    message: descriptor.Descriptor, seen: set[str] | None = None
) -> list[descriptor.FieldDescriptor]:
    seen = set() if seen is None else seen
    if message.full_name in seen:
        return []
    seen.add(message.full_name)
    out = list(message.fields)
    for fd in message.fields:
        if fd.message_type is not None:
            out += _reachable_fields(fd.message_type, seen)
    return out


def test_the_checker_catches_a_planted_leak() -> None:
    """The detector itself: another seat's card, the deck, the seed and a wrong pocket."""
    config = TheGangConfig(players=3)
    seed = seed_for("planted")
    initial, steps = replay(GAME, config, seed, [(0, TakeChip(Colour.WHITE, 1))])
    states = [initial, *(step.state for step in steps)]
    other: Card = initial.pockets[1][0]
    deck_card: Card = initial.deck[0]

    def board_event(card: Card) -> game_pb2.Event:
        return game_pb2.Event(
            the_gang=the_gang_pb2.TheGangEvent(
                board_dealt=the_gang_pb2.TheGangEvent.BoardDealt(cards=[card_to_proto(card)])
            )
        )

    planted = [
        Received(0, 0, "planted", board_event(other)),
        Received(None, 1, "planted", board_event(initial.pockets[0][1])),
        Received(2, 0, "planted", board_event(deck_card)),
        Received(
            0, 0, "planted-text", referee_pb2.ValidateMoveResponse(message=f"seat 1 holds {other}")
        ),
        Received(0, 0, "planted-seed", referee_pb2.GetHistoryResponse(seed=seed)),
        Received(
            1,
            0,
            "planted-view",
            referee_pb2.GetViewResponse(
                view=game_pb2.View(
                    seat=1,
                    the_gang=the_gang_pb2.TheGangView(
                        pocket=[card_to_proto(c) for c in initial.pockets[0]]
                    ),
                )
            ),
        ),
    ]
    report = check(planted, states, seed)
    assert len(report.problems) >= len(planted), str(report)
    for item in planted:
        assert any(f"{item.source} to" in p for p in report.problems), item.source
    fine = check([Received(0, 0, "fine", board_event(initial.pockets[0][0]))], states, seed)
    assert not fine.problems, str(fine)
