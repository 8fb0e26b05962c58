"""SIGKILL the referee directing a tournament mid-round: another finishes it by itself.

Two `referee serve` processes share one Redis and look for lapsed tournaments every half
second. The tournament is started on the first, so that one directs it and runs its bots;
once a table of round 1 has a few moves, the first is killed with SIGKILL (no shutdown,
its lease still held). Nobody calls StartTournament again: the second process's takeover
pass finds the lease lapsed, directs the tournament from the stored version and plays it
to its end. Every table of every round was played once: one game per table, each game's
history has one move per version from 1 and verifies from its revealed seed.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path

import grpc

from referee.client.calls import gathered_history
from referee.v1 import referee_pb2, referee_pb2_grpc, tournament_pb2, tournament_pb2_grpc
from service.edge.verify import verify_history
from tests.servers import referee_process

T = tournament_pb2
TAKEOVERS = {"REFEREE_TOURNAMENT_TAKEOVER_SECONDS": "0.5"}
STALLED = 25  # s: the most between two updates of the tournament (the lease is 6 s)


async def _game_under_way(
    tournaments: tournament_pb2_grpc.TournamentServiceAsyncStub,
    games: referee_pb2_grpc.RefereeServiceAsyncStub,
    tournament_id: str,
) -> dict[int, str]:
    """Until a table of round 1 has a game with a few moves and no outcome yet; the games
    of round 1's tables by then (table number -> game id)."""
    request = T.GetTournamentRequest(tournament_id=tournament_id)
    async with asyncio.timeout(15):
        while True:
            tournament = (await tournaments.GetTournament(request)).tournament
            assert tournament.current_round == 1, "round 1 ended before the kill"
            for table in tournament.round_results[0].tables:
                if table.game_id:
                    view = (
                        await games.GetView(referee_pb2.GetViewRequest(game_id=table.game_id))
                    ).view
                    if view.version >= 3:
                        assert not view.HasField("outcome"), "killed too late"
                        return {t.number: t.game_id for t in tournament.round_results[0].tables}
            await asyncio.sleep(0.05)


async def _finished(
    tournaments: tournament_pb2_grpc.TournamentServiceAsyncStub, tournament_id: str
) -> T.Tournament:
    """Until the tournament finishes, as long as it moves on: each update (the takeover,
    a table's result, the next round) must come within STALLED seconds of the one before,
    however long the whole takes on a busy machine."""
    last = None
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(STALLED) as stalled:
        async for update in tournaments.WatchTournament(
            T.WatchTournamentRequest(tournament_id=tournament_id)
        ):
            last = update.tournament
            stalled.reschedule(loop.time() + STALLED)
    assert last is not None and last.status == T.TOURNAMENT_STATUS_FINISHED
    return last


async def _played_once(games: referee_pb2_grpc.RefereeServiceAsyncStub, game_id: str) -> None:
    history = await gathered_history(games.GetHistory, game_id)
    assert [entry.version for entry in history.entries] == list(range(1, len(history.entries) + 1))
    assert history.version == len(history.entries)
    report = verify_history(history, game_id=game_id)
    assert report.ok, str(report)


async def test_a_killed_director_s_tournament_is_finished_by_another_referee(
    redis_url: str, tmp_path: Path
) -> None:
    request = T.CreateTournamentRequest(
        game="pinched",
        seats_per_table=2,
        participants=[
            T.ParticipantSpec(name=f"bot {i}", bot=T.BOT_STRATEGY_RANDOM) for i in range(4)
        ],
        format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
        rounds=2,
        bot_move_delay_ms=20,
    )
    with (
        referee_process(redis_url, tmp_path / "b", TAKEOVERS) as b,
        referee_process(redis_url, tmp_path / "a", TAKEOVERS) as a,
    ):
        async with (
            grpc.aio.insecure_channel(a.grpc) as a_channel,
            grpc.aio.insecure_channel(b.grpc) as b_channel,
        ):
            a_stub = tournament_pb2_grpc.TournamentServiceStub(a_channel)
            b_stub = tournament_pb2_grpc.TournamentServiceStub(b_channel)
            b_games = referee_pb2_grpc.RefereeServiceStub(b_channel)
            created = await a_stub.CreateTournament(request)
            tid = created.tournament_id
            await a_stub.StartTournament(
                T.StartTournamentRequest(tournament_id=tid),
                metadata=(("authorization", f"Bearer {created.admin_token}"),),
            )
            before = await _game_under_way(b_stub, b_games, tid)
            os.kill(a.pid, signal.SIGKILL)
            killed = time.monotonic()
            final = await _finished(b_stub, tid)
            print(f"finished {time.monotonic() - killed:.1f} s after the kill")
            game_ids = [table.game_id for r in final.round_results for table in r.tables]
            assert len(final.round_results) == 2
            assert all(game_ids) and len(set(game_ids)) == len(game_ids) == 4
            assert all(table.finished for r in final.round_results for table in r.tables)
            played = {t.number: t.game_id for t in final.round_results[0].tables}
            assert {n: g for n, g in played.items() if before[n]} == {
                n: g for n, g in before.items() if g
            }, "a table's game was replaced"
            for game_id in game_ids:
                await _played_once(b_games, game_id)
