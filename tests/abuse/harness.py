"""The victim's side of every abuse test: a well-behaved client, measured before and during.

An abuse test starts `referee serve` as its own process, runs the attack in other
processes (:func:`attacking`) and lets :class:`Victim` play a Gang of Four table on it,
timing its GetView and SubmitMove calls in alternating windows with the attackers held
(the unloaded figure) and attacking (:func:`compare`). :func:`check_unhurt` asserts the
victim's p50 of each call stayed within :data:`FACTOR` times its unloaded p50 and records
both p50 and p99 — a ratio within one test, never an absolute time, because absolute
times depend on the machine.

The attackers run as separate processes at a lower CPU priority (``os.nice``): on a real
deployment the attacker's own CPU is not the referee's, and on a 2-core test machine an
attacker's client-side work would otherwise be measured as the referee's slowness. What
the figure measures is what the referee does with the attacker's traffic.

Each attack is a function ``attack(served, stop) -> dict`` in its test module (module
level, so a spawned process can import it): it attacks until ``stop`` is set and returns
what it saw (``attempts``, ``refusals`` by reason, anything else worth reporting). Figures
are appended as JSON lines to the file named by ``REFEREE_ABUSE_FIGURES``, when set, for
docs/security.md (``scripts/abuse_figures.py`` turns them into its table).
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from multiprocessing.synchronize import Event
from typing import Any, Protocol

import grpc

from referee.v1 import game_pb2, referee_pb2, referee_pb2_grpc
from tests.servers import Served

FACTOR = 3.0
# Calls of each kind per measurement: p99 is then the 4th-slowest of 400, not one outlier.
CALLS = 400
# Calls made and dropped first: a fresh channel's and table's first calls are slower.
WARM_UP = 20
# Windows of each kind in one comparison, and the calls dropped when a window starts.
ROUNDS = 4
SETTLE = 3


class Stop(Protocol):
    """What an attack polls to know it should end (a multiprocessing or threading Event)."""

    def is_set(self) -> bool: ...


class Deadline:
    """A :class:`Stop` that is set once ``seconds`` have passed (an attack on its own)."""

    def __init__(self, seconds: float) -> None:
        self._end = time.monotonic() + seconds

    def is_set(self) -> bool:
        return time.monotonic() >= self._end


Attack = Callable[[Served, Stop], dict[str, Any]]

# Calls per second each attacker process sends beside the victim. One referee process
# answers every call, refusals included, on its one event loop: refusing a few thousand a
# second takes all of its core, and a flood past that slows every caller whatever it is
# refused with. That is what the proxy's per-address limit in front (deploy/envoy.yaml) and
# more replicas are for; the figure here is how the referee treats a flood it can absorb.
ATTACK_RATE = 300.0


class Pace:
    """Spaces one attacker process's calls to ``rate`` a second over all its workers."""

    def __init__(self, rate: float = ATTACK_RATE) -> None:
        self._interval = 1.0 / rate
        self._next = time.monotonic()

    def delay(self) -> float:
        """Seconds to wait before the next call (0 when it is late already)."""
        now = time.monotonic()
        slot = max(self._next, now)
        self._next = slot + self._interval
        return slot - now


@dataclass(frozen=True)
class Figures:
    """Latencies of one measurement, in milliseconds."""

    get_view: list[float]
    submit_move: list[float]

    def extend(self, other: Figures) -> None:
        self.get_view.extend(other.get_view)
        self.submit_move.extend(other.submit_move)

    @staticmethod
    def percentile(values: list[float], q: int) -> float:
        return statistics.quantiles(values, n=100, method="inclusive")[q - 1]

    def summary(self) -> dict[str, float]:
        """p50, p95 and p99 of each call (p95: issue 33's bar for the verify floods)."""
        return {
            f"{name}_p{q}": round(self.percentile(values, q), 3)
            for name, values in (("get_view", self.get_view), ("submit_move", self.submit_move))
            for q in (50, 95, 99)
        }


Metadata = tuple[tuple[str, str | bytes], ...]


def metadata(token: str | None = None, key: str | None = None) -> Metadata:
    """A call's metadata: the seat token, and the operator key when one is given."""
    pairs: Metadata = () if token is None else (("authorization", f"Bearer {token}"),)
    return pairs if key is None else (*pairs, ("x-referee-key", key))


class Victim:
    """A client minding its own table: Gang of Four, 4 seats, the first listed move each time.

    ``key`` is the operator key it creates its tables with (and sends on every call), so
    that a per-address quota an attacker exhausts on loopback is not the victim's.
    """

    def __init__(self, target: str, key: str | None = None) -> None:
        self._channel = grpc.insecure_channel(target)
        self._stub = referee_pb2_grpc.RefereeServiceStub(self._channel)
        self._key = key
        self._game_id = ""
        self._tokens: list[str] = []

    def __enter__(self) -> Victim:
        self._new_table()
        self.measure(WARM_UP)
        return self

    def __exit__(self, *_: object) -> None:
        self._channel.close()

    def _new_table(self) -> None:
        created = self._stub.CreateGame(
            referee_pb2.CreateGameRequest(game="gang_of_four", seats=4),
            metadata=metadata(key=self._key),
            timeout=10,
        )
        self._game_id = created.game_id
        self._tokens = [seat.token for seat in created.seat_tokens]

    def _view(self, seat: int) -> tuple[game_pb2.View, float]:
        started = time.perf_counter()
        reply = self._stub.GetView(
            referee_pb2.GetViewRequest(game_id=self._game_id),
            metadata=metadata(self._tokens[seat], self._key),
            timeout=10,
        )
        return reply.view, (time.perf_counter() - started) * 1000

    def _step(self, figures: Figures) -> None:
        """One GetView and one SubmitMove of the seat to act, both timed."""
        view, took = self._view(0)
        if view.HasField("outcome") or not view.to_act:
            self._new_table()
            return
        figures.get_view.append(took)
        seat = view.to_act[0]
        auth = metadata(self._tokens[seat], self._key)
        legal = self._stub.ListLegalMoves(
            referee_pb2.ListLegalMovesRequest(game_id=self._game_id), metadata=auth, timeout=10
        )
        request = referee_pb2.SubmitMoveRequest(
            game_id=self._game_id,
            move=legal.moves[0],
            expected_version=legal.version,
            client_move_id=os.urandom(8).hex(),
        )
        started = time.perf_counter()
        self._stub.SubmitMove(request, metadata=auth, timeout=10)
        figures.submit_move.append((time.perf_counter() - started) * 1000)

    def measure(self, calls: int = CALLS) -> Figures:
        """``calls`` timed GetView and SubmitMove calls each (a new table when one ends)."""
        figures = Figures([], [])
        while len(figures.submit_move) < calls:
            self._step(figures)
        return figures


class _Gate:
    """An attack's :class:`Stop` in its process: it holds the attack while the victim
    measures unloaded (``go`` clear), says so once per pause (``paused``), and is set
    for good once the attack must end."""

    def __init__(self, stop: Event, go: Event, paused: Any) -> None:
        self._stop, self._go, self._paused = stop, go, paused

    def is_set(self) -> bool:
        if not self._go.is_set() and not self._stop.is_set():
            self._paused.release()
            while not self._go.wait(0.05) and not self._stop.is_set():
                pass
        return self._stop.is_set()


@dataclass
class Attacking:
    """Attacker processes under way; ``results`` holds what each returned, once stopped."""

    stop: Event
    go: Event
    paused: Any
    processes: list[Any]
    max_seconds: float
    results: list[dict[str, Any]] = field(default_factory=list)

    def alive(self) -> bool:
        return all(process.is_alive() for process in self.processes)

    def pause(self) -> None:
        """Hold every attacker and wait until each has stopped sending."""
        self.go.clear()
        for _ in self.processes:
            assert self.paused.acquire(timeout=self.max_seconds), "an attacker did not pause"

    def resume(self) -> None:
        self.go.set()


def _attacker(attack: Attack, served: Served, gate: tuple[Event, Event, Any], out: Any) -> None:
    os.nice(10)
    out.put(attack(served, _Gate(*gate)))


@contextlib.contextmanager
def attacking(
    attack: Attack, served: Served, processes: int = 1, max_seconds: float = 60.0
) -> Iterator[Attacking]:
    """Run ``attack`` in ``processes`` spawned processes until the block ends.

    The block starts once every attacker process is running and held at its first
    ``stop.is_set()`` (see :func:`compare`, which lets them go and holds them in turn); on
    exit the attackers are told to stop and their results collected (each must return
    within ``max_seconds``).
    """
    context = multiprocessing.get_context("spawn")
    stop, go, paused, out = context.Event(), context.Event(), context.Semaphore(0), context.Queue()
    running = Attacking(stop, go, paused, [], max_seconds)
    for _ in range(processes):
        process = context.Process(target=_attacker, args=(attack, served, (stop, go, paused), out))
        process.start()
        running.processes.append(process)
    try:
        for _ in range(processes):
            assert paused.acquire(timeout=max_seconds), "an attacker did not start"
        yield running
        stop.set()
        running.results = [out.get(timeout=max_seconds) for _ in running.processes]
    finally:
        stop.set()
        for process in running.processes:
            process.join(max_seconds)
            if process.is_alive():
                process.kill()


def compare(
    victim: Victim, attack: Attacking, rounds: int = ROUNDS, calls: int = CALLS
) -> tuple[Figures, Figures]:
    """The victim's figures unloaded and under ``attack``, in alternating windows.

    Each of ``rounds`` rounds measures ``calls // rounds`` calls with the attackers held,
    then as many while they attack (each window after a few dropped calls, so no call
    straddles the switch). Alternating puts the same background load of the machine in
    both figures, so what differs is the attack.
    """
    before, during = Figures([], []), Figures([], [])
    for _ in range(rounds):
        victim.measure(SETTLE)
        before.extend(victim.measure(calls // rounds))
        attack.resume()
        victim.measure(SETTLE)
        during.extend(victim.measure(calls // rounds))
        assert attack.alive(), "an attacker ended before the victim's measurement did"
        attack.pause()
    return before, during


def merged(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The attackers' results summed: counts add up, refusals by reason too."""
    total: dict[str, Any] = {}
    for result in results:
        for name, value in result.items():
            if isinstance(value, dict):
                bucket = total.setdefault(name, {})
                for reason, count in value.items():
                    bucket[reason] = bucket.get(reason, 0) + count
            elif isinstance(value, int | float):
                total[name] = total.get(name, 0) + value
            else:
                total[name] = value
    return total


def record(attack: str, before: Figures, during: Figures, seen: dict[str, Any]) -> dict[str, Any]:
    """The attack's row of figures, appended to REFEREE_ABUSE_FIGURES when it names a file."""
    row = {"attack": attack, "before": before.summary(), "during": during.summary(), **seen}
    if path := os.environ.get("REFEREE_ABUSE_FIGURES"):
        with open(path, "a", encoding="utf-8") as figures_file:
            figures_file.write(json.dumps(row) + "\n")
    return row


def check_unhurt(attack: str, before: Figures, during: Figures, seen: dict[str, Any]) -> None:
    """Record the figures, then assert the victim's p50s stayed within FACTOR of unloaded.

    The p99s are recorded (docs/security.md), not asserted: on the 2-core test machine the
    p99 of 400 calls of a 2 ms call swings from 2 to 5 times its unloaded figure with the
    machine's own noise (one scheduling delay or collection decides it), so a p99 bar
    there fails runs whatever the attack does; the p50 holds with room at every attack.
    """
    row = record(attack, before, during, seen)
    for name in ("get_view", "submit_move"):
        unloaded, loaded = before.summary()[f"{name}_p50"], during.summary()[f"{name}_p50"]
        assert loaded <= FACTOR * unloaded, (
            f"{attack}: the victim's {name} p50 went from {unloaded} ms to {loaded} ms "
            f"(more than {FACTOR}x) — {row}"
        )
