"""One-time codes: short secrets that stand for a payload until someone redeems them, once.

A host hands a code to a person (read aloud, on paper, in a chat); that person trades it
for whatever the payload names (a tournament's seat today, a table's seat tomorrow). The
mechanism knows nothing of what it hands out:

* :meth:`SeatCodes.issue` stores ``payload`` under a fresh code for ``ttl_seconds`` and
  returns the code; :meth:`SeatCodes.redeem` returns the payload and deletes it in the
  same Lua step (``seat_code_redeem.lua``), so of concurrent redeemers exactly one wins.
* Codes are 10 characters of Crockford's base32 (50 random bits from :mod:`secrets`),
  shown as ``7KQ2M-XD9PA``; reading ignores case, spaces and dashes and takes O for 0 and
  I, L for 1, the letters people confuse.
* Redis holds only ``sha256(code)`` in the key, so a dump or an AOF shows no live code.
  Keys are ``seatcode:<kind>:{<sha256>}`` (hash-tagged: any Redis Cluster slot); a code
  of one kind is unknown to another kind's redeemer.
* An unknown, used or expired code is one refusal, NOT_FOUND ``SEAT_CODE_INVALID``, so
  nobody learns which. Wrong codes are counted per client address in a fixed one-minute
  window shared by every replica and every kind (``seat_code_attempt.lua``); past the
  limit an address gets RESOURCE_EXHAUSTED ``SEAT_CODE_ATTEMPTS_EXCEEDED`` until the
  window ends. A good code's attempt is given back, so a room of people behind one
  address can all claim theirs.

Guessing, worked out: with ``n`` live codes, an attacker who may try ``r`` wrong codes per
minute from each of ``a`` addresses finds one after about 2**50 / (n * r * a) minutes:
10,000 live codes, 10 tries per minute, 1,000 addresses: about 21 years.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import math
import re
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import grpc
from redis import exceptions as redis_errors
from redis.commands.core import AsyncScript

from service.errors import RefereeError
from service.storage.redis_kit import Client, Outage, as_bytes, check_bytes_client, script

ALPHABET: Final = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base32: no I, L, O, U
LENGTH: Final = 10  # 50 bits
WINDOW_MS: Final = 60_000
_CONFUSED: Final = str.maketrans({"O": "0", "I": "1", "L": "1"})
_SEPARATORS: Final = re.compile(r"[\s-]+")
_SAFE_ADDRESS: Final = re.compile(r"[0-9A-Za-z.:_-]{1,64}")
_MAX_ISSUE_TRIES: Final = 8

_outage: Final = Outage(
    "the code store", "try again: a code whose reply was lost may have been redeemed"
)


class SeatCodeInvalid(RefereeError):
    """The code is unknown, already used or expired: one reason for all three."""

    code = grpc.StatusCode.NOT_FOUND

    def __init__(self) -> None:
        super().__init__("SEAT_CODE_INVALID", "this code is unknown, already used or expired")


class SeatCodeAttemptsExceeded(RefereeError):
    """Too many wrong codes from this address in the current window."""

    code = grpc.StatusCode.RESOURCE_EXHAUSTED

    def __init__(self, retry_after_seconds: int) -> None:
        super().__init__(
            "SEAT_CODE_ATTEMPTS_EXCEEDED",
            f"too many wrong codes from this address; try again in {retry_after_seconds} s",
            {"retry_after_seconds": str(retry_after_seconds)},
        )
        self.retry_after_seconds = retry_after_seconds


@dataclass(frozen=True)
class Issued:
    code: str  # as shown to people: two groups of five
    expires_at: float  # Unix seconds


@dataclass(frozen=True)
class Redeemed:
    payload: bytes
    ttl_ms: int  # what was left of the code's life when it was redeemed


def new_code() -> str:
    """A fresh code, as shown: ``XXXXX-XXXXX``."""
    raw = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    return f"{raw[:5]}-{raw[5:]}"


def normalized(code: str) -> str | None:
    """The code's canonical form, or None if it cannot be one (too short, bad letters)."""
    text = _SEPARATORS.sub("", code[: 4 * LENGTH]).upper().translate(_CONFUSED)
    if len(text) != LENGTH or any(char not in ALPHABET for char in text):
        return None
    return text


def _address_tag(address: str) -> str:
    """The address as it may appear inside a key's hash tag (a digest if it is odd)."""
    if _SAFE_ADDRESS.fullmatch(address):
        return address
    return hashlib.sha256(address.encode()).hexdigest()[:32]


class SeatCodes:
    """Codes of one ``kind`` (``"tournament-seat"``, ...) on a bytes Redis client.

    ``attempts_per_minute`` wrong codes per client address (0: no limit). The client is
    shared with a store that owns and closes it.
    """

    def __init__(self, client: Client, *, kind: str, attempts_per_minute: int) -> None:
        check_bytes_client(client, "SeatCodes")
        if not re.fullmatch(r"[a-z0-9-]{1,32}", kind):
            raise ValueError(f"a code kind is 1 to 32 of a-z, 0-9, '-': {kind!r}")
        self._client = client
        self.kind = kind
        self.attempts_per_minute = attempts_per_minute
        self._redeem: AsyncScript = script(client, "seat_code_redeem.lua")
        self._attempt: AsyncScript = script(client, "seat_code_attempt.lua")
        self._forgive: AsyncScript = script(client, "seat_code_forgive.lua")
        self.on_call: Callable[[str, float], None] | None = None

    def key(self, code: str) -> str:
        """The Redis key of a normalized code: its digest only."""
        return f"seatcode:{self.kind}:{{{hashlib.sha256(code.encode()).hexdigest()}}}"

    @staticmethod
    def attempts_key(address: str) -> str:
        return f"seatcode:attempts:{{{_address_tag(address)}}}"

    @_outage
    async def issue(self, payload: bytes, ttl_seconds: int) -> Issued:
        """A new code that stands for ``payload`` for ``ttl_seconds``."""
        if ttl_seconds <= 0:
            raise ValueError("a code needs a positive lifetime")
        for _ in range(_MAX_ISSUE_TRIES):  # a clash of 50-bit codes: practically never
            shown = new_code()
            canonical = normalized(shown)
            assert canonical is not None
            if await self._client.set(self.key(canonical), payload, ex=ttl_seconds, nx=True):
                return Issued(shown, time.time() + ttl_seconds)
        raise RuntimeError("could not find a free code")

    async def issue_many(self, payloads: Sequence[bytes], ttl_seconds: int) -> list[Issued]:
        """One code per payload, in order (concurrently: the keys live on any node)."""
        return list(await asyncio.gather(*(self.issue(p, ttl_seconds) for p in payloads)))

    @_outage
    async def redeem(self, code: str, address: str) -> Redeemed:
        """The code's payload, once; the code is spent.

        Raises :class:`SeatCodeInvalid` for a code that is malformed, unknown, used or
        expired, and :class:`SeatCodeAttemptsExceeded` when ``address`` (the caller's host)
        sent too many wrong codes this minute; neither changes anything but the count.
        """
        canonical = normalized(code)
        if canonical is None:
            raise SeatCodeInvalid()
        counter = self.attempts_key(address)
        if self.attempts_per_minute > 0:
            counted, wait_ms = await self._attempt(
                keys=[counter], args=[self.attempts_per_minute, WINDOW_MS]
            )
            if not int(counted):
                raise SeatCodeAttemptsExceeded(max(1, math.ceil(int(wait_ms) / 1000)))
        reply = await self._redeem(keys=[self.key(canonical)])
        if not reply:
            raise SeatCodeInvalid()
        if self.attempts_per_minute > 0:
            with contextlib.suppress(redis_errors.RedisError, OSError):
                await self._forgive(keys=[counter])
        return Redeemed(as_bytes(reply[0]), int(reply[1]))

    @_outage
    async def resolve(self, code: str, address: str) -> bytes:
        """The payload of a code that stays good for more redeemers (a table's join code:
        one per open seat, spent with :meth:`revoke` when the table starts); wrong codes
        count against ``address`` as for :meth:`redeem`, with its refusals."""
        canonical = normalized(code)
        if canonical is None:
            raise SeatCodeInvalid()
        counter = self.attempts_key(address)
        if self.attempts_per_minute > 0:
            counted, wait_ms = await self._attempt(
                keys=[counter], args=[self.attempts_per_minute, WINDOW_MS]
            )
            if not int(counted):
                raise SeatCodeAttemptsExceeded(max(1, math.ceil(int(wait_ms) / 1000)))
        payload = await self._client.get(self.key(canonical))
        if payload is None:
            raise SeatCodeInvalid()
        if self.attempts_per_minute > 0:
            with contextlib.suppress(redis_errors.RedisError, OSError):
                await self._forgive(keys=[counter])
        return as_bytes(payload)

    @_outage
    async def revoke(self, key: str) -> None:
        """Spend a code for good, by its key (:meth:`key`; its holder keeps no code)."""
        await self._client.delete(key)

    @_outage
    async def give_back(self, code: str, redeemed: Redeemed) -> bool:
        """Make a redeemed code good again for the rest of its life (the redeemer could not
        finish: its store was away). False if it had no life left or was issued anew."""
        canonical = normalized(code)
        if canonical is None or redeemed.ttl_ms <= 0:
            return False
        key = self.key(canonical)
        return bool(await self._client.set(key, redeemed.payload, px=redeemed.ttl_ms, nx=True))
