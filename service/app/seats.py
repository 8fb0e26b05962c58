"""Who is calling: a caller's token checked against a table, for every use case.

A token is signed for one game (service.domain.auth) and, for a seat, carries the seat's
generation, checked against the hosting record loaded with the table (no round trip): a
reissued token retires the old one at once.
"""

from __future__ import annotations

import structlog

from service.domain import hosting
from service.domain.auth import SeatClaim, TokenSigner
from service.errors import PermissionDenied, Unauthenticated
from service.storage.tables import Table


def claim(signer: TokenSigner, table: Table, token: str | None) -> SeatClaim | None:
    """The caller's token checked against the table: its game, its seat, and its
    generation (None: no token)."""
    found = signer.claim_for(token, table.game_id)
    if found is None:
        return None
    if found.seat is not None and not 0 <= found.seat < table.meta.seats:
        raise PermissionDenied("SEAT_NOT_AT_TABLE", f"there is no seat {found.seat} at this table")
    hosting.check_generation(table.hosting, found.seat, found.generation)
    return found


def viewer(signer: TokenSigner, table: Table, token: str | None) -> int | None:
    """The caller's seat, or None for an allowed spectator (the table admin always
    watches as one)."""
    found = claim(signer, table, token)
    seat = None if found is None else found.seat
    structlog.contextvars.bind_contextvars(seat=seat)
    if found is None and not table.meta.allow_spectators:
        raise Unauthenticated("TOKEN_MISSING", "this game has no spectators; send your seat token")
    return seat


def seat(signer: TokenSigner, table: Table, token: str | None) -> int:
    """The caller's seat; refused for a spectator or the table admin."""
    if token is None:
        raise Unauthenticated("TOKEN_MISSING", "send your seat token to act")
    held = viewer(signer, table, token)
    if held is None:
        raise PermissionDenied("ADMIN_HOLDS_NO_SEAT", "the table admin token holds no seat")
    return held


def holder(signer: TokenSigner, table: Table, token: str | None) -> SeatClaim:
    """The claim of a caller who must send a token (the table admin's or a seat's)."""
    if token is None:
        raise Unauthenticated("TOKEN_MISSING", "send the table admin token or a seat token")
    found = claim(signer, table, token)
    assert found is not None
    return found


def admin(signer: TokenSigner, table: Table, token: str | None) -> None:
    """Refuse anybody but the table admin."""
    if not holder(signer, table, token).admin:
        raise PermissionDenied("ADMIN_TOKEN_REQUIRED", "this needs the table admin token")
