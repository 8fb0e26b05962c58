"""The HTTP/JSON face beside the gRPC face: the same calls on one referee, one after the other.

    python -m bench.http_face [--seconds 3] [--clients 8]

One referee in this process (embedded Redis), one table of The Gang. For each face, C
concurrent clients each send GetView for S seconds over keep-alive connections (httpx for
HTTP/JSON, grpc.aio for gRPC); then C clients play whole games with SubmitMove (each seat
takes the chip of its own number, as a perfectly ordered gang would). Reported: calls/s and
p50/p99 latency per face and call.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import grpc
import httpx

from bench.common import Row, local_settings, machine, percentile, print_table
from referee.v1 import game_pb2, referee_pb2, referee_pb2_grpc, the_gang_pb2
from service.process.redis_server import EmbeddedRedis
from service.process.server import running

COLOURS = ["CHIP_COLOUR_WHITE", "CHIP_COLOUR_YELLOW", "CHIP_COLOUR_ORANGE", "CHIP_COLOUR_RED"]
Call = Callable[[], Awaitable[object]]
NEW_TABLE = {"game": "the_gang", "seats": 3, "allowSpectators": True}


async def _hammer(calls: Sequence[Call], seconds: float) -> tuple[float, list[float]]:
    """Every call in its own loop for ``seconds``: (calls/s, sorted latencies in ms)."""
    latencies: list[float] = []
    stop = time.perf_counter() + seconds

    async def loop(call: Call) -> None:
        while time.perf_counter() < stop:
            began = time.perf_counter()
            await call()
            latencies.append((time.perf_counter() - began) * 1000)

    started = time.perf_counter()
    await asyncio.gather(*(loop(call) for call in calls))
    return len(latencies) / (time.perf_counter() - started), sorted(latencies)


def _take(colour: int, stars: int) -> game_pb2.Move:
    chip = the_gang_pb2.TheGangMove.TakeChip(colour=colour, stars=stars)  # type: ignore[arg-type]
    return game_pb2.Move(the_gang=the_gang_pb2.TheGangMove(take_chip=chip))


async def _grpc_game(stub: referee_pb2_grpc.RefereeServiceAsyncStub, latencies: list[float]) -> int:
    created = await stub.CreateGame(
        referee_pb2.CreateGameRequest(game="the_gang", seats=3, allow_spectators=True)
    )
    moves, done = 0, False
    while not done:
        view = (await stub.GetView(referee_pb2.GetViewRequest(game_id=created.game_id))).view
        for seat, token in enumerate(t.token for t in created.seat_tokens):
            began = time.perf_counter()
            reply = await stub.SubmitMove(
                referee_pb2.SubmitMoveRequest(
                    game_id=created.game_id,
                    move=_take(view.the_gang.round, seat + 1),
                    client_move_id=f"m{moves}",
                ),
                metadata=(("authorization", f"Bearer {token}"),),
            )
            latencies.append((time.perf_counter() - began) * 1000)
            moves += 1
            done = reply.view.HasField("outcome")
            if done or reply.view.the_gang.round != view.the_gang.round:
                break
    return moves


async def _http_game(http: httpx.AsyncClient, latencies: list[float]) -> int:
    base = "/referee.v1.RefereeService"
    created = (await http.post(f"{base}/CreateGame", json=NEW_TABLE)).json()
    game_id, moves, done = created["gameId"], 0, False
    while not done:
        view = (await http.post(f"{base}/GetView", json={"gameId": game_id})).json()["view"]
        for seat, token in enumerate(t["token"] for t in created["seatTokens"]):
            move = {
                "theGang": {"takeChip": {"colour": view["theGang"]["round"], "stars": seat + 1}}
            }
            began = time.perf_counter()
            reply = (
                await http.post(
                    f"{base}/SubmitMove",
                    json={"gameId": game_id, "move": move, "clientMoveId": f"m{moves}"},
                    headers={"Authorization": f"Bearer {token}"},
                )
            ).json()
            latencies.append((time.perf_counter() - began) * 1000)
            moves += 1
            done = "outcome" in reply["view"]
            if done or reply["view"]["theGang"].get("round") != view["theGang"]["round"]:
                break
    return moves


async def _games(
    play: Callable[[list[float]], Awaitable[int]], clients: int, seconds: float
) -> tuple[float, list[float]]:
    latencies: list[float] = []
    stop = time.perf_counter() + seconds

    async def client() -> int:
        moves = 0
        while time.perf_counter() < stop:
            moves += await play(latencies)
        return moves

    started = time.perf_counter()
    total = sum(await asyncio.gather(*(client() for _ in range(clients))))
    return total / (time.perf_counter() - started), sorted(latencies)


async def measure(seconds: float, clients: int) -> list[list[str]]:
    rows: list[list[str]] = []

    def row(face: str, call: str, rate: float, latencies: list[float]) -> None:
        p50, p99 = percentile(latencies, 0.5), percentile(latencies, 0.99)
        rows.append([face, call, f"{rate:,.0f}", f"{p50:.2f}", f"{p99:.2f}"])

    with tempfile.TemporaryDirectory() as tmp, EmbeddedRedis(Path(tmp) / "redis") as redis:
        settings = local_settings(redis.url, Path(tmp))
        async with (
            running(settings) as handle,
            grpc.aio.insecure_channel(handle.address) as channel,
            httpx.AsyncClient(
                base_url=handle.http_url, limits=httpx.Limits(max_connections=clients)
            ) as http,
        ):
            stub = referee_pb2_grpc.RefereeServiceStub(channel)
            game = await stub.CreateGame(
                referee_pb2.CreateGameRequest(game="the_gang", seats=3, allow_spectators=True)
            )
            get_grpc = referee_pb2.GetViewRequest(game_id=game.game_id)
            get_json = {"gameId": game.game_id}
            rate, lat = await _hammer([lambda: stub.GetView(get_grpc)] * clients, seconds)
            row("gRPC", "GetView", rate, lat)
            rate, lat = await _hammer(
                [lambda: http.post("/referee.v1.RefereeService/GetView", json=get_json)] * clients,
                seconds,
            )
            row("HTTP/JSON", "GetView", rate, lat)
            rate, lat = await _games(lambda lat: _grpc_game(stub, lat), clients, seconds)
            row("gRPC", "SubmitMove (whole games)", rate, lat)
            rate, lat = await _games(lambda lat: _http_game(http, lat), clients, seconds)
            row("HTTP/JSON", "SubmitMove (whole games)", rate, lat)
    return rows


def main(argv: Sequence[str] | None = None) -> list[Row]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="time per face and call")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients")
    args = parser.parse_args(argv)
    print(f"HTTP/JSON face beside gRPC, {args.clients} clients, one process; {machine()}")
    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(30))
    rows = asyncio.run(measure(args.seconds, args.clients))
    print_table(["face", "call", "calls/s", "p50 ms", "p99 ms"], rows)
    return [
        Row("http_face", f"{face} {call}", float(rate.replace(",", "")), "calls/s")
        for face, call, rate, _, _ in rows
    ]


if __name__ == "__main__":
    main()
