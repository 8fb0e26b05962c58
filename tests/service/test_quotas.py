"""Operator keys and quotas (service.app.limits): each refusal is typed, carries a retry delay
when it is a quota, and changes nothing in Redis."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import httpx
import pytest
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status
from redis.asyncio import Redis

from referee.v1 import referee_pb2, referee_pb2_grpc, tournament_pb2, tournament_pb2_grpc
from service.app import limits as limits_module
from service.app.limits import Caller, Limits, QuotaStore, peer_address
from service.domain.quotas import Quotas, parse_quotas
from service.errors import QuotaExceeded, to_connect_error, to_rpc_status
from service.process.server import Running, running
from service.settings import Settings
from service.storage.redis_kit import connect
from tests.servers import SECRET as TOKEN_SECRET
from tests.servers import settings_for
from tests.service.players import play_to_end
from tests.service.table import Table, reason_of

QUOTA_DB = 14  # its own: tests/abuse/test_seat_codes.py flushes 11
KEY = "studio-a 0123456789abcdef0123"
SECRET = KEY.split()[1]
T = tournament_pb2


def _db(redis_url: str) -> str:
    return f"{redis_url.rstrip('/').rsplit('/', 1)[0]}/{QUOTA_DB}"


@contextlib.asynccontextmanager
async def serving(redis_url: str, tmp_path: Path, **fields: Any) -> AsyncIterator[Running]:
    """A referee on an empty database of its own, with these settings."""
    url = _db(redis_url)
    client = Redis.from_url(url)
    await client.flushdb()
    await client.aclose()
    settings = dataclasses.replace(settings_for(url, tmp_path), **fields)
    async with running(settings) as handle:
        yield handle


@contextlib.asynccontextmanager
async def stubs(
    handle: Running,
) -> AsyncIterator[
    tuple[referee_pb2_grpc.RefereeServiceAsyncStub, tournament_pb2_grpc.TournamentServiceAsyncStub]
]:
    async with grpc.aio.insecure_channel(handle.address) as channel:
        yield (
            referee_pb2_grpc.RefereeServiceStub(channel),
            tournament_pb2_grpc.TournamentServiceStub(channel),
        )


def _limits(handle: Running) -> Limits:
    assert handle.tournaments is not None
    return handle.tournaments.api.limits


async def _snapshot(redis_url: str) -> dict[bytes, bytes | None]:
    client = Redis.from_url(_db(redis_url))
    try:
        return {key: await client.dump(key) async for key in client.scan_iter()}
    finally:
        await client.aclose()


def _retry_delay(error: grpc.aio.AioRpcError) -> float:
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None
    for detail in status.details:
        retry = error_details_pb2.RetryInfo()
        if detail.Unpack(retry):
            return float(retry.retry_delay.ToMilliseconds()) / 1000
    raise AssertionError("no RetryInfo detail")


async def _refusal(call: Any) -> tuple[str, float] | None:
    """None when ``call`` succeeds, else its reason and retry delay."""
    try:
        await call
    except grpc.aio.AioRpcError as error:
        code, reason, _ = reason_of(error)
        return reason if code is grpc.StatusCode.RESOURCE_EXHAUSTED else code.name, _retry_delay(
            error
        )
    return None


def _create(game: str = "the_gang", seats: int = 3) -> referee_pb2.CreateGameRequest:
    return referee_pb2.CreateGameRequest(game=game, seats=seats, allow_spectators=True)


KEYED = (("x-referee-key", SECRET),)


# --- the error and the settings ----------------------------------------------------------


def test_a_quota_refusal_carries_retry_info_on_both_faces() -> None:
    error = QuotaExceeded("LIVE_GAMES_EXCEEDED", "over", 1.5, {"quota": "live_games"})
    packed = to_rpc_status(error)
    assert packed.code is grpc.StatusCode.RESOURCE_EXHAUSTED
    connect = to_connect_error(error)
    info, retry = error_details_pb2.ErrorInfo(), error_details_pb2.RetryInfo()
    first, second = connect.details
    assert first.Unpack(info) and second.Unpack(retry)
    assert info.reason == "LIVE_GAMES_EXCEEDED"
    assert retry.retry_delay.ToMilliseconds() == 1500
    ((_, raw),) = packed.trailing_metadata  # grpc-status-details-bin: the same two details
    assert [d.type_url for d in status_pb2.Status.FromString(raw).details] == [
        "type.googleapis.com/google.rpc.ErrorInfo",
        "type.googleapis.com/google.rpc.RetryInfo",
    ]


def test_quotas_read_name_value_pairs_over_a_base() -> None:
    base = Quotas(live_games=5, watch_streams=7)
    assert parse_quotas("live_games=9, requests_per_second=3", base) == Quotas(
        live_games=9, watch_streams=7, requests_per_second=3
    )
    with pytest.raises(ValueError, match="not a quota"):
        parse_quotas("live_gmaes=1", base)
    with pytest.raises(ValueError, match=">= 0"):
        parse_quotas("live_games=-1", base)


def test_beyond_loopback_without_keys_the_referee_refuses_to_start(tmp_path: Path) -> None:
    exposed = Settings(host="0.0.0.0", data_dir=tmp_path)
    with pytest.raises(SystemExit, match="REFEREE_OPERATOR_KEYS_FILE"):
        Limits.from_settings(exposed, "redis://127.0.0.1:1/0", TOKEN_SECRET)
    opened = Limits.from_settings(
        dataclasses.replace(exposed, open_creation=True), "redis://127.0.0.1:1/0", TOKEN_SECRET
    )
    assert not opened.keys_required
    keyed = Limits.from_settings(
        dataclasses.replace(exposed, operator_keys=KEY), "redis://127.0.0.1:1/0", TOKEN_SECRET
    )
    assert keyed.keys_required and keyed.keys[0].name == "studio-a"
    assert SECRET not in repr(keyed.keys) and SECRET not in repr(
        dataclasses.replace(exposed, operator_keys=KEY)
    )
    with pytest.raises(SystemExit, match="at least 16 bytes"):
        Limits.from_settings(
            dataclasses.replace(exposed, operator_keys="a short"), "redis://x", TOKEN_SECRET
        )


def test_callers_are_named_by_address_an_ipv6_one_by_its_64() -> None:
    assert peer_address("ipv4:203.0.113.9:50123") == "203.0.113.9"
    assert peer_address("ipv6:[2001:db8::1]:50123") == "2001:db8::1"
    assert peer_address("::1:8080") == "::1"
    assert Caller("2001:db8:0:0:aaaa::1").owner == Caller("2001:db8::ffff:2").owner
    assert Caller("2001:db8:0:1::1").owner != Caller("2001:db8::1").owner
    assert Caller("127.0.0.1").loopback and not Caller("203.0.113.9").loopback


# --- keys --------------------------------------------------------------------------------


async def test_creating_needs_a_known_key_once_keys_are_set(redis_url: str, tmp_path: Path) -> None:
    async with (
        serving(redis_url, tmp_path, operator_keys=KEY) as handle,
        stubs(handle) as (
            stub,
            tournaments,
        ),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as missing:
            await stub.CreateGame(_create())
        assert reason_of(missing.value)[:2] == (
            grpc.StatusCode.UNAUTHENTICATED,
            "OPERATOR_KEY_REQUIRED",
        )
        with pytest.raises(grpc.aio.AioRpcError) as wrong:
            await stub.CreateGame(_create(), metadata=(("x-referee-key", "x" * 20),))
        assert reason_of(wrong.value)[:2] == (
            grpc.StatusCode.UNAUTHENTICATED,
            "OPERATOR_KEY_INVALID",
        )
        created = await stub.CreateGame(_create(), metadata=KEYED)
        view = await stub.GetView(referee_pb2.GetViewRequest(game_id=created.game_id))
        assert view.view.version == 0, "playing and watching need no key"
        with pytest.raises(grpc.aio.AioRpcError) as tournament:
            await tournaments.CreateTournament(T.CreateTournamentRequest(game="pinched"))
        assert reason_of(tournament.value)[1] == "OPERATOR_KEY_REQUIRED"
        with pytest.raises(grpc.aio.AioRpcError) as start:
            await tournaments.StartTournament(T.StartTournamentRequest(tournament_id="t"))
        assert reason_of(start.value)[1] == "OPERATOR_KEY_REQUIRED"


async def test_the_http_face_reads_the_key_header_and_answers_429_with_retry_info(
    redis_url: str, tmp_path: Path
) -> None:
    key_quotas = Quotas(creates_per_minute=1)
    async with serving(redis_url, tmp_path, operator_keys=KEY, key_quotas=key_quotas) as handle:
        url = f"{handle.http_url}/referee.v1.RefereeService/CreateGame"
        body = {"game": "the_gang", "seats": 3}
        async with httpx.AsyncClient() as http:
            missing = await http.post(url, json=body)
            assert missing.status_code == 401
            assert missing.json()["details"][0]["debug"]["reason"] == "OPERATOR_KEY_REQUIRED"
            assert (await http.post(url, json=body, headers={"x-referee-key": SECRET})).is_success
            over = await http.post(url, json=body, headers={"x-referee-key": SECRET})
        assert over.status_code == 429
        types = [detail["type"] for detail in over.json()["details"]]
        assert types == ["google.rpc.ErrorInfo", "google.rpc.RetryInfo"]
        assert over.json()["details"][0]["debug"]["reason"] == "CREATE_RATE_EXCEEDED"


# --- shared quotas -----------------------------------------------------------------------


async def test_over_the_create_rate_is_refused_with_a_delay_and_changes_nothing(
    redis_url: str, tmp_path: Path
) -> None:
    quotas = Quotas(creates_per_minute=3)
    async with (
        serving(redis_url, tmp_path, loopback_quotas=quotas) as handle,
        stubs(handle) as (
            stub,
            _,
        ),
    ):
        for _ in range(3):
            await stub.CreateGame(_create())
        before = await _snapshot(redis_url)
        with pytest.raises(grpc.aio.AioRpcError) as over:
            await stub.CreateGame(_create())
        code, reason, metadata = reason_of(over.value)
        assert (code, reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "CREATE_RATE_EXCEEDED")
        assert metadata == {"quota": "creates_per_minute", "limit": "3"}
        assert 0 < _retry_delay(over.value) <= 60
        assert await _snapshot(redis_url) == before


async def test_a_finished_game_leaves_its_creators_live_games(
    redis_url: str, tmp_path: Path
) -> None:
    quotas = Quotas(live_games=1)
    async with (
        serving(redis_url, tmp_path, loopback_quotas=quotas) as handle,
        stubs(handle) as (
            stub,
            _,
        ),
    ):
        table = await Table.create(stub, 3, seed=b"ended")
        before = await _snapshot(redis_url)
        with pytest.raises(grpc.aio.AioRpcError) as over:
            await stub.CreateGame(_create())
        assert reason_of(over.value)[1] == "LIVE_GAMES_EXCEEDED"
        assert await _snapshot(redis_url) == before
        await play_to_end(table, 3, win=False)
        await stub.CreateGame(_create())


async def test_watch_streams_are_counted_while_open(redis_url: str, tmp_path: Path) -> None:
    quotas = Quotas(watch_streams=2)
    async with (
        serving(redis_url, tmp_path, loopback_quotas=quotas) as handle,
        stubs(handle) as (
            stub,
            _,
        ),
    ):
        created = await stub.CreateGame(_create())
        request = referee_pb2.WatchGameRequest(game_id=created.game_id)
        open_calls = [stub.WatchGame(request) for _ in range(2)]
        for call in open_calls:
            await call.read()
        with pytest.raises(grpc.aio.AioRpcError) as over:
            await stub.WatchGame(request).read()
        assert reason_of(over.value)[1] == "WATCH_STREAMS_EXCEEDED"
        assert 0 < _retry_delay(over.value) <= 60
        open_calls[0].cancel()
        deadline = time.monotonic() + 10
        # The server ends the cancelled stream, then its place is free.
        while (refused := await _refusal(stub.WatchGame(request).read())) is not None:
            assert refused[0] == "WATCH_STREAMS_EXCEEDED"
            assert time.monotonic() < deadline, "the closed stream kept its place"
            await asyncio.sleep(0.05)


async def test_tournaments_are_limited_by_count_and_by_bots(redis_url: str, tmp_path: Path) -> None:
    quotas = Quotas(live_tournaments=2, live_bots=5)

    def spec(bots: int) -> T.CreateTournamentRequest:
        people = [
            T.ParticipantSpec(name=f"bot {i}", bot=T.BOT_STRATEGY_RANDOM) for i in range(bots)
        ]
        return T.CreateTournamentRequest(
            game="pinched",
            seats_per_table=2,
            participants=people,
            format=T.TOURNAMENT_FORMAT_ROUND_ROBIN,
        )

    async with (
        serving(redis_url, tmp_path, loopback_quotas=quotas) as handle,
        stubs(handle) as (
            _,
            tournaments,
        ),
    ):
        await tournaments.CreateTournament(spec(3))
        with pytest.raises(grpc.aio.AioRpcError) as bots:
            await tournaments.CreateTournament(spec(3))
        assert reason_of(bots.value)[1] == "LIVE_BOTS_EXCEEDED"
        await tournaments.CreateTournament(spec(2))
        before = await _snapshot(redis_url)
        with pytest.raises(grpc.aio.AioRpcError) as count:
            await tournaments.CreateTournament(spec(2))
        assert reason_of(count.value)[1] == "LIVE_TOURNAMENTS_EXCEEDED"
        assert await _snapshot(redis_url) == before


async def test_finished_tournaments_are_dropped_when_the_quota_is_reached(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = _db(redis_url)
    client = Redis.from_url(url)
    await client.flushdb()
    await client.aclose()
    monkeypatch.setattr(limits_module, "FINISHED_LOOK_SECONDS", 0.0)  # look every time
    limits = Limits(QuotaStore(connect(url)), loopback_quotas=Quotas(live_tournaments=1))
    try:
        finished: set[str] = set()

        async def still_live(tournament_id: str) -> bool:
            return tournament_id not in finished

        await limits.create_tournament("t1", 0, still_live)
        with pytest.raises(QuotaExceeded, match="live_tournaments=1"):
            await limits.create_tournament("t2", 0, still_live)
        finished.add("t1")
        # One admitted moments ago may not be stored yet (the host stores it after): kept.
        with pytest.raises(QuotaExceeded, match="live_tournaments=1"):
            await limits.create_tournament("t2", 0, still_live)
        monkeypatch.setattr(limits_module, "SETTLE_MS", 0)
        await limits.create_tournament("t2", 0, still_live)
    finally:
        await limits.aclose()


async def test_a_flood_of_refused_tournaments_looks_for_finished_ones_once(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refused creates do not load the caller's tournaments once per call (their cost would
    be the flood's): one look per FINISHED_LOOK_SECONDS."""
    url = _db(redis_url)
    client = Redis.from_url(url)
    await client.flushdb()
    await client.aclose()
    monkeypatch.setattr(limits_module, "SETTLE_MS", 0)
    limits = Limits(QuotaStore(connect(url)), loopback_quotas=Quotas(live_tournaments=1))
    looked: list[str] = []

    async def still_live(tournament_id: str) -> bool:
        looked.append(tournament_id)
        return True

    try:
        await limits.create_tournament("t1", 0, still_live)
        for attempt in range(5):
            with pytest.raises(QuotaExceeded, match="live_tournaments=1"):
                await limits.create_tournament(f"t{attempt + 2}", 0, still_live)
        assert looked == ["t1"]
    finally:
        await limits.aclose()


async def test_a_lapsed_lease_no_longer_counts(redis_url: str) -> None:
    """A replica that crashed never released its watches: their leases lapse."""
    url = _db(redis_url)
    store = QuotaStore(connect(url))
    try:
        await Redis.from_url(url).flushdb()
        now = int(time.time() * 1000)
        args: list[int | str] = [now, 60_000, 0, 1, "crashed", now + 50, 0, 0]
        assert await store.admit("addr:192.0.2.1", "watches", args) == ("OK", 0)
        refused = await store.admit(
            "addr:192.0.2.1", "watches", [now, 60_000, 0, 1, "b", now, 0, 0]
        )
        assert refused[0] == "LIVE"
        later = now + 100
        again = await store.admit(
            "addr:192.0.2.1", "watches", [later, 60_000, 0, 1, "b", later, 0, 0]
        )
        assert again == ("OK", 0)
    finally:
        await store.aclose()


# --- the request rate --------------------------------------------------------------------


async def test_the_request_rate_is_spent_in_process_with_no_redis_round_trip(
    redis_url: str, tmp_path: Path
) -> None:
    quotas = Quotas(requests_per_second=20, live_games=10)
    async with (
        serving(redis_url, tmp_path, loopback_quotas=quotas) as handle,
        stubs(handle) as (
            stub,
            _,
        ),
    ):
        table = await Table.create(stub, 3)
        store = _limits(handle).store
        assert store is not None
        calls: list[str] = []
        store.on_call = lambda name, _seconds: calls.append(name)
        for _ in range(3):  # moves (not the last one) cost no quota round trip either
            seat = min((await table.view(None)).to_act)
            await table.submit(seat, (await table.legal(seat)).moves[0])
        assert calls == []
        codes = []
        started = time.monotonic()
        for _ in range(60):
            refused = await _refusal(table.view(0))
            codes.append("OK" if refused is None else refused[0])
            assert refused is None or 0 < refused[1] <= 1
        assert "REQUEST_RATE_EXCEEDED" in codes and "OK" in codes
        refilled = 20 * (time.monotonic() - started)
        assert codes.count("OK") <= 40 + refilled + 1, "a burst of twice the rate, and the refill"
        assert calls == [], "the request rate costs no Redis round trip"


async def test_the_tournament_bots_play_on_the_referees_own_key_not_loopbacks_quotas(
    redis_url: str, tmp_path: Path
) -> None:
    """Loopback has no quotas of its own as deployed; the bots, which play through the
    gRPC face from loopback, send the referee's own key (service.app.limits.internal_key),
    so a tiny request rate of the anonymous caller does not starve them."""
    tiny = Quotas(requests_per_second=2, live_tournaments=1, live_bots=2, watch_streams=1)
    async with (
        serving(redis_url, tmp_path, loopback_quotas=None, quotas=tiny) as handle,
        stubs(handle) as (_, tournaments),
    ):
        created = await tournaments.CreateTournament(
            tournament_pb2.CreateTournamentRequest(
                game="pinched",
                seats_per_table=2,
                participants=[
                    tournament_pb2.ParticipantSpec(
                        name=f"b{i}", bot=tournament_pb2.BOT_STRATEGY_RANDOM
                    )
                    for i in range(2)
                ],
                format=tournament_pb2.TOURNAMENT_FORMAT_ROUND_ROBIN,
                rounds=1,
                seed=b"own-key",
            )
        )
        await tournaments.StartTournament(
            tournament_pb2.StartTournamentRequest(tournament_id=created.tournament_id),
            metadata=(("authorization", f"Bearer {created.admin_token}"),),
        )
        last = None
        async with asyncio.timeout(60):
            async for update in tournaments.WatchTournament(
                tournament_pb2.WatchTournamentRequest(tournament_id=created.tournament_id)
            ):
                last = update.tournament
        assert last is not None and last.status == tournament_pb2.TOURNAMENT_STATUS_FINISHED
        assert all(table.finished for table in last.round_results[0].tables)
