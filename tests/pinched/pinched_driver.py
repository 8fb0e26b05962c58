"""Pinched! over gRPC: a driver that plays one game move by move, recording every answer.

The driver of :mod:`test_pinched_no_leaks`: random legal moves (ListLegalMoves) of random
seats among the view's ``to_act``, a little biased towards the hidden parts (the passage
that draws a curse, passing curses, a mastermind alone at the diamonds mansion or at the
letter's location); dry runs, provoked bad moves and old moves sent again; probes that ask
about cards and curses a seat does not hold, whose answers must not differ wherever those
things lie (no oracle). Every answer is recorded at the version it is for, rejections with
their status details, ErrorInfo, details string and trailing metadata.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import grpc
import pytest

from referee.v1 import game_pb2, referee_pb2
from referee.v1 import pinched_pb2 as pb
from tests.pinched.pinched_received import Recorder, Viewer
from tests.service.table import Metadata, Stub, auth, reason_of

Move = game_pb2.Move
PM = pb.PinchedMove
REFUSED, INVALID = grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.INVALID_ARGUMENT
UNAUTHENTICATED, ABORTED = grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.ABORTED
CROWN_DIAMONDS = pb.LocationSide(location=pb.LOCATION_DIAMONDS, side=pb.SIDE_CROWN)
CROWN_HEARTS = pb.LocationSide(location=pb.LOCATION_HEARTS, side=pb.SIDE_CROWN)
WEIGHTS = {"use_passage": 4, "pass_curse": 4}
"""Move choice weights by action (1 for the rest): the passage draws a curse on the crown
side, and a passed curse is seen by two seats only."""


def action(move: Move) -> str | None:
    return move.pinched.WhichOneof("action")


def choose(location: int) -> Move:
    return Move(pinched=PM(choose_location=PM.ChooseLocation(location=location)))  # type: ignore[arg-type]


def store(card: int, slot: int) -> Move:
    return Move(pinched=PM(store=PM.Store(card=card, slot=slot)))


def pass_curse(curse: int, to_seat: int) -> Move:
    return Move(pinched=PM(pass_curse=PM.PassCurse(curse=curse, to_seat=to_seat)))


async def _metadata(call: Any) -> list[tuple[str, str | bytes]]:
    """Initial and trailing metadata of a finished call: they reach the client too."""
    return [*(await call.initial_metadata() or ()), *(await call.trailing_metadata() or ())]


@dataclass
class PTable:
    """A Pinched! table: its id and seat tokens."""

    stub: Any  # grpc.aio as it is (grpc-stubs types the synchronous API)
    game_id: str
    tokens: list[str]
    seed_sha256: str

    @classmethod
    async def create(cls, stub: Stub, seats: int, seed: bytes, setup: str) -> PTable:
        created = await stub.CreateGame(
            referee_pb2.CreateGameRequest(
                game="pinched",
                seats=seats,
                seed=seed,
                allow_spectators=True,
                options=game_pb2.TableOptions(pinched=pb.PinchedOptions(setup=setup)),
            )
        )
        tokens = [t.token for t in created.seat_tokens]
        return cls(stub, created.game_id, tokens, created.seed_sha256)

    def md(self, viewer: Viewer) -> Metadata:
        return auth(None if viewer is None else self.tokens[viewer])


@dataclass
class Accepted:
    seat: int
    move_id: str
    move: Move
    version: int


@dataclass(frozen=True)
class Probe:
    """Dry runs of one move kind naming things a seat does not hold, at one version: the
    answers must be one and the same wherever those things truly lie."""

    kind: str  # "store" (card ids) or "curse" (curse ids)
    version: int
    seat: int
    targets: tuple[int, ...]


PROBE_CONCURRENCY = 16


class Driver:
    """Plays one game move by move, recording every answer at the version it is for."""

    def __init__(self, table: PTable, seats: int, rng: random.Random) -> None:
        self.table = table
        self.seats = seats
        self.rng = rng
        self.recorder = Recorder()
        self.version = 0
        self.view = game_pb2.View()
        self.accepted: list[Accepted] = []
        self.rejections: Counter[str] = Counter()
        self.probes: list[Probe] = []

    @property
    def finished(self) -> bool:
        return self.view.HasField("outcome")

    @property
    def pinched(self) -> pb.PinchedView:
        return self.view.pinched

    def md(self, viewer: Viewer) -> Metadata:
        return self.table.md(viewer)

    # --- calls, each answer recorded ------------------------------------------------------

    async def get_view(self, viewer: Viewer) -> game_pb2.View:
        call = self.table.stub.GetView(
            referee_pb2.GetViewRequest(game_id=self.table.game_id), metadata=self.md(viewer)
        )
        reply: referee_pb2.GetViewResponse = await call
        assert reply.view.version == self.version
        self.recorder.add(viewer, self.version, "GetView", reply, await _metadata(call))
        return reply.view

    async def legal(self, seat: int) -> list[Move]:
        call = self.table.stub.ListLegalMoves(
            referee_pb2.ListLegalMovesRequest(game_id=self.table.game_id), metadata=self.md(seat)
        )
        reply: referee_pb2.ListLegalMovesResponse = await call
        assert reply.version == self.version
        self.recorder.add(seat, self.version, "ListLegalMoves", reply, await _metadata(call))
        return list(reply.moves)

    async def validate(self, seat: int, move: Move) -> tuple[bool, str, str]:
        """A dry run: (legal, reason, message); a malformed move is refused outright."""
        request = referee_pb2.ValidateMoveRequest(game_id=self.table.game_id, move=move)
        try:
            reply = await self.table.stub.ValidateMove(request, metadata=self.md(seat))
        except grpc.aio.AioRpcError as error:
            self.recorder.add_error(seat, self.version, "ValidateMove", error, move)
            code, reason, _ = reason_of(error)
            assert code == INVALID, (code, reason)
            self.rejections[reason] += 1
            return False, reason, error.details() or ""
        assert reply.version == self.version
        self.recorder.add_answer(seat, self.version, "ValidateMove", reply, move)
        return reply.legal, reply.reason, reply.message

    async def history(self, viewer: Viewer) -> referee_pb2.GetHistoryResponse:
        call = self.table.stub.GetHistory(
            referee_pb2.GetHistoryRequest(game_id=self.table.game_id), metadata=self.md(viewer)
        )
        reply: referee_pb2.GetHistoryResponse = await call
        assert reply.version == self.version
        self.recorder.add(viewer, self.version, "GetHistory", reply, await _metadata(call))
        return reply

    def _request(
        self, move: Move, move_id: str | None, pin: int | None
    ) -> referee_pb2.SubmitMoveRequest:
        request = referee_pb2.SubmitMoveRequest(
            game_id=self.table.game_id, move=move, client_move_id=move_id or uuid.uuid4().hex
        )
        if pin is not None:
            request.expected_version = pin
        return request

    async def submit(
        self, seat: int, move: Move, *, pin: bool, move_id: str | None = None
    ) -> referee_pb2.SubmitMoveResponse:
        move_id = move_id or uuid.uuid4().hex
        request = self._request(move, move_id, self.version if pin else None)
        call = self.table.stub.SubmitMove(request, metadata=self.md(seat))
        reply: referee_pb2.SubmitMoveResponse = await call
        self.recorder.add(seat, reply.version, "SubmitMove", reply, await _metadata(call))
        if not reply.duplicate:
            assert reply.version == self.version + 1
            self.version = reply.version
            self.view = reply.view
            self.accepted.append(Accepted(seat, move_id, move, reply.version))
        return reply

    async def refused(
        self,
        viewer: Viewer,
        move: Move,
        expected: Sequence[tuple[grpc.StatusCode, str]],
        *,
        move_id: str | None = None,
        pin: int | None = None,
    ) -> str:
        """Submit a move that must be refused; record the rejection; its reason."""
        call = self.table.stub.SubmitMove(
            self._request(move, move_id, pin), metadata=self.md(viewer)
        )
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await call
        self.recorder.add_error(viewer, self.version, "SubmitMove", caught.value, move)
        code, reason, info = reason_of(caught.value)
        assert (code, reason) in expected, (code, reason, caught.value.details())
        if reason == "VERSION_MISMATCH":
            assert info == {"current_version": str(self.version)}
        self.rejections[reason] += 1
        return reason

    # --- choosing ------------------------------------------------------------------------

    async def choose_move(self, seat: int, legal: list[Move]) -> Move:
        if any(action(move) == "choose_location" for move in legal):
            return await self.plan(seat, legal)
        weights = [WEIGHTS.get(action(move) or "", 1) for move in legal]
        return self.rng.choices(legal, weights)[0]

    async def plan(self, seat: int, legal: list[Move]) -> Move:
        """The morning: the mastermind goes, now and then, where it would be alone with
        something hidden to gain (the letter's location with a clue; the diamonds mansion
        on its crown side); everyone else guesses at random."""
        own = (await self.get_view(seat)).pinched  # what the seat knows (recorded)
        where = [move.pinched.choose_location.location for move in legal]
        roll = self.rng.random()
        if seat == own.mastermind:
            letter_hunt = own.letter != pb.LOCATION_UNSPECIFIED and own.clues[seat] > 0
            if letter_hunt and not own.HasField("lisa_mona_holder") and roll < 0.6:
                return choose(own.letter)
            if CROWN_DIAMONDS in own.locations and roll < 0.3:
                return choose(pb.LOCATION_DIAMONDS)
            if CROWN_HEARTS in own.locations and roll < 0.6:
                return choose(pb.LOCATION_HEARTS)
        return choose(self.rng.choice(where))

    # --- probes and provoked rejections ----------------------------------------------------

    async def probe_store(self, seat: int) -> None:
        """Store cards the seat does not hold (dry runs, one submitted): one answer."""
        own = (await self.get_view(seat)).pinched
        mine = {card.id for card in own.hand}
        size = sum(kind.copies for kind in own.components.kinds) + own.components.jokers
        others = [card for card in range(size) if card not in mine]
        cards = tuple(others)  # wherever they lie: the deck, a hand, a stash, a field
        slot = self.rng.randrange(3)
        # Side by side, a few at a time: a probe of the 108-card table is a hundred dry runs,
        # and all at once they can exhaust the referee's Redis connection pool.
        gate = asyncio.Semaphore(PROBE_CONCURRENCY)

        async def dry_run(card: int) -> tuple[bool, str, str]:
            async with gate:
                return await self.validate(seat, store(card, slot))

        answers = set(await asyncio.gather(*(dry_run(card) for card in cards)))
        assert len(answers) == 1, f"the answer depends on where the card lies: {answers}"
        ((legal, reason, _),) = answers
        assert not legal
        self.probes.append(Probe("store", self.version, seat, cards))
        await self.refused(seat, store(cards[0], slot), [(REFUSED, reason)])

    async def probe_curses(self, seat: int) -> None:
        """Pass every curse the seat does not hold (dry runs, one submitted): one answer."""
        own = (await self.get_view(seat)).pinched
        mine = {curse.id for curse in own.curses}
        curses = tuple(c for c in range(len(own.components.curses)) if c not in mine)
        to = self.rng.choice([s for s in range(self.seats) if s != seat])
        answers = {await self.validate(seat, pass_curse(curse, to)) for curse in curses}
        assert len(answers) == 1, f"the answer depends on where the curse lies: {answers}"
        ((legal, reason, _),) = answers
        assert not legal
        self.probes.append(Probe("curse", self.version, seat, curses))
        await self.refused(seat, pass_curse(curses[0], to), [(REFUSED, reason)])

    async def probe_sealed(self) -> None:
        """The morning: a seat that chose tries again (refused, naming nothing); a seat
        yet to choose may choose every location, whatever the others chose."""
        p = self.pinched
        chosen = list(p.chosen_seats)
        waiting = [s for s in range(self.seats) if s not in chosen]
        if chosen:
            seat = self.rng.choice(chosen)
            where = self.rng.choice(list(p.locations)).location
            expected = [(REFUSED, "ALREADY_CHOSEN"), (REFUSED, "STORE_FIRST")]
            await self.refused(seat, choose(where), expected)
        if waiting:
            seat = self.rng.choice(waiting)
            answers = {await self.validate(seat, choose(ls.location)) for ls in p.locations}
            assert len(answers) == 1, answers
            assert answers == {(True, "", "")} or all(a[1] == "STORE_FIRST" for a in answers)

    async def provoke(self, seat: int, legal: list[Move]) -> None:
        """One rejection of a kind that fits the table now, recorded like any answer."""
        kind = self.rng.randrange(7)
        if kind == 0 and self.version > 0:
            stale = self.version - 1
            await self.refused(seat, legal[0], [(ABORTED, "VERSION_MISMATCH")], pin=stale)
        elif kind == 1:
            mine = [done for done in self.accepted if done.seat == seat]
            if mine:
                old = self.rng.choice(mine)
                other = store(999, 0) if action(old.move) != "store" else choose(1)
                expected = [(INVALID, "MOVE_ID_REUSED")]
                await self.refused(seat, other, expected, move_id=old.move_id)
        elif kind == 2:
            idle = [s for s in range(self.seats) if s not in self.view.to_act]
            if idle:
                late = Move(pinched=PM(take_from_river=PM.TakeFromRiver(field=0)))
                await self.refused(
                    self.rng.choice(idle),
                    late,
                    [(REFUSED, "NOT_NOW"), (REFUSED, "NOT_YOUR_TURN"), (REFUSED, "FIELD_EMPTY")],
                )
        elif kind == 3:
            call = self.table.stub.ListLegalMoves(
                referee_pb2.ListLegalMovesRequest(game_id=self.table.game_id)
            )
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await call
            self.recorder.add_error(None, self.version, "ListLegalMoves", caught.value)
            assert reason_of(caught.value)[:2] == (UNAUTHENTICATED, "TOKEN_MISSING")
            self.rejections["TOKEN_MISSING"] += 1
        elif kind == 4:
            await self.refused(None, legal[0], [(UNAUTHENTICATED, "TOKEN_MISSING")])
        elif kind == 5:
            await self.refused(seat, Move(pinched=PM()), [(INVALID, "MOVE_EMPTY")])
        else:
            await self.refused(
                seat, choose(pb.LOCATION_UNSPECIFIED), [(INVALID, "LOCATION_MISSING")]
            )

    async def duplicate(self) -> None:
        """An old move sent again with its id: its first answer, at its own version."""
        old = self.rng.choice(self.accepted)
        again = await self.submit(old.seat, old.move, pin=False, move_id=old.move_id)
        assert again.duplicate and again.version == old.version

    # --- one step -------------------------------------------------------------------------

    async def step(self, number: int) -> None:
        to_act = list(self.view.to_act)
        assert to_act, "a running game always has a seat to act"
        seat = self.rng.choice(to_act)
        legal = await self.legal(seat)
        assert legal, f"seat {seat} is to act, so it has a legal move"
        roll = self.rng.random()
        if roll < 0.25:
            answer = await self.validate(seat, self.rng.choice(legal))
            assert answer == (True, "", ""), answer
        if self.pinched.phase == pb.PINCHED_PHASE_PLAN and self.rng.random() < 0.3:
            await self.probe_sealed()
        # Store probes: most often when a hand holds cards (perhaps drawn face down).
        holding = [s for s, size in enumerate(self.pinched.hand_sizes) if size]
        if self.rng.random() < (0.3 if holding else 0.03):
            others = [s for s in range(self.seats) if s not in holding[:1]]
            await self.probe_store(self.rng.choice(others))
        cursed = self.pinched.curse_pile < len(self.pinched.components.curses)
        if cursed and self.rng.random() < 0.15:
            await self.probe_curses(self.rng.randrange(self.seats))
        if self.rng.random() < 0.15:
            await self.provoke(seat, legal)
        if self.accepted and self.rng.random() < 0.04:
            await self.duplicate()
        move = await self.choose_move(seat, legal)
        await self.submit(seat, move, pin=self.rng.random() < 0.5)
        if self.rng.random() < 0.25:
            await self.get_view(self.rng.choice([None, *range(self.seats)]))
        if number % 15 == 0:
            await self.history(self.rng.choice([None, *range(self.seats)]))
