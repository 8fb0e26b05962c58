"""RatingService's use cases: a player's rating, its history and a game's leaderboard.

Everything here is public and read-only; each call spends the caller's
``rating_reads_per_second`` (service.app.limits, at the edge). Requests are checked before
any read: the game by its published name (``GAME_UNKNOWN``), the player id as JoinGame
checks one, but never empty (``PLAYER_ID_INVALID``), the page token (``PAGE_TOKEN_INVALID``).

**Page tokens** are ``<position>.<mac>``: the position the next page starts from and an
HMAC of it with the listing it belongs to (the leaderboard of a game, or one player's
history of a game), keyed by the referee's token secret, so a token is good only for the
listing that gave it and a client cannot make up a position. A history's position is a game
number of the player's (the count of its rated games when that game was rated), which does
not move when newer games are rated; a leaderboard's is a rank, since a leaderboard moves
under its readers anyway.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from typing import Final

import grpc

from engines.registry import GAMES
from service.domain import hosting
from service.errors import BadRequest, RefereeError, echo
from service.storage.ratings import PlayerRating, RatingChange, RatingStore

DEFAULT_PAGE: Final = 20
MAX_PAGE: Final = 100
# The deepest leaderboard position a page may start at (a token's is checked anyway).
MAX_POSITION: Final = 10**9
_MAC_BYTES: Final = 12


class RatingNotFound(RefereeError):
    code = grpc.StatusCode.NOT_FOUND

    def __init__(self, game: str, player_id: str) -> None:
        super().__init__(
            "RATING_NOT_FOUND", f"{echo(player_id)} has never been rated in {echo(game)}"
        )


def page_size(asked: int) -> int:
    """0 (or less) means :data:`DEFAULT_PAGE`; more than :data:`MAX_PAGE` means that."""
    return DEFAULT_PAGE if asked <= 0 else min(asked, MAX_PAGE)


def check_game(game: str) -> str:
    if game not in GAMES:
        raise BadRequest(
            "GAME_UNKNOWN", f"unknown game {echo(game)}; known: {', '.join(sorted(GAMES))}"
        )
    return game


def check_player_id(player_id: str) -> str:
    return hosting.check_text(
        player_id,
        hosting.MAX_PLAYER_ID_CHARACTERS,
        "PLAYER_ID_INVALID",
        "player id",
        empty=False,
    )


class PageTokens:
    """Signs and checks the page tokens of every listing (see the module)."""

    def __init__(self, secret: bytes) -> None:
        self._key = hashlib.sha256(b"referee: rating page tokens\0" + secret).digest()

    def _mac(self, listing: str, position: int) -> str:
        message = f"{listing}\0{position}".encode()
        return hmac.new(self._key, message, hashlib.sha256).hexdigest()[: _MAC_BYTES * 2]

    def issue(self, listing: str, position: int) -> str:
        return f"{position}.{self._mac(listing, position)}"

    def position(self, listing: str, token: str) -> int:
        """The position ``token`` stands for in ``listing`` (0: no token, the first page)."""
        if not token:
            return 0
        number, _, mac = token.partition(".")
        valid = (
            len(token) <= 64
            and number.isascii()
            and number.isdigit()
            and len(number) <= 10
            and 0 < int(number) <= MAX_POSITION
            and hmac.compare_digest(mac, self._mac(listing, int(number)))
        )
        if not valid:
            raise BadRequest(
                "PAGE_TOKEN_INVALID", "this page_token is not the next_page_token of this listing"
            )
        return int(number)


@dataclass(frozen=True)
class HistoryPage:
    changes: list[RatingChange]
    next_page_token: str


@dataclass(frozen=True)
class BoardPage:
    """Players from ``first_rank`` (1-based) on, and the next page's token."""

    first_rank: int
    ratings: list[PlayerRating]
    next_page_token: str


def _history_listing(game: str, player_id: str) -> str:
    return f"history\0{game}\0{player_id}"


def _board_listing(game: str) -> str:
    return f"board\0{game}"


class Ratings:
    """The reads of the rating store (see the module)."""

    def __init__(self, store: RatingStore, secret: bytes) -> None:
        self.store = store
        self.tokens = PageTokens(secret)

    async def rating(self, game: str, player_id: str) -> PlayerRating:
        game, player_id = check_game(game), check_player_id(player_id)
        found = await self.store.rating(game, player_id)
        if not found.games:
            raise RatingNotFound(game, player_id)
        return found

    async def history(self, game: str, player_id: str, size: int, token: str) -> HistoryPage:
        game, player_id = check_game(game), check_player_id(player_id)
        listing = _history_listing(game, player_id)
        first = self.tokens.position(listing, token)
        games, changes = await self.store.history(game, player_id, first, page_size(size) + 1)
        if not games:
            raise RatingNotFound(game, player_id)
        shown = changes[: page_size(size)]
        from_number = first or games
        next_number = from_number - len(shown)
        more = len(changes) > len(shown) and next_number > 0
        return HistoryPage(shown, self.tokens.issue(listing, next_number) if more else "")

    async def leaderboard(self, game: str, size: int, token: str) -> BoardPage:
        game = check_game(game)
        listing = _board_listing(game)
        start = self.tokens.position(listing, token)
        count = page_size(size)
        found = await self.store.board(game, start, count + 1)
        shown = found[:count]
        more = len(found) > count and start + count < MAX_POSITION
        next_token = self.tokens.issue(listing, start + count) if more else ""
        return BoardPage(start + 1, shown, next_token)
