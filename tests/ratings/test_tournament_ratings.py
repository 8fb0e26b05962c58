"""A tournament created with an operator key is rated: its people under their
ParticipantSpec.player_id, its bot participants under their strategy's id, each history
entry naming the tournament. One created without a key is not, and takes no player id."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import grpc
import pytest

from referee.v1 import (
    ratings_pb2,
    ratings_pb2_grpc,
    referee_pb2,
    referee_pb2_grpc,
    tournament_pb2,
    tournament_pb2_grpc,
)
from service.process.server import Running
from tests.ratings.support import KEY, channel
from tests.service.table import reason_of

T = tournament_pb2
WAIT_SECONDS = 60


@pytest.fixture
async def opened(keyed: Running) -> AsyncIterator[grpc.aio.Channel]:
    """A channel to a referee that knows an operator key (tests.ratings.conftest)."""
    async with channel(keyed.address) as ready:
        yield ready


@pytest.fixture
async def keyless(referee_server: Running) -> AsyncIterator[grpc.aio.Channel]:
    """A channel to a referee that knows no operator key: anyone may create there."""
    async with channel(referee_server.address) as ready:
        yield ready


def _auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


async def _watch_until(
    stub: tournament_pb2_grpc.TournamentServiceAsyncStub, tournament_id: str, done: str
) -> T.Tournament:
    """The first snapshot where the current round's first table has a game ("game") or the
    tournament is over ("finished")."""
    request = T.WatchTournamentRequest(tournament_id=tournament_id)
    async with asyncio.timeout(WAIT_SECONDS):
        async for update in stub.WatchTournament(request):
            tournament = update.tournament
            tables = tournament.round_results[-1].tables if tournament.round_results else []
            if done == "game" and tables and tables[0].game_id:
                return tournament
            if done == "finished" and tournament.status == T.TOURNAMENT_STATUS_FINISHED:
                return tournament
    raise AssertionError(f"the tournament's watch ended before {done}")


async def _started(
    stub: tournament_pb2_grpc.TournamentServiceAsyncStub,
    participants: list[T.ParticipantSpec],
    key: tuple[tuple[str, str], ...] = KEY,
) -> T.CreateTournamentResponse:
    """A started one-round Pinched! tournament, created and started with ``key``."""
    created = await stub.CreateTournament(
        T.CreateTournamentRequest(
            game="pinched",
            seats_per_table=2,
            participants=participants,
            format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
            rounds=1,
            seed=b"rated tournament",
        ),
        metadata=key,
    )
    await stub.StartTournament(
        T.StartTournamentRequest(tournament_id=created.tournament_id),
        metadata=(*_auth(created.admin_token), *key),
    )
    return created


async def _table_rated(channel: grpc.aio.Channel, game_id: str) -> bool:
    view = await referee_pb2_grpc.RefereeServiceStub(channel).GetView(
        referee_pb2.GetViewRequest(game_id=game_id)
    )
    return view.view.table.rated


async def test_a_tournament_of_bots_rates_each_bot_under_its_strategy(
    opened: grpc.aio.Channel,
) -> None:
    """Rule (tournament.proto, ParticipantSpec.player_id): "A bot participant is rated under
    its strategy's id (bot:random, bot:heuristic, bot:search) and needs none"; the entry
    names the tournament (ratings.proto RatingChange.tournament_id)."""
    stub = tournament_pb2_grpc.TournamentServiceStub(opened)
    created = await _started(
        stub,
        [
            T.ParticipantSpec(name="Greedy", bot=T.BOT_STRATEGY_HEURISTIC),
            T.ParticipantSpec(name="Dice", bot=T.BOT_STRATEGY_RANDOM),
        ],
    )
    final = await _watch_until(stub, created.tournament_id, "finished")
    (table,) = final.round_results[0].tables
    ratings = ratings_pb2_grpc.RatingServiceStub(opened)

    async def rated(player_id: str) -> list[str]:
        request = ratings_pb2.ListRatingHistoryRequest(
            game="pinched", player_id=player_id, page_size=100
        )
        try:
            history = await ratings.ListRatingHistory(request)
        except grpc.aio.AioRpcError as error:
            if error.code() != grpc.StatusCode.NOT_FOUND:
                raise
            return []
        return [c.game_id for c in history.changes if c.tournament_id == created.tournament_id]

    # A watcher may hear of the game's end before the rating that follows its last move.
    async with asyncio.timeout(WAIT_SECONDS):
        while not (await rated("bot:heuristic") and await rated("bot:random")):
            await asyncio.sleep(0.3)  # two reads a poll, within rating_reads_per_second
    for player_id in ("bot:heuristic", "bot:random"):
        assert await rated(player_id) == [table.game_id]


async def test_a_persons_player_id_is_shown_and_rides_on_its_seats(
    opened: grpc.aio.Channel,
) -> None:
    """Rule (tournament.proto): a person's player_id is "shown in its seats'
    TableSeat.player_id" and in TournamentParticipant.player_id "as created (public, like the
    name)"; a bot's seats carry its strategy's id."""
    stub = tournament_pb2_grpc.TournamentServiceStub(opened)
    created = await _started(
        stub,
        [
            T.ParticipantSpec(name="Ann", player_id="ann-7"),
            T.ParticipantSpec(name="Greedy", bot=T.BOT_STRATEGY_HEURISTIC),
        ],
    )
    shown = await _watch_until(stub, created.tournament_id, "game")
    assert [p.player_id for p in shown.participants] == ["ann-7", ""]
    table = shown.round_results[0].tables[0]
    view = await referee_pb2_grpc.RefereeServiceStub(opened).GetView(
        referee_pb2.GetViewRequest(game_id=table.game_id)
    )
    by_participant = {
        who: view.view.table.seats[seat].player_id for seat, who in enumerate(table.participants)
    }
    assert by_participant == {0: "ann-7", 1: "bot:heuristic"}


@pytest.mark.parametrize(
    ("spec", "why"),
    [
        (T.ParticipantSpec(name="Greedy", bot=T.BOT_STRATEGY_HEURISTIC, player_id="g"), "a bot's"),
        (T.ParticipantSpec(name="Mallory", player_id="bot:search"), "the referee's own"),
        (T.ParticipantSpec(name="Long", player_id="x" * 129), "too long"),
    ],
)
async def test_a_participants_player_id_is_checked_as_a_rated_join_checks_one(
    opened: grpc.aio.Channel, spec: T.ParticipantSpec, why: str
) -> None:
    """Rule: at most 128 printable characters, never an id the referee rates under itself,
    and none for a bot: INVALID_ARGUMENT PLAYER_ID_INVALID."""
    stub = tournament_pb2_grpc.TournamentServiceStub(opened)
    request = T.CreateTournamentRequest(
        game="pinched",
        seats_per_table=2,
        participants=[spec, T.ParticipantSpec(name="Other", bot=T.BOT_STRATEGY_RANDOM)],
        format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
    )
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stub.CreateTournament(request, metadata=KEY)
    code, reason, _ = reason_of(refused.value)
    assert (code, reason) == (grpc.StatusCode.INVALID_ARGUMENT, "PLAYER_ID_INVALID"), why


async def test_a_tournament_created_without_an_operator_key_is_not_rated(
    keyless: grpc.aio.Channel, opened: grpc.aio.Channel
) -> None:
    """Rule (tournament.proto, CreateTournament): "Its tables are rated (RatingService) only
    when the caller presents an operator key (x-referee-key), even on a referee where
    creating needs none"; with one, they are."""
    participants = [
        T.ParticipantSpec(name="Greedy", bot=T.BOT_STRATEGY_HEURISTIC),
        T.ParticipantSpec(name="Dice", bot=T.BOT_STRATEGY_RANDOM),
    ]
    for where, key, rated in ((keyless, (), False), (opened, KEY, True)):
        stub = tournament_pb2_grpc.TournamentServiceStub(where)
        created = await _started(stub, participants, key)
        shown = await _watch_until(stub, created.tournament_id, "game")
        table = shown.round_results[0].tables[0]
        assert await _table_rated(where, table.game_id) is rated


async def test_a_participants_player_id_needs_an_operator_key(keyless: grpc.aio.Channel) -> None:
    """Rule (tournament.proto, ParticipantSpec.player_id): "Only with an operator key
    (x-referee-key) ...: without one, UNAUTHENTICATED OPERATOR_KEY_REQUIRED (it would rate
    nothing)", even on a referee where creating needs none."""
    stub = tournament_pb2_grpc.TournamentServiceStub(keyless)
    request = T.CreateTournamentRequest(
        game="pinched",
        seats_per_table=2,
        participants=[
            T.ParticipantSpec(name="Alice", player_id="alice"),
            T.ParticipantSpec(name="Other", bot=T.BOT_STRATEGY_RANDOM),
        ],
        format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
    )
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stub.CreateTournament(request)
    code, reason, _ = reason_of(refused.value)
    assert (code, reason) == (grpc.StatusCode.UNAUTHENTICATED, "OPERATOR_KEY_REQUIRED")
