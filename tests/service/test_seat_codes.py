"""One-time codes (service.storage.seat_codes) on real Redis: issue, redeem once, hashed keys, the
per-address bound on wrong codes, and a real race of separate connections."""

from __future__ import annotations

import asyncio
import hashlib
import math
import secrets
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from service.app.limits import peer_address
from service.storage.redis_kit import connect
from service.storage.seat_codes import (
    ALPHABET,
    LENGTH,
    SeatCodeAttemptsExceeded,
    SeatCodeInvalid,
    SeatCodes,
    new_code,
    normalized,
)


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[Redis]:
    redis = connect(redis_url)
    assert isinstance(redis, Redis)
    yield redis
    await redis.aclose()


def _address() -> str:
    """A fresh client address per test: counters of other tests never interfere."""
    return f"10.{secrets.randbelow(256)}.{secrets.randbelow(256)}.{secrets.randbelow(256)}"


def test_codes_are_ten_unambiguous_characters_of_at_least_50_bits() -> None:
    assert len(ALPHABET) == len(set(ALPHABET)) == 32
    assert not set("ILOU") & set(ALPHABET)
    assert LENGTH * math.log2(len(ALPHABET)) >= 50
    shown = new_code()
    assert len(shown) == LENGTH + 1 and shown[5] == "-"
    assert normalized(shown) == shown.replace("-", "")
    assert len({new_code() for _ in range(1000)}) == 1000


def test_reading_a_code_forgives_case_spaces_dashes_and_confusable_letters() -> None:
    assert normalized("abcde-fghjk") == "ABCDEFGHJK"
    assert normalized(" 0O1IL 23456 ") == "0011123456"
    assert normalized("ABCDE FGHJK") == "ABCDEFGHJK"
    for bad in ("", "ABCDEFGHJ", "ABCDEFGHJKM", "ABCDE-FGHJU", "ABCDE_FGHJK", "x" * 10_000):
        assert normalized(bad) is None, bad


async def test_a_code_redeems_once_to_its_payload(client: Redis) -> None:
    codes = SeatCodes(client, kind="test", attempts_per_minute=100)
    issued = await codes.issue(b"the payload", 600)
    address = _address()
    redeemed = await codes.redeem(issued.code.lower(), address)
    assert redeemed.payload == b"the payload"
    assert 0 < redeemed.ttl_ms <= 600_000
    with pytest.raises(SeatCodeInvalid) as again:
        await codes.redeem(issued.code, address)
    assert again.value.reason == "SEAT_CODE_INVALID"
    # Another kind's redeemer does not know this kind's codes (and spends nothing).
    other = await codes.issue(b"x", 600)
    with pytest.raises(SeatCodeInvalid):
        await SeatCodes(client, kind="other", attempts_per_minute=100).redeem(other.code, address)
    assert (await codes.redeem(other.code, address)).payload == b"x"


async def test_unknown_used_expired_and_malformed_codes_are_one_refusal(client: Redis) -> None:
    codes = SeatCodes(client, kind="test", attempts_per_minute=100)
    used = await codes.issue(b"u", 600)
    await codes.redeem(used.code, _address())
    expired = await codes.issue(b"e", 600)
    await client.pexpireat(codes.key(normalized(expired.code) or ""), 1)  # in the past: gone
    refusals = []
    for code in (used.code, expired.code, new_code(), "nonsense"):
        with pytest.raises(SeatCodeInvalid) as refused:
            await codes.redeem(code, _address())
        refusals.append((refused.value.code, refused.value.reason, refused.value.message))
    assert len(set(refusals)) == 1


async def test_redis_holds_the_code_only_as_a_digest(client: Redis) -> None:
    codes = SeatCodes(client, kind="test", attempts_per_minute=100)
    issued = await codes.issue(b"hidden", 600)
    canonical = normalized(issued.code)
    assert canonical is not None
    digest = hashlib.sha256(canonical.encode()).hexdigest()
    assert codes.key(canonical) == f"seatcode:test:{{{digest}}}"
    for key in [key async for key in client.scan_iter("seatcode:*")]:
        assert canonical.encode() not in key and issued.code.encode() not in key
        if await client.type(key) == b"string":
            value = await client.get(key)
            assert value is not None and canonical.encode() not in value


async def test_wrong_codes_are_bounded_per_address_and_good_ones_do_not_count(
    client: Redis,
) -> None:
    codes = SeatCodes(client, kind="test", attempts_per_minute=3)
    address, elsewhere = _address(), _address()
    good = [await codes.issue(b"%d" % i, 600) for i in range(5)]
    for issued in good[:4]:  # good codes never use the address's allowance up
        await codes.redeem(issued.code, address)
    for _ in range(3):
        with pytest.raises(SeatCodeInvalid):
            await codes.redeem(new_code(), address)
    before = await client.get(codes.key(normalized(good[4].code) or ""))
    with pytest.raises(SeatCodeAttemptsExceeded) as bounded:
        await codes.redeem(good[4].code, address)  # even a good code waits for the window
    error = bounded.value
    assert error.reason == "SEAT_CODE_ATTEMPTS_EXCEEDED"
    assert 1 <= error.retry_after_seconds <= 60
    assert error.metadata == {"retry_after_seconds": str(error.retry_after_seconds)}
    assert await client.get(codes.key(normalized(good[4].code) or "")) == before  # not spent
    assert int(await client.get(codes.attempts_key(address)) or 0) == 3
    assert (await codes.redeem(good[4].code, elsewhere)).payload == b"4"  # others unaffected


async def test_a_given_back_code_works_again_for_the_rest_of_its_life(client: Redis) -> None:
    codes = SeatCodes(client, kind="test", attempts_per_minute=100)
    issued = await codes.issue(b"again", 600)
    redeemed = await codes.redeem(issued.code, _address())
    assert await codes.give_back(issued.code, redeemed)
    assert not await codes.give_back(issued.code, redeemed)  # it is good already
    left = await client.pttl(codes.key(normalized(issued.code) or ""))
    assert 0 < left <= redeemed.ttl_ms
    assert (await codes.redeem(issued.code, _address())).payload == b"again"


async def test_of_twenty_concurrent_redeemers_on_their_own_connections_one_wins(
    redis_url: str, client: Redis
) -> None:
    issuer = SeatCodes(client, kind="test", attempts_per_minute=1000)
    issued = await issuer.issue(b"prize", 600)
    clients = [connect(redis_url) for _ in range(20)]
    try:
        racers = [SeatCodes(c, kind="test", attempts_per_minute=1000) for c in clients]
        await asyncio.gather(*(c.ping() for c in clients))  # connected: the race is the redeem
        address = _address()
        results = await asyncio.gather(
            *(racer.redeem(issued.code, address) for racer in racers), return_exceptions=True
        )
    finally:
        await asyncio.gather(*(c.aclose() for c in clients))
    won = [r for r in results if not isinstance(r, BaseException)]
    lost = [r for r in results if isinstance(r, SeatCodeInvalid)]
    assert [w.payload for w in won] == [b"prize"]
    assert len(lost) == 19


@pytest.mark.parametrize(
    ("peer", "host"),
    [
        ("ipv4:127.0.0.1:50123", "127.0.0.1"),
        ("ipv6:[::1]:50123", "::1"),
        ("ipv6:%5B2001:db8::7%5D:443", "2001:db8::7"),
        ("10.0.0.9:8080", "10.0.0.9"),  # the HTTP face's ASGI client
        ("::1:8080", "::1"),
        ("unix:/tmp/referee.sock", "unix:"),
        (None, "local"),
        ("", "local"),
    ],
)
def test_the_faces_key_limits_by_the_callers_host_without_its_port(
    peer: str | None, host: str
) -> None:
    assert peer_address(peer) == host
