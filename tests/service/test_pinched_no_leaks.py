"""Pinched!: no hidden information leaks; every message a seat or a spectator receives is
judged.

Random games are played through gRPC on real Redis from fixed seeds, for 2, 3, 4 and 5
seats on the basic setups and on the crown-heavy recommended ones (the sealed letter and
its clues, the curses, Gordie, the bank): random legal moves (ListLegalMoves) of random
seats among the view's ``to_act``, a little biased towards the hidden parts (the passage
that draws a curse, passing curses, a mastermind alone at the diamonds mansion or at the
letter's location). Every seat and a spectator watch the whole game and one more watcher
resumes mid-game; every answer anyone gets is recorded: views, SubmitMove replies with
their events, legal-move lists, dry runs, history during the game, and rejections (status
details, ErrorInfo, details string, trailing metadata) of provoked bad moves. Probes also
ask about cards and curses a seat does not hold, with dry runs of the same move naming
things that lie in different hidden places: the answers must not differ (no oracle).

After the game the revealed seed is replayed with the engine and :mod:`pinched_leaks`
judges every message against the true states and true events (see there). Planted leaks
show the judge catches each kind, and the games must have exercised the hidden parts.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import grpc
import pytest
from google.protobuf import descriptor

from engines.base import replay
from engines.pinched import GAME
from engines.pinched import events as ev
from engines.pinched import moves as mv
from engines.pinched.model import Location, Phase, PinchedState, Side
from engines.pinched.setup import make_config
from referee.v1 import game_pb2, referee_pb2
from referee.v1 import pinched_pb2 as pb
from service.codecs.pinched import PinchedCodec
from tests.service.pinched_leaks import (
    CARD_ID_FIELDS,
    CURSE_FIELDS,
    CURSE_ID_FIELDS,
    DECK,
    LOCATION_ENUM,
    PB_LOCATION,
    PRIVATE_LOCATIONS,
    PUBLIC_LOCATIONS,
    VALUABLE,
    Events,
    Received,
    Recorder,
    Report,
    Tracker,
    Viewer,
    check,
    event_tag,
    iter_int_fields,
    paths_to,
    truth_of,
)
from tests.service.table import Metadata, Stub, auth, reason_of

Move = game_pb2.Move
PM = pb.PinchedMove
CODEC = PinchedCodec()
MAX_STEPS = 1500
RESUME_AT = 30  # the step after which a late watcher resumes from ten versions back
REFUSED, INVALID = grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.INVALID_ARGUMENT
UNAUTHENTICATED, ABORTED = grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.ABORTED
CROWN_DIAMONDS = pb.LocationSide(location=pb.LOCATION_DIAMONDS, side=pb.SIDE_CROWN)
CROWN_HEARTS = pb.LocationSide(location=pb.LOCATION_HEARTS, side=pb.SIDE_CROWN)
WEIGHTS = {"use_passage": 4, "pass_curse": 4}
"""Move choice weights by action (1 for the rest): the passage draws a curse on the crown
side, and a passed curse is seen by two seats only."""


def seed_for(name: str) -> bytes:
    return hashlib.sha256(f"pinched-no-leaks/{name}".encode()).digest()


def action(move: Move) -> str | None:
    return move.pinched.WhichOneof("action")


def choose(location: int) -> Move:
    return Move(pinched=PM(choose_location=PM.ChooseLocation(location=location)))  # type: ignore[arg-type]


def store(card: int, slot: int) -> Move:
    return Move(pinched=PM(store=PM.Store(card=card, slot=slot)))


def pass_curse(curse: int, to_seat: int) -> Move:
    return Move(pinched=PM(pass_curse=PM.PassCurse(curse=curse, to_seat=to_seat)))


async def _metadata(call: Any) -> list[tuple[str, str | bytes]]:
    """Initial and trailing metadata of a finished call: they reach the client too."""
    return [*(await call.initial_metadata() or ()), *(await call.trailing_metadata() or ())]


@dataclass
class PTable:
    """A Pinched! table: its id and seat tokens."""

    stub: Any  # grpc.aio as it is (grpc-stubs types the synchronous API)
    game_id: str
    tokens: list[str]
    seed_sha256: str

    @classmethod
    async def create(cls, stub: Stub, seats: int, seed: bytes, setup: str) -> PTable:
        created = await stub.CreateGame(
            referee_pb2.CreateGameRequest(
                game="pinched",
                seats=seats,
                seed=seed,
                allow_spectators=True,
                options=game_pb2.TableOptions(pinched=pb.PinchedOptions(setup=setup)),
            )
        )
        tokens = [t.token for t in created.seat_tokens]
        return cls(stub, created.game_id, tokens, created.seed_sha256)

    def md(self, viewer: Viewer) -> Metadata:
        return auth(None if viewer is None else self.tokens[viewer])


@dataclass
class Accepted:
    seat: int
    move_id: str
    move: Move
    version: int


@dataclass(frozen=True)
class Probe:
    """Dry runs of one move kind naming things a seat does not hold, at one version: the
    answers must be one and the same wherever those things truly lie."""

    kind: str  # "store" (card ids) or "curse" (curse ids)
    version: int
    seat: int
    targets: tuple[int, ...]


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


class Driver:
    """Plays one game move by move, recording every answer at the version it is for."""

    def __init__(self, table: PTable, seats: int, rng: random.Random) -> None:
        self.table = table
        self.seats = seats
        self.rng = rng
        self.recorder = Recorder()
        self.version = 0
        self.view = game_pb2.View()
        self.accepted: list[Accepted] = []
        self.rejections: Counter[str] = Counter()
        self.probes: list[Probe] = []

    @property
    def finished(self) -> bool:
        return self.view.HasField("outcome")

    @property
    def pinched(self) -> pb.PinchedView:
        return self.view.pinched

    def md(self, viewer: Viewer) -> Metadata:
        return self.table.md(viewer)

    # --- calls, each answer recorded ------------------------------------------------------

    async def get_view(self, viewer: Viewer) -> game_pb2.View:
        call = self.table.stub.GetView(
            referee_pb2.GetViewRequest(game_id=self.table.game_id), metadata=self.md(viewer)
        )
        reply: referee_pb2.GetViewResponse = await call
        assert reply.view.version == self.version
        self.recorder.add(viewer, self.version, "GetView", reply, await _metadata(call))
        return reply.view

    async def legal(self, seat: int) -> list[Move]:
        call = self.table.stub.ListLegalMoves(
            referee_pb2.ListLegalMovesRequest(game_id=self.table.game_id), metadata=self.md(seat)
        )
        reply: referee_pb2.ListLegalMovesResponse = await call
        assert reply.version == self.version
        self.recorder.add(seat, self.version, "ListLegalMoves", reply, await _metadata(call))
        return list(reply.moves)

    async def validate(self, seat: int, move: Move) -> tuple[bool, str, str]:
        """A dry run: (legal, reason, message); a malformed move is refused outright."""
        request = referee_pb2.ValidateMoveRequest(game_id=self.table.game_id, move=move)
        try:
            reply = await self.table.stub.ValidateMove(request, metadata=self.md(seat))
        except grpc.aio.AioRpcError as error:
            self.recorder.add_error(seat, self.version, "ValidateMove", error, move)
            code, reason, _ = reason_of(error)
            assert code == INVALID, (code, reason)
            self.rejections[reason] += 1
            return False, reason, error.details() or ""
        assert reply.version == self.version
        self.recorder.add_answer(seat, self.version, "ValidateMove", reply, move)
        return reply.legal, reply.reason, reply.message

    async def history(self, viewer: Viewer) -> referee_pb2.GetHistoryResponse:
        call = self.table.stub.GetHistory(
            referee_pb2.GetHistoryRequest(game_id=self.table.game_id), metadata=self.md(viewer)
        )
        reply: referee_pb2.GetHistoryResponse = await call
        assert reply.version == self.version
        self.recorder.add(viewer, self.version, "GetHistory", reply, await _metadata(call))
        return reply

    def _request(
        self, move: Move, move_id: str | None, pin: int | None
    ) -> referee_pb2.SubmitMoveRequest:
        request = referee_pb2.SubmitMoveRequest(
            game_id=self.table.game_id, move=move, client_move_id=move_id or uuid.uuid4().hex
        )
        if pin is not None:
            request.expected_version = pin
        return request

    async def submit(
        self, seat: int, move: Move, *, pin: bool, move_id: str | None = None
    ) -> referee_pb2.SubmitMoveResponse:
        move_id = move_id or uuid.uuid4().hex
        request = self._request(move, move_id, self.version if pin else None)
        call = self.table.stub.SubmitMove(request, metadata=self.md(seat))
        reply: referee_pb2.SubmitMoveResponse = await call
        self.recorder.add(seat, reply.version, "SubmitMove", reply, await _metadata(call))
        if not reply.duplicate:
            assert reply.version == self.version + 1
            self.version = reply.version
            self.view = reply.view
            self.accepted.append(Accepted(seat, move_id, move, reply.version))
        return reply

    async def refused(
        self,
        viewer: Viewer,
        move: Move,
        expected: Sequence[tuple[grpc.StatusCode, str]],
        *,
        move_id: str | None = None,
        pin: int | None = None,
    ) -> str:
        """Submit a move that must be refused; record the rejection; its reason."""
        call = self.table.stub.SubmitMove(
            self._request(move, move_id, pin), metadata=self.md(viewer)
        )
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await call
        self.recorder.add_error(viewer, self.version, "SubmitMove", caught.value, move)
        code, reason, info = reason_of(caught.value)
        assert (code, reason) in expected, (code, reason, caught.value.details())
        if reason == "VERSION_MISMATCH":
            assert info == {"current_version": str(self.version)}
        self.rejections[reason] += 1
        return reason

    # --- choosing ------------------------------------------------------------------------

    async def choose_move(self, seat: int, legal: list[Move]) -> Move:
        if any(action(move) == "choose_location" for move in legal):
            return await self.plan(seat, legal)
        weights = [WEIGHTS.get(action(move) or "", 1) for move in legal]
        return self.rng.choices(legal, weights)[0]

    async def plan(self, seat: int, legal: list[Move]) -> Move:
        """The morning: the mastermind goes, now and then, where it would be alone with
        something hidden to gain (the letter's location with a clue; the diamonds mansion
        on its crown side); everyone else guesses at random."""
        own = (await self.get_view(seat)).pinched  # what the seat knows (recorded)
        where = [move.pinched.choose_location.location for move in legal]
        roll = self.rng.random()
        if seat == own.mastermind:
            letter_hunt = own.letter != pb.LOCATION_UNSPECIFIED and own.clues[seat] > 0
            if letter_hunt and not own.HasField("lisa_mona_holder") and roll < 0.6:
                return choose(own.letter)
            if CROWN_DIAMONDS in own.locations and roll < 0.3:
                return choose(pb.LOCATION_DIAMONDS)
            if CROWN_HEARTS in own.locations and roll < 0.6:
                return choose(pb.LOCATION_HEARTS)
        return choose(self.rng.choice(where))

    # --- probes and provoked rejections ----------------------------------------------------

    async def probe_store(self, seat: int) -> None:
        """Store cards the seat does not hold (dry runs, one submitted): one answer."""
        own = (await self.get_view(seat)).pinched
        mine = {card.id for card in own.hand}
        size = sum(kind.copies for kind in own.components.kinds) + own.components.jokers
        others = [card for card in range(size) if card not in mine]
        cards = tuple(others)  # wherever they lie: the deck, a hand, a stash, a field
        slot = self.rng.randrange(3)
        # Side by side: a probe of the 108-card table is a hundred dry runs.
        dry_runs = [self.validate(seat, store(card, slot)) for card in cards]
        answers = set(await asyncio.gather(*dry_runs))
        assert len(answers) == 1, f"the answer depends on where the card lies: {answers}"
        ((legal, reason, _),) = answers
        assert not legal
        self.probes.append(Probe("store", self.version, seat, cards))
        await self.refused(seat, store(cards[0], slot), [(REFUSED, reason)])

    async def probe_curses(self, seat: int) -> None:
        """Pass every curse the seat does not hold (dry runs, one submitted): one answer."""
        own = (await self.get_view(seat)).pinched
        mine = {curse.id for curse in own.curses}
        curses = tuple(c for c in range(len(own.components.curses)) if c not in mine)
        to = self.rng.choice([s for s in range(self.seats) if s != seat])
        answers = {await self.validate(seat, pass_curse(curse, to)) for curse in curses}
        assert len(answers) == 1, f"the answer depends on where the curse lies: {answers}"
        ((legal, reason, _),) = answers
        assert not legal
        self.probes.append(Probe("curse", self.version, seat, curses))
        await self.refused(seat, pass_curse(curses[0], to), [(REFUSED, reason)])

    async def probe_sealed(self) -> None:
        """The morning: a seat that chose tries again (refused, naming nothing); a seat
        yet to choose may choose every location, whatever the others chose."""
        p = self.pinched
        chosen = list(p.chosen_seats)
        waiting = [s for s in range(self.seats) if s not in chosen]
        if chosen:
            seat = self.rng.choice(chosen)
            where = self.rng.choice(list(p.locations)).location
            expected = [(REFUSED, "ALREADY_CHOSEN"), (REFUSED, "STORE_FIRST")]
            await self.refused(seat, choose(where), expected)
        if waiting:
            seat = self.rng.choice(waiting)
            answers = {await self.validate(seat, choose(ls.location)) for ls in p.locations}
            assert len(answers) == 1, answers
            assert answers == {(True, "", "")} or all(a[1] == "STORE_FIRST" for a in answers)

    async def provoke(self, seat: int, legal: list[Move]) -> None:
        """One rejection of a kind that fits the table now, recorded like any answer."""
        kind = self.rng.randrange(7)
        if kind == 0 and self.version > 0:
            stale = self.version - 1
            await self.refused(seat, legal[0], [(ABORTED, "VERSION_MISMATCH")], pin=stale)
        elif kind == 1:
            mine = [done for done in self.accepted if done.seat == seat]
            if mine:
                old = self.rng.choice(mine)
                other = store(999, 0) if action(old.move) != "store" else choose(1)
                expected = [(INVALID, "MOVE_ID_REUSED")]
                await self.refused(seat, other, expected, move_id=old.move_id)
        elif kind == 2:
            idle = [s for s in range(self.seats) if s not in self.view.to_act]
            if idle:
                late = Move(pinched=PM(take_from_river=PM.TakeFromRiver(field=0)))
                await self.refused(
                    self.rng.choice(idle),
                    late,
                    [(REFUSED, "NOT_NOW"), (REFUSED, "NOT_YOUR_TURN"), (REFUSED, "FIELD_EMPTY")],
                )
        elif kind == 3:
            call = self.table.stub.ListLegalMoves(
                referee_pb2.ListLegalMovesRequest(game_id=self.table.game_id)
            )
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await call
            self.recorder.add_error(None, self.version, "ListLegalMoves", caught.value)
            assert reason_of(caught.value)[:2] == (UNAUTHENTICATED, "TOKEN_MISSING")
            self.rejections["TOKEN_MISSING"] += 1
        elif kind == 4:
            await self.refused(None, legal[0], [(UNAUTHENTICATED, "TOKEN_MISSING")])
        elif kind == 5:
            await self.refused(seat, Move(pinched=PM()), [(INVALID, "MOVE_EMPTY")])
        else:
            await self.refused(
                seat, choose(pb.LOCATION_UNSPECIFIED), [(INVALID, "LOCATION_MISSING")]
            )

    async def duplicate(self) -> None:
        """An old move sent again with its id: its first answer, at its own version."""
        old = self.rng.choice(self.accepted)
        again = await self.submit(old.seat, old.move, pin=False, move_id=old.move_id)
        assert again.duplicate and again.version == old.version

    # --- one step -------------------------------------------------------------------------

    async def step(self, number: int) -> None:
        to_act = list(self.view.to_act)
        assert to_act, "a running game always has a seat to act"
        seat = self.rng.choice(to_act)
        legal = await self.legal(seat)
        assert legal, f"seat {seat} is to act, so it has a legal move"
        roll = self.rng.random()
        if roll < 0.25:
            answer = await self.validate(seat, self.rng.choice(legal))
            assert answer == (True, "", ""), answer
        if self.pinched.phase == pb.PINCHED_PHASE_PLAN and self.rng.random() < 0.3:
            await self.probe_sealed()
        # Store probes: most often when a hand holds cards (perhaps drawn face down).
        holding = [s for s, size in enumerate(self.pinched.hand_sizes) if size]
        if self.rng.random() < (0.3 if holding else 0.03):
            others = [s for s in range(self.seats) if s not in holding[:1]]
            await self.probe_store(self.rng.choice(others))
        cursed = self.pinched.curse_pile < len(self.pinched.components.curses)
        if cursed and self.rng.random() < 0.15:
            await self.probe_curses(self.rng.randrange(self.seats))
        if self.rng.random() < 0.15:
            await self.provoke(seat, legal)
        if self.accepted and self.rng.random() < 0.04:
            await self.duplicate()
        move = await self.choose_move(seat, legal)
        await self.submit(seat, move, pin=self.rng.random() < 0.5)
        if self.rng.random() < 0.25:
            await self.get_view(self.rng.choice([None, *range(self.seats)]))
        if number % 15 == 0:
            await self.history(self.rng.choice([None, *range(self.seats)]))


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


@dataclass(frozen=True)
class Game:
    name: str
    seats: int
    setup: str
    variant: str = ""  # picks the seed (and the drivers' choices) among equally fine ones
    letter: bool = False  # diamonds on the crown side: the letter is read
    curses: bool = False  # hearts on the crown side: curses are drawn and passed
    opened: bool = False  # a clue holder takes the Lisa Mona and the letter is opened


GAMES = [
    Game("basic-2", 2, "basic", "/0"),
    Game("basic-3", 3, "basic"),
    Game("basic-4", 4, "basic", "/1"),
    Game("basic-5", 5, "basic", "/3"),
    Game("search_for_lisa_mona", 3, "search_for_lisa_mona", "/10", letter=True, opened=True),
    Game("cursed_secrets", 4, "cursed_secrets", "/3", letter=True, curses=True, opened=True),
    Game("the_whole_package", 5, "the_whole_package", letter=True, curses=True),
]
"""The seeds are fixed: each game shows every hidden part its setup has (asserted)."""


@pytest.mark.parametrize("game", GAMES, ids=[game.name for game in GAMES])
async def test_no_message_shows_a_hidden_thing(stub: Stub, game: Game) -> None:
    played = await play(stub, game.seats, game.setup, game.name + game.variant)
    report = assert_no_leaks(played)
    seen = report.private_seen
    # Sealed choices: each seat saw its own card and no one else's, in events and views.
    assert seen["location_chosen"] and seen["hidden:location_chosen"]
    assert seen["my_choice"]
    # Face-down draws (the last take, the vault, the bank) reached the drawer only, and a
    # face-down card in a hand was shown to its holder.
    drawn = happened(played.events, ev.CardsDrawn)
    assert drawn, "no card was drawn face down"
    assert seen["cards_drawn"] and seen["hidden:cards_drawn"]
    assert seen["hand"] and seen["sold"]
    if game.letter:
        assert happened(played.events, ev.LetterRead), "nobody read the letter"
        assert seen["letter_read"] and seen["hidden:letter_read"] and seen["letter"]
    if game.opened:
        assert happened(played.events, ev.LetterOpened), "the letter was never opened"
    if game.curses:
        assert happened(played.events, ev.CurseDrawn) and happened(played.events, ev.CursePassed)
        assert seen["curse_drawn"] and seen["hidden:curse_drawn"]
        assert seen["curse_passed"] and seen["hidden:curse_passed"]
        assert seen["curses"]
    oracle = assert_no_oracle(played)
    mixed = [key for key in oracle if key.startswith("store")]
    assert any("another's hand" in key and "deck" in key for key in mixed), oracle
    if game.curses:
        assert any(key.startswith("curse") for key in oracle), oracle
    assert sum(played.rejections.values()) >= 10, played.rejections


def test_the_games_cover_every_seat_count_and_the_crown_setups() -> None:
    assert {game.seats for game in GAMES} == {2, 3, 4, 5}
    assert {game.setup for game in GAMES} >= {
        "basic",
        "search_for_lisa_mona",
        "cursed_secrets",
        "the_whole_package",
    }
    for game in GAMES:
        locations = make_config(game.seats, {"setup": game.setup}).locations
        sides = {placement.location: placement.side for placement in locations}
        assert game.letter == (sides.get(Location.DIAMONDS) is Side.CROWN)
        assert game.curses == (sides.get(Location.HEARTS) is Side.CROWN)


# --- the contract: where hidden things can be -------------------------------------------------


def _outputs() -> list[descriptor.Descriptor]:
    service = referee_pb2.DESCRIPTOR.services_by_name["RefereeService"]
    return [method.output_type for method in service.methods]


def _everywhere(want: str) -> set[str]:
    return set().union(*(paths_to(output, want) for output in _outputs()))


def test_the_judge_knows_every_field_that_can_hold_a_hidden_thing() -> None:
    """Every Location field, every Curse and every int that names a card or a curse, in
    any answer of the service, is one the judge judges; the deck is only a count; the
    only bytes are the seed of GetHistory (revealed at the end)."""
    assert _everywhere(LOCATION_ENUM) == PUBLIC_LOCATIONS | PRIVATE_LOCATIONS
    assert _everywhere("referee.v1.Curse") == CURSE_FIELDS
    assert _everywhere(VALUABLE), "cards are Valuables"
    named = {
        fd.full_name
        for output in _outputs()
        for fd in iter_int_fields(output)
        if fd.full_name.rsplit(".", 1)[0] in _pinched_types()
        and (
            fd.name in ("id", "card", "cards", "curse", "curses")
            or fd.name.endswith(("_card", "_curse", "_id"))
        )
    }
    public_numbers = {
        "referee.v1.PinchedEvent.DeckReshuffled.cards",  # how many
        "referee.v1.PinchedComponents.curses",  # the printed table
        "referee.v1.PinchedScore.curses",  # the final score
    }
    assert named - public_numbers == {
        "referee.v1.Valuable.id",
        "referee.v1.Curse.id",
        *CARD_ID_FIELDS,
        *CURSE_ID_FIELDS,
    }
    view = pb.PinchedView.DESCRIPTOR.fields_by_name
    assert [name for name in view if "deck" in name] == ["deck_size"]
    assert view["deck_size"].type == descriptor.FieldDescriptor.TYPE_INT32
    assert view["curse_pile"].type == descriptor.FieldDescriptor.TYPE_INT32
    bytes_fields = {
        fd.full_name
        for output in _outputs()
        for fd in _all_fields(output)
        if fd.type == descriptor.FieldDescriptor.TYPE_BYTES
    }
    assert bytes_fields == {"referee.v1.GetHistoryResponse.seed"}


def _pinched_types() -> set[str]:
    """Every message type of pinched.proto, nested ones included."""
    todo = list(pb.DESCRIPTOR.message_types_by_name.values())
    names: set[str] = set()
    while todo:
        current = todo.pop()
        names.add(current.full_name)
        todo += current.nested_types
    return names


def _all_fields(message: descriptor.Descriptor) -> list[descriptor.FieldDescriptor]:
    seen: set[str] = set()
    out: list[descriptor.FieldDescriptor] = []
    todo = [message]
    while todo:
        current = todo.pop()
        if current.full_name in seen:
            continue
        seen.add(current.full_name)
        out += current.fields
        todo += [fd.message_type for fd in current.fields if fd.message_type is not None]
    return out


# --- planted leaks: the judge catches each kind ------------------------------------------------


def _engine_move(state: PinchedState, seat: int, rng: random.Random) -> mv.Move:
    """The drivers' policy on the engine: weighted random legal moves, the mastermind
    sometimes alone where something hidden waits."""
    legal = GAME.legal_moves(state, seat)
    plans = [move for move in legal if isinstance(move, mv.ChooseLocation)]
    if plans and seat == state.mastermind and rng.random() < 0.5:
        letter = state.letter
        if letter is not None and seat in letter.seen_by and state.clues[seat]:
            return mv.ChooseLocation(letter.location)
        if state.side(Location.DIAMONDS) is Side.CROWN:
            return mv.ChooseLocation(Location.DIAMONDS)
    weights = [WEIGHTS.get(event_tag(move), 1) for move in legal]
    return rng.choices(legal, weights)[0]


@dataclass
class EngineGame:
    """A whole game played with the engine, to plant messages in."""

    seats: int
    setup: str
    seed: bytes
    states: list[PinchedState] = field(default_factory=list)
    events: list[Events] = field(default_factory=list)
    moves: list[tuple[int, mv.Move]] = field(default_factory=list)

    @classmethod
    def play(cls, seats: int, setup: str, name: str) -> EngineGame:
        game = cls(seats, setup, seed_for(name))
        config = make_config(seats, {"setup": setup})
        state = GAME.new_game(config, game.seed)
        rng = random.Random(name)
        while not state.finished:
            seat = rng.choice(sorted(GAME.to_act(state)))
            move = _engine_move(state, seat, rng)
            game.moves.append((seat, move))
            state, _ = GAME.apply(state, seat, move)
        initial, steps = replay(GAME, config, game.seed, game.moves)
        game.states, game.events = truth_of(initial, steps)
        return game

    def first(self, test: Callable[[int], bool]) -> int:
        """The first version for which ``test`` holds (it must hold for one)."""
        version = next((v for v in range(len(self.states)) if test(v)), None)
        assert version is not None, "the planted game never came there: pick another seed"
        return version

    def step_with(
        self, kind: type, test: Callable[[Any], bool] = lambda e: True
    ) -> tuple[int, Any]:
        for version, step in enumerate(self.events):
            for event in step:
                if isinstance(event, kind) and test(event):
                    return version, event
        raise AssertionError(f"no {kind.__name__}: pick another seed")

    def view(self, viewer: Viewer, version: int, **changes: Any) -> referee_pb2.GetViewResponse:
        """The true view (the engine's, through the codec), with ``changes`` planted."""
        view = game_pb2.View(game="pinched", version=version, seats=self.seats, seat=viewer)
        CODEC.fill_view(GAME.view(self.states[version], viewer), view)
        body: Any = view.pinched
        for name, value in changes.items():
            body.ClearField(name)
            if isinstance(value, list):
                getattr(body, name).extend(value)
            else:
                setattr(body, name, value)
        return referee_pb2.GetViewResponse(view=view)

    def events_to(
        self, viewer: Viewer, version: int, unredacted: Callable[[Any], bool] = lambda e: False
    ) -> list[game_pb2.Event]:
        """A step's events as the referee sends them to ``viewer``, except those picked by
        ``unredacted``, sent whole."""
        out = []
        for event in self.events[version]:
            seen = event if unredacted(event) else GAME.view_event(cast(ev.Event, event), viewer)
            out.append(CODEC.event_to_proto(seen))
        return out

    def reply(
        self, viewer: Viewer, version: int, unredacted: Callable[[Any], bool] = lambda e: False
    ) -> referee_pb2.SubmitMoveResponse:
        events = self.events_to(viewer, version, unredacted)
        return referee_pb2.SubmitMoveResponse(
            version=version, view=self.view(viewer, version).view, events=events
        )


@pytest.fixture(scope="module")
def planted_game() -> EngineGame:
    return EngineGame.play(4, "cursed_secrets", "planted")


def _judged(game: EngineGame, items: list[Received]) -> Report:
    return check(items, game.states, game.seed, game.events)


def assert_caught(game: EngineGame, planted: list[Received], fine: list[Received]) -> None:
    """Each planted message alone is flagged as a leak; the fine ones pass."""
    for item in planted:
        report = _judged(game, [item])
        assert report.leaks, f"{item.source}: not caught; {report}"
    passed = _judged(game, fine)
    assert not passed.problems, str(passed)


def _others(game: EngineGame, *seats: int) -> list[Viewer]:
    return [None, *(s for s in range(game.seats) if s not in seats)]


def test_the_judge_catches_another_seats_hand_card_and_the_deck(planted_game: EngineGame) -> None:
    game = planted_game
    tracker = Tracker(game.states, game.events)
    version, drawn = game.step_with(ev.CardsDrawn, lambda e: e.reason != "start" and e.cards)
    seat = drawn.seat
    # A card face down in a hand at the end of that step (else the next such version).
    hidden = game.first(lambda v: v >= version and any(s >= 0 for s in tracker.status(v, None)))
    status = tracker.status(hidden, None)
    card = next(c for c, s in enumerate(status) if s >= 0)
    holder = status[card]
    other = next(s for s in range(game.seats) if s != holder)
    deck_card = game.states[hidden].deck[0]
    river = [pb.OpenField(field=0, card=pb.Valuable(id=deck_card))]
    legal = referee_pb2.ListLegalMovesResponse(version=hidden, moves=[store(card, 0)])
    fake_hand = [pb.Valuable(id=c) for c in game.states[hidden].hands[other]] + [
        pb.Valuable(id=card)
    ]
    planted = [
        *(
            Received(v, version, f"draw-to-{v}", game.reply(v, version, lambda e: e is drawn))
            for v in _others(game, seat)
        ),
        Received(other, hidden, "hand-card-in-view", game.view(other, hidden, hand=fake_hand)),
        Received(
            None, hidden, "hand-card-to-spectator", game.view(None, hidden, hand=fake_hand[-1:])
        ),
        Received(other, hidden, "hand-card-in-legal-moves", legal),
        Received(other, hidden, "deck-card-on-the-river", game.view(other, hidden, river=river)),
        Received(
            other,
            hidden,
            "hand-card-in-text",
            referee_pb2.ValidateMoveResponse(
                version=hidden, message=f"seat {holder} has card {card}"
            ),
        ),
    ]
    fine = [
        Received(seat, version, "draw-to-drawer", game.reply(seat, version, lambda e: e is drawn)),
        *(
            Received(v, version, f"redacted-to-{v}", game.reply(v, version))
            for v in _others(game, seat)
        ),
        Received(holder, hidden, "own-hand", game.view(holder, hidden)),
        Received(
            holder,
            hidden,
            "own-store",
            referee_pb2.ListLegalMovesResponse(version=hidden, moves=[store(card, 0)]),
        ),
    ]
    assert_caught(game, planted, fine)


def test_the_judge_catches_a_sealed_location_card(planted_game: EngineGame) -> None:
    game = planted_game
    version, chosen = game.step_with(ev.LocationChosen)
    assert not any(isinstance(e, ev.LocationsRevealed) for e in game.events[version])
    seat, where = chosen.seat, chosen.location
    other = (seat + 1) % game.seats
    assert game.states[version].phase is Phase.PLAN
    entry = game_pb2.HistoryEntry(
        version=version,
        seat=seat,
        move=CODEC.move_to_proto(mv.ChooseLocation(where)),
        events=game.events_to(other, version),
    )
    sealed = [PB_LOCATION[c] if c is not None else 0 for c in game.states[version].choices]
    planted = [
        *(
            Received(v, version, f"chosen-to-{v}", game.reply(v, version, lambda e: e is chosen))
            for v in _others(game, seat)
        ),
        Received(
            other,
            version,
            "logged-move",
            referee_pb2.GetHistoryResponse(version=version, entries=[entry]),
        ),
        Received(other, version, "view-choices", game.view(other, version, choices=sealed)),
        Received(
            other,
            version,
            "view-my-choice",
            game.view(other, version, my_choice=PB_LOCATION[where]),
        ),
        Received(None, version, "view-heist", game.view(None, version, heist=PB_LOCATION[where])),
        Received(
            other,
            version,
            "choice-in-text",
            referee_pb2.ValidateMoveResponse(
                version=version, message=f"seat {seat} went to the {where}"
            ),
        ),
    ]
    own_entry = game_pb2.HistoryEntry(
        version=version,
        seat=seat,
        move=CODEC.move_to_proto(mv.ChooseLocation(where)),
        events=game.events_to(seat, version),
    )
    fine = [
        Received(seat, version, "own-choice", game.reply(seat, version)),
        Received(
            seat,
            version,
            "own-log",
            referee_pb2.GetHistoryResponse(version=version, entries=[own_entry]),
        ),
        *(
            Received(v, version, f"sealed-to-{v}", game.reply(v, version))
            for v in _others(game, seat)
        ),
    ]
    assert_caught(game, planted, fine)
    # Once the step reveals every card, the last chooser's move is no secret.
    revealed, _ = game.step_with(ev.LocationsRevealed)
    seat = game.moves[revealed - 1][0]
    last = game_pb2.HistoryEntry(
        version=revealed,
        seat=seat,
        move=CODEC.move_to_proto(game.moves[revealed - 1][1]),
        events=game.events_to(None, revealed),
    )
    response = referee_pb2.GetHistoryResponse(version=revealed, entries=[last])
    assert not _judged(game, [Received(None, revealed, "revealed-log", response)]).problems


def test_the_judge_catches_another_seats_curse(planted_game: EngineGame) -> None:
    game = planted_game
    version, drawn = game.step_with(ev.CurseDrawn)
    seat = drawn.seat
    other = (seat + 1) % game.seats
    curse = pb.Curse(id=drawn.curse.id, points=drawn.curse.points)
    planted: list[Received] = [
        *(
            Received(v, version, f"curse-to-{v}", game.reply(v, version, lambda e: e is drawn))
            for v in _others(game, seat)
        ),
        Received(other, version, "curse-in-view", game.view(other, version, curses=[curse])),
        Received(
            other,
            version,
            "curse-in-legal-moves",
            referee_pb2.ListLegalMovesResponse(version=version, moves=[pass_curse(curse.id, seat)]),
        ),
    ]
    fine = [
        Received(seat, version, "curse-to-drawer", game.reply(seat, version)),
        *(
            Received(v, version, f"curse-hidden-{v}", game.reply(v, version))
            for v in _others(game, seat)
        ),
    ]
    passed_at, passed = game.step_with(ev.CursePassed)
    pair = (passed.from_seat, passed.to_seat)
    third = _others(game, *pair)

    def log(viewer: Viewer) -> referee_pb2.GetHistoryResponse:
        """The curse passing's entry with the move, and the events as ``viewer``'s."""
        entry = game_pb2.HistoryEntry(
            version=passed_at,
            seat=passed.from_seat,
            move=CODEC.move_to_proto(mv.PassCurse(passed.curse.id, passed.to_seat)),
            events=game.events_to(viewer, passed_at),
        )
        return referee_pb2.GetHistoryResponse(version=passed_at, entries=[entry])

    planted += [
        *(
            Received(
                v, passed_at, f"passed-to-{v}", game.reply(v, passed_at, lambda e: e is passed)
            )
            for v in third
        ),
        Received(
            third[-1],
            passed_at,
            "passed-in-log",
            log(third[-1]),
        ),
    ]
    fine += [
        *(Received(v, passed_at, f"pair-{v}", game.reply(v, passed_at)) for v in pair),
        Received(
            pair[1],
            passed_at,
            "taker-log",
            log(pair[1]),
        ),
    ]
    assert_caught(game, planted, fine)


def test_the_judge_catches_the_unread_letter(planted_game: EngineGame) -> None:
    game = planted_game
    version, read = game.step_with(ev.LetterRead)
    letter = game.states[version].letter
    assert letter is not None and not letter.opened
    reader = read.seat
    other = (reader + 1) % game.seats
    assert other not in letter.seen_by
    where = PB_LOCATION[letter.location]
    planted = [
        Received(other, version, "letter-in-view", game.view(other, version, letter=where)),
        Received(None, version, "letter-to-spectator", game.view(None, version, letter=where)),
        *(
            Received(v, version, f"reading-to-{v}", game.reply(v, version, lambda e: e is read))
            for v in _others(game, reader)
        ),
        Received(
            other,
            version,
            "letter-in-text",
            referee_pb2.ValidateMoveResponse(
                version=version, message=f"the letter says {letter.location}"
            ),
        ),
    ]
    fine = [
        Received(reader, version, "reader", game.reply(reader, version)),
        *(
            Received(v, version, f"sealed-{v}", game.reply(v, version))
            for v in _others(game, reader)
        ),
        Received(
            reader, len(game.states) - 2, "reader-later", game.view(reader, len(game.states) - 2)
        ),
    ]
    assert_caught(game, planted, fine)


def test_the_judge_catches_another_seats_sold_cards(planted_game: EngineGame) -> None:
    game = planted_game
    version = game.first(lambda v: any(game.states[v].sold))
    seat = next(s for s, sold in enumerate(game.states[version].sold) if sold)
    other = (seat + 1) % game.seats
    sold = [pb.Valuable(id=c) for c in game.states[version].sold[seat]]
    planted = [
        Received(other, version, "sold-in-view", game.view(other, version, sold=sold)),
        Received(None, version, "sold-to-spectator", game.view(None, version, sold=sold)),
    ]
    fine = [Received(seat, version, "own-sold", game.view(seat, version))]
    assert_caught(game, planted, fine)


def test_the_judge_catches_the_seed_and_the_deck_order(planted_game: EngineGame) -> None:
    game = planted_game
    version = game.first(lambda v: v > 10 and len(game.states[v].deck) >= 5)
    deck = list(game.states[version].deck[:5])
    view = game.view(0, version)
    view.view.to_act[:] = deck  # a packed list of ints: the deck's next cards in order
    planted = [
        Received(
            0, version, "seed", referee_pb2.GetHistoryResponse(version=version, seed=game.seed)
        ),
        Received(
            1,
            version,
            "seed-hex",
            referee_pb2.ValidateMoveResponse(version=version, message=game.seed.hex()),
        ),
        Received(2, version, "deck-order", view),
    ]
    end = len(game.states) - 1
    fine = [
        Received(
            0, end, "seed-at-the-end", referee_pb2.GetHistoryResponse(version=end, seed=game.seed)
        ),
    ]
    assert_caught(game, planted, fine)


def test_the_judge_judges_each_event_where_it_happened() -> None:
    """A step that discards face up and then reshuffles the discards into the deck: its
    Discarded event rightly names cards that lie in the deck at the end of the step (they
    were open when discarded); the same card named after the step is a leak."""
    # Four seats: random three-seat games no longer run the 108-card deck dry.
    game = EngineGame.play(4, "basic", "basic-4/40")

    def discards_then_reshuffles(version: int) -> bool:
        kinds = [type(event) for event in game.events[version]]
        both = ev.Discarded in kinds and ev.DeckReshuffled in kinds
        return both and kinds.index(ev.Discarded) < kinds.index(ev.DeckReshuffled)

    version = game.first(discards_then_reshuffles)
    step = game.events[version]
    discarded = next(event for event in step if isinstance(event, ev.Discarded))
    card = next(c for c in discarded.cards if c in game.states[version].deck)
    shown = [pb.Valuable(id=card)]
    planted = [
        Received(1, version, "reshuffled-in-view", game.view(1, version, discard=shown)),
    ]
    fine = [Received(v, version, f"step-to-{v}", game.reply(v, version)) for v in [None, *range(4)]]
    assert_caught(game, planted, fine)


def test_the_planted_game_has_every_hidden_part(planted_game: EngineGame) -> None:
    """The engine game the leaks are planted in is itself judged clean: every seat's and
    the spectator's true messages of every version."""
    game = planted_game
    items: list[Received] = []
    for version in range(len(game.states)):
        for viewer in [None, *range(game.seats)]:
            items.append(Received(viewer, version, "watch", game.reply(viewer, version)))
    report = _judged(game, items)
    assert not report.problems, str(report)
    for kind in ("cards_drawn", "location_chosen", "letter_read", "curse_drawn", "curse_passed"):
        assert report.private_seen[kind] and report.private_seen[f"hidden:{kind}"], kind
    assert Phase.PLAN in {state.phase for state in game.states}
