"""Tournaments end to end on a real referee and Redis, played by bots over the public API."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import httpx
import pytest

from referee.bots import bot_for, play_seat
from referee.client import AsyncRefereeClient
from referee.v1 import game_pb2, gang_of_four_pb2, tournament_pb2, tournament_pb2_grpc
from service.process.server import Running, running
from service.storage.tables import load_log, load_table, replay_log
from service.tournaments import director as director_module
from service.tournaments import pairing
from service.tournaments.host import TournamentHost
from tests.servers import settings_for
from tests.service.table import reason_of
from tests.tournaments.expected import by_hand

T = tournament_pb2
SERVICE = "/referee.v1.TournamentService"


@pytest.fixture
async def tournaments(
    referee_server: Running,
) -> AsyncIterator[tournament_pb2_grpc.TournamentServiceAsyncStub]:
    async with grpc.aio.insecure_channel(referee_server.address) as channel:
        yield tournament_pb2_grpc.TournamentServiceStub(channel)


def _auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def _bots(
    count: int, strategy: T.BotStrategy.ValueType = T.BOT_STRATEGY_RANDOM
) -> list[T.ParticipantSpec]:
    return [T.ParticipantSpec(name=f"bot {i}", bot=strategy) for i in range(count)]


async def _finished(
    stub: tournament_pb2_grpc.TournamentServiceAsyncStub, tournament_id: str, limit: float = 40
) -> T.Tournament:
    """Follow WatchTournament until the finished snapshot; versions only go up."""
    last = None
    versions: list[int] = []
    async with asyncio.timeout(limit):
        async for update in stub.WatchTournament(
            T.WatchTournamentRequest(tournament_id=tournament_id)
        ):
            versions.append(update.tournament.version)
            last = update.tournament
    assert last is not None
    assert last.status == T.TOURNAMENT_STATUS_FINISHED
    assert versions == sorted(set(versions))
    return last


async def _check_by_hand(address: str, final: T.Tournament) -> None:
    """Standings after the last round, and the ratings, equal what the games say."""
    async with AsyncRefereeClient(address) as client:
        order, lines = await by_hand(client, final)
    ranking = list(final.final_ranking)
    assert [s.participant for s in ranking] == order
    for standing in ranking:
        line = lines[standing.participant]
        assert standing.points == pytest.approx(line.points)
        assert standing.alarms == line.alarms
        assert standing.tables_played == line.played
        assert standing.byes == line.byes
        assert standing.rating.mu == pytest.approx(line.mu)
        assert standing.rating.sigma == pytest.approx(line.sigma)
    assert list(final.round_results[-1].standings) == ranking
    for played in final.round_results:
        assert played.complete
        assert all(table.finished and table.results for table in played.tables)


async def test_round_robin_of_pinched_pairs_everybody_once(
    referee_server: Running, tournaments: tournament_pb2_grpc.TournamentServiceAsyncStub
) -> None:
    """Five bots, two-seat tables, rounds by default (n - 1 = 4... with a dummy: 5). One
    is a search bot: its seats think in the referee's bot pool (service.edge.house_bots),
    off the event loop."""
    created = await tournaments.CreateTournament(
        T.CreateTournamentRequest(
            game="pinched",
            seats_per_table=2,
            participants=[
                *_bots(3),
                T.ParticipantSpec(name="greedy", bot=T.BOT_STRATEGY_HEURISTIC),
                T.ParticipantSpec(name="thinker", bot=T.BOT_STRATEGY_SEARCH),
            ],
            format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
            rounds=5,
            seed=b"round-robin",
        )
    )
    assert created.version == 0
    assert created.tournament.status == T.TOURNAMENT_STATUS_CREATED
    assert not created.participant_tokens  # bots only
    assert not created.seat_codes
    started = await tournaments.StartTournament(
        T.StartTournamentRequest(tournament_id=created.tournament_id),
        metadata=_auth(created.admin_token),
    )
    assert started.tournament.status == T.TOURNAMENT_STATUS_RUNNING
    assert started.tournament.current_round == 1
    final = await _finished(tournaments, created.tournament_id)
    assert final.current_round == 5
    pairs = [
        tuple(sorted(table.participants))
        for played in final.round_results
        for table in played.tables
    ]
    assert sorted(pairs) == sorted({(a, b) for a in range(5) for b in range(a + 1, 5)})
    assert sorted(who for played in final.round_results for who in played.byes) == [0, 1, 2, 3, 4]
    await _check_by_hand(referee_server.address, final)
    # Resuming a watch: after the last version but one, only the finished snapshot comes.
    resumed = [
        update.tournament
        async for update in tournaments.WatchTournament(
            T.WatchTournamentRequest(
                tournament_id=created.tournament_id, after_version=final.version - 1
            )
        )
    ]
    assert resumed == [final]
    caught_up = tournaments.WatchTournament(
        T.WatchTournamentRequest(tournament_id=created.tournament_id, after_version=final.version)
    )
    assert [update async for update in caught_up] == []


async def test_swiss_of_the_gang_scores_tables_as_teams(
    referee_server: Running, tournaments: tournament_pb2_grpc.TournamentServiceAsyncStub
) -> None:
    created = await tournaments.CreateTournament(
        T.CreateTournamentRequest(
            game="the_gang",
            seats_per_table=3,
            participants=_bots(6, T.BOT_STRATEGY_HEURISTIC),
            format=T.TOURNAMENT_FORMAT_SWISS,
            rounds=2,
            seed=b"swiss",
        )
    )
    await tournaments.StartTournament(
        T.StartTournamentRequest(tournament_id=created.tournament_id),
        metadata=_auth(created.admin_token),
    )
    final = await _finished(tournaments, created.tournament_id)
    first, second = final.round_results
    assert [list(t.participants) for t in first.tables] == [[0, 1, 2], [3, 4, 5]]
    for played in final.round_results:
        for table in played.tables:
            assert len({(r.points, r.alarms, r.place) for r in table.results}) == 1  # one team
    # Round 2 groups by the standings after round 1, avoiding repeat tablemates.
    ranked = [s.participant for s in first.standings]
    met = pairing.meetings(list(t.participants) for t in first.tables)
    tables, byes = pairing.swiss(ranked, (3, 3), 0, [0] * 6, met)
    assert [sorted(t.participants) for t in second.tables] == [sorted(t) for t in tables]
    assert not byes
    assert second.tables[0].participants[-1] == ranked[0]  # round 2: seats turned by one
    await _check_by_hand(referee_server.address, final)


async def test_external_participant_plays_with_the_seat_tokens_it_is_given(
    referee_server: Running, tournaments: tournament_pb2_grpc.TournamentServiceAsyncStub
) -> None:
    created = await tournaments.CreateTournament(
        T.CreateTournamentRequest(
            game="pinched",
            seats_per_table=3,
            participants=[T.ParticipantSpec(name="human"), *_bots(2)],
            format=T.TOURNAMENT_FORMAT_SWISS,
            rounds=1,
            seed=b"external",
        )
    )
    assert not created.participant_tokens  # the admin never holds a participant's token
    [code] = created.seat_codes
    assert code.participant == 0
    claimed = await tournaments.ClaimSeat(T.ClaimSeatRequest(code=code.code))
    assert (claimed.tournament_id, claimed.participant) == (created.tournament_id, 0)
    mine = T.ParticipantToken(participant=0, token=claimed.participant_token)
    request = T.GetTournamentRequest(tournament_id=created.tournament_id)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await tournaments.StartTournament(
            T.StartTournamentRequest(tournament_id=created.tournament_id),
            metadata=_auth(mine.token),
        )
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    await tournaments.StartTournament(
        T.StartTournamentRequest(tournament_id=created.tournament_id),
        metadata=_auth(created.admin_token),
    )
    async with asyncio.timeout(10):
        while True:
            seen = (await tournaments.GetTournament(request, metadata=_auth(mine.token))).tournament
            table = seen.round_results[0].tables[0]
            if table.game_id:
                break
            await asyncio.sleep(0.05)
    [seat_token] = table.seat_tokens
    assert table.participants[seat_token.seat] == 0
    public = (await tournaments.GetTournament(request)).tournament
    assert not public.round_results[0].tables[0].seat_tokens  # spectators get no tokens
    with pytest.raises(grpc.aio.AioRpcError) as bad:
        await tournaments.GetTournament(request, metadata=_auth("t1.not-a-token"))
    assert bad.value.code() == grpc.StatusCode.UNAUTHENTICATED
    async with AsyncRefereeClient(referee_server.address) as client:
        seat = client.seat(table.game_id, seat_token.token)
        view = await play_seat(seat, bot_for("pinched", "random"), rng=random.Random(1))
    assert view.HasField("outcome")
    final = await _finished(tournaments, created.tournament_id)
    await _check_by_hand(referee_server.address, final)


async def test_a_second_referee_reads_the_same_tournament(
    referee_server: Running,
    tournaments: tournament_pb2_grpc.TournamentServiceAsyncStub,
    redis_url: str,
    tmp_path: Path,
) -> None:
    created = await tournaments.CreateTournament(
        T.CreateTournamentRequest(
            game="gang_of_four",
            seats_per_table=3,
            participants=[T.ParticipantSpec(name=n) for n in ("a", "b", "c")],
            format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
            rounds=1,
        )
    )
    await tournaments.StartTournament(
        T.StartTournamentRequest(tournament_id=created.tournament_id),
        metadata=_auth(created.admin_token),
    )
    request = T.GetTournamentRequest(tournament_id=created.tournament_id)
    async with asyncio.timeout(10):
        while (
            not (here := (await tournaments.GetTournament(request)).tournament)
            .round_results[0]
            .tables[0]
            .game_id
        ):
            await asyncio.sleep(0.05)
    async with (
        running(settings_for(redis_url, tmp_path / "second")) as second,
        grpc.aio.insecure_channel(second.address) as channel,
    ):
        other = tournament_pb2_grpc.TournamentServiceStub(channel)
        there = (await other.GetTournament(request)).tournament
        assert there == here
        assert there.version >= 2  # created 0, started 1, game recorded 2
        # Starting again from the second process is idempotent: same round, same game.
        again = await other.StartTournament(
            T.StartTournamentRequest(tournament_id=created.tournament_id),
            metadata=_auth(created.admin_token),
        )
        assert again.tournament.round_results[0].tables[0].game_id == (
            here.round_results[0].tables[0].game_id
        )
        assert second.tournaments is not None
        await second.tournaments.aclose()


async def test_a_killed_bot_leaves_its_game_waiting(
    referee_server: Running, tournaments: tournament_pb2_grpc.TournamentServiceAsyncStub
) -> None:
    created = await tournaments.CreateTournament(
        T.CreateTournamentRequest(
            game="gang_of_four",
            seats_per_table=3,
            participants=_bots(3),
            format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
            rounds=1,
            seed=b"kill",
            options=game_pb2.TableOptions(),
        )
    )
    await tournaments.StartTournament(
        T.StartTournamentRequest(tournament_id=created.tournament_id),
        metadata=_auth(created.admin_token),
    )
    assert referee_server.tournaments is not None
    host: TournamentHost = referee_server.tournaments.host
    director = host.directors[created.tournament_id]
    referee = referee_server.referee
    async with asyncio.timeout(10):
        while not director.bots:
            await asyncio.sleep(0.01)
    key = next(iter(director.bots))
    victim = director.bots[key]
    _round, _table, seat = key
    game_id = (await host.store.load(created.tournament_id)).tournament.played[0].tables[0].game_id
    async with asyncio.timeout(10):
        while (await load_table(referee.store, game_id)).version < 5:
            await asyncio.sleep(0.01)
    victim.cancel()
    with contextlib.suppress(asyncio.CancelledError, RuntimeError):
        await victim  # (play_seat may end a cancelled watch with RuntimeError)
    # The others play on until the game needs the dead seat; then nothing moves.
    async with asyncio.timeout(15):
        while True:
            before = await load_table(referee.store, game_id)
            await asyncio.sleep(0.3)
            after = await load_table(referee.store, game_id)
            if after.version == before.version:
                break
    assert after.game.outcome(after.state) is None
    assert seat in after.game.to_act(after.state)
    assert after.game.legal_moves(after.state, seat)
    # Not corrupted: the stored log replays to exactly the stored state.
    entries = await load_log(referee.store, after, after.version)
    _initial, steps = replay_log(after, entries)
    assert steps[-1].state == after.state
    stored = await host.store.load(created.tournament_id)
    assert stored.tournament.played[0].tables[0].finished is False
    assert stored.tournament.status.value == "running"


async def test_get_tournament_over_http_json(
    referee_server: Running, tournaments: tournament_pb2_grpc.TournamentServiceAsyncStub
) -> None:
    async with httpx.AsyncClient(base_url=referee_server.http_url) as http:
        created = await http.post(
            f"{SERVICE}/CreateTournament",
            json={
                "game": "the_gang",
                "seatsPerTable": 3,
                "participants": [
                    {"name": "x"},
                    {"name": "y"},
                    {"name": "z", "bot": "BOT_STRATEGY_RANDOM"},
                ],
                "format": "TOURNAMENT_FORMAT_SWISS",
            },
        )
        assert created.status_code == 200, created.text
        body = created.json()
        assert len(body["seatCodes"]) == 2
        assert "participantTokens" not in body  # deprecated: never filled
        got = await http.post(
            f"{SERVICE}/GetTournament", json={"tournamentId": body["tournamentId"]}
        )
        assert got.status_code == 200, got.text
        tournament = got.json()["tournament"]
        assert tournament["status"] == "TOURNAMENT_STATUS_CREATED"
        assert tournament["rounds"] == 2  # Swiss default: ceil(log2(3))
        assert [p["name"] for p in tournament["participants"]] == ["x", "y", "z"]
        missing = await http.post(f"{SERVICE}/GetTournament", json={"tournamentId": "nope"})
        assert missing.status_code == 404
        assert missing.json()["details"][0]["debug"]["reason"] == "TOURNAMENT_NOT_FOUND"
        bad = await http.post(
            f"{SERVICE}/CreateTournament",
            json={
                "game": "gang_of_four",
                "seatsPerTable": 5,
                "participants": [{"name": "a"}] * 5,
                "format": "TOURNAMENT_FORMAT_SWISS",
            },
        )
        assert bad.status_code == 400
        assert bad.json()["details"][0]["debug"]["reason"] == "TABLE_SIZE_UNSUPPORTED"


async def test_gang_of_four_round_robin_places_by_lowest_total(
    referee_server: Running, tournaments: tournament_pb2_grpc.TournamentServiceAsyncStub
) -> None:
    created = await tournaments.CreateTournament(
        T.CreateTournamentRequest(
            game="gang_of_four",
            seats_per_table=4,
            participants=_bots(5, T.BOT_STRATEGY_HEURISTIC),
            format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
            rounds=1,
            seed=b"gang of four",
            options=game_pb2.TableOptions(
                gang_of_four=gang_of_four_pb2.GangOfFourOptions(auto_announce_last_card=True)
            ),
        )
    )
    await tournaments.StartTournament(
        T.StartTournamentRequest(tournament_id=created.tournament_id),
        metadata=_auth(created.admin_token),
    )
    final = await _finished(tournaments, created.tournament_id)
    [played] = final.round_results
    assert list(played.byes) == [4]  # five players, tables of 3-4: one bye, the last
    assert [standing.byes for standing in final.final_ranking if standing.participant == 4] == [1]
    await _check_by_hand(referee_server.address, final)


async def test_one_director_at_a_time_and_a_standby_takes_over(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Started on two referees, only the lease holder directs (bots never play a seat
    twice); when its process stops, the other takes over and finishes the tournament."""
    monkeypatch.setattr(director_module, "LEASE_MS", 600)
    request = T.CreateTournamentRequest(
        game="the_gang",
        seats_per_table=3,
        participants=_bots(3),
        format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
        rounds=2,
    )
    async with (
        running(settings_for(redis_url, tmp_path / "b")) as b,
        grpc.aio.insecure_channel(b.address) as b_channel,
    ):
        b_stub = tournament_pb2_grpc.TournamentServiceStub(b_channel)
        async with (
            running(settings_for(redis_url, tmp_path / "a")) as a,
            grpc.aio.insecure_channel(a.address) as a_channel,
        ):
            a_stub = tournament_pb2_grpc.TournamentServiceStub(a_channel)
            created = await a_stub.CreateTournament(request)
            start = T.StartTournamentRequest(tournament_id=created.tournament_id)
            await a_stub.StartTournament(start, metadata=_auth(created.admin_token))
            await b_stub.StartTournament(start, metadata=_auth(created.admin_token))
            assert a.tournaments is not None and b.tournaments is not None
            first = a.tournaments.host.directors[created.tournament_id]
            standby = b.tournaments.host.directors[created.tournament_id]
            await asyncio.sleep(0.3)
            assert first.directing and not standby.directing
            assert not standby.bots, "a standby runs no bots"
        # a stopped: b's director takes the lease and plays the tournament to its end
        final = await _finished(b_stub, created.tournament_id)
        assert len(final.round_results) == 2
        assert all(table.finished for r in final.round_results for table in r.tables)


async def test_a_missing_tournament_is_not_found_on_grpc(
    tournaments: tournament_pb2_grpc.TournamentServiceAsyncStub,
) -> None:
    """Its own reason, TOURNAMENT_NOT_FOUND, not a game's, for a read and for a start."""
    with pytest.raises(grpc.aio.AioRpcError) as got:
        await tournaments.GetTournament(T.GetTournamentRequest(tournament_id="nope"))
    with pytest.raises(grpc.aio.AioRpcError) as started:
        await tournaments.StartTournament(
            T.StartTournamentRequest(tournament_id="nope"), metadata=_auth("t1.x")
        )
    for caught in (got, started):
        code, reason, _ = reason_of(caught.value)
        assert (code, reason) == (grpc.StatusCode.NOT_FOUND, "TOURNAMENT_NOT_FOUND")
