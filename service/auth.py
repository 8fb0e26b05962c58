"""Seat tokens: HMAC-SHA256 signed, scoped to one game and one seat.

Format: ``v1.<game_id>.<seat>.<signature>`` where the signature is the unpadded base64url
HMAC-SHA256 of ``"v1.<game_id>.<seat>"`` under the server secret. Tokens carry no expiry:
they are as long-lived as the game they belong to, which expires on its own.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from pathlib import Path

from service.errors import PermissionDenied, Unauthenticated

PREFIX = "v1"


@dataclass(frozen=True)
class SeatClaim:
    game_id: str
    seat: int


class TokenSigner:
    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the token secret must be at least 16 bytes")
        self._secret = secret

    def _sign(self, payload: str) -> str:
        mac = hmac.new(self._secret, payload.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()

    def issue(self, game_id: str, seat: int) -> str:
        payload = f"{PREFIX}.{game_id}.{seat}"
        return f"{payload}.{self._sign(payload)}"

    def verify(self, token: str) -> SeatClaim:
        """The claim of a well-signed token; UNAUTHENTICATED otherwise."""
        parts = token.split(".")
        if len(parts) != 4 or parts[0] != PREFIX or not parts[2].isdigit():
            raise Unauthenticated("TOKEN_MALFORMED", "the seat token is malformed")
        payload = ".".join(parts[:3])
        if not hmac.compare_digest(self._sign(payload), parts[3]):
            raise Unauthenticated("TOKEN_INVALID", "the seat token is not valid")
        return SeatClaim(parts[1], int(parts[2]))

    def seat_for(self, token: str | None, game_id: str) -> int | None:
        """The caller's seat in ``game_id``; ``None`` for a caller without a token."""
        if token is None:
            return None
        claim = self.verify(token)
        if claim.game_id != game_id:
            raise PermissionDenied("TOKEN_FOR_OTHER_GAME", "this token belongs to another game")
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
