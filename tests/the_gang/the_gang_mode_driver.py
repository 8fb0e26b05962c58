"""The Gang over gRPC: the driver of the modes (Advanced, Professional, Master Thief).

It extends :class:`the_gang_driver.Driver`: it also makes the group decisions (proposes,
accepts — mostly —, withdraws and supersedes, agrees on the scan guesses) and the card
actions (shows, discards, passes), and plays each heist to the outcome its plan asks for,
so chosen specialist and challenge cards come up.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import grpc

from engines.cards import Card
from engines.poker import evaluate, showdown_key
from referee.v1 import game_pb2, referee_pb2, the_gang_pb2
from tests.service.table import (
    TG,
    Table,
    accept,
    propose_again,
    propose_hand,
    propose_rank,
    propose_use,
    show_card,
    take,
    withdraw,
)
from tests.service.table import discard_card as discard_move
from tests.service.table import pass_card as pass_move
from tests.the_gang.leakcheck import Viewer
from tests.the_gang.the_gang_driver import CONFIRM, INVALID, REFUSED, Driver, Rejection, action

Move = game_pb2.Move
Pb = the_gang_pb2
RED = Pb.CHIP_COLOUR_RED
SCANS = (Pb.CHALLENGE_CARD_RETINA_SCAN, Pb.CHALLENGE_CARD_FINGERPRINT_SCAN)
AUTOMATIC = (
    Pb.SPECIALIST_CARD_INVESTOR,
    Pb.SPECIALIST_CARD_COORDINATOR,
    Pb.SPECIALIST_CARD_MATH_WHIZ,
    Pb.SPECIALIST_CARD_CON_ARTIST,
)
CARD_ACTIONS = ("show_card", "discard_card", "pass_card")


def decision(move: Move) -> str | None:
    """What a Propose move decides: use_specialist, guess_rank or guess_hand."""
    return move.the_gang.propose.WhichOneof("decision") if action(move) == "propose" else None


def card_of(message: Pb.PlayingCard) -> Card:
    return Card.parse(message.code)


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
