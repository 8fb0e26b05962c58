"""GetHistory in pages: page sizes, page tokens, and replaying one page's moves.

A page of versions ``first..last`` needs the state and chain head at ``first - 1``: the
log stores moves, not events, so each entry's events come from replaying its move on the
state before it. A process keeps the state and head where each page it served ended
(:class:`Checkpoints`), so a client reading page after page from one referee costs each
call only its own page: one log read of the page's entries, one replay of its moves, one
head per entry. A call that finds no checkpoint (the first page after a restart, a page
served by another replica) replays the game from its seed up to the page's end, which the
table's move limit bounds; a replay longer than a page runs in a worker thread, so the
event loop itself only ever decodes, redacts and answers one page.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from engines.base import Step
from service.domain import chain, records
from service.errors import BadRequest
from service.storage.games import GameStore
from service.storage.tables import Logged, Table

DEFAULT_PAGE_SIZE = 500
MAX_PAGE_SIZE = 1000
CHECKPOINTS = 1024
"""States kept per process where a page ended (a few KB each)."""

_TOKEN_VERSION = 1
_token_decoder = msgspec.msgpack.Decoder(tuple[int, str, int])
_encode = msgspec.msgpack.Encoder().encode


def page_size(requested: int) -> int:
    """The entries a page holds: the default for 0, at most :data:`MAX_PAGE_SIZE`."""
    if requested < 0:
        raise BadRequest("PAGE_SIZE_INVALID", "page_size must not be negative")
    return min(requested or DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)


def page_token(game_id: str, first: int) -> str:
    """The opaque token of the page that starts at version ``first``."""
    raw = _encode((_TOKEN_VERSION, game_id, first))
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def page_start(game_id: str, token: str, version: int) -> int:
    """The first version of the page ``token`` names, for a game now at ``version``.

    A token is not signed: it only says where a page starts, which any caller may ask for
    anyway. Anything that is not a token this referee gave for this game, up to its
    version, is INVALID_ARGUMENT ``PAGE_TOKEN_INVALID``.
    """
    try:
        padded = token + "=" * (-len(token) % 4)
        kind, named, first = _token_decoder.decode(base64.urlsafe_b64decode(padded))
    except (binascii.Error, ValueError, msgspec.DecodeError):
        kind, named, first = 0, "", 0
    if kind != _TOKEN_VERSION or named != game_id or not 1 <= first <= version:
        raise BadRequest("PAGE_TOKEN_INVALID", "page_token is not one this game's history gave")
    return first


@dataclass(frozen=True)
class Point:
    """A game's state and chain head at one version."""

    state: Any
    head: str


class Checkpoints:
    """The last :data:`CHECKPOINTS` page ends this process served, least recent first out.

    Keyed by the game's seed commitment too, so a game id used again never finds another
    game's state. A log never changes once written, so an entry never goes stale.
    """

    def __init__(self, size: int = CHECKPOINTS) -> None:
        self._points: OrderedDict[tuple[str, str, int], Point] = OrderedDict()
        self._size = size

    def get(self, table: Table, version: int) -> Point | None:
        if version == 0:
            return Point(table.game.new_game(table.config, table.meta.seed), table.meta.seed_sha256)
        key = (table.game_id, table.meta.seed_sha256, version)
        point = self._points.get(key)
        if point is not None:
            self._points.move_to_end(key)
        return point

    def put(self, table: Table, version: int, point: Point) -> None:
        self._points[(table.game_id, table.meta.seed_sha256, version)] = point
        while len(self._points) > self._size:
            self._points.popitem(last=False)


Paged = list[tuple[Logged, Step[Any, Any, Any]]]


async def page_steps(
    store: GameStore, table: Table, first: int, last: int, checkpoints: Checkpoints
) -> Paged:
    """The logged entries of versions ``first..last`` and their replayed steps."""
    if last < first:
        return []
    start = checkpoints.get(table, first - 1)
    origin = first - 1 if start is not None else 0
    if start is None:
        start = checkpoints.get(table, 0)
        assert start is not None
    raw = await store.log(table.game_id, origin, last - 1)
    skip = first - 1 - origin
    if skip > 0:  # a replay from the seed, longer than the page: off the event loop
        paged, end = await asyncio.to_thread(_replay, table, start, raw, skip)
    else:
        paged, end = _replay(table, start, raw, 0)
    checkpoints.put(table, last, end)
    return paged


def _replay(table: Table, start: Point, raw: Sequence[bytes], skip: int) -> tuple[Paged, Point]:
    """Apply ``raw``'s moves from ``start``; the steps after the first ``skip`` of them, and
    the point after the last."""
    game = table.game
    state, head = start.state, start.head
    paged: Paged = []
    for index, item in enumerate(raw):
        entry = records.log_decoder.decode(item)
        move = table.decode_move(entry.move)
        state, events = game.apply(state, entry.seat, move)
        head = chain.link(head, item)
        if index >= skip:
            step = Step(entry.version, entry.seat, move, events, state)
            paged.append((Logged(item, entry, head), step))
    return paged, Point(state, head)
