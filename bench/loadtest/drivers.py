"""How a seat is played: through unary calls (the bots' ``play_seat``) or one Play stream.

``unary``: :func:`referee.bots.play_seat` as any bot author would use it (ListLegalMoves,
SubmitMove and a WatchGame stream per seat). ``play``: one bidirectional ``Play`` session
per seat; on every update in which the seat may act, the seat asks for its legal moves,
the bot picks one, and it is submitted on the same stream pinned to the version the moves
were listed at (a conflict just waits for the next update).
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import Protocol

from bench.loadtest.metrics import IN_DOUBT, GameLedger, Metrics
from referee.bots import Bot, play_seat
from referee.client import AsyncSeat, RefereeError
from referee.client.calls import new_move_id
from referee.client.play import AsyncPlay
from referee.v1 import game_pb2
from referee.v1.referee_pb2 import ListLegalMovesResponse

ANSWER_TIMEOUT = 30.0
"""How long a seat whose game is over waits for the answers to its moves in flight."""


class SeatDriver(Protocol):
    async def __call__(
        self,
        seat: AsyncSeat,
        seat_number: int,
        bot: Bot,
        rng: random.Random,
        stop: asyncio.Event,
        ledger: GameLedger,
        metrics: Metrics,
    ) -> game_pb2.View | None: ...


async def unary_seat(
    seat: AsyncSeat,
    seat_number: int,
    bot: Bot,
    rng: random.Random,
    stop: asyncio.Event,
    ledger: GameLedger,
    metrics: Metrics,
) -> game_pb2.View | None:
    """The seat played by ``play_seat``; its SubmitMoves are recorded by the measured stub."""

    def on_move(client_move_id: str, version: int) -> None:
        # The stub saw the answer first; the bot's own report must agree with it.
        acked = ledger.acked.get((seat_number, client_move_id))
        if acked != version:
            ledger.problems.append(
                f"play_seat reported ({seat_number}, {client_move_id}) at v{version}, "
                f"the wire said v{acked}"
            )

    view: game_pb2.View | None = await play_seat(seat, bot, rng=rng, stop=stop, on_move=on_move)
    return view


async def play_stream_seat(
    seat: AsyncSeat,
    seat_number: int,
    bot: Bot,
    rng: random.Random,
    stop: asyncio.Event,
    ledger: GameLedger,
    metrics: Metrics,
) -> game_pb2.View | None:
    """The seat played over one Play session; every answer goes into the ledger.

    A reader takes the updates; an actor decides on the newest one whenever one came since
    its last decision: it lists the legal moves on the stream and, if they are of that
    version, submits the bot's move pinned to it (a conflict or a refusal just waits for
    the next update, which is on its way).
    """
    latest: list[game_pb2.View] = []
    changed = asyncio.Event()
    over = False
    async with seat.play() as session:

        async def actor() -> None:
            while True:
                await changed.wait()
                changed.clear()
                if over:
                    return
                view = latest[-1]
                if not view.HasField("seat") or view.seat not in view.to_act:
                    continue
                legal = await _legal_moves(session, metrics)
                if legal.version != view.version:
                    continue  # the newer update is on its way (or here): decide on that
                move = bot.choose(view, legal.moves, rng) if legal.moves else None
                if move is not None:
                    await _submit(session, move, legal.version, seat_number, ledger, metrics)

        async def reader() -> None:
            nonlocal over
            async for update in session:
                metrics.update_received()
                latest[:] = [update.view]
                if update.view.HasField("outcome"):
                    ledger.finished_seen = True
                    break
                changed.set()
            # Game over. The answer to the move that ended it comes after its update: let
            # the actor hear it (and any other in flight) before the session closes.
            over = True
            changed.set()
            await asyncio.wait_for(tasks[1], ANSWER_TIMEOUT)

        metrics.watch_streams += 1
        tasks = [asyncio.create_task(reader()), asyncio.create_task(actor())]
        stopping = asyncio.create_task(stop.wait())
        try:
            # The reader ends the seat (game over, after the actor); the actor only by failing.
            done, _ = await asyncio.wait([*tasks, stopping], return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                if task is not stopping:
                    task.result()
        finally:
            for task in (*tasks, stopping):
                task.cancel()
            await asyncio.gather(*tasks, stopping, return_exceptions=True)
    return latest[-1] if latest else None


async def _legal_moves(session: AsyncPlay, metrics: Metrics) -> ListLegalMovesResponse:
    started = time.perf_counter()
    try:
        legal = await session.legal_moves()
    except RefereeError as error:
        metrics.failed("Play.legal_moves", _what(error))
        raise
    metrics.answered("Play.legal_moves", time.perf_counter() - started)
    return legal


async def _submit(
    session: AsyncPlay,
    move: game_pb2.Move,
    version: int,
    seat_number: int,
    ledger: GameLedger,
    metrics: Metrics,
) -> None:
    """One move on the stream, pinned to ``version``; refusals are counted, not raised."""
    client_move_id = new_move_id()
    key = (seat_number, client_move_id)
    metrics.move_sent(ledger, key)
    started = time.perf_counter()
    try:
        result = await session.submit(move, client_move_id=client_move_id, expected_version=version)
    except RefereeError as error:
        metrics.failed("Play.submit", _what(error))
        metrics.move_failed(ledger, key, error.code)
        if error.code in IN_DOUBT:
            raise  # the session gave up: the seat cannot go on
        return
    except asyncio.CancelledError:
        ledger.lose_answer(key)
        raise
    metrics.answered("Play.submit", time.perf_counter() - started)
    metrics.move_accepted(ledger, key, result.version, result.duplicate)


def _what(error: RefereeError) -> str:
    code = error.code.name
    return code if error.reason == code else f"{code} {error.reason}"


DRIVERS: dict[str, SeatDriver] = {"unary": unary_seat, "play": play_stream_seat}
