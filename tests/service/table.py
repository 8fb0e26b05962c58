"""Test-side helpers: a seated table driven through the generated stubs only."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status
from redis.asyncio import Redis

from referee.client.calls import gathered_history
from referee.v1 import game_pb2, referee_pb2, referee_pb2_grpc, the_gang_pb2

if TYPE_CHECKING:  # what RefereeServiceStub(channel) is for a grpc.aio channel
    Stub: TypeAlias = referee_pb2_grpc.RefereeServiceAsyncStub
else:
    Stub = referee_pb2_grpc.RefereeServiceStub

Move = game_pb2.Move
TG = the_gang_pb2.TheGangMove
COLOURS = [
    the_gang_pb2.CHIP_COLOUR_WHITE,
    the_gang_pb2.CHIP_COLOUR_YELLOW,
    the_gang_pb2.CHIP_COLOUR_ORANGE,
    the_gang_pb2.CHIP_COLOUR_RED,
]


Colour: TypeAlias = the_gang_pb2.ChipColour.ValueType


def take(colour: Colour, stars: int) -> Move:
    return Move(the_gang=TG(take_chip=TG.TakeChip(colour=colour, stars=stars)))


def give_back(colour: Colour, stars: int) -> Move:
    return Move(the_gang=TG(return_chip=TG.ReturnChip(colour=colour, stars=stars)))


# --- the modes' moves: group decisions and card actions -----------------------------------


def propose_use(seat: int, *, viewer: int | None = None, rank: int | None = None) -> Move:
    """Propose who uses the specialist (Informant: and who sees; Mastermind: which rank)."""
    use = the_gang_pb2.UseSpecialist(seat=seat, viewer=viewer, rank=rank)
    return Move(the_gang=TG(propose=TG.Propose(use_specialist=use)))


def propose_rank(rank: int) -> Move:
    """Retina Scan: the rank the gang guesses."""
    return Move(the_gang=TG(propose=TG.Propose(guess_rank=the_gang_pb2.GuessRank(rank=rank))))


def propose_hand(category: int) -> Move:
    """Fingerprint Scan: the poker hand the gang guesses (PokerHand numbering)."""
    guess = the_gang_pb2.GuessHand(category=category)  # type: ignore[arg-type]
    return Move(the_gang=TG(propose=TG.Propose(guess_hand=guess)))


def propose_again(proposal: the_gang_pb2.Proposal) -> Move:
    """The very decision of an open proposal, proposed anew."""
    propose = TG.Propose()
    which = proposal.WhichOneof("decision")
    assert which is not None
    getattr(propose, which).CopyFrom(getattr(proposal, which))
    return Move(the_gang=TG(propose=propose))


def accept(proposal: int) -> Move:
    return Move(the_gang=TG(accept=TG.Accept(proposal=proposal)))


def withdraw(proposal: int) -> Move:
    return Move(the_gang=TG(withdraw=TG.Withdraw(proposal=proposal)))


def playing_card(code: str) -> the_gang_pb2.PlayingCard:
    return the_gang_pb2.PlayingCard(code=code)


def show_card(code: str) -> Move:
    return Move(the_gang=TG(show_card=TG.ShowCard(card=playing_card(code))))


def discard_card(code: str) -> Move:
    return Move(the_gang=TG(discard_card=TG.DiscardCard(card=playing_card(code))))


def pass_card(code: str) -> Move:
    return Move(the_gang=TG(pass_card=TG.PassCard(card=playing_card(code))))


def pile(
    *cards: int, card_one_turned: bool = False, shuffled: bool = False
) -> the_gang_pb2.PileStart:
    """A ``PileStart``: the order top first (empty: sorted)."""
    return the_gang_pb2.PileStart(cards=cards, card_one_turned=card_one_turned, shuffled=shuffled)


def mode_options(
    mode: the_gang_pb2.TheGangMode.ValueType,
    *,
    confirm_round_end: bool = False,
    shuffle_piles: bool = False,
    challenge_pile: the_gang_pb2.PileStart | None = None,
    specialist_pile: the_gang_pb2.PileStart | None = None,
) -> the_gang_pb2.TheGangOptions:
    return the_gang_pb2.TheGangOptions(
        confirm_round_end=confirm_round_end,
        mode=mode,
        shuffle_piles=shuffle_piles,
        challenge_pile=challenge_pile,
        specialist_pile=specialist_pile,
    )


Metadata = tuple[tuple[str, str | bytes], ...]


def auth(token: str | None) -> Metadata:
    return (("authorization", f"Bearer {token}"),) if token else ()


def reason_of(error: grpc.aio.AioRpcError) -> tuple[grpc.StatusCode, str, dict[str, str]]:
    """Status code, ErrorInfo reason and ErrorInfo metadata of a rejection."""
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None, f"no rich status on {error.code()}: {error.details()}"
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            assert info.domain == "referee.v1"
            return error.code(), info.reason, dict(info.metadata)
    raise AssertionError("no ErrorInfo detail")


@dataclass
class Table:
    stub: referee_pb2_grpc.RefereeServiceAsyncStub
    game_id: str
    tokens: list[str]
    seed_sha256: str
    sent: dict[int, int] = field(default_factory=dict)

    @classmethod
    async def create(
        cls,
        stub: referee_pb2_grpc.RefereeServiceAsyncStub,
        seats: int = 4,
        *,
        seed: bytes = b"",
        confirm_round_end: bool = False,
        spectators: bool = True,
        options: the_gang_pb2.TheGangOptions | None = None,
    ) -> Table:
        """A table of The Gang; ``options`` (a mode, piles) replaces ``confirm_round_end``."""
        if options is None:
            options = the_gang_pb2.TheGangOptions(confirm_round_end=confirm_round_end)
        created = await stub.CreateGame(
            referee_pb2.CreateGameRequest(
                game="the_gang",
                seats=seats,
                seed=seed,
                allow_spectators=spectators,
                options=game_pb2.TableOptions(the_gang=options),
            )
        )
        return cls(
            stub, created.game_id, [t.token for t in created.seat_tokens], created.seed_sha256
        )

    def md(self, seat: int | None) -> Metadata:
        return auth(None if seat is None else self.tokens[seat])

    async def view(self, seat: int | None) -> game_pb2.View:
        reply = await self.stub.GetView(
            referee_pb2.GetViewRequest(game_id=self.game_id), metadata=self.md(seat)
        )
        return reply.view

    async def legal(self, seat: int) -> referee_pb2.ListLegalMovesResponse:
        return await self.stub.ListLegalMoves(
            referee_pb2.ListLegalMovesRequest(game_id=self.game_id), metadata=self.md(seat)
        )

    async def submit(
        self,
        seat: int,
        move: Move,
        *,
        move_id: str | None = None,
        expected_version: int | None = None,
    ) -> referee_pb2.SubmitMoveResponse:
        request = referee_pb2.SubmitMoveRequest(
            game_id=self.game_id, move=move, client_move_id=move_id or uuid.uuid4().hex
        )
        if expected_version is not None:
            request.expected_version = expected_version
        return await self.stub.SubmitMove(request, metadata=self.md(seat))

    async def history(self, seat: int | None) -> referee_pb2.GetHistoryResponse:
        """Every page of the history, as ``seat`` sees it."""
        return await gathered_history(
            lambda request: self.stub.GetHistory(request, metadata=self.md(seat)), self.game_id
        )


async def stored_bytes(redis: Redis, game_id: str) -> dict[str, Any]:
    """Everything Redis holds for a game, to prove a rejection changed nothing."""
    base = f"game:{{{game_id}}}"
    return {
        "game": await redis.hgetall(base),
        "log": await redis.lrange(f"{base}:log", 0, -1),
        "events": await redis.xrange(f"{base}:events"),
        "moves": await redis.hgetall(f"{base}:moves"),
    }


def card_codes(cards: Any) -> list[str]:
    return [card.code for card in cards]
