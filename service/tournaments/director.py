"""The director: one asyncio task that plays a tournament through, round by round.

It lives in the process that started the tournament (or resumed it) and keeps nothing of
its own: every step reads the stored record and writes by compare-and-set
(:meth:`TournamentStore.update` with a pure transition of :mod:`rounds`), so a second
director on the same tournament, or a crash between steps, never corrupts it.

Per round: create each table's game, then play all tables at once: every bot seat is an
asyncio task playing through the public gRPC API with its seat token
(:func:`referee.bots.play_seat`), and every table is followed as a spectator until the game
has an outcome; its final result is then scored and recorded. The last table recorded
closes the round and pairs the next. The director reaches games only through the
:class:`~service.app.referee.Referee` use cases (``create_game``, ``seat_token``, ``watch``,
``final_result``, ``discard_game``), never the game store.

One director at a time: a director directs only while it holds the tournament's lease in
Redis (taken when free, renewed every third of ``LEASE_MS``). A second process asked to
start the tournament waits as a standby and takes over when the first stops renewing (its
process died or stopped), so bots never play the same seats twice. Each claim also moves
the tournament's due time in the store's running index to the lease's end, which is how
every referee's takeover pass (:meth:`TournamentHost.take_over
<service.tournaments.host.TournamentHost.take_over>`) finds the tournaments nobody directs.

Stopping (server shutdown) cancels the bots and the watches. A game whose bot was stopped
simply waits for that seat's move: nothing is half-written, and a director started later
(StartTournament again, or any referee's takeover pass once the lease has lapsed) plays
on from the stored version.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import random
import time
import uuid
from typing import Any, Protocol

import structlog

from referee.bots import Bot, ThinkingBot, play_seat
from referee.client import AsyncRefereeClient
from referee.codecs import CODECS
from referee.v1 import game_pb2
from service.app import rating_math
from service.app.referee import RatedTable, Referee
from service.domain import clocks
from service.edge import clock_proto
from service.errors import Unavailable
from service.tournaments import rounds, scoring
from service.tournaments.model import Participant, Status, Table, Tournament
from service.tournaments.store import TournamentStore

log = structlog.get_logger("referee.tournaments")

BotKey = tuple[int, int, int]  # (round, table, seat)
STOP_SECONDS = 2.0
# How long a director's lease lasts without renewal: a standby takes over this long after
# the directing process stopped.
LEASE_MS = 6_000


def derived(seed: bytes, label: str) -> bytes:
    return hashlib.sha256(seed + b"/" + label.encode()).digest()


def _rated_table(tournament: Tournament, table: Table) -> RatedTable | None:
    """How ``table`` is rated: only in a tournament created with an operator key
    (Tournament.rated); None for anyone else's, whose player ids nobody vouches for."""
    if not tournament.rated:
        return None
    ids = tuple(rated_as(tournament.participants[who]) for who in table.participants)
    return RatedTable(ids, tournament.tournament_id)


def rated_as(participant: Participant) -> str:
    """The player id a participant's seats are rated under: a bot's strategy
    (``bot:<strategy>``), a person's own id ("": not rated)."""
    return rating_math.BOT_PREFIX + participant.bot if participant.bot else participant.player_id


def _report_bot_end(task: asyncio.Task[Any]) -> None:
    """A bot that failed leaves its seat waiting: say so in the log."""
    if not task.cancelled() and task.exception() is not None:
        log.warning("bot stopped", task=task.get_name(), error=repr(task.exception()))


class SeatBots(Protocol):
    """Where a bot participant's seat gets its bot (service.edge.house_bots.HouseBots: the
    search bot thinks in a process pool, never on this process's event loop)."""

    def seat_bot(self, game: str, strategy: str) -> Bot | ThinkingBot: ...


class Director:
    def __init__(
        self,
        tournament_id: str,
        store: TournamentStore,
        referee: Referee,
        client: AsyncRefereeClient,
        *,
        bots: SeatBots,
        standby: bool = True,
    ) -> None:
        self.tournament_id = tournament_id
        # Wait for a held lease (StartTournament on a second process), or give up at once
        # (a takeover: another process was quicker).
        self.standby = standby
        self.store = store
        self.referee = referee
        self.client = client
        self.seat_bots = bots
        self.stopping = asyncio.Event()
        # The running bot seats, for operators and tests: (round, table, seat) -> task.
        self.bots: dict[BotKey, asyncio.Task[Any]] = {}
        self.task: asyncio.Task[None] | None = None
        self.holder = uuid.uuid4().hex
        self.directing = False  # holds the lease now
        self.stepping_down: asyncio.Future[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self.run(), name=f"tournament {self.tournament_id}")

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    async def stop(self) -> None:
        """Stop the bots and the director; the stored tournament stays as it is.

        Bots are asked first (``play_seat``'s stop event), then cancelled; every wait is
        bounded, so a stuck call cannot hold up the server's shutdown.
        """
        self.stopping.set()
        if self.task is not None:
            self.task.cancel()
        bots = list(self.bots.values())
        if bots:
            await asyncio.wait(bots, timeout=STOP_SECONDS)
        for task in bots:
            task.cancel()
        tasks = [*bots, *([self.task] if self.task else [])]
        if tasks:
            await asyncio.wait(tasks, timeout=STOP_SECONDS)
        for task in tasks:
            if not task.done():
                log.warning("did not stop in time", task=task.get_name())
            elif not task.cancelled() and task.exception() is not None:
                log.info("stopped", task=task.get_name(), error=repr(task.exception()))

    async def _lease(self) -> bool:
        """Wait until this director holds the lease; False if the tournament is over."""
        while not self.stopping.is_set():
            if await self._claim():
                return True
            if not self.standby:
                return False
            tournament = (await self.store.load(self.tournament_id)).tournament
            if tournament.status is not Status.RUNNING:
                return False
            await asyncio.sleep(LEASE_MS / 2000)
        return False

    async def _claim(self) -> bool:
        """Take or renew the lease; held, the tournament is due for takeover at its end."""
        if not await self.store.claim(self.tournament_id, self.holder, LEASE_MS):
            return False
        with contextlib.suppress(Unavailable):  # lost: a takeover pass finds the lease held
            await self.store.due(self.tournament_id, time.time() + LEASE_MS / 1000)
        return True

    async def _renew(self) -> None:
        """Keep the lease; if another director got it, stop directing (and the bots).
        Ends by :attr:`stopping` as well as by cancellation: a cancellation that lands
        while a claim is sent can be lost (service.process.stopping)."""
        while not self.stopping.is_set():
            await asyncio.sleep(LEASE_MS / 3000)
            try:
                held = await self._claim()
            except Unavailable:
                continue  # the store is away: so is every other director's
            if not held:
                log.warning("lease lost", tournament_id=self.tournament_id)
                self.directing = False
                self.stepping_down = asyncio.ensure_future(self.stop())
                return

    async def run(self) -> None:
        if not await self._lease():
            return
        self.directing = True
        renewing = asyncio.create_task(self._renew(), name=f"lease {self.tournament_id}")
        log.info("directing", tournament_id=self.tournament_id)
        try:
            while not self.stopping.is_set():
                tournament = (await self.store.load(self.tournament_id)).tournament
                current = tournament.current
                if tournament.status is not Status.RUNNING or current is None:
                    return
                for table in current.tables:
                    if not table.game_id:
                        await self._create_game(tournament, current.number, table)
                tournament = (await self.store.load(self.tournament_id)).tournament
                current = tournament.current
                assert current is not None
                await asyncio.gather(
                    *(
                        self._play_table(tournament, current.number, table)
                        for table in current.tables
                        if not table.finished
                    )
                )
        except asyncio.CancelledError:
            raise
        except Unavailable as error:  # the store went away, or this referee is stopping
            log.warning("director paused", tournament_id=self.tournament_id, reason=error.reason)
        except Exception:
            log.exception("director failed", tournament_id=self.tournament_id)
            raise
        finally:
            renewing.cancel()
            self.directing = False
            with contextlib.suppress(Exception):
                await self.store.release(self.tournament_id, self.holder)
            log.info("director stopped", tournament_id=self.tournament_id)

    async def _create_game(self, tournament: Tournament, number: int, table: Table) -> None:
        given = game_pb2.TableOptions.FromString(tournament.options)
        options = CODECS[tournament.game].options_from_proto(given)
        if given.HasField("clock"):  # every table runs by the tournament's clock
            options[clocks.CLOCK_OPTION] = clock_proto.spec_from_proto(given.clock)
        seed = None
        if tournament.client_seeded:
            seed = derived(tournament.seed, f"game/{number}/{table.number}")
        created = await self.referee.create_game(
            tournament.game,
            len(table.participants),
            options,
            allow_spectators=True,
            seed=seed,
            names=tuple(tournament.participants[who].name for who in table.participants),
            presence=any(tournament.participants[who].external for who in table.participants),
            programs=frozenset(
                seat
                for seat, who in enumerate(table.participants)
                if not tournament.participants[who].external
            ),
            rated=_rated_table(tournament, table),
        )
        stored = await self.store.update(
            self.tournament_id,
            lambda t: rounds.set_game(t, number, table.number, created.game_id),
        )
        current = stored.tournament.current
        if current is None or current.tables[table.number - 1].game_id != created.game_id:
            await self.referee.discard_game(created.game_id)  # another director was first

    async def _play_table(self, tournament: Tournament, number: int, table: Table) -> None:
        game_id = table.game_id
        for seat, who in enumerate(table.participants):
            participant = tournament.participants[who]
            key = (number, table.number, seat)
            if participant.external or (key in self.bots and not self.bots[key].done()):
                continue
            rng = random.Random(derived(tournament.seed, f"bot/{number}/{table.number}/{seat}"))
            handle = self.client.seat(game_id, self.referee.seat_token(game_id, seat))
            bot = self.seat_bots.seat_bot(tournament.game, participant.bot)
            task = asyncio.create_task(
                play_seat(
                    handle,
                    bot,
                    rng=rng,
                    stop=self.stopping,
                    think=tournament.bot_move_delay_ms / 1000,
                ),
                name=f"bot {game_id} seat {seat}",
            )
            task.add_done_callback(_report_bot_end)
            self.bots[key] = task
        await self._until_finished(game_id)
        final = await self.referee.final_result(game_id)
        results = scoring.seat_results(table.participants, final.outcome)
        await self.store.update(
            self.tournament_id,
            lambda t: rounds.record_table(
                t, number, table.number, game_id, results, final.outcome.summary
            ),
        )
        done = [
            self.bots.pop((number, table.number, seat), None)
            for seat in range(len(table.participants))
        ]
        finishing = [task for task in done if task is not None]
        if finishing:  # they return with the game's outcome; never wait on one for long
            await asyncio.wait(finishing, timeout=STOP_SECONDS)
            for task in finishing:
                task.cancel()

    async def _until_finished(self, game_id: str) -> None:
        """Follow the game as a spectator (the watch use case in-process, which a
        cancellation ends at once) until it has an outcome."""
        while True:
            updates = await self.referee.watch(game_id, None, None)
            async for update in updates:
                if update.view.outcome is not None:
                    return
            await asyncio.sleep(0.1)  # the feed closed (shutdown or a lost store): look again
