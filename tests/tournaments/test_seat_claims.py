"""Humans join a tournament with one-time seat codes (ClaimSeat), and the admin never holds
a participant token or a seat token: on a real referee and Redis, both faces."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import grpc
import httpx
import pytest
from google.protobuf.message import Message
from redis.asyncio import Redis

from referee.bots import bot_for, play_seat
from referee.client import AsyncRefereeClient
from referee.v1 import tournament_pb2, tournament_pb2_grpc
from service.errors import Unavailable
from service.process.server import Running, running
from service.storage.seat_codes import new_code, normalized
from service.tournaments.host import CODE_KIND
from tests.servers import settings_for
from tests.service.table import reason_of

T = tournament_pb2

SERVICE = "/referee.v1.TournamentService"

if TYPE_CHECKING:
    Stub = tournament_pb2_grpc.TournamentServiceAsyncStub


@pytest.fixture
async def served(redis_url: str, tmp_path: Path) -> AsyncIterator[Running]:
    """A referee whose bound on wrong codes does not get in the way of these tests (the
    bound itself: tests/service/test_seat_codes.py and tests/abuse/test_seat_codes.py)."""
    settings = dataclasses.replace(
        settings_for(redis_url, tmp_path), seat_code_attempts_per_minute=0
    )
    async with running(settings) as handle:
        yield handle


@pytest.fixture
async def stub(served: Running) -> AsyncIterator[Stub]:
    async with grpc.aio.insecure_channel(served.address) as channel:
        yield tournament_pb2_grpc.TournamentServiceStub(channel)


def _auth(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def _request(humans: int, bots: int = 1, game: str = "pinched") -> T.CreateTournamentRequest:
    return T.CreateTournamentRequest(
        game=game,
        seats_per_table=humans + bots,
        participants=[
            *(T.ParticipantSpec(name=f"human {i}") for i in range(humans)),
            *(T.ParticipantSpec(name=f"bot {i}", bot=T.BOT_STRATEGY_RANDOM) for i in range(bots)),
        ],
        format=T.TOURNAMENT_FORMAT_SWISS,
        rounds=1,
    )


def _code_key(served: Running, code: str) -> str:
    canonical = normalized(code)
    assert canonical is not None and served.tournaments is not None
    return served.tournaments.host.codes.key(canonical)


async def _snapshot(raw: Redis, tournament_id: str) -> dict[bytes, bytes | None]:
    """Every key of the tournament and every live seat code, as DUMPed."""
    keys = [k async for k in raw.scan_iter(f"tournament:{{{tournament_id}}}*")]
    keys += [k async for k in raw.scan_iter(f"seatcode:{CODE_KIND}:*")]
    return {key: await raw.dump(key) for key in sorted(keys)}


async def test_a_code_claims_its_seat_once_and_every_refusal_changes_nothing(
    served: Running, stub: Stub, raw_redis: Redis
) -> None:
    created = await stub.CreateTournament(_request(humans=2))
    assert not created.participant_tokens
    assert [c.participant for c in created.seat_codes] == [0, 1]
    first, second = created.seat_codes
    assert first.expires_at_unix_ms > time.time() * 1000 + 3600_000
    claimed = await stub.ClaimSeat(T.ClaimSeatRequest(code=first.code, display_name="Ada"))
    assert claimed.participant == 0 and claimed.participant_token.startswith("t1.")
    me = claimed.tournament.participants[0]
    assert (me.name, me.claimed) == ("Ada", True)
    assert abs(me.claimed_at_unix_ms - time.time() * 1000) < 60_000
    assert not claimed.tournament.participants[1].claimed  # not shown to another participant
    request = T.GetTournamentRequest(tournament_id=created.tournament_id)
    mine = (await stub.GetTournament(request, metadata=_auth(claimed.participant_token))).tournament
    assert mine.participants[0] == me
    # The admin sees who claimed, and when; a spectator sees neither.
    admin = (await stub.GetTournament(request, metadata=_auth(created.admin_token))).tournament
    assert [(p.claimed, p.claimed_at_unix_ms > 0) for p in admin.participants] == [
        (True, True),
        (False, False),
        (False, False),
    ]
    public = (await stub.GetTournament(request)).tournament
    assert [p.name for p in public.participants] == ["Ada", "human 1", "bot 0"]
    assert not any(p.claimed or p.claimed_at_unix_ms for p in public.participants)
    # Used, unknown, expired: one refusal, and nothing in Redis changes.
    await raw_redis.pexpireat(_code_key(served, second.code), 1)
    before = await _snapshot(raw_redis, created.tournament_id)
    refusals = set()
    for code in (first.code, new_code(), second.code, "not a code"):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await stub.ClaimSeat(T.ClaimSeatRequest(code=code))
        refusals.add((*reason_of(refused.value)[:2], refused.value.details()))
    assert [(code, reason) for code, reason, _ in refusals] == [
        (grpc.StatusCode.NOT_FOUND, "SEAT_CODE_INVALID")
    ]
    assert await _snapshot(raw_redis, created.tournament_id) == before


async def test_a_bad_display_name_is_refused_before_the_code_is_spent(
    stub: Stub,
) -> None:
    created = await stub.CreateTournament(_request(humans=1))
    [code] = created.seat_codes
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stub.ClaimSeat(T.ClaimSeatRequest(code=code.code, display_name="x" * 65))
    assert reason_of(refused.value)[:2] == (grpc.StatusCode.INVALID_ARGUMENT, "NAME_INVALID")
    claimed = await stub.ClaimSeat(T.ClaimSeatRequest(code=code.code.lower()))
    assert claimed.tournament.participants[0].name == "human 0"


async def test_of_twenty_concurrent_claims_of_one_code_exactly_one_wins(
    served: Running, stub: Stub
) -> None:
    created = await stub.CreateTournament(_request(humans=1))
    [code] = created.seat_codes
    channels = [grpc.aio.insecure_channel(served.address) for _ in range(20)]
    try:
        stubs = [tournament_pb2_grpc.TournamentServiceStub(c) for c in channels]
        await asyncio.gather(*(c.channel_ready() for c in channels))
        results = await asyncio.gather(
            *(s.ClaimSeat(T.ClaimSeatRequest(code=code.code)) for s in stubs),
            return_exceptions=True,
        )
    finally:
        await asyncio.gather(*(c.close(None) for c in channels))
    won = [r for r in results if isinstance(r, T.ClaimSeatResponse)]
    lost = [r for r in results if isinstance(r, grpc.aio.AioRpcError)]
    assert len(won) == 1 and len(lost) == 19
    assert {reason_of(error)[1] for error in lost} == {"SEAT_CODE_INVALID"}
    request = T.GetTournamentRequest(tournament_id=created.tournament_id)
    seen = await stub.GetTournament(request, metadata=_auth(won[0].participant_token))
    assert seen.tournament.participants[0].claimed


async def test_a_claim_the_store_could_not_record_leaves_the_code_good(
    served: Running,
    stub: Stub,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    created = await stub.CreateTournament(_request(humans=1))
    [code] = created.seat_codes
    assert served.tournaments is not None
    store = served.tournaments.host.store

    async def away(*_args: object, **_kwargs: object) -> None:
        raise Unavailable("STORE_UNAVAILABLE", "the tournament store is unreachable")

    with monkeypatch.context() as patched:
        patched.setattr(store, "update", away)
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await stub.ClaimSeat(T.ClaimSeatRequest(code=code.code))
    assert reason_of(refused.value)[:2] == (grpc.StatusCode.UNAVAILABLE, "STORE_UNAVAILABLE")
    claimed = await stub.ClaimSeat(T.ClaimSeatRequest(code=code.code))
    assert claimed.participant == 0


async def test_claim_seat_over_http_json(served: Running, stub: Stub) -> None:
    created = await stub.CreateTournament(_request(humans=1))
    [code] = created.seat_codes
    async with httpx.AsyncClient(base_url=served.http_url) as http:
        answer = await http.post(f"{SERVICE}/ClaimSeat", json={"code": code.code})
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["tournamentId"] == created.tournament_id
        assert body["participantToken"].startswith("t1.")
        again = await http.post(f"{SERVICE}/ClaimSeat", json={"code": code.code})
        assert again.status_code == 404
        assert again.json()["details"][0]["debug"]["reason"] == "SEAT_CODE_INVALID"


def _strings(message: Message) -> Iterator[str]:
    """Every string anywhere in ``message``, nested messages and repeated fields included."""
    for field, value in message.ListFields():
        values = value if field.is_repeated else [value]
        for item in values:
            if isinstance(item, Message):
                yield from _strings(item)
            elif isinstance(item, str):
                yield item


async def _my_table(
    stub: Stub,
    request: T.GetTournamentRequest,
    mine: tuple[tuple[str, str], ...],
    admin: tuple[tuple[str, str], ...],
    got: list[Message],
) -> T.TournamentTable:
    """The participant's table once its game exists (the admin looks too, meanwhile)."""
    async with asyncio.timeout(10):
        while True:
            seen = (await stub.GetTournament(request, metadata=mine)).tournament
            table = seen.round_results[0].tables[0]
            if table.seat_tokens:
                return table
            got.append(await stub.GetTournament(request, metadata=admin))
            await asyncio.sleep(0.05)


async def test_the_admin_never_receives_a_token_of_anybody_else(
    served: Running, stub: Stub
) -> None:
    """A human claims, plays its seat with the seat token its own view gives it, while the
    admin watches every version from the start: no message the admin gets carries a
    participant token or a seat token (leak check over every string of every message)."""
    created = await stub.CreateTournament(_request(humans=1, bots=2))
    admin = _auth(created.admin_token)
    request = T.GetTournamentRequest(tournament_id=created.tournament_id)
    got: list[Message] = [created]
    watching = stub.WatchTournament(
        T.WatchTournamentRequest(tournament_id=created.tournament_id), metadata=admin
    )

    async def watch() -> None:
        async for update in watching:
            got.append(update)

    watcher = asyncio.create_task(watch())
    try:
        [code] = created.seat_codes
        claimed = await stub.ClaimSeat(T.ClaimSeatRequest(code=code.code))
        start = T.StartTournamentRequest(tournament_id=created.tournament_id)
        got.append(await stub.StartTournament(start, metadata=admin))
        table = await _my_table(stub, request, _auth(claimed.participant_token), admin, got)
        [seat_token] = table.seat_tokens
        async with AsyncRefereeClient(served.address) as client:
            seat = client.seat(table.game_id, seat_token.token)
            await play_seat(seat, bot_for("pinched", "random"), rng=random.Random(7))
        async with asyncio.timeout(30):
            await watcher
    finally:
        watcher.cancel()
    got.append(await stub.GetTournament(request, metadata=admin))
    final = got[-1]
    assert isinstance(final, T.GetTournamentResponse)
    assert final.tournament.status == T.TOURNAMENT_STATUS_FINISHED
    assert final.tournament.participants[0].claimed
    secrets_ = {
        claimed.participant_token,
        *(served.referee.seat_token(table.game_id, s) for s in range(len(table.participants))),
    }
    assert len(got) > 4
    for message in got:
        for text in _strings(message):
            if text != created.admin_token:  # the admin's own, in CreateTournament's answer
                assert not text.startswith(("t1.", "v1.")), (type(message).__name__, text)
            assert not any(secret in text for secret in secrets_)
        raw = message.SerializeToString()
        assert not any(secret.encode() in raw for secret in secrets_)
