"""The Gang over gRPC: a driver that plays one game move by move, recording every answer.

The driver of the base game in :mod:`test_no_leaks`: random legal moves of random seats
(most often a seat that can make progress), dry runs of random and legal candidates,
provoked rejections of every kind that fits the table, old moves sent again with their
ids, and views and history along the way. Every answer is recorded at the version it is
for, rejections with their status, ErrorInfo, details string and trailing metadata.
:mod:`the_gang_mode_driver` extends it to the modes.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass
from typing import Any

import grpc
import pytest

from referee.v1 import game_pb2, referee_pb2
from tests.service.table import COLOURS, TG, Metadata, Table, give_back, reason_of, take
from tests.the_gang.leakcheck import Recorder, Viewer

Move = game_pb2.Move
CONFIRM = Move(the_gang=TG(confirm_round_end=TG.ConfirmRoundEnd()))


def action(move: Move) -> str | None:
    return move.the_gang.WhichOneof("action")


@dataclass
class Accepted:
    seat: int
    move_id: str
    move: Move
    version: int


async def _metadata(call: Any) -> list[tuple[str, str | bytes]]:
    """Initial and trailing metadata of a finished call: they reach the client too."""
    return [*(await call.initial_metadata() or ()), *(await call.trailing_metadata() or ())]


def aio_stub(table: Table) -> Any:
    """The table's stub as grpc.aio really is: grpc-stubs types the synchronous API."""
    return table.stub


Rejection = tuple[Move, str | None, int | None, grpc.StatusCode, str]
"""A move that must be refused: move, client_move_id, expected_version, code, reason."""
REFUSED, INVALID = grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.INVALID_ARGUMENT


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

    async def choose_seat(self) -> int:
        return self.pick_seat()

    async def choose_move(self, seat: int, legal: list[Move]) -> Move:
        return self.pick_move(seat, legal)

    # --- calls, each answer recorded ----------------------------------------------------------

    async def get_view(self, viewer: Viewer) -> game_pb2.View:
        call = aio_stub(self.table).GetView(
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
        """A dry run; a malformed move is refused outright (recorded like any rejection)."""
        try:
            reply: referee_pb2.ValidateMoveResponse = await aio_stub(self.table).ValidateMove(
                referee_pb2.ValidateMoveRequest(game_id=self.table.game_id, move=move),
                metadata=self.md(seat),
            )
        except grpc.aio.AioRpcError as error:
            refused = error
        else:
            assert reply.version == self.version
            self.recorder.add(seat, self.version, "ValidateMove", reply)
            return
        self.recorder.add_error(seat, self.version, "ValidateMove", refused)
        code, reason, _ = reason_of(refused)
        assert code == INVALID, (code, reason)
        self.rejections[reason] = self.rejections.get(reason, 0) + 1

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
        call = aio_stub(self.table).SubmitMove(request, metadata=self.md(seat))
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

    def chip_rejections(self, seat: int, legal: list[Move]) -> list[Rejection]:
        """Chip moves and confirmations refused now, and a stale version or move id."""
        holders = self.holders()
        colour = self.view.the_gang.round
        later = COLOURS[(COLOURS.index(colour) + 1) % 4]
        not_held = [stars for stars, holder in holders.items() if holder != seat]
        held = [stars for stars, holder in holders.items() if holder == seat]
        moves: list[Rejection] = [
            (give_back(colour, not_held[0]), None, None, REFUSED, "CHIP_NOT_HELD"),
            (take(later, 1), None, None, REFUSED, "CHIP_NOT_IN_PLAY"),
            (take(colour, self.seats + 1), None, None, INVALID, "CHIP_OUT_OF_RANGE"),
        ]
        if held:
            moves.append((take(colour, held[0]), None, None, REFUSED, "CHIP_ALREADY_HELD"))
        if not self.confirm:
            moves.append((CONFIRM, None, None, REFUSED, "CONFIRMATION_NOT_USED"))
        elif None in holders.values():
            moves.append((CONFIRM, None, None, REFUSED, "ROUND_INCOMPLETE"))
        return moves

    def stale_rejections(self, seat: int, legal: list[Move]) -> list[Rejection]:
        colour = self.view.the_gang.round
        moves: list[Rejection] = []
        if self.version > 0:
            moves.append(
                (legal[0], None, self.version - 1, grpc.StatusCode.ABORTED, "VERSION_MISMATCH")
            )
        mine = [done for done in self.accepted if done.seat == seat]
        if mine:
            other = CONFIRM if action(mine[-1].move) == "take_chip" else take(colour, 1)
            moves.append((other, mine[-1].move_id, None, INVALID, "MOVE_ID_REUSED"))
        return moves

    async def rejections_now(self, seat: int, legal: list[Move]) -> list[Rejection]:
        return self.chip_rejections(seat, legal) + self.stale_rejections(seat, legal)

    async def provoke(self, seat: int, legal: list[Move]) -> None:
        """One rejection of a kind that fits the table now, recorded like any answer."""
        moves = await self.rejections_now(seat, legal)
        if self.rng.random() < 0.15:
            # A spectator may not ask for legal moves.
            call = _legal_as(self.table, None)
            code, reason = grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MISSING"
            await self.rejected(None, "ListLegalMoves", call, code, reason)
            return
        move, move_id, pin, code, reason = self.rng.choice(moves)
        call = self.table.submit(seat, move, move_id=move_id, expected_version=pin)
        await self.rejected(seat, "SubmitMove", call, code, reason)

    def random_candidate(self, seat: int) -> Move:
        kind = self.rng.randrange(3)
        colour = self.rng.choice(COLOURS)
        stars = self.rng.randint(0, self.seats + 1)
        if kind == 0:
            return take(colour, stars)
        if kind == 1:
            return give_back(colour, stars)
        return CONFIRM

    # --- one step ------------------------------------------------------------------------------

    async def seat_and_legal(self) -> tuple[int, list[Move]]:
        seat = await self.choose_seat()
        legal = await self.legal(seat)
        assert legal, "every seat may act in every round of The Gang"
        return seat, legal

    async def step(self, number: int) -> None:
        seat, legal = await self.seat_and_legal()
        await self.validate(seat, self.random_candidate(seat))
        await self.validate(seat, self.rng.choice(legal))
        if self.rng.random() < 0.2:
            await self.provoke(seat, legal)
        if self.accepted and self.rng.random() < 0.08:
            old = self.rng.choice(self.accepted)
            again = await self.submit(old.seat, old.move, pin=False, move_id=old.move_id)
            assert again.duplicate
            assert again.version == old.version
        move = await self.choose_move(seat, legal)
        await self.submit(seat, move, pin=self.rng.random() < 0.5)
        await self.get_view(seat)
        await self.get_view(None)
        if number % 10 == 0:
            for other in range(self.seats):
                await self.get_view(other)
        if number % 12 == 0:
            await self.history(self.rng.choice([None, *range(self.seats)]))


def _legal_as(table: Table, viewer: Viewer) -> Any:
    return aio_stub(table).ListLegalMoves(
        referee_pb2.ListLegalMovesRequest(game_id=table.game_id), metadata=table.md(viewer)
    )
