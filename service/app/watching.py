"""A watch's updates, for WatchGame and Play: a snapshot or the versions after the
client's (replayed from the log), then every live change the feed publishes, each as the
viewer may see it, with its clocks; a seated viewer holds its seat's presence meanwhile.

The post-game reveal (:func:`revealed_updates`, WatchGame's ``revealed``) is a watch of a
game that is over: the same snapshot or replay, each view the game's revealed view."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from typing import Protocol

from service.app.views import SeatView, Update, project, redact_events, seen_events, with_seat
from service.domain import chain, hosting, records
from service.storage import presence
from service.storage.feed import Change, Feed
from service.storage.games import GameStore
from service.storage.tables import Table

# Log entries a watch reads and replays per step when it catches up (see _replayed).
REPLAY_BATCH = 200


class Watched(Protocol):
    """What a watch needs of the referee: its store and feed, and the clocks of a view."""

    @property
    def store(self) -> GameStore: ...

    @property
    def feed(self) -> Feed: ...

    def clocked(self, view: SeatView, table: Table) -> SeatView: ...


async def updates(
    referee: Watched, table: Table, viewer: int | None, after_version: int | None
) -> AsyncIterator[Update]:
    """The watch's updates; a seated viewer holds its seat's presence meanwhile."""
    if viewer is None or not hosting.tracks_presence(table.hosting):
        async for update in _followed(referee, table, viewer, after_version):
            yield update
        return
    async with presence.holding(referee.feed.store, table.game_id, viewer):
        async for update in _followed(referee, table, viewer, after_version):
            yield update


async def revealed_updates(
    referee: Watched, table: Table, after_version: int | None
) -> AsyncIterator[Update]:
    """The post-game reveal of ``table``, whose history is public (the caller checked): a
    revealed snapshot, or each version after ``after_version`` revealed, with every event.
    Nothing live follows (the game is over), so it needs no feed and holds no presence."""
    version = table.version
    if after_version is None:
        view = project(table, table.state, version, None, table.head, revealed=True)
        yield Update(version, [], referee.clocked(view, table), True)
    elif after_version < version:
        async for update in _replayed(referee, table, None, after_version, version, revealed=True):
            yield update


async def _followed(
    referee: Watched, table: Table, viewer: int | None, after_version: int | None
) -> AsyncIterator[Update]:
    # The token's generation: the caller's claim was checked against this very record.
    generation = None if viewer is None else table.hosting.seats[viewer].generation
    async with referee.feed.subscribe(table) as subscription:
        if subscription.version > table.version:  # moves landed since our load
            table = dataclasses.replace(
                table,
                version=subscription.version,
                state=subscription.state,
                head=subscription.head,
                clock=subscription.clock,
            )
        newer = subscription.table
        if newer is not None and newer.host_version > table.host_version:
            table = _rehosted(table, newer, viewer, generation)
        version = table.version
        if after_version is None:
            view = referee.clocked(project(table, table.state, version, viewer, table.head), table)
            yield Update(version, [], view, True)
        elif after_version < version:  # the versions after the client's, then live
            async for update in _replayed(referee, table, viewer, after_version, version):
                yield update
        if table.finished or table.hosting.status == records.TABLE_ABORTED:
            return
        async for change in subscription:
            if change.table is not None:
                table = _rehosted(table, change.table, viewer, generation)
            if change.version < version or (change.version == version and not change.table):
                continue
            if not change.snapshot and change.version > version + 1:
                async for update in _replayed(referee, table, viewer, version, change.version - 1):
                    yield update
            update = _live(referee, table, change, viewer)
            yield update
            version = change.version
            if update.view.outcome is not None or table.hosting.status == records.TABLE_ABORTED:
                return


def _live(referee: Watched, table: Table, change: Change, viewer: int | None) -> Update:
    """``viewer``'s update of a live ``change``, built once per change for every subscriber
    of that viewer on the same hosting record and presence (the projection depends on
    nothing else: the game's rules and seed are the channel's), then shared."""
    key = (viewer, table.host_version, table.present)
    shared: Update | None = change.views.get(key)
    if shared is not None:
        return shared
    public = _public(referee, table, change)
    over = public.outcome is not None
    events = [] if change.snapshot else seen_events(table, change.events, viewer, over=over)
    view = public if viewer is None else with_seat(public, table.game, change.state, viewer)
    update = change.views[key] = Update(change.version, events, view, change.snapshot)
    return update


def _public(referee: Watched, table: Table, change: Change) -> SeatView:
    """The spectators' view of ``change``, clocked: what every viewer's view shares (all
    but the seat's own body), projected once per change, hosting record and presence."""
    key = (_PUBLIC, table.host_version, table.present)
    public: SeatView | None = change.views.get(key)
    if public is None:
        at = dataclasses.replace(
            table, version=change.version, state=change.state, head=change.head, clock=change.clock
        )
        view = project(at, change.state, change.version, None, change.head)
        public = change.views[key] = referee.clocked(view, at)
    return public


_PUBLIC = object()
"""The key of a change's spectator view among its per-viewer updates (see _public)."""


async def _replayed(
    referee: Watched,
    table: Table,
    viewer: int | None,
    after: int,
    upto: int,
    *,
    revealed: bool = False,
) -> AsyncIterator[Update]:
    """Updates for versions ``after+1..upto``, recomputed from the seed and the log.

    The log is read and replayed :data:`REPLAY_BATCH` entries at a time, giving the
    loop back between batches, so a long game (a watch from version 0 of 20,000 moves)
    holds the loop for one batch at a time, never for the whole replay.

    Replayed from a finished game (``table`` is over), every update carries every
    event, as GetHistory does; replayed before the end, they are redacted. ``revealed``:
    each view is the post-game reveal of its version (the caller checked the game is over).
    """
    public = table.finished or revealed
    state = table.game.new_game(table.config, table.meta.seed)
    head = table.meta.seed_sha256
    for start in range(0, upto, REPLAY_BATCH):
        raw = await referee.store.log(table.game_id, start, min(start + REPLAY_BATCH, upto) - 1)
        for version, item in enumerate(raw, start=start + 1):
            entry = records.log_decoder.decode(item)
            state, events = table.game.apply(state, entry.seat, table.decode_move(entry.move))
            head = chain.link(head, item)
            if version > after:
                seen = list(events) if public else redact_events(table, events, viewer)
                view = project(table, state, version, viewer, head, revealed=revealed)
                yield Update(version, seen, view, False)
        if len(raw) < REPLAY_BATCH:
            return
        await asyncio.sleep(0)  # the next batch after other requests had their turn


def _rehosted(table: Table, newer: Table, viewer: int | None, generation: int | None) -> Table:
    """``table`` with the hosting record (and presence) of ``newer``, a later load.

    A seated viewer's token must still hold its seat there (``generation``): a token
    reissued, left or handed to a bot ends the watch with TOKEN_REVOKED, as it ends every
    other call of that token, before the stream shows the seat's cards to its old holder
    or keeps the seat present for them."""
    if viewer is not None and generation is not None:
        hosting.check_generation(newer.hosting, viewer, generation)
    return dataclasses.replace(
        table,
        hosting=newer.hosting,
        host_version=newer.host_version,
        present=newer.present,
    )
