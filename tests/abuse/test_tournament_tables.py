"""The tournament admin's table actions hammered against `referee serve` (its own process).

ForfeitTableSeat and ReplaceTableSeatByBot are bounded as every table action is: by the
table's action cap (``REFEREE_MAX_TABLE_ACTIONS``, here 2, RESOURCE_EXHAUSTED
TABLE_ACTIONS_EXCEEDED) and by what a seat allows (one forfeit, one hand-over). A flood of
both, with the admin token, a participant's, a forged one and none, from many callers at
once: exactly the cap's actions apply, every other call is refused in types, and the
table's record holds exactly those actions. Bounded in calls.
"""

from __future__ import annotations

import asyncio
import collections
import itertools
from collections.abc import Iterator

import grpc
import pytest

from referee.v1 import referee_pb2, referee_pb2_grpc, tournament_pb2, tournament_pb2_grpc
from tests.servers import Served, referee_process
from tests.service.table import reason_of

T = tournament_pb2
MAX_TABLE_ACTIONS = 2
CALLS = 240


@pytest.fixture(scope="module")
def served(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    env = {"REFEREE_MAX_TABLE_ACTIONS": str(MAX_TABLE_ACTIONS)}
    with referee_process(redis_url, tmp_path_factory.mktemp("abuse-tables"), env) as process:
        yield process


def _auth(token: str | None) -> tuple[tuple[str, str], ...] | None:
    return (("authorization", f"Bearer {token}"),) if token else None


async def _table_of(
    stub: tournament_pb2_grpc.TournamentServiceAsyncStub,
) -> tuple[str, str, str, str]:
    """A started Pinched! tournament of one 3-seat table of humans who never move: its id,
    admin token, a participant token and the table's game id."""
    created = await stub.CreateTournament(
        T.CreateTournamentRequest(
            game="pinched",
            seats_per_table=3,
            participants=[T.ParticipantSpec(name=f"human {i}") for i in range(3)],
            format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
            rounds=1,
        )
    )
    tid = created.tournament_id
    claimed = await stub.ClaimSeat(T.ClaimSeatRequest(code=created.seat_codes[0].code))
    await stub.StartTournament(
        T.StartTournamentRequest(tournament_id=tid), metadata=_auth(created.admin_token)
    )
    game_id = ""
    async with asyncio.timeout(30):
        async for update in stub.WatchTournament(T.WatchTournamentRequest(tournament_id=tid)):
            rounds = update.tournament.round_results
            if game_id := rounds[0].tables[0].game_id if rounds else "":
                break
    return tid, created.admin_token, claimed.participant_token, game_id


async def test_a_flood_of_table_actions_applies_only_the_cap(served: Served) -> None:
    seen: collections.Counter[str] = collections.Counter()
    async with grpc.aio.insecure_channel(served.grpc) as channel:
        stub = tournament_pb2_grpc.TournamentServiceStub(channel)
        tid, admin, participant, game_id = await _table_of(stub)
        tokens = [admin, participant, "t1.forged", None]
        shapes = itertools.product(("forfeit", "bot"), range(3), tokens)
        calls = itertools.islice(itertools.cycle(shapes), CALLS)

        async def send() -> None:
            for kind, seat, token in calls:
                try:
                    if kind == "forfeit":
                        await stub.ForfeitTableSeat(
                            T.ForfeitTableSeatRequest(
                                tournament_id=tid, game_id=game_id, seat=seat
                            ),
                            metadata=_auth(token),
                            timeout=10,
                        )
                    else:
                        await stub.ReplaceTableSeatByBot(
                            T.ReplaceTableSeatByBotRequest(
                                tournament_id=tid, game_id=game_id, seat=seat
                            ),
                            metadata=_auth(token),
                            timeout=10,
                        )
                    seen["OK"] += 1
                except grpc.aio.AioRpcError as error:
                    seen[reason_of(error)[1]] += 1

        await asyncio.gather(*(send() for _ in range(8)))
        history = await referee_pb2_grpc.RefereeServiceStub(channel).GetHistory(
            referee_pb2.GetHistoryRequest(game_id=game_id)
        )
    each = CALLS // len(tokens)  # calls per token
    assert seen["OK"] == MAX_TABLE_ACTIONS  # a seat left untouched never moves: no GAME_OVER
    assert (seen["ADMIN_TOKEN_REQUIRED"], seen["TOKEN_INVALID"], seen["TOKEN_MISSING"]) == (
        each,
        each,
        each,
    )
    admin_refusals = {"TABLE_ACTIONS_EXCEEDED", "SEAT_FORFEITED", "SEAT_ALREADY_BOT"}
    assert sum(seen[reason] for reason in admin_refusals) == each - MAX_TABLE_ACTIONS
    assert seen["TABLE_ACTIONS_EXCEEDED"] > 0
    assert len(history.actions) == MAX_TABLE_ACTIONS
