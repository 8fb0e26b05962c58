"""No hidden information leaks: every message a seat or a spectator receives is checked.

Random games are played through gRPC (fixed seeds): the base game with random legal moves of
random seats, and the modes (Advanced, Professional, Master Thief) with a driver that also
makes the group decisions (proposes, accepts — mostly —, withdraws and supersedes, agrees
on the scan guesses) and the card actions (shows, discards, passes), and plays each heist
to the outcome its plan asks for, so chosen specialist and challenge cards come up. Every
seat and one spectator watch the whole game, and every answer anyone gets is recorded:
views, submit results with their events, legal-move lists, dry runs, history during the
game and rejections (status, ErrorInfo, details string, trailing metadata). After the game
the revealed seed is replayed with the engine and :mod:`leakcheck` judges each message
against the true states and events: no card of the deck, of another seat's pocket, of the
face-down discards or of another seat's sealed pass, no Informant card shown to someone
else, no seed before the end, and every view shows its viewer's own true pocket (so the
test cannot pass by seeing nothing). The modes' games also check that each private card
reached the seats the rules name, and that the cards they were set up for really came up.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest
from google.protobuf import descriptor

from engines.base import replay
from engines.cards import Card
from engines.poker import evaluate, showdown_key
from engines.the_gang import GAME
from engines.the_gang import events as ev
from engines.the_gang import moves as mv
from engines.the_gang.model import (
    JACK_CARD,
    AnnouncementKind,
    Challenge,
    Colour,
    Mode,
    PileStart,
    Specialist,
    TheGangConfig,
    TheGangState,
    UseSpecialist,
)
from engines.the_gang.moves import Accept, DiscardCard, PassCard, Propose, ShowCard, TakeChip
from referee.v1 import game_pb2, referee_pb2, the_gang_pb2
from service.codecs.the_gang import TheGangCodec, card_to_proto
from tests.service.leakcheck import Events, Received, Recorder, Report, Viewer, check, truth_of
from tests.service.table import (
    COLOURS,
    TG,
    Metadata,
    Stub,
    Table,
    accept,
    give_back,
    mode_options,
    pile,
    propose_again,
    propose_hand,
    propose_rank,
    propose_use,
    reason_of,
    show_card,
    take,
    withdraw,
)
from tests.service.table import discard_card as discard_move
from tests.service.table import pass_card as pass_move

Move = game_pb2.Move
Pb = the_gang_pb2
CODEC = TheGangCodec()
MAX_STEPS = 1500
RESUME_AT = (15,)  # steps at which resuming watchers join
MODE_RESUME_AT = (15, 75)  # a mode game is longer: resume in a later heist too
CONFIRM = Move(the_gang=TG(confirm_round_end=TG.ConfirmRoundEnd()))
RED = Pb.CHIP_COLOUR_RED
SCANS = (Pb.CHALLENGE_CARD_RETINA_SCAN, Pb.CHALLENGE_CARD_FINGERPRINT_SCAN)
AUTOMATIC = (
    Pb.SPECIALIST_CARD_INVESTOR,
    Pb.SPECIALIST_CARD_COORDINATOR,
    Pb.SPECIALIST_CARD_MATH_WHIZ,
    Pb.SPECIALIST_CARD_CON_ARTIST,
)
CARD_ACTIONS = ("show_card", "discard_card", "pass_card")


def seed_for(name: str) -> bytes:
    return hashlib.sha256(f"no-leaks/{name}".encode()).digest()


def action(move: Move) -> str | None:
    return move.the_gang.WhichOneof("action")


def decision(move: Move) -> str | None:
    """What a Propose move decides: use_specialist, guess_rank or guess_hand."""
    return move.the_gang.propose.WhichOneof("decision") if action(move) == "propose" else None


def card_of(message: Pb.PlayingCard) -> Card:
    return Card.parse(message.code)


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
    events: list[Events]
    rejections: dict[str, int] = field(default_factory=dict)


async def _metadata(call: Any) -> list[tuple[str, str | bytes]]:
    """Initial and trailing metadata of a finished call: they reach the client too."""
    return [*(await call.initial_metadata() or ()), *(await call.trailing_metadata() or ())]


def _aio(table: Table) -> Any:
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
        """A dry run; a malformed move is refused outright (recorded like any rejection)."""
        try:
            reply: referee_pb2.ValidateMoveResponse = await _aio(self.table).ValidateMove(
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


class ModeDriver(Driver):
    """A driver for the modes: decisions, card actions, and each heist played to its plan.

    ``plan`` has a W (win) or L (lose) per heist, the last letter repeating. To win, the
    red chips go in the true order of the hands (the driver is every seat, so it reads every
    seat's own view) and the scan guesses are right; to lose, the red chips go in reverse
    and the guesses are wrong. Specialists are proposed and accepted before the red round
    only, so the hands are final when the red chips are placed.
    """

    def __init__(
        self, table: Table, seats: int, confirm: bool, rng: random.Random, plan: str
    ) -> None:
        super().__init__(table, seats, confirm, rng)
        self.plan = plan
        self.passes_due = False
        self.hands: dict[int, list[list[Card]]] = {}  # heist -> pockets in the red round
        self.targets: dict[int, list[int]] = {}  # heist -> red stars per seat
        self.views: dict[Viewer, game_pb2.View] = {}

    def wins(self) -> bool:
        heist = self.view.the_gang.heist
        return self.plan[min(heist, len(self.plan)) - 1] == "W"

    async def get_view(self, viewer: Viewer) -> game_pb2.View:
        view = await super().get_view(viewer)
        self.views[viewer] = view
        return view

    async def submit(
        self, seat: int, move: Move, *, pin: bool, move_id: str | None = None
    ) -> referee_pb2.SubmitMoveResponse:
        reply = await super().submit(seat, move, pin=pin, move_id=move_id)
        if not reply.duplicate:
            self.views[seat] = reply.view
            for event in reply.events:
                kind = event.the_gang.WhichOneof("kind")
                if kind == "cards_active":
                    coordinator = Pb.SPECIALIST_CARD_COORDINATOR
                    self.passes_due = event.the_gang.cards_active.specialist == coordinator
                elif kind == "card_passed":
                    self.passes_due = False
        return reply

    # --- what the gang knows, read from every seat's own view -----------------------------

    async def red_hands(self) -> list[list[Card]]:
        """Every seat's pocket in the red round (final: nothing changes a pocket then)."""
        heist = self.view.the_gang.heist
        if heist not in self.hands:
            assert self.view.the_gang.round == RED
            views = [await self.get_view(seat) for seat in range(self.seats)]
            self.hands[heist] = [[card_of(c) for c in v.the_gang.pocket] for v in views]
        return self.hands[heist]

    async def red_targets(self) -> list[int]:
        """The red chip each seat takes: true order to win, reversed to lose."""
        g = self.view.the_gang
        if g.heist not in self.targets:
            hands = await self.red_hands()
            board = [card_of(card) for card in g.board]
            muscle = None
            if g.specialist == Pb.SPECIALIST_CARD_MUSCLE and g.HasField("specialist_use"):
                muscle = g.specialist_use.seat
            keys = [
                showdown_key(evaluate((*hand, *board)), muscle=seat == muscle)
                for seat, hand in enumerate(hands)
            ]
            order = sorted(range(self.seats), key=lambda seat: (keys[seat], seat))
            stars = [0] * self.seats
            for position, seat in enumerate(order):
                stars[seat] = position + 1
            if not self.wins():
                stars = [self.seats + 1 - s for s in stars]
            self.targets[g.heist] = stars
        return self.targets[g.heist]

    async def guess_plan(self) -> tuple[Move, Move, Pb.Proposal | None]:
        """The guess the gang wants for the next scan, a decoy, and the open proposal."""
        g = self.view.the_gang
        done = {guess.challenge for guess in g.guesses}
        scan = next(c for c in SCANS if c in g.challenges and c not in done)
        hand = (await self.red_hands())[g.guessed_seat]
        board = [card_of(card) for card in g.board]
        make: Callable[[int], Move]
        if scan == Pb.CHALLENGE_CARD_RETINA_SCAN:
            ranks = sorted({card.rank for card in hand})
            wrong = next(rank for rank in range(2, 15) if rank not in ranks)
            want, decoy = (ranks[0], wrong) if self.wins() else (wrong, ranks[0])
            kind, make = "guess_rank", propose_rank
        else:
            category = int(evaluate((*hand, *board)).category)
            other = category + 1 if category < 10 else 1
            want, decoy = (category, other) if self.wins() else (other, category)
            kind, make = "guess_hand", propose_hand
        opened = next((p for p in g.proposals if p.WhichOneof("decision") == kind), None)
        return make(want), make(decoy), opened

    # --- choosing ------------------------------------------------------------------------------

    async def choose_seat(self) -> int:
        g = self.view.the_gang
        seats = range(self.seats)
        if g.pending:
            return g.pending[0].seat
        if self.passes_due:
            return self.rng.choice([s for s in seats if s not in g.passed_seats])
        if g.awaiting_guesses:
            want, _, opened = await self.guess_plan()
            required = [seat for seat in seats if seat != g.guessed_seat]
            if opened is not None and propose_again(opened) == want:
                return self.rng.choice([s for s in required if s not in opened.accepted])
            return self.rng.choice(required)
        if g.round == RED:
            stars = await self.red_targets()
            holders = self.holders()
            wrong = [seat for seat in seats if holders[stars[seat]] != seat]
            if wrong:
                return self.rng.choice(wrong)
            return self.rng.choice([s for s in seats if s not in g.confirmed_seats])
        uses = [p for p in g.proposals if p.WhichOneof("decision") == "use_specialist"]
        if uses and self.rng.random() < 0.7:
            return self.rng.choice([s for s in seats if s not in uses[0].accepted])
        return self.pick_seat()

    async def seat_and_legal(self) -> tuple[int, list[Move]]:
        seat = await self.choose_seat()
        legal = await self.legal(seat)
        while not legal:  # a seat may have nothing to do (passed, or the guessed one)
            seat = (seat + 1) % self.seats
            legal = await self.legal(seat)
        return seat, legal

    async def choose_move(self, seat: int, legal: list[Move]) -> Move:
        g = self.view.the_gang
        cards = [move for move in legal if action(move) in CARD_ACTIONS]
        if cards:
            return self.rng.choice(cards)
        if g.awaiting_guesses:
            return await self.guess_move(seat, legal)
        if g.round == RED:
            return await self.red_move(seat, legal)
        uses = [p for p in g.proposals if p.WhichOneof("decision") == "use_specialist"]
        new_uses = [move for move in legal if decision(move) == "use_specialist"]
        roll = self.rng.random()
        if uses:
            proposal = uses[0]
            if seat not in proposal.accepted and roll < 0.85:
                return accept(proposal.id)
            if seat == proposal.proposer and roll < 0.9:
                return withdraw(proposal.id)
            if new_uses:
                return self.rng.choice(new_uses)  # supersede it
        elif new_uses and roll < 0.3:
            return self.rng.choice(new_uses)
        return self.pick_move(seat, legal)

    async def guess_move(self, seat: int, legal: list[Move]) -> Move:
        want, decoy, opened = await self.guess_plan()
        if opened is None:
            move = decoy if self.rng.random() < 0.2 else want
        elif propose_again(opened) == want:
            move = accept(opened.id)
        elif opened.proposer == seat and self.rng.random() < 0.5:
            move = withdraw(opened.id)
        else:
            move = want
        assert move in legal, (move, legal)
        return move

    async def red_move(self, seat: int, legal: list[Move]) -> Move:
        stars = await self.red_targets()
        holders = self.holders()
        if holders[stars[seat]] != seat:
            move = take(RED, stars[seat])
        else:
            assert all(holders[stars[s]] == s for s in range(self.seats))
            move = CONFIRM
        assert move in legal, (move, legal)
        return move

    # --- dry runs and rejections of the modes --------------------------------------------

    def known_card(self, seat: int) -> str | None:
        """A card ``seat`` surely knows now: its pocket this heist, or the board."""
        mine = self.views.get(seat)
        heist = self.view.the_gang.heist
        codes = [card.code for card in self.view.the_gang.board]
        if mine is not None and mine.the_gang.heist == heist:
            codes += [card.code for card in mine.the_gang.pocket]
        return self.rng.choice(codes) if codes else None

    def random_candidate(self, seat: int) -> Move:
        kind = self.rng.randrange(6)
        if kind < 3:
            return super().random_candidate(seat)
        if kind == 3:
            number = self.rng.randint(0, 12)
            return accept(number) if self.rng.random() < 0.7 else withdraw(number)
        if kind == 4:
            if self.rng.random() < 0.5:
                return propose_rank(self.rng.randint(1, 15))
            if self.rng.random() < 0.5:
                return propose_hand(self.rng.randint(0, 11))
            viewer = self.rng.choice([None, *range(self.seats)])
            rank = self.rng.choice([None, 7])
            return propose_use(self.rng.randrange(self.seats), viewer=viewer, rank=rank)
        code = self.known_card(seat)
        if code is None:
            return CONFIRM
        return self.rng.choice([show_card, discard_move, pass_move])(code)

    async def rejections_now(self, seat: int, legal: list[Move]) -> list[Rejection]:
        g = self.view.the_gang
        colour = g.round
        own = await self.get_view(seat)  # its pocket now (recorded like any answer)
        pocket = [card.code for card in own.the_gang.pocket]
        moves: list[Rejection] = []
        if g.awaiting_guesses:
            moves.append((take(colour, 1), None, None, REFUSED, "CHIPS_FINAL"))
        elif self.passes_due:
            moves.append((take(colour, 1), None, None, REFUSED, "CARDS_BEING_PASSED"))
        else:
            moves += self.chip_rejections(seat, legal)
        moves += self.stale_rejections(seat, legal)

        def refuse(move: Move, code: grpc.StatusCode, reason: str) -> None:
            moves.append((move, None, None, code, reason))

        refuse(accept(9999), REFUSED, "NO_SUCH_PROPOSAL")
        refuse(accept(0), INVALID, "BAD_PROPOSAL_ID")
        refuse(propose_rank(1), INVALID, "GUESS_OUT_OF_RANGE")
        refuse(propose_hand(11), INVALID, "GUESS_OUT_OF_RANGE")
        refuse(propose_use(self.seats), INVALID, "SEAT_OUT_OF_RANGE")
        refuse(Move(the_gang=TG(discard_card=TG.DiscardCard())), INVALID, "CARD_MISSING")
        refuse(show_card("Zz"), INVALID, "UNKNOWN_CARD")
        if g.board:
            refuse(show_card(g.board[0].code), REFUSED, "CARD_NOT_IN_POCKET")
        owed = {p.kind for p in g.pending if p.seat == seat}
        if Pb.Pending.KIND_SHOW_CARD not in owed:
            refuse(show_card(pocket[0]), REFUSED, "NOTHING_TO_SHOW")
        if Pb.Pending.KIND_DISCARD not in owed:
            refuse(discard_move(pocket[0]), REFUSED, "NOTHING_TO_DISCARD")
        if not self.passes_due:
            refuse(pass_move(pocket[-1]), REFUSED, "NO_PASS_DUE")
        elif seat in g.passed_seats:
            refuse(pass_move(pocket[-1]), REFUSED, "ALREADY_PASSED")
        if g.specialist == Pb.SPECIALIST_CARD_UNSPECIFIED:
            refuse(propose_use(0), REFUSED, "NO_SPECIALIST")
        elif g.specialist in AUTOMATIC:
            refuse(propose_use(0), REFUSED, "SPECIALIST_AUTOMATIC")
        elif g.HasField("specialist_use"):
            refuse(propose_use(0), REFUSED, "SPECIALIST_USED")
        if Pb.CHALLENGE_CARD_RETINA_SCAN not in g.challenges:
            refuse(propose_rank(7), REFUSED, "NO_SUCH_SCAN")
        elif not g.awaiting_guesses:
            refuse(propose_rank(7), REFUSED, "GUESS_NOT_DUE")
        for proposal in g.proposals:
            guess = proposal.WhichOneof("decision") != "use_specialist"
            if guess and seat == g.guessed_seat:
                refuse(accept(proposal.id), REFUSED, "SEAT_EXCLUDED")
                refuse(propose_again(proposal), REFUSED, "SEAT_EXCLUDED")
            else:
                refuse(propose_again(proposal), REFUSED, "ALREADY_PROPOSED")
                if seat in proposal.accepted:
                    refuse(accept(proposal.id), REFUSED, "ALREADY_ACCEPTED")
            if proposal.proposer != seat:
                refuse(withdraw(proposal.id), REFUSED, "NOT_YOUR_PROPOSAL")
        return moves


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


@dataclass(frozen=True)
class ModeGame:
    """A game in a mode: its table, the outcome planned per heist, and the cards that the
    piles' order makes come up (each must come up and be put to use)."""

    name: str
    mode: Pb.TheGangMode.ValueType
    seats: int
    confirm: bool
    plan: str
    challenges: tuple[int, ...] = ()
    specialists: tuple[int, ...] = ()
    expected: frozenset[str] = frozenset()  # see name_of
    shuffle: bool = False

    def options(self) -> Pb.TheGangOptions:
        return mode_options(
            self.mode,
            confirm_round_end=self.confirm,
            shuffle_piles=self.shuffle,
            challenge_pile=pile(*self.challenges) if self.challenges else None,
            specialist_pile=pile(*self.specialists) if self.specialists else None,
        )


async def play(
    stub: Stub, seats: int, confirm: bool, name: str, mode: ModeGame | None = None
) -> Played:
    seed = seed_for(name)
    rng = random.Random(name)
    options = mode.options() if mode is not None else None
    resume_at = RESUME_AT if mode is None else MODE_RESUME_AT
    table = await Table.create(stub, seats, seed=seed, confirm_round_end=confirm, options=options)
    viewers: list[Viewer] = [None, *range(seats)]
    watched: dict[Viewer, list[referee_pb2.WatchGameResponse]] = {v: [] for v in viewers}
    started = {viewer: asyncio.Event() for viewer in viewers}
    watchers = [asyncio.create_task(_watch(table, v, watched[v], started[v])) for v in viewers]
    resumed: list[tuple[Viewer, int, list[referee_pb2.WatchGameResponse]]] = []
    try:
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in started.values())), 10)
        driver = (
            Driver(table, seats, confirm, rng)
            if mode is None
            else ModeDriver(table, seats, confirm, rng, mode.plan)
        )
        driver.view = await driver.get_view(None)
        for viewer in viewers:
            await driver.get_view(viewer)
        await driver.history(0)
        number = 0
        while not driver.finished:
            number += 1
            assert number <= MAX_STEPS, "the random game did not end"
            await driver.step(number)
            if number in resume_at and not driver.finished:
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
    config = GAME.make_config(seats, CODEC.options_from_proto(history.setup.options))
    assert config.confirm_round_end == confirm
    moves = [(e.seat, CODEC.move_from_proto(e.move)) for e in history.entries]
    initial, steps = replay(GAME, config, history.seed, moves)
    states, events = truth_of(initial, steps)
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
    return Played(seats, seed, final, driver.recorder, watched, states, events, driver.rejections)


def assert_no_leaks(played: Played) -> Report:
    report = check(played.recorder.items, played.states, played.seed, played.events)
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


# --- the modes ---------------------------------------------------------------------------------

S, C = Specialist, Challenge
SCAN_CARDS = (C.RETINA_SCAN, C.FINGERPRINT_SCAN)


def name_of(card: Challenge | Specialist) -> str:
    """A card's name: both piles number their cards 1..10, so the numbers would collide."""
    return f"{type(card).__name__}.{card.name}"


def names(*cards: Challenge | Specialist) -> frozenset[str]:
    return frozenset(name_of(card) for card in cards)


MODE_GAMES = [
    # Heist 1 has no cards; a failure turns the top specialist, a success the top challenge.
    ModeGame(
        "advanced-3",
        Pb.THE_GANG_MODE_ADVANCED,
        3,
        confirm=False,
        plan="LLWWW",
        specialists=(1, 6, 2, 3, 4, 5, 7, 8, 9, 10),  # Informant, then Coordinator
        challenges=(4, 9, 2, 3, 5, 6, 7, 8, 10, 1),  # Retina Scan, then Fingerprint Scan
        expected=names(S.INFORMANT, S.COORDINATOR, C.RETINA_SCAN, C.FINGERPRINT_SCAN),
    ),
    # One random challenge stands all game; Hacker, then Jack, then a challenge.
    ModeGame(
        "professional-4",
        Pb.THE_GANG_MODE_PROFESSIONAL,
        4,
        confirm=True,
        plan="LLWL",
        specialists=(5, 7, 1, 2, 3, 4, 6, 8, 9, 10),
        challenges=(9, 3, 2, 4, 5, 6, 7, 8, 10),
        expected=names(S.HACKER, S.JACK),
    ),
    # Con Artist, then Security Cameras, the Muscle and Blackout.
    ModeGame(
        "advanced-5",
        Pb.THE_GANG_MODE_ADVANCED,
        5,
        confirm=False,
        plan="LWLWW",
        specialists=(9, 10, 1, 2, 3, 4, 5, 6, 7, 8),
        challenges=(10, 8, 1, 2, 3, 4, 5, 6, 7, 9),
        expected=names(S.CON_ARTIST, S.MUSCLE, C.SECURITY_CAMERAS, C.BLACKOUT),
    ),
    # The announcing specialists, the dark chips.
    ModeGame(
        "advanced-4",
        Pb.THE_GANG_MODE_ADVANCED,
        4,
        confirm=False,
        plan="LWLWW",
        specialists=(4, 2, 1, 3, 5, 6, 7, 8, 9, 10),  # Mastermind, then Getaway Driver
        challenges=(2, 6, 1, 3, 4, 5, 7, 8, 9, 10),  # Noise Sensors, then Ventilation Shaft
        expected=names(S.MASTERMIND, S.GETAWAY_DRIVER, C.NOISE_SENSORS, C.VENTILATION_SHAFT),
    ),
    # Shuffled piles: whatever the seed brings.
    ModeGame(
        "professional-6-shuffled",
        Pb.THE_GANG_MODE_PROFESSIONAL,
        6,
        confirm=False,
        plan="LWLW",
        shuffle=True,
    ),
    # Two random challenges at first, then the top of the pile each heist; two alarms lose.
    ModeGame(
        "master-thief-6",
        Pb.THE_GANG_MODE_MASTER_THIEF,
        6,
        confirm=True,
        plan="WWW",
        challenges=(4, 7, 2, 3, 5, 6, 8, 9, 10),
        expected=names(C.RETINA_SCAN, C.LASER_TRIPWIRES),
    ),
]
REQUIRED = names(S.INFORMANT, S.COORDINATOR, S.HACKER, S.JACK, S.CON_ARTIST)


def test_the_mode_games_cover_the_private_cards() -> None:
    """Across the games: every specialist that moves a card in secret, and a scan."""
    covered = frozenset[str]().union(*(game.expected for game in MODE_GAMES))
    assert covered >= REQUIRED
    assert covered & names(*SCAN_CARDS)
    assert {game.seats for game in MODE_GAMES} == {3, 4, 5, 6}
    assert any(game.shuffle for game in MODE_GAMES)
    assert {game.mode for game in MODE_GAMES} == {
        Pb.THE_GANG_MODE_ADVANCED,
        Pb.THE_GANG_MODE_PROFESSIONAL,
        Pb.THE_GANG_MODE_MASTER_THIEF,
    }


def _used(states: Sequence[TheGangState], events: Sequence[Events]) -> frozenset[str]:
    """The cards that came up and did what they do (judged from the truth)."""
    results = states[-1].history
    happened = {type(event) for step in events for event in step}
    said = {
        event.announcement.kind: event.announcement
        for step in events
        for event in step
        if isinstance(event, ev.Announced)
    }
    informant = AnnouncementKind.INFORMANT in said
    assert not informant or said[AnnouncementKind.INFORMANT].card is not None
    redrawn = {
        event.challenge for step in events for event in step if isinstance(event, ev.PocketRedrawn)
    }
    active = names(*(r.specialist for r in results if r.specialist))
    active |= names(*(challenge for r in results for challenge in r.challenges))
    scans = {scan.challenge for r in results for scan in r.scans}
    evidence: dict[str, bool] = {
        name_of(S.INFORMANT): informant,
        name_of(S.COORDINATOR): ev.CardPassed in happened,
        name_of(S.HACKER): ev.CardDrawn in happened,
        name_of(S.JACK): ev.JackTaken in happened and ev.CardDiscarded in happened,
        name_of(S.CON_ARTIST): ev.PocketsGathered in happened,
        name_of(S.MUSCLE): any(reveal.muscle for r in results for reveal in r.reveals),
        name_of(S.MASTERMIND): AnnouncementKind.MASTERMIND in said,
        name_of(S.GETAWAY_DRIVER): AnnouncementKind.GETAWAY_DRIVER in said,
        name_of(S.INVESTOR): AnnouncementKind.INVESTOR in said,
        name_of(S.MATH_WHIZ): AnnouncementKind.MATH_WHIZ in said,
        name_of(C.RETINA_SCAN): C.RETINA_SCAN in scans,
        name_of(C.FINGERPRINT_SCAN): C.FINGERPRINT_SCAN in scans,
        name_of(C.SECURITY_CAMERAS): any(len(r.reveals[0].pocket) == 3 for r in results),
        name_of(C.MOTION_DETECTOR): C.MOTION_DETECTOR in redrawn,
        name_of(C.LASER_TRIPWIRES): C.LASER_TRIPWIRES in redrawn,
        name_of(C.BLACKOUT): ev.ChipsSetAside in happened,
    }
    return frozenset(card for card in active if evidence.get(card, True))


def assert_private_cards_delivered(played: Played) -> Counter[str]:
    """Each private card reached, in the watch streams, exactly the seats the rules name."""
    delivered: Counter[str] = Counter()
    seats = range(played.seats)

    def cards_to(viewer: Viewer, version: int, kind: str) -> list[list[str]]:
        message = played.watched[viewer][version]
        assert message.version == version
        out = []
        for event in message.events:
            if event.the_gang.WhichOneof("kind") == kind:
                inner = getattr(event.the_gang, kind)
                if kind == "announced":
                    inner = inner.announcement
                if kind in ("pocket_dealt", "pocket_redrawn"):
                    out.append([card.code for card in inner.cards])
                else:
                    out.append([inner.card.code] if inner.HasField("card") else [])
        return out

    def reaches(kind: str, version: int, cards: list[str], only: set[int]) -> None:
        for viewer in [None, *seats]:
            got = cards_to(viewer, version, kind)
            if viewer in only:
                assert cards in got, (kind, version, viewer, got)
            else:
                assert cards not in got, (kind, version, viewer, got)
        delivered[kind] += 1

    for version, step in enumerate(played.events):
        if played.states[version].finished:
            continue
        for event in step:
            match event:
                case ev.Announced(announcement=said) if said.card is not None:
                    assert said.to_seat is not None
                    reaches("announced", version, [str(said.card)], {said.seat, said.to_seat})
                case (
                    ev.CardDrawn(seat=seat, card=card)
                    | ev.CardDiscarded(seat=seat, card=card)
                    | ev.PassChosen(seat=seat, card=card)
                ):
                    assert card is not None
                    kind = {ev.CardDrawn: "card_drawn", ev.CardDiscarded: "card_discarded"}.get(
                        type(event), "pass_chosen"
                    )
                    reaches(kind, version, [str(card)], {seat})
                case ev.CardPassed(from_seat=giver, to_seat=taker, card=card):
                    assert card is not None
                    reaches("card_passed", version, [str(card)], {giver, taker})
                case (
                    ev.PocketDealt(seat=seat, cards=cards)
                    | ev.PocketRedrawn(seat=seat, cards=cards)
                ):
                    kind = "pocket_dealt" if isinstance(event, ev.PocketDealt) else "pocket_redrawn"
                    reaches(kind, version, [str(card) for card in cards], {seat})
    return delivered


@pytest.mark.parametrize("game", MODE_GAMES, ids=[game.name for game in MODE_GAMES])
async def test_no_message_shows_a_hidden_card_in_the_modes(stub: Stub, game: ModeGame) -> None:
    played = await play(stub, game.seats, game.confirm, game.name, game)
    report = assert_no_leaks(played)
    results = played.states[-1].history
    outcomes = "".join("W" if result.success else "L" for result in results)
    planned = "".join(game.plan[min(i, len(game.plan) - 1)] for i in range(len(results)))
    assert outcomes == planned, "the driver did not play the heists to their plan"
    used = _used(played.states, played.events)
    assert game.expected <= used, f"never came up or never used: {game.expected - used}"
    delivered = assert_private_cards_delivered(played)
    if name_of(S.INFORMANT) in game.expected:
        assert delivered["announced"] and report.private_seen["informant"]
    if name_of(S.COORDINATOR) in game.expected:
        assert delivered["card_passed"] == game.seats and report.private_seen["my_pass"]
    if name_of(S.HACKER) in game.expected:
        assert delivered["card_drawn"] and delivered["card_discarded"] >= 2
    if name_of(S.CON_ARTIST) in game.expected:
        # Every heist after the first is dealt inside a step; one of them twice.
        assert delivered["pocket_dealt"] > game.seats * (len(results) - 1)
    assert played.rejections, "the game provoked no rejection"
    assert sum(played.rejections.values()) >= 5


# --- the contract, and the checker itself ---------------------------------------------------


def _card_paths(message: descriptor.Descriptor, path: str, seen: frozenset[str]) -> set[str]:
    """Every path to a PlayingCard inside ``message`` (each message type once per path)."""
    out: set[str] = set()
    for fd in message.fields:
        if fd.message_type is None or fd.message_type.full_name in seen:
            continue
        where = f"{path}.{fd.name}" if path else fd.name
        if fd.message_type.full_name == "referee.v1.PlayingCard":
            out.add(where)
        else:
            out |= _card_paths(fd.message_type, where, seen | {message.full_name})
    return out


async def test_the_deck_order_and_the_seed_never_leave_the_referee(stub: Stub) -> None:
    # The contract: the deck appears only as a count, and no answer has a bytes field but
    # the seed of GetHistory (revealed at the end). The cards a view can carry: the board,
    # the pocket, the sealed pass, the Informant's card, the hands shown while the scan
    # guesses are due, and the finished heists' reveals; leakcheck judges every one.
    view = the_gang_pb2.TheGangView.DESCRIPTOR
    assert _card_paths(view, "", frozenset()) == {
        "board",
        "pocket",
        "my_pass",
        "announcements.card",
        "heists.board",
        "heists.reveals.pocket",
        "heists.reveals.best_five",
        "shown.pocket",
        "shown.best_five",
    }
    view_fields = view.fields_by_name
    assert [name for name in view_fields if "deck" in name] == ["deck_size"]
    assert view_fields["deck_size"].type == descriptor.FieldDescriptor.TYPE_INT32
    assert [name for name in view_fields if "discard" in name] == ["discard_count"]
    assert view_fields["discard_count"].type == descriptor.FieldDescriptor.TYPE_INT32
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


def _gang_event(**kind: Any) -> game_pb2.Event:
    return game_pb2.Event(the_gang=the_gang_pb2.TheGangEvent(**kind))


def board_event(card: Card) -> game_pb2.Event:
    return _gang_event(board_dealt=Pb.TheGangEvent.BoardDealt(cards=[card_to_proto(card)]))


def _view_of(
    state: TheGangState, seat: Viewer, version: int, **changes: Any
) -> referee_pb2.GetViewResponse:
    """The true view of ``seat`` at ``state`` (the engine's), with ``changes`` planted."""
    view = game_pb2.View(seat=seat, version=version)
    CODEC.fill_view(GAME.view(state, seat), view)
    body: Any = view.the_gang  # fields named at run time
    for name, value in changes.items():
        body.ClearField(name)
        if isinstance(value, list):
            getattr(body, name).extend(value)
        else:
            getattr(body, name).CopyFrom(value)
    return referee_pb2.GetViewResponse(view=view)


def _flagged(report: Report, source: str) -> bool:
    return any(f"{source} to" in problem for problem in report.problems)


def test_the_checker_catches_a_planted_leak() -> None:
    """The detector itself: another seat's card, the deck, the seed and a wrong pocket."""
    config = TheGangConfig(players=3)
    seed = seed_for("planted")
    initial, steps = replay(GAME, config, seed, [(0, TakeChip(Colour.WHITE, 1))])
    states, events = truth_of(initial, steps)
    other: Card = initial.pockets[1][0]
    deck_card: Card = initial.deck[0]

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
    report = check(planted, states, seed, events)
    assert len(report.problems) >= len(planted), str(report)
    for item in planted:
        assert _flagged(report, item.source), item.source
    fine = check([Received(0, 0, "fine", board_event(initial.pockets[0][0]))], states, seed)
    assert not fine.problems, str(fine)


# --- planted leaks of the modes, on games played with the engine --------------------------


def _gang_move(state: TheGangState, win: bool) -> tuple[int, mv.Move]:
    """An all-seeing gang's chip move: anyone without a chip takes a free one; the red
    chips in the true order of the hands (reversed to lose)."""
    row = state.chips[state.round]
    players = state.config.players
    if state.round == Colour.RED:
        keys = [evaluate((*state.pockets[s], *state.board)) for s in range(players)]
        order = sorted(range(players), key=lambda seat: (keys[seat], seat))
        if not win:
            order.reverse()
        seat = next(s for s in range(players) if row[order.index(s)] != s)
        return seat, TakeChip(Colour.RED, order.index(seat) + 1)
    seat = next(s for s in range(players) if s not in row)
    return seat, TakeChip(state.round, row.index(None) + 1)


@dataclass
class EngineGame:
    """A game played with the engine directly, with its moves, to plant messages in."""

    config: TheGangConfig
    seed: bytes
    moves: list[tuple[int, mv.Move]] = field(default_factory=list)

    @property
    def state(self) -> TheGangState:
        return self.truth()[0][-1]

    def truth(self) -> tuple[list[TheGangState], list[Events]]:
        initial, steps = replay(GAME, self.config, self.seed, self.moves)
        return truth_of(initial, steps)

    def move(self, seat: int, move: mv.Move) -> int:
        """Apply ``move``; the version it makes."""
        self.moves.append((seat, move))
        return len(self.moves)

    def play_heist(self, win: bool) -> None:
        state = self.state
        heist = state.heist
        while state.heist == heist and not state.finished:
            self.moves.append(_gang_move(state, win))
            state, _ = GAME.apply(state, *self.moves[-1])


def specialist_heist(specialist: Specialist, players: int = 3) -> EngineGame:
    """An Advanced game whose heist 2 has ``specialist`` (heist 1 lost)."""
    rest = tuple(card for card in range(1, 11) if card != specialist)
    config = TheGangConfig(
        players=players,
        mode=Mode.ADVANCED,
        specialist_pile=PileStart(cards=(int(specialist), *rest)),
    )
    game = EngineGame(config, seed_for(f"planted-{specialist.name}"))
    game.play_heist(win=False)
    assert game.state.specialist is specialist
    return game


def _use(game: EngineGame, decided: UseSpecialist) -> int:
    """Every seat agrees on ``decided``; the version at which it took effect."""
    version = game.move(0, Propose(decided))
    for seat in range(1, game.config.players):
        version = game.move(seat, Accept(game.state.proposals[0].id))
    assert game.state.used == decided
    return version


def _proto(card: Card) -> Pb.PlayingCard:
    return card_to_proto(card)


def _judge(game: EngineGame, planted: list[Received], fine: list[Received]) -> None:
    """Each planted message is flagged, as a leak, and the fine ones pass."""
    states, events = game.truth()
    for item in planted:
        report = check([item], states, game.seed, events)
        assert report.problems, item.source
        assert all("LEAK" in p or "my_pass" in p for p in report.problems), str(report)
    passed = check(fine, states, game.seed, events)
    assert not passed.problems, str(passed)


def test_the_checker_catches_an_informant_card_to_a_third_seat() -> None:
    game = specialist_heist(Specialist.INFORMANT)
    _use(game, UseSpecialist(0, viewer=1))
    shown = game.state.pockets[0][1]
    version = game.move(0, ShowCard(shown))
    said = Pb.Announcement(
        kind=Pb.Announcement.KIND_INFORMANT, seat=0, to_seat=1, card=_proto(shown)
    )
    event = _gang_event(announced=Pb.TheGangEvent.Announced(announcement=said))
    _judge(
        game,
        planted=[
            Received(2, version, "event-to-third-seat", event),
            Received(None, version, "event-to-spectator", event),
            Received(
                2,
                version,
                "view-of-third-seat",
                _view_of(game.state, 2, version, announcements=[said]),
            ),
        ],
        fine=[Received(seat, version, "to-the-two", event) for seat in (0, 1)],
    )
    # The view of the seat shown the card must carry it.
    states, events = game.truth()
    blank = Pb.Announcement(kind=Pb.Announcement.KIND_INFORMANT, seat=0, to_seat=1)
    missing = check(
        [
            Received(
                1,
                version,
                "view-without",
                _view_of(game.state, 1, version, announcements=[blank]),
            )
        ],
        states,
        game.seed,
        events,
    )
    assert any("Informant" in problem for problem in missing.problems), str(missing)


def test_the_checker_catches_a_sealed_pass_shown_to_another_seat() -> None:
    game = specialist_heist(Specialist.COORDINATOR)
    chosen = game.state.pockets[0][0]
    version = game.move(0, PassCard(chosen))
    sealed = _gang_event(pass_chosen=Pb.TheGangEvent.PassChosen(seat=0, card=_proto(chosen)))
    _judge(
        game,
        planted=[
            Received(1, version, "pass-to-neighbour", sealed),
            Received(None, version, "pass-to-spectator", sealed),
            Received(
                1,
                version,
                "my-pass-of-another",
                _view_of(game.state, 1, version, my_pass=_proto(chosen)),
            ),
        ],
        fine=[
            Received(0, version, "own-pass", sealed),
            Received(0, version, "own-view", _view_of(game.state, 0, version)),
        ],
    )
    # Once every seat has passed, the card is the left neighbour's (and still the giver's
    # knowledge) but not the third seat's.
    for seat in (1, 2):
        version = game.move(seat, PassCard(game.state.pockets[seat][0]))
    assert chosen in game.state.pockets[1]
    landed = _gang_event(
        card_passed=Pb.TheGangEvent.CardPassed(from_seat=0, to_seat=1, card=_proto(chosen))
    )
    _judge(
        game,
        planted=[Received(2, version, "passed-card-to-third-seat", landed)],
        fine=[Received(seat, version, "passed-card-to-the-two", landed) for seat in (0, 1)],
    )


def test_the_checker_catches_a_face_down_discard_shown_to_another_seat() -> None:
    game = specialist_heist(Specialist.HACKER)
    drawn = game.state.deck[0]
    version = game.move(0, Propose(UseSpecialist(0)))
    for seat in (1, 2):
        version = game.move(seat, Accept(game.state.proposals[0].id))
    assert drawn in game.state.pockets[0]
    draw = _gang_event(card_drawn=Pb.TheGangEvent.CardDrawn(seat=0, card=_proto(drawn)))
    _judge(
        game,
        planted=[Received(1, version, "drawn-card-to-another", draw)],
        fine=[Received(0, version, "drawn-card-to-drawer", draw)],
    )
    gone = game.state.pockets[0][0]
    version = game.move(0, DiscardCard(gone))
    assert gone in game.state.discards
    face_down = _gang_event(card_discarded=Pb.TheGangEvent.CardDiscarded(seat=0, card=_proto(gone)))
    _judge(
        game,
        planted=[
            Received(2, version, "discard-to-another", face_down),
            Received(None, version, "discard-to-spectator", face_down),
            Received(
                2, version, "discard-text", referee_pb2.ValidateMoveResponse(message=str(gone))
            ),
        ],
        # The seat that held it still knows it, later in the heist too.
        fine=[Received(0, version, "discard-to-its-seat", face_down)],
    )


def test_the_checker_knows_the_con_artists_first_pockets() -> None:
    game = specialist_heist(Specialist.CON_ARTIST)
    states, events = game.truth()
    version = len(states) - 1
    dealt = [e for e in events[version] if isinstance(e, ev.PocketDealt) and e.seat == 0]
    assert len(dealt) == 2, "the Con Artist deals twice inside the step"
    first, now = dealt[0].cards, states[version].pockets[0]
    gone = [card for card in first if card not in now]
    assert gone, "this seed gives seat 0 the same pocket again: pick another"
    elsewhere = next(seat for seat in (1, 2) if gone[0] in states[version].pockets[seat])
    third = 3 - elsewhere
    earlier = _gang_event(
        pocket_dealt=Pb.TheGangEvent.PocketDealt(heist=2, seat=0, cards=[_proto(gone[0])])
    )
    later = game.move(*_gang_move(game.state, win=False))  # still heist 2
    _judge(
        game,
        planted=[Received(third, version, "first-pocket-to-another", earlier)],
        fine=[
            Received(0, version, "first-pocket-to-its-seat", earlier),
            Received(0, later, "first-pocket-to-its-seat-later", board_event(gone[0])),
        ],
    )


def test_the_checker_treats_the_jack_card_as_public_once_taken() -> None:
    game = specialist_heist(Specialist.JACK)
    before = len(game.moves)
    taken = _use(game, UseSpecialist(1))
    assert JACK_CARD in game.state.pockets[1]
    jack = board_event(JACK_CARD)
    _judge(
        game,
        planted=[Received(0, before, "jack-before-it-is-taken", jack)],
        fine=[Received(viewer, taken, "jack-held", jack) for viewer in (None, 0, 1, 2)],
    )


def _redacted(events: Events, viewer: Viewer) -> list[game_pb2.Event]:
    """The events as the referee would send them to ``viewer`` (the engine's redaction)."""
    seen = (GAME.view_event(event, viewer) for event in events)  # type: ignore[arg-type]
    return [CODEC.event_to_proto(event) for event in seen if event is not None]


def test_the_checker_judges_what_a_step_says_of_the_heist_it_ended() -> None:
    """The Informant's card shown by the move that ends the heist: the step also deals the
    next heist, yet the card is the two seats' (and the shower's move log's) to see, judged
    by the heist it was shown in (whose showdown, in the same step, shows it to everyone);
    the same card said after HeistEnded, of the new heist, is a leak."""
    game = specialist_heist(Specialist.INFORMANT)
    while game.state.round != Colour.RED:
        game.move(*_gang_move(game.state, win=False))
    _use(game, UseSpecialist(0, viewer=1))
    while None in game.state.chips[Colour.RED]:
        game.move(*_gang_move(game.state, win=False))
    assert game.state.heist == 2, "the pending card keeps the heist open"
    shown = game.state.pockets[0][0]
    version = game.move(0, ShowCard(shown))
    states, events = game.truth()
    assert states[version].heist == 3
    assert shown not in states[version].pockets[1], "seat 1 holds it again: pick another seed"
    step = events[version]
    cut = next(i for i, event in enumerate(step) if isinstance(event, ev.HeistEnded))
    assert any(isinstance(event, ev.Announced) for event in step[:cut])

    def answer(viewer: int, events: list[game_pb2.Event]) -> referee_pb2.SubmitMoveResponse:
        return referee_pb2.SubmitMoveResponse(version=version, events=events)

    entry = game_pb2.HistoryEntry(
        version=version, seat=0, move=CODEC.move_to_proto(ShowCard(shown)), events=[]
    )
    to_one = _redacted(step, 1)
    said = next(e for e in to_one if e.the_gang.HasField("announced"))
    assert said.the_gang.announced.announcement.card.code == str(shown)
    moved = [e for e in to_one if e is not said]
    ended = next(i for i, e in enumerate(moved) if e.the_gang.HasField("heist_ended"))
    moved.insert(ended + 1, said)  # now behind HeistEnded: said of heist 3
    _judge(
        game,
        planted=[
            Received(1, version, "shown-card-said-of-the-new-heist", answer(1, moved)),
        ],
        fine=[
            *(Received(s, version, f"step-to-{s}", answer(s, _redacted(step, s))) for s in (0, 1)),
            Received(0, version, "logged-move", referee_pb2.GetHistoryResponse(entries=[entry])),
        ],
    )
