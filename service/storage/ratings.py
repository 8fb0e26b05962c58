"""The ratings that follow a player from table to table, in Redis: one hash tag per game.

Every key of one game's ratings carries the hash tag ``{<game>}`` (``ratings:{<game>}:...``),
so the one script that applies a finished table's ratings (``lua/rating_apply.lua``)
touches them all at once, on one Redis Cluster slot:

* ``...:player:<player id>``: a hash of the player's rating (``mu``, ``sigma``), its rated
  games (``games``), when the last one changed it (``at``, Unix ms) and its seat's name then;
* ``...:history:<player id>``: a list of :class:`RatingChange` records, newest first, the
  last :data:`HISTORY_KEPT` kept; the entry at index ``i`` is the player's game number
  ``games - i``, which is what a page of it is asked from (:meth:`RatingStore.history`);
* ``...:board``: the leaderboard, a sorted set of player ids scored by minus their ordinal,
  so that ZRANGE gives the highest ordinal first and equal ordinals by player id;
* ``...:rated:<game id>``: the marker of a finished game whose ratings were applied, kept
  :attr:`RatingStore.marker_ttl_seconds` (longer than a finished game is kept, so a game
  can never be rated twice: a game gone from the store is not rated at all).

The apply is a compare-and-set per player: it is computed from the ratings as read, and
refused (CONFLICT) if any of them changed since (another game of that player was rated
first); the caller reads again and computes again (service.app.rater).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import msgspec
from redis.commands.core import AsyncScript

from service.storage.redis_kit import Client, Outage, as_bytes, script

MU: Final = 25.0
SIGMA: Final = MU / 3
# History entries one player keeps per game (its oldest go first).
HISTORY_KEPT: Final = 1000
_outage: Final = Outage("the rating store", "nothing was applied; try again")


class Skill(msgspec.Struct, frozen=True, array_like=True):
    """An openskill rating; everybody starts at mu 25, sigma 25/3 (ordinal 0)."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """The conservative value leaderboards order by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


class RatingChange(msgspec.Struct, frozen=True, array_like=True):
    """One rated game of a player (ratings.proto ``RatingChange``), as its history keeps it."""

    game_id: str
    at_ms: int
    before: Skill
    after: Skill
    place: int
    seats: int
    seat: int
    tournament_id: str = ""


@dataclass(frozen=True)
class PlayerRating:
    """A player's rating for one game now (``games`` 0: never rated, at the start values)."""

    game: str
    player_id: str
    skill: Skill = field(default_factory=Skill)
    games: int = 0
    updated_ms: int = 0
    name: str = ""


@dataclass(frozen=True)
class Update:
    """One player's part of a finished game's ratings: computed from its rating with
    ``games`` rated games, its new ``skill`` and the history entry that records it.
    ``listed``: shown on the leaderboard (every player but a game's own pseudo-player)."""

    player_id: str
    games: int
    skill: Skill
    name: str
    change: RatingChange
    listed: bool = True


class Applied(enum.Enum):
    OK = "OK"  # written
    DONE = "DONE"  # the game was rated before: nothing written
    CONFLICT = "CONFLICT"  # a player's rating changed since it was read: nothing written


_encode = msgspec.msgpack.Encoder().encode
_decode_change = msgspec.msgpack.Decoder(RatingChange).decode
_FIELDS: Final = ("mu", "sigma", "games", "at", "name")


def _number(value: float) -> str:
    """A float as Redis keeps it: its shortest exact text."""
    return repr(float(value))


class RatingStore:
    """The ratings on a bytes Redis (or Cluster) client shared with its owner."""

    def __init__(
        self,
        client: Client,
        *,
        key_prefix: str = "",
        marker_ttl_seconds: int = 8 * 24 * 3600,
        history_kept: int = HISTORY_KEPT,
    ) -> None:
        if marker_ttl_seconds <= 0 or history_kept <= 0:
            raise ValueError("marker_ttl_seconds and history_kept must be positive")
        self._client = client
        self._prefix = key_prefix
        self.marker_ttl_seconds = marker_ttl_seconds
        self.history_kept = history_kept
        self.on_call: Callable[[str, float], None] | None = None  # metrics, when wanted
        self._apply: AsyncScript = script(client, "rating_apply.lua")
        self._history: AsyncScript = script(client, "rating_history.lua")

    # --- keys ----------------------------------------------------------------------------

    def _base(self, game: str) -> str:
        return f"{self._prefix}ratings:{{{game}}}"

    def player_key(self, game: str, player_id: str) -> str:
        return f"{self._base(game)}:player:{player_id}"

    def history_key(self, game: str, player_id: str) -> str:
        return f"{self._base(game)}:history:{player_id}"

    def board_key(self, game: str) -> str:
        return f"{self._base(game)}:board"

    def marker_key(self, game: str, game_id: str) -> str:
        return f"{self._base(game)}:rated:{game_id}"

    # --- reading -------------------------------------------------------------------------

    def _rating(self, game: str, player_id: str, fields: Sequence[Any]) -> PlayerRating:
        mu, sigma, games, at, name = fields
        if games is None:
            return PlayerRating(game, player_id)
        return PlayerRating(
            game,
            player_id,
            Skill(float(mu), float(sigma)),
            int(games),
            int(at or 0),
            as_bytes(name).decode() if name is not None else "",
        )

    @_outage
    async def ratings(self, game: str, player_ids: Sequence[str]) -> list[PlayerRating]:
        """Each player's rating now, in one round trip (``games`` 0: never rated)."""
        if not player_ids:
            return []
        pipe = self._client.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.hmget(self.player_key(game, player_id), list(_FIELDS))
        replies: list[Any] = await pipe.execute()
        return [
            self._rating(game, player_id, fields)
            for player_id, fields in zip(player_ids, replies, strict=True)
        ]

    async def rating(self, game: str, player_id: str) -> PlayerRating:
        (found,) = await self.ratings(game, [player_id])
        return found

    @_outage
    async def history(
        self, game: str, player_id: str, first: int, count: int
    ) -> tuple[int, list[RatingChange]]:
        """The player's rated games count, and up to ``count`` of its history entries
        newest first, from its game number ``first`` (0: the newest), read at one instant."""
        reply = await self._history(
            keys=[self.player_key(game, player_id), self.history_key(game, player_id)],
            args=[first, count],
        )
        games = int(reply[0])
        return games, [_decode_change(as_bytes(raw)) for raw in reply[1:]]

    @_outage
    async def board(self, game: str, start: int, count: int) -> list[PlayerRating]:
        """Up to ``count`` players of the game's leaderboard from position ``start`` (0:
        the highest ordinal), with their ratings."""
        members = await self._client.zrange(self.board_key(game), start, start + count - 1)
        ids = [as_bytes(member).decode() for member in members]
        return await self.ratings(game, ids)

    @_outage
    async def rated(self, game: str, game_id: str) -> bool:
        """Whether the finished game's ratings were applied (its marker is there)."""
        return bool(await self._client.exists(self.marker_key(game, game_id)))

    # --- writing -------------------------------------------------------------------------

    @_outage
    async def apply(
        self, game: str, game_id: str, updates: Sequence[Update], now_ms: int
    ) -> Applied:
        """Apply a finished game's ``updates`` at once, unless it was rated before (DONE)
        or a player's rating is no longer the one each was computed from (CONFLICT)."""
        if len({update.player_id for update in updates}) != len(updates):
            raise ValueError("one update per player")
        keys = [self.marker_key(game, game_id), self.board_key(game)]
        args: list[Any] = [self.marker_ttl_seconds, self.history_kept, now_ms]
        for update in updates:
            keys += [
                self.player_key(game, update.player_id),
                self.history_key(game, update.player_id),
            ]
            score = _number(-update.skill.ordinal) if update.listed else ""
            args += [
                update.games,
                _number(update.skill.mu),
                _number(update.skill.sigma),
                score,
                update.name,
                _encode(update.change),
                update.player_id,
            ]
        reply = await self._apply(keys=keys, args=args)
        return Applied(as_bytes(reply[0]).decode())
