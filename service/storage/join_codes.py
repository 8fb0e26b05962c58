"""A table's join code: one-time codes (service.storage.seat_codes, kind ``table-seat``)
that stay good for one join per open seat until the table leaves the open state.

The code's key (its digest only) is kept beside the game, so the table writer can spend
it once the table starts, fills up or is aborted, without knowing the code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from service.storage.redis_kit import Client, Outage, as_bytes
from service.storage.seat_codes import Issued, SeatCodes

CODE_KIND: Final = "table-seat"
_outage: Final = Outage("the lobby", "nothing was changed; try again")


class JoinCodes:
    """Join codes on a bytes Redis client; ``game_key`` names a game's hash, beside
    which each table's code key is kept."""

    def __init__(
        self,
        client: Client,
        game_key: Callable[[str], str],
        *,
        ttl_seconds: int,
        attempts_per_minute: int,
    ) -> None:
        self.codes = SeatCodes(client, kind=CODE_KIND, attempts_per_minute=attempts_per_minute)
        self.ttl_seconds = ttl_seconds
        self._client = client
        self._game_key = game_key
        self.on_call: Callable[[str, float], None] | None = None  # metrics, when wanted

    def _code_key_key(self, game_id: str) -> str:
        return f"{self._game_key(game_id)}:joincode"

    @_outage
    async def issue(self, game_id: str) -> Issued:
        """A new join code for the open table ``game_id``."""
        issued = await self.codes.issue(game_id.encode(), self.ttl_seconds)
        canonical = issued.code.replace("-", "")
        await self._client.set(
            self._code_key_key(game_id), self.codes.key(canonical), ex=self.ttl_seconds
        )
        return issued

    @_outage
    async def spend(self, game_id: str) -> None:
        """Spend the table's code for good (none: nothing to do)."""
        key = await self._client.getdel(self._code_key_key(game_id))
        if key is not None:
            await self.codes.revoke(as_bytes(key).decode())
