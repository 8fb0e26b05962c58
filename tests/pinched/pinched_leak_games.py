"""Pinched! no-leak games over gRPC: one game played and watched, and what it must show.

:func:`play` plays one game with the :class:`pinched_driver.Driver` while every seat and a
spectator watch the whole game and one more watcher resumes mid-game, then replays the
revealed seed and returns everything received with the truth. :func:`assert_no_leaks`
judges it with :mod:`pinched_leaks`; :func:`assert_no_oracle` checks that the probes named
things lying in different hidden places.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engines.base import replay
from engines.pinched import GAME
from engines.pinched.model import PinchedState
from referee.codecs import CODECS
from referee.v1 import referee_pb2
from tests.pinched.pinched_driver import REFUSED, Driver, Probe, PTable, store
from tests.pinched.pinched_leaks import check
from tests.pinched.pinched_received import Recorder, Viewer
from tests.pinched.pinched_truth import DECK, Events, Tracker, truth_of
from tests.pinched.pinched_view_judge import Report
from tests.service.table import Stub

CODEC = CODECS["pinched"]
MAX_STEPS = 1500
RESUME_AT = 30  # the step after which a late watcher resumes from ten versions back


def seed_for(name: str) -> bytes:
    return hashlib.sha256(f"pinched-no-leaks/{name}".encode()).digest()


@dataclass
class Played:
    seats: int
    seed: bytes
    final_version: int
    recorder: Recorder
    states: list[PinchedState]
    events: list[Events]
    probes: list[Probe]
    rejections: Counter[str]


async def _watch(
    table: PTable,
    viewer: Viewer,
    out: list[referee_pb2.WatchGameResponse],
    started: asyncio.Event,
    after: int | None = None,
) -> None:
    request = referee_pb2.WatchGameRequest(game_id=table.game_id)
    if after is not None:
        request.after_version = after  # resume: the missed versions are replayed first
    stream = table.stub.WatchGame(request, metadata=table.md(viewer))
    started.set()
    async for message in stream:
        out.append(message)


async def play(stub: Stub, seats: int, setup: str, name: str) -> Played:
    seed = seed_for(name)
    rng = random.Random(name)
    table = await PTable.create(stub, seats, seed, setup)
    viewers: list[Viewer] = [None, *range(seats)]
    watched: dict[Viewer, list[referee_pb2.WatchGameResponse]] = {v: [] for v in viewers}
    started = {viewer: asyncio.Event() for viewer in viewers}
    watchers = [asyncio.create_task(_watch(table, v, watched[v], started[v])) for v in viewers]
    resumed: list[tuple[Viewer, int, list[referee_pb2.WatchGameResponse]]] = []
    driver = Driver(table, seats, rng)
    try:
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in started.values())), 10)
        for viewer in viewers:
            driver.view = await driver.get_view(viewer)
        # Every watcher has its snapshot of version 0 before the first move.
        for _ in range(200):
            if all(watched[v] for v in viewers):
                break
            await asyncio.sleep(0.01)
        await driver.history(0)
        number = 0
        while not driver.finished:
            number += 1
            assert number <= MAX_STEPS, "the random game did not end"
            await driver.step(number)
            if number == RESUME_AT and not driver.finished:
                viewer = rng.choice(viewers)
                after = max(0, driver.version - 10)
                out: list[referee_pb2.WatchGameResponse] = []
                resumed.append((viewer, after, out))
                begun = asyncio.Event()
                watchers.append(asyncio.create_task(_watch(table, viewer, out, begun, after)))
                await asyncio.wait_for(begun.wait(), 10)
                for _ in range(200):  # the replayed versions are in before moving on
                    if len(out) >= driver.version - after:
                        break
                    await asyncio.sleep(0.01)
        await asyncio.wait_for(asyncio.gather(*watchers), 30)
    finally:
        for task in watchers:
            task.cancel()
    final = driver.version
    # After the end: a late move is refused (GAME_OVER) and the seed is revealed.
    await driver.refused(0, store(0, 0), [(REFUSED, "GAME_OVER")])
    history = await driver.history(None)
    assert history.seed == seed
    assert hashlib.sha256(history.seed).hexdigest() == table.seed_sha256
    assert [(e.seat, e.move) for e in history.entries] == [
        (done.seat, done.move) for done in driver.accepted
    ]
    config = GAME.make_config(seats, CODEC.options_from_proto(history.setup.options))
    moves = [(e.seat, CODEC.move_from_proto(e.move)) for e in history.entries]
    initial, steps = replay(GAME, config, history.seed, moves)
    states, events = truth_of(initial, steps)
    assert len(states) == final + 1 and states[-1].finished
    for viewer, messages in watched.items():
        assert messages[0].snapshot and messages[0].version == 0
        assert [m.version for m in messages] == list(range(final + 1)), f"watcher {viewer}"
        for message in messages:
            driver.recorder.add(viewer, message.version, "WatchGame", message)
    for viewer, after, messages in resumed:
        assert [m.version for m in messages] == list(range(after + 1, final + 1)), viewer
        assert not any(m.snapshot for m in messages)
        for message in messages:
            driver.recorder.add(viewer, message.version, "WatchGame(resumed)", message)
    return Played(
        seats, seed, final, driver.recorder, states, events, driver.probes, driver.rejections
    )


SOURCES = {
    "GetView",
    "SubmitMove",
    "ListLegalMoves",
    "ValidateMove",
    "WatchGame",
    "WatchGame(resumed)",
    "GetHistory",
}


def assert_no_leaks(played: Played) -> Report:
    report = check(played.recorder.items, played.states, played.seed, played.events)
    assert not report.problems, str(report)
    for viewer in [None, *range(played.seats)]:
        # The watch stream alone brings every viewer a view of every version.
        assert report.views_checked[viewer] >= played.final_version + 1, viewer
    assert report.cards_checked > 500 * played.seats
    assert set(report.sources) >= SOURCES, set(report.sources)
    return report


def happened(events: Sequence[Events], kind: type) -> list[Any]:
    return [event for step in events for event in step if isinstance(event, kind)]


def assert_no_oracle(played: Played) -> Counter[str]:
    """The probes' answers were one per probe (asserted as they came); here: the things
    they named truly lay in different hidden places, so the sameness means something."""
    tracker = Tracker(played.states, played.events)
    covered: Counter[str] = Counter()
    for probe in played.probes:
        places: set[str] = set()
        if probe.kind == "store":
            status = tracker.status(probe.version, None)
            for card in probe.targets:
                where = status[card]
                places.add("deck" if where == DECK else "open" if where < 0 else "another's hand")
        else:
            state = played.states[probe.version]
            held = {c.id: seat for seat, row in enumerate(state.curses) for c in row}
            places |= {"another seat" if c in held else "the pile" for c in probe.targets}
        if len(places) > 1:
            covered[f"{probe.kind}: " + " / ".join(sorted(places))] += 1
    return covered
