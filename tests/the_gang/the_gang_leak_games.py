"""The Gang no-leak games over gRPC: one game played and watched, and what it must show.

:func:`play` plays one game, of the base game or of a mode (:class:`ModeGame`), with a
driver while every seat and one spectator watch the whole game and late watchers resume
mid-game; then it replays the revealed seed and returns everything received with the
truth (:class:`Played`). :func:`assert_no_leaks` judges it with :mod:`leakcheck`. For the
modes: the games (:data:`MODE_GAMES`) with the cards their piles make come up, which cards
came up and did what they do (:func:`cards_used`), and that each private card reached
exactly the seats the rules name (:func:`assert_private_cards_delivered`).
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import grpc

from engines.base import replay
from engines.the_gang import GAME
from engines.the_gang import events as ev
from engines.the_gang.model import AnnouncementKind, Challenge, Specialist, TheGangState
from referee.codecs import CODECS
from referee.v1 import referee_pb2, the_gang_pb2
from tests.service.table import COLOURS, Stub, Table, mode_options, pile, take
from tests.the_gang.leakcheck import Events, Recorder, Report, Viewer, check, truth_of
from tests.the_gang.the_gang_driver import Driver, aio_stub
from tests.the_gang.the_gang_mode_driver import ModeDriver

Pb = the_gang_pb2
CODEC = CODECS["the_gang"]
MAX_STEPS = 1500
RESUME_AT = (15,)  # steps at which resuming watchers join
MODE_RESUME_AT = (15, 75)  # a mode game is longer: resume in a later heist too


def seed_for(name: str) -> bytes:
    return hashlib.sha256(f"no-leaks/{name}".encode()).digest()


@dataclass
class Played:
    """A finished game, everything its viewers received, and the truth from the replay."""

    seats: int
    seed: bytes
    final_version: int
    recorder: Recorder
    watched: dict[Viewer, list[referee_pb2.WatchGameResponse]]
    states: list[TheGangState]
    events: list[Events]
    rejections: dict[str, int] = field(default_factory=dict)


async def _watch(
    table: Table,
    viewer: Viewer,
    out: list[referee_pb2.WatchGameResponse],
    started: asyncio.Event,
    after: int | None = None,
) -> None:
    request = referee_pb2.WatchGameRequest(game_id=table.game_id)
    if after is not None:
        request.after_version = after  # resume: the missed versions are replayed first
    stream = aio_stub(table).WatchGame(request, metadata=table.md(viewer))
    async for message in stream:
        out.append(message)
        started.set()


@dataclass(frozen=True)
class ModeGame:
    """A game in a mode: its table, the outcome planned per heist, and the cards that the
    piles' order makes come up (each must come up and be put to use)."""

    name: str
    mode: Pb.TheGangMode.ValueType
    seats: int
    confirm: bool
    plan: str
    challenges: tuple[int, ...] = ()
    specialists: tuple[int, ...] = ()
    expected: frozenset[str] = frozenset()  # see name_of
    shuffle: bool = False
    ordered: bool = False  # Professional, Master Thief: keep the challenges in order

    def options(self) -> Pb.TheGangOptions:
        options = mode_options(
            self.mode,
            confirm_round_end=self.confirm,
            shuffle_piles=self.shuffle,
            challenge_pile=pile(*self.challenges) if self.challenges else None,
            specialist_pile=pile(*self.specialists) if self.specialists else None,
        )
        options.ordered_challenges = self.ordered
        return options


async def play(
    stub: Stub, seats: int, confirm: bool, name: str, mode: ModeGame | None = None
) -> Played:
    seed = seed_for(name)
    rng = random.Random(name)
    options = mode.options() if mode is not None else None
    resume_at = RESUME_AT if mode is None else MODE_RESUME_AT
    table = await Table.create(stub, seats, seed=seed, confirm_round_end=confirm, options=options)
    viewers: list[Viewer] = [None, *range(seats)]
    watched: dict[Viewer, list[referee_pb2.WatchGameResponse]] = {v: [] for v in viewers}
    started = {viewer: asyncio.Event() for viewer in viewers}
    watchers = [asyncio.create_task(_watch(table, v, watched[v], started[v])) for v in viewers]
    resumed: list[tuple[Viewer, int, list[referee_pb2.WatchGameResponse]]] = []
    try:
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in started.values())), 10)
        driver = (
            Driver(table, seats, confirm, rng)
            if mode is None
            else ModeDriver(table, seats, confirm, rng, mode.plan)
        )
        driver.view = await driver.get_view(None)
        for viewer in viewers:
            await driver.get_view(viewer)
        await driver.history(0)
        number = 0
        while not driver.finished:
            number += 1
            assert number <= MAX_STEPS, "the random game did not end"
            await driver.step(number)
            if number in resume_at and not driver.finished:
                # Two late watchers resume from an earlier version (replayed, then live).
                for viewer in (None, rng.randrange(seats)):
                    after = max(0, driver.version - 8)
                    out: list[referee_pb2.WatchGameResponse] = []
                    resumed.append((viewer, after, out))
                    begun = asyncio.Event()
                    watchers.append(
                        asyncio.create_task(_watch(table, viewer, out, begun, after=after))
                    )
                    await asyncio.wait_for(begun.wait(), 10)  # subscribed before moving on
        await asyncio.wait_for(asyncio.gather(*watchers), 20)
    finally:
        for task in watchers:
            task.cancel()
    final = driver.version
    # After the end: the seed is revealed; a late move is refused without leaking anything.
    await driver.rejected(
        0,
        "SubmitMove",
        table.submit(0, take(COLOURS[0], 1)),
        grpc.StatusCode.FAILED_PRECONDITION,
        "GAME_OVER",
    )
    history = await driver.history(None)
    assert history.seed == seed
    assert hashlib.sha256(history.seed).hexdigest() == table.seed_sha256
    assert [(e.seat, e.move) for e in history.entries] == [
        (done.seat, done.move) for done in driver.accepted
    ]
    config = GAME.make_config(seats, CODEC.options_from_proto(history.setup.options))
    assert config.confirm_round_end == confirm
    moves = [(e.seat, CODEC.move_from_proto(e.move)) for e in history.entries]
    initial, steps = replay(GAME, config, history.seed, moves)
    states, events = truth_of(initial, steps)
    assert len(states) == final + 1
    assert states[-1].finished
    for viewer, messages in watched.items():
        assert messages[0].snapshot
        assert messages[0].version == 0
        assert [m.version for m in messages] == list(range(final + 1)), f"watcher {viewer}"
        for message in messages:
            driver.recorder.add(viewer, message.version, "WatchGame", message)
    for viewer, after, messages in resumed:
        assert [m.version for m in messages] == list(range(after + 1, final + 1)), viewer
        assert not any(m.snapshot for m in messages)
        for message in messages:
            driver.recorder.add(viewer, message.version, "WatchGame(resumed)", message)
    return Played(seats, seed, final, driver.recorder, watched, states, events, driver.rejections)


def assert_no_leaks(played: Played) -> Report:
    report = check(played.recorder.items, played.states, played.seed, played.events)
    assert not report.problems, str(report)
    for seat in range(played.seats):
        # Versions 0..final-1 are all before the end: at least one own view for each.
        assert report.own_pockets_seen[seat] >= played.final_version, seat
    assert report.views_checked[None] >= played.final_version + 1
    assert report.own_pockets_seen[None] == 0
    assert report.cards_checked > 100 * played.seats
    expected_sources = {
        "GetView",
        "SubmitMove",
        "ListLegalMoves",
        "ValidateMove",
        "WatchGame",
        "WatchGame(resumed)",
        "GetHistory",
    }
    assert expected_sources <= set(report.sources)
    return report


# --- the modes ---------------------------------------------------------------------------------

S, C = Specialist, Challenge
SCAN_CARDS = (C.RETINA_SCAN, C.FINGERPRINT_SCAN)


def name_of(card: Challenge | Specialist) -> str:
    """A card's name: both piles number their cards 1..10, so the numbers would collide."""
    return f"{type(card).__name__}.{card.name}"


def names(*cards: Challenge | Specialist) -> frozenset[str]:
    return frozenset(name_of(card) for card in cards)


MODE_GAMES = [
    # Heist 1 has no cards; a failure turns the top specialist, a success the top challenge.
    ModeGame(
        "advanced-3",
        Pb.THE_GANG_MODE_ADVANCED,
        3,
        confirm=False,
        plan="LLWWW",
        specialists=(1, 6, 2, 3, 4, 5, 7, 8, 9, 10),  # Informant, then Coordinator
        challenges=(4, 9, 2, 3, 5, 6, 7, 8, 10, 1),  # Retina Scan, then Fingerprint Scan
        expected=names(S.INFORMANT, S.COORDINATOR, C.RETINA_SCAN, C.FINGERPRINT_SCAN),
    ),
    # One random challenge stands all game; Hacker, then Jack, then a challenge.
    ModeGame(
        "professional-4",
        Pb.THE_GANG_MODE_PROFESSIONAL,
        4,
        confirm=True,
        plan="LLWL",
        specialists=(5, 7, 1, 2, 3, 4, 6, 8, 9, 10),
        challenges=(9, 3, 2, 4, 5, 6, 7, 8, 10),
        expected=names(S.HACKER, S.JACK),
    ),
    # Con Artist, then Security Cameras, the Muscle and Blackout.
    ModeGame(
        "advanced-5",
        Pb.THE_GANG_MODE_ADVANCED,
        5,
        confirm=False,
        plan="LWLWW",
        specialists=(9, 10, 1, 2, 3, 4, 5, 6, 7, 8),
        challenges=(10, 8, 1, 2, 3, 4, 5, 6, 7, 9),
        expected=names(S.CON_ARTIST, S.MUSCLE, C.SECURITY_CAMERAS, C.BLACKOUT),
    ),
    # The announcing specialists, the dark chips.
    ModeGame(
        "advanced-4",
        Pb.THE_GANG_MODE_ADVANCED,
        4,
        confirm=False,
        plan="LWLWW",
        specialists=(4, 2, 1, 3, 5, 6, 7, 8, 9, 10),  # Mastermind, then Getaway Driver
        challenges=(2, 6, 1, 3, 4, 5, 7, 8, 9, 10),  # Noise Sensors, then Ventilation Shaft
        expected=names(S.MASTERMIND, S.GETAWAY_DRIVER, C.NOISE_SENSORS, C.VENTILATION_SHAFT),
    ),
    # Shuffled piles: whatever the seed brings.
    ModeGame(
        "professional-6-shuffled",
        Pb.THE_GANG_MODE_PROFESSIONAL,
        6,
        confirm=False,
        plan="LWLW",
        shuffle=True,
    ),
    # The challenges kept in order (ordered_challenges): the top two at first, then the
    # top of the pile each heist; two alarms lose.
    ModeGame(
        "master-thief-6",
        Pb.THE_GANG_MODE_MASTER_THIEF,
        6,
        confirm=True,
        plan="WWW",
        challenges=(4, 7, 2, 3, 5, 6, 8, 9, 10),
        expected=names(C.RETINA_SCAN, C.LASER_TRIPWIRES),
        ordered=True,
    ),
]
REQUIRED = names(S.INFORMANT, S.COORDINATOR, S.HACKER, S.JACK, S.CON_ARTIST)


def cards_used(states: Sequence[TheGangState], events: Sequence[Events]) -> frozenset[str]:
    """The cards that came up and did what they do (judged from the truth)."""
    results = states[-1].heists
    happened = {type(event) for step in events for event in step}
    said = {
        event.announcement.kind: event.announcement
        for step in events
        for event in step
        if isinstance(event, ev.Announced)
    }
    informant = AnnouncementKind.INFORMANT in said
    assert not informant or said[AnnouncementKind.INFORMANT].card is not None
    redrawn = {
        event.challenge for step in events for event in step if isinstance(event, ev.PocketRedrawn)
    }
    active = names(*(r.specialist for r in results if r.specialist))
    active |= names(*(challenge for r in results for challenge in r.challenges))
    scans = {scan.challenge for r in results for scan in r.scans}
    evidence: dict[str, bool] = {
        name_of(S.INFORMANT): informant,
        name_of(S.COORDINATOR): ev.CardPassed in happened,
        name_of(S.HACKER): ev.CardDrawn in happened,
        name_of(S.JACK): ev.JackTaken in happened and ev.CardDiscarded in happened,
        name_of(S.CON_ARTIST): ev.PocketsGathered in happened,
        name_of(S.MUSCLE): any(reveal.muscle for r in results for reveal in r.reveals),
        name_of(S.MASTERMIND): AnnouncementKind.MASTERMIND in said,
        name_of(S.GETAWAY_DRIVER): AnnouncementKind.GETAWAY_DRIVER in said,
        name_of(S.INVESTOR): AnnouncementKind.INVESTOR in said,
        name_of(S.MATH_WHIZ): AnnouncementKind.MATH_WHIZ in said,
        name_of(C.RETINA_SCAN): C.RETINA_SCAN in scans,
        name_of(C.FINGERPRINT_SCAN): C.FINGERPRINT_SCAN in scans,
        name_of(C.SECURITY_CAMERAS): any(len(r.reveals[0].pocket) == 3 for r in results),
        name_of(C.MOTION_DETECTOR): C.MOTION_DETECTOR in redrawn,
        name_of(C.LASER_TRIPWIRES): C.LASER_TRIPWIRES in redrawn,
        name_of(C.BLACKOUT): ev.ChipsSetAside in happened,
    }
    return frozenset(card for card in active if evidence.get(card, True))


def assert_private_cards_delivered(played: Played) -> Counter[str]:
    """Each private card reached, in the watch streams, exactly the seats the rules name."""
    delivered: Counter[str] = Counter()
    seats = range(played.seats)

    def cards_to(viewer: Viewer, version: int, kind: str) -> list[list[str]]:
        message = played.watched[viewer][version]
        assert message.version == version
        out = []
        for event in message.events:
            if event.the_gang.WhichOneof("kind") == kind:
                inner = getattr(event.the_gang, kind)
                if kind == "announced":
                    inner = inner.announcement
                if kind in ("pocket_dealt", "pocket_redrawn"):
                    out.append([card.code for card in inner.cards])
                else:
                    out.append([inner.card.code] if inner.HasField("card") else [])
        return out

    def reaches(kind: str, version: int, cards: list[str], only: set[int]) -> None:
        for viewer in [None, *seats]:
            got = cards_to(viewer, version, kind)
            if viewer in only:
                assert cards in got, (kind, version, viewer, got)
            else:
                assert cards not in got, (kind, version, viewer, got)
        delivered[kind] += 1

    for version, step in enumerate(played.events):
        if played.states[version].finished:
            continue
        for event in step:
            match event:
                case ev.Announced(announcement=said) if said.card is not None:
                    assert said.to_seat is not None
                    reaches("announced", version, [str(said.card)], {said.seat, said.to_seat})
                case (
                    ev.CardDrawn(seat=seat, card=card)
                    | ev.CardDiscarded(seat=seat, card=card)
                    | ev.PassChosen(seat=seat, card=card)
                ):
                    assert card is not None
                    kind = {ev.CardDrawn: "card_drawn", ev.CardDiscarded: "card_discarded"}.get(
                        type(event), "pass_chosen"
                    )
                    reaches(kind, version, [str(card)], {seat})
                case ev.CardPassed(from_seat=giver, to_seat=taker, card=card):
                    assert card is not None
                    reaches("card_passed", version, [str(card)], {giver, taker})
                case (
                    ev.PocketDealt(seat=seat, cards=cards)
                    | ev.PocketRedrawn(seat=seat, cards=cards)
                ):
                    kind = "pocket_dealt" if isinstance(event, ev.PocketDealt) else "pocket_redrawn"
                    reaches(kind, version, [str(card) for card in cards], {seat})
    return delivered
