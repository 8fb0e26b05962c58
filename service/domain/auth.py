"""Seat tokens and table admin tokens: HMAC-SHA256 signed, scoped to one game.

Format: ``v2.<game_id>.<seat|a>.<generation>.<signature>``: the signature is the unpadded
base64url HMAC-SHA256 of everything before it under the server secret; ``a`` names the
table admin (service.domain.hosting). The generation is that of the seat (or the admin) in the
table's hosting record: a reissue raises it there, and the referee refuses a token of an
older generation (UNAUTHENTICATED ``TOKEN_REVOKED``) without a round trip of its own, since
the record is loaded with the game anyway. ``v1.<game_id>.<seat>.<signature>`` tokens,
issued before generations existed, stay valid as generation 0.

Tokens carry no expiry: they are as long-lived as the game they belong to, which expires
on its own.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from pathlib import Path

from service.errors import PermissionDenied, Unauthenticated

PREFIX = "v2"
# Well-signed tokens remembered with their claims (a seat sends its token with every
# call; checking it again costs an HMAC and a few string operations). Only tokens that
# verified are kept, the oldest forgotten first, so a flood of forged ones costs nothing.
VERIFIED_TOKENS = 65_536
LEGACY_PREFIX = "v1"
ADMIN = "a"


@dataclass(frozen=True)
class SeatClaim:
    """What a token says: its game, its seat (None: the table admin), its generation."""

    game_id: str
    seat: int | None
    generation: int = 0

    @property
    def admin(self) -> bool:
        return self.seat is None


def _malformed() -> Unauthenticated:
    return Unauthenticated("TOKEN_MALFORMED", "the seat token is malformed")


class TokenSigner:
    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the token secret must be at least 16 bytes")
        self._secret = secret
        self._verified: dict[str, SeatClaim] = {}

    def _sign(self, payload: str) -> str:
        mac = hmac.new(self._secret, payload.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()

    def issue(self, game_id: str, seat: int, generation: int = 0) -> str:
        payload = f"{PREFIX}.{game_id}.{seat}.{generation}"
        return f"{payload}.{self._sign(payload)}"

    def issue_admin(self, game_id: str, generation: int = 0) -> str:
        """The table admin token of ``game_id`` (no seat; see service.domain.hosting)."""
        payload = f"{PREFIX}.{game_id}.{ADMIN}.{generation}"
        return f"{payload}.{self._sign(payload)}"

    def verify(self, token: str) -> SeatClaim:
        """The claim of a well-signed token; UNAUTHENTICATED otherwise."""
        claim = self._verified.get(token)
        if claim is None:
            claim = self._check(token)
            if len(self._verified) >= VERIFIED_TOKENS:
                del self._verified[next(iter(self._verified))]
            self._verified[token] = claim
        return claim

    def _check(self, token: str) -> SeatClaim:
        parts = token.split(".")
        if len(parts) == 4 and parts[0] == LEGACY_PREFIX and parts[2].isdigit():
            claim = SeatClaim(parts[1], int(parts[2]), 0)
        elif (
            len(parts) == 5
            and parts[0] == PREFIX
            and (parts[2].isdigit() or parts[2] == ADMIN)
            and parts[3].isdigit()
        ):
            seat = None if parts[2] == ADMIN else int(parts[2])
            claim = SeatClaim(parts[1], seat, int(parts[3]))
        else:
            raise _malformed()
        if not hmac.compare_digest(self._sign(".".join(parts[:-1])), parts[-1]):
            raise Unauthenticated("TOKEN_INVALID", "the seat token is not valid")
        return claim

    def claim_for(self, token: str | None, game_id: str) -> SeatClaim | None:
        """The caller's claim in ``game_id``; ``None`` for a caller without a token."""
        if token is None:
            return None
        claim = self.verify(token)
        if claim.game_id != game_id:
            raise PermissionDenied("TOKEN_FOR_OTHER_GAME", "this token belongs to another game")
        return claim

    def seat_for(self, token: str | None, game_id: str) -> int | None:
        """The caller's seat in ``game_id``; ``None`` for a caller without a token.
        An admin token holds no seat: refused here (PERMISSION_DENIED ``ADMIN_HOLDS_NO_SEAT``)."""
        claim = self.claim_for(token, game_id)
        if claim is None:
            return None
        if claim.seat is None:
            raise PermissionDenied("ADMIN_HOLDS_NO_SEAT", "the table admin token holds no seat")
        return claim.seat


def bearer_token(metadata: tuple[tuple[str, str | bytes], ...] | None) -> str | None:
    """The token of an ``authorization: Bearer <token>`` header, if any."""
    for key, value in metadata or ():
        if key.lower() == "authorization":
            text = value.decode() if isinstance(value, bytes) else value
            scheme, _, token = text.partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise Unauthenticated(
                    "TOKEN_MALFORMED", "authorization must be 'Bearer <seat token>'"
                )
            return token.strip()
    return None


def load_or_create_secret(path: Path) -> bytes:
    """The embedded default: a random secret kept in the data folder across restarts."""
    if path.exists():
        return path.read_bytes()
    path.parent.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_bytes(32)
    path.write_bytes(secret)
    path.chmod(0o600)
    return secret
