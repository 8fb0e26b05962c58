"""A move's fan-out in process: ``python -m bench.fanout [--repeats 7]``.

What the referee's own Python spends on one live change of a Gang of Four table at four
seats, with no gRPC, Redis or event loop in the measurement: the feed's replay of the
logged move (decode, the engine's apply, the chain link), each seat's projection
(``service.app.watching._live``: the public view once, each seat's body on it) and each
seat's ``PlayResponse`` built and serialised as the Play stream sends it. The table is
played twelve moves in from a fixed seed on the in-memory store (tests/app/in_memory.py).
Each figure is the least CPU time of ``--repeats`` runs of ``--calls`` calls (the least:
what the code costs when nothing else on the machine gets in its way).

These are the pieces issue 29 asked to measure before cutting ("answer bytes, not
objects"): compare them with ``bench.play_stream``'s referee CPU per accepted move to see
which share of a move they are (docs/benchmarks.md, "Issue 29").
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Callable

import msgspec

from referee.v1 import referee_pb2
from service.app import watching
from service.app.referee import Referee
from service.domain import chain, records
from service.edge.translate import update_to_proto
from service.storage.feed import Change
from service.storage.memory import MemoryStore
from service.storage.tables import Table
from tests.app.in_memory import create, default_move, referee_on, writer_on

SEATS = 4


async def _table() -> tuple[Referee, Table]:
    store = MemoryStore()
    writer = writer_on(store)
    referee = referee_on(writer)
    created = await create(referee, "gang_of_four", SEATS)
    table = None
    for _ in range(12):
        table = (await writer.write(created.game_id, default_move())).table
    assert table is not None
    return referee, table


def _pieces(referee: Referee, table: Table) -> dict[str, Callable[[], object]]:
    game = table.game
    mover = min(table.awaited(table.state))
    move = game.default_move(table.state, mover)
    entry = records.encode(
        records.LogEntry(table.version + 1, mover, msgspec.Raw(records.encode(move)), "m", 1.0)
    )

    def replay() -> object:
        logged = records.log_decoder.decode(entry)
        state, _ = game.apply(table.state, logged.seat, table.decode_move(logged.move))
        chain.link(table.head, entry)
        return state

    state, events = game.apply(table.state, mover, move)

    def project() -> object:
        change = Change(table.version + 1, events, state, False, table.head)
        return [watching._live(referee, table, change, seat) for seat in range(SEATS)]

    def send() -> object:
        change = Change(table.version + 1, events, state, False, table.head)
        sent = []
        for seat in range(SEATS):
            response = referee_pb2.PlayResponse()
            response.update.CopyFrom(update_to_proto(watching._live(referee, table, change, seat)))
            sent.append(response.SerializeToString())
        return sent

    return {"feed replay": replay, "project 4 seats": project, "project + send 4 seats": send}


def _least(call: Callable[[], object], calls: int, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        for _ in range(calls):
            call()
        best = min(best, (time.process_time() - start) / calls)
    return best


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--calls", type=int, default=500, help="calls per run")
    parser.add_argument("--repeats", type=int, default=7, help="runs; the least is shown")
    args = parser.parse_args(argv)
    referee, table = asyncio.run(_table())
    for name, call in _pieces(referee, table).items():
        print(f"{name:26s} {1e6 * _least(call, args.calls, args.repeats):8.1f} µs per change")


if __name__ == "__main__":
    main()
