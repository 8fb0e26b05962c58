"""Test-side leak judge for Pinched!: every message a viewer received, against the replay.

A test records each message a seat (or a spectator) received with the game version it
speaks for. Once the game is over and the seed is revealed, the game is replayed with
``engines.base.replay``, and :func:`check` walks every recorded message structurally
(protobuf descriptors, ``ListFields`` recursively, ``google.protobuf.Any`` unpacked).

The judge does not ask the engine what a viewer may see (``view``, ``view_event``,
``view_move``): it follows the true states and the true, unredacted events itself.

Cards. A card id is an int, so cards are found by message type and field only: every
``Valuable`` and ``PinchedMove.Store.card``. The judge tracks every card's place, event by
event (``Tracker``): in the face-down deck, face-down in one seat's hand (drawn face down
and not shown since), or open (on a field or the river, in a stash, on the face-up
discards, taken openly, or sold from an open stash). A card named to a viewer is a leak if
at that moment it lies in the deck (a) or face-down in another seat's hand (b). Events are
judged at their own place in their step (the ``Discarded`` cards of a step that then
reshuffles the discards into the deck were open when discarded), everything else at the
end of the step. After each step the tracker must agree with the true state.

Private parts, by field:

* a view's ``hand``, ``sold`` and ``curses`` are exactly the viewer's own (empty for a
  spectator); another seat's card there is a leak (b, c, d), and so is a curse in any other
  place but ``CurseDrawn`` to the seat that drew it and ``CursePassed`` to the giver and
  the taker (d);
* a view's ``letter`` only for a seat that read it or once it is opened (e); ``LetterRead``
  names the location only to the reader;
* a sealed location card: ``LocationChosen.location`` only for the seat that chose; a
  view's ``choices`` and ``heist`` only after the reveal, ``my_choice`` only the viewer's
  own; a logged ``ChooseLocation`` of another seat only if its step revealed the cards
  (f); a logged ``PassCurse`` only to the giver and the taker;
* every other ``Location`` field is public (``LocationSide``, ``LocationFields``,
  ``LocationsRevealed``, ``LetterOpened``, ``CardTaken``, ``FieldRefilled``, ``FieldRef``);
  a ``Location`` field or a ``Curse`` the judge does not know is reported, so a new field
  cannot slip by unjudged;
* texts (strings in messages, status details, metadata) must not name a hidden location
  (another seat's sealed card, the unread letter) unless the viewer's own request named
  it, nor a hidden card or curse ("card 17", "curse 3").

Besides: a view is the viewer's own at its version, with the true counts (deck, curse pile,
hands, sold piles, curses) and its own private parts present (so a test cannot pass by
seeing nothing); each event of a step is the true event in order, with the hidden parts
present for the seats entitled to them; no message holds the seed (raw, hex, base64) or
the deck's next cards in order (packed ids) before the game is over. A ``HistoryEntry`` is
judged at its own version; a history received once the game is over is the full log.
"""

from __future__ import annotations

import base64
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf import any_pb2, descriptor, descriptor_pool, message_factory
from google.protobuf.message import Message
from grpc_status import rpc_status

from engines.pinched import events as ev
from engines.pinched.components import JOKER, kinds_of
from engines.pinched.model import Location, Phase, PinchedState
from referee.v1 import game_pb2
from referee.v1 import pinched_pb2 as pb

Viewer = int | None
Events = Sequence[object]
"""The true (unredacted) events of one step, as the engine produced them."""

DECK = -2
OPEN = -1
"""A card's place for the judge: DECK, OPEN, or the seat holding it face down."""

PB_LOCATION = {where: pb.Location.Value(f"LOCATION_{where.name}") for where in Location}
LOCATION_OF = {value: where for where, value in PB_LOCATION.items()}
SEALED = (Phase.DOGS, Phase.PLAN)

ANY = "google.protobuf.Any"
VIEW = "referee.v1.View"
PINCHED_VIEW = "referee.v1.PinchedView"
HISTORY_ENTRY = "referee.v1.HistoryEntry"
EVENT = "referee.v1.Event"
MOVE = "referee.v1.Move"
VALUABLE = "referee.v1.Valuable"
CURSE = "referee.v1.Curse"
COMPONENTS = "referee.v1.PinchedComponents"
LOCATION_ENUM = "referee.v1.Location"

PUBLIC_LOCATIONS = frozenset(
    {
        "referee.v1.LocationSide.location",
        "referee.v1.LocationFields.location",
        "referee.v1.PinchedEvent.LocationsRevealed.choices",
        "referee.v1.PinchedEvent.LocationsRevealed.heist",
        "referee.v1.PinchedEvent.LetterOpened.location",
        "referee.v1.PinchedEvent.CardTaken.location",
        "referee.v1.PinchedEvent.FieldRefilled.location",
        "referee.v1.PinchedMove.FieldRef.location",
    }
)
"""Location fields anyone may see."""
PRIVATE_LOCATIONS = frozenset(
    {
        "referee.v1.PinchedView.my_choice",
        "referee.v1.PinchedView.choices",
        "referee.v1.PinchedView.heist",
        "referee.v1.PinchedView.letter",
        "referee.v1.PinchedEvent.LocationChosen.location",
        "referee.v1.PinchedEvent.LetterRead.location",
        "referee.v1.PinchedMove.ChooseLocation.location",
    }
)
"""Location fields judged where their message is judged (view, event, move)."""
CURSE_FIELDS = frozenset(
    {
        "referee.v1.PinchedView.curses",
        "referee.v1.PinchedEvent.CurseDrawn.curse",
        "referee.v1.PinchedEvent.CursePassed.curse",
    }
)
"""Where a Curse may be: judged with its view or event."""
CARD_ID_FIELDS = frozenset({"referee.v1.PinchedMove.Store.card"})
CURSE_ID_FIELDS = frozenset({"referee.v1.PinchedMove.PassCurse.curse"})

_NAMES: dict[Location, tuple[str, ...]] = {
    Location.DIAMONDS: ("diamonds?", "ruiten", "zilversteen"),
    Location.CLUBS: ("clubs?", "klaveren", "tonnengoud"),
    Location.SPADES: ("spades?", "schoppen", "verdeggianti"),
    Location.HEARTS: ("hearts?", "harten", "mille-feuille"),
    Location.BANK: ("bank", "stonewall"),
}
LOCATION_WORDS = {
    where: re.compile(r"(?i)(?<![a-z])(?:" + "|".join(words) + r")(?![a-z])")
    for where, words in _NAMES.items()
}
CARD_IN_TEXT = re.compile(r"(?i)(?<![a-z])(?:card|valuable)s?\s*(?:id\s*)?[#:=]?\s*(\d+)")
CURSE_IN_TEXT = re.compile(r"(?i)(?<![a-z])curses?\s*(?:id\s*)?[#:=]?\s*(\d+)")


# --- what was received --------------------------------------------------------------------


@dataclass(frozen=True)
class Received:
    """One message as a viewer got it, at the version it speaks for.

    ``texts`` and ``blobs`` hold what came outside the protobuf message (metadata values,
    a rejection's details string); ``asked`` the locations the viewer's own request named
    (a text may name those back).
    """

    viewer: Viewer
    version: int
    source: str
    message: Message
    texts: tuple[str, ...] = ()
    blobs: tuple[bytes, ...] = ()
    asked: frozenset[int] = frozenset()


def locations_named(message: Message | None) -> frozenset[int]:
    """Every Location value a request names (its move's ChooseLocation and FieldRefs)."""
    if message is None:
        return frozenset()
    found: set[int] = set()
    for fd, value in message.ListFields():
        if fd.enum_type is not None and fd.enum_type.full_name == LOCATION_ENUM:
            found.update(value if fd.is_repeated else [value])
        elif fd.message_type is not None:
            for item in value if fd.is_repeated else [value]:
                found |= locations_named(item)
    return frozenset(found)


@dataclass
class Recorder:
    items: list[Received] = field(default_factory=list)

    def add(
        self,
        viewer: Viewer,
        version: int,
        source: str,
        message: Message,
        metadata: Sequence[tuple[str, str | bytes]] = (),
    ) -> None:
        """An answer, with the call's metadata (initial and trailing) if the test has it."""
        copy = type(message)()
        copy.CopyFrom(message)
        texts, blobs = _split(metadata)
        self.items.append(Received(viewer, version, source, copy, texts, blobs))

    def add_error(
        self,
        viewer: Viewer,
        version: int,
        source: str,
        error: grpc.aio.AioRpcError,
        request: Message | None = None,
    ) -> None:
        """A rejection: its rich status (ErrorInfo inside), details string and metadata."""
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
        assert status is not None, f"{source}: rejection without rich status: {error.details()}"
        metadata: Any = [*(error.initial_metadata() or ()), *(error.trailing_metadata() or ())]
        texts, blobs = _split(metadata)
        texts = (error.details() or "", error.debug_error_string() or "", *texts)
        asked = locations_named(request)
        self.items.append(Received(viewer, version, source, status, texts, blobs, asked))

    def add_answer(
        self, viewer: Viewer, version: int, source: str, message: Message, request: Message
    ) -> None:
        """An answer to a request naming locations (a dry run)."""
        copy = type(message)()
        copy.CopyFrom(message)
        asked = locations_named(request)
        self.items.append(Received(viewer, version, source, copy, asked=asked))


def _split(
    metadata: Sequence[tuple[str, str | bytes]],
) -> tuple[tuple[str, ...], tuple[bytes, ...]]:
    texts = tuple(value for _key, value in metadata if isinstance(value, str))
    blobs = tuple(value for _key, value in metadata if isinstance(value, bytes))
    return texts, blobs


# --- the truth: every card's place, event by event ----------------------------------------


def event_tag(event: object) -> str:
    """The event's oneof name in ``PinchedEvent`` (the engine's tags spell them)."""
    tag = type(event).__struct_config__.tag  # type: ignore[attr-defined]
    assert isinstance(tag, str)
    return tag


def event_cards(event: object) -> tuple[int, ...]:
    """The card ids a true event names."""
    match event:
        case ev.CardsDrawn(cards=cards) | ev.Discarded(cards=cards):
            return tuple(cards)
        case ev.CardTaken(card=card) | ev.FieldRefilled(card=card) | ev.Stored(card=card):
            return (card,)
    return ()


class Tracker:
    """Every card's place (DECK, OPEN or a seat) after each event of each step."""

    def __init__(self, states: Sequence[PinchedState], events: Sequence[Events]) -> None:
        self.problems: list[str] = []
        first = states[0]
        self.size = len(kinds_of(first.config.components))
        status = [OPEN] * self.size
        for card in first.deck:
            status[card] = DECK
        for seat, hand in enumerate(first.hands):
            for card in hand:
                status[card] = seat
        discard = list(first.discard)
        self._after: list[list[tuple[int, ...]]] = [[]]
        self._end: list[tuple[int, ...]] = [tuple(status)]
        self._agree(0, status, discard, first)
        for version in range(1, len(states)):
            steps: list[tuple[int, ...]] = []
            for event in events[version] if version < len(events) else ():
                self._apply(version, event, status, discard)
                steps.append(tuple(status))
            self._after.append(steps)
            self._end.append(tuple(status))
            self._agree(version, status, discard, states[version])

    def _apply(self, version: int, event: object, status: list[int], discard: list[int]) -> None:
        where = f"tracker v{version} {event_tag(event)}"
        match event:
            case ev.CardsDrawn(seat=seat, cards=cards):
                for card in cards:
                    if status[card] != DECK:
                        self.problems.append(f"{where}: card {card} drawn but not in the deck")
                    status[card] = seat
            case ev.FieldRefilled(card=card):
                if status[card] != DECK:
                    self.problems.append(f"{where}: card {card} refilled but not in the deck")
                status[card] = OPEN
            case ev.CardTaken(card=card) | ev.Stored(card=card):
                status[card] = OPEN
            case ev.Discarded(cards=cards):
                for card in cards:
                    status[card] = OPEN
                discard.extend(cards)
            case ev.DeckReshuffled(cards=count):
                if count != len(discard):
                    self.problems.append(f"{where}: {count} cards, the discards held {discard}")
                for card in discard:
                    status[card] = DECK
                discard.clear()

    def _agree(
        self, version: int, status: list[int], discard: list[int], state: PinchedState
    ) -> None:
        """The tracked places are the true state's (else an event is missing or wrong)."""
        deck = {card for card, where in enumerate(status) if where == DECK}
        if deck != set(state.deck):
            self.problems.append(f"tracker v{version}: deck {sorted(deck)} vs {state.deck}")
        if discard != list(state.discard):
            self.problems.append(f"tracker v{version}: discards {discard} vs {state.discard}")
        for card, where in enumerate(status):
            if where >= 0 and card not in state.hands[where]:
                self.problems.append(f"tracker v{version}: card {card} not in seat {where}'s hand")

    def status(self, version: int, index: int | None) -> tuple[int, ...]:
        """Places after event ``index`` of step ``version`` (None: after the whole step)."""
        if index is None or not self._after[version]:
            return self._end[version]
        return self._after[version][min(index, len(self._after[version]) - 1)]


def truth_of(
    initial: PinchedState, steps: Sequence[Any]
) -> tuple[list[PinchedState], list[Events]]:
    """States and true events by version from ``engines.base.replay``'s answer."""
    states = [initial, *(step.state for step in steps)]
    events: list[Events] = [(), *(tuple(step.events) for step in steps)]
    return states, events


# --- the report ---------------------------------------------------------------------------


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    cards_checked: int = 0
    locations_checked: int = 0
    texts_checked: int = 0
    views_checked: Counter[Viewer] = field(default_factory=Counter)
    sources: Counter[str] = field(default_factory=Counter)
    # Private parts shown rightly to the viewer they belong to (so the test is not vacuous):
    # "hand" (a face-down card in its own hand), "sold", "curses", "letter", "my_choice",
    # and the events "cards_drawn", "location_chosen", "letter_read", "curse_drawn",
    # "curse_passed"; "hidden:<event>" counts the same events rightly redacted for others.
    private_seen: Counter[str] = field(default_factory=Counter)

    @property
    def leaks(self) -> list[str]:
        return [problem for problem in self.problems if problem.startswith("LEAK")]

    def __str__(self) -> str:
        head = f"{len(self.problems)} problems ({len(self.leaks)} leaks); first ones:\n  "
        return head + "\n  ".join(self.problems[:25])


def seed_forms(seed: bytes) -> tuple[bytes, ...]:
    return (
        seed,
        seed.hex().encode(),
        seed.hex().upper().encode(),
        base64.b64encode(seed),
        base64.urlsafe_b64encode(seed).rstrip(b"="),
    )


def packed(ids: Sequence[int]) -> bytes:
    """``ids`` as a packed repeated int32 field's payload (varints back to back)."""
    out = bytearray()
    for value in ids:
        while True:
            byte = value & 0x7F
            value >>= 7
            out.append(byte | (0x80 if value else 0))
            if not value:
                break
    return bytes(out)


DECK_RUN = 5
"""How many of the deck's next cards, in order, the raw search looks for."""


def _who(viewer: Viewer) -> str:
    return "the spectator" if viewer is None else f"seat {viewer}"


# --- the judge ----------------------------------------------------------------------------


@dataclass(frozen=True)
class At:
    """When a part of a message speaks for: after event ``index`` of step ``version``
    (None: after the whole step); ``mover``: the seat of a logged move."""

    version: int
    index: int | None = None
    mover: int | None = None
    history: bool = False


class Judge:
    def __init__(
        self,
        states: Sequence[PinchedState],
        events: Sequence[Events],
        seed: bytes,
        report: Report,
    ) -> None:
        self.states = states
        self.events = events
        self.report = report
        self.tracker = Tracker(states, events)
        report.problems.extend(self.tracker.problems)
        table = states[0].config.components
        self.kinds = kinds_of(table)
        self.kind_names = [kind.name for kind in table.kinds]
        self.seed_forms = seed_forms(seed)
        self.revealing = [any(isinstance(e, ev.LocationsRevealed) for e in step) for step in events]
        self.item: Received = Received(None, 0, "", game_pb2.View())
        self.where = ""

    # --- helpers --------------------------------------------------------------------------

    @property
    def viewer(self) -> Viewer:
        return self.item.viewer

    def problem(self, text: str) -> None:
        self.report.problems.append(f"{self.where}: {text}")

    def leak(self, path: str, text: str) -> None:
        self.report.problems.append(f"LEAK {self.where}: {path} {text}")

    def over(self) -> bool:
        return self.states[self.item.version].finished

    def kind_name(self, card: int) -> str:
        kind = self.kinds[card]
        return "document" if kind == JOKER else self.kind_names[kind]

    def hidden_locations(self, version: int) -> dict[Location, str]:
        """Locations ``viewer`` may not know at ``version``, with what they are."""
        state = self.states[version]
        out: dict[Location, str] = {}
        if state.phase in SEALED:
            for seat, choice in enumerate(state.choices):
                if choice is not None and seat != self.viewer:
                    out.setdefault(choice, f"seat {seat}'s sealed location card")
        letter = state.letter
        if letter is not None and not letter.opened and self.viewer not in letter.seen_by:
            out.setdefault(letter.location, "the sealed letter's location")
        return out

    # --- entry ----------------------------------------------------------------------------

    def judge(self, item: Received) -> None:
        self.item = item
        self.where = f"{item.source} to {_who(item.viewer)} at v{item.version}"
        self.report.sources[item.source] += 1
        if not 0 <= item.version < len(self.states):
            self.problem(f"version outside the game (0..{len(self.states) - 1})")
            return
        if not self.over():
            self.raw(item)
        top = item.message.DESCRIPTOR.fields_by_name.get("version")
        if top is not None and item.message.DESCRIPTOR.full_name != VIEW:
            # SubmitMoveResponse, WatchGameResponse, GetHistoryResponse...: their version.
            said = getattr(item.message, top.name)
            if said != item.version:
                self.problem(f"{item.source}: says v{said}")
        self.walk(item.message, item.source, At(item.version))
        for text in item.texts:
            self.text(text, f"{item.source}#text", At(item.version))

    def raw(self, item: Received) -> None:
        """The seed and the deck's order, searched in the bytes before the game is over."""
        wire = [item.message.SerializeToString(), *item.blobs]
        wire += [text.encode("utf-8", "replace") for text in item.texts]
        if any(form in blob for form in self.seed_forms for blob in wire):
            self.leak(item.source, "holds the seed before the game is over")
        deck = self.states[item.version].deck
        if len(deck) >= DECK_RUN:
            run = packed(deck[:DECK_RUN])
            spelled = [sep.join(str(c) for c in deck[:DECK_RUN]) for sep in (",", ", ", " ")]
            if any(run in blob for blob in wire) or any(
                s in text for s in spelled for text in item.texts
            ):
                self.leak(item.source, f"holds the deck's next cards in order {deck[:DECK_RUN]}")

    # --- the walk -------------------------------------------------------------------------

    def walk(self, message: Message, path: str, at: At) -> None:
        name = message.DESCRIPTOR.full_name
        if name == ANY:
            assert isinstance(message, any_pb2.Any)
            inner = _unpack(message)
            if inner is None:
                self.problem(f"{path}: Any of unknown type {message.type_url!r}")
            else:
                self.walk(inner, f"{path}<{inner.DESCRIPTOR.name}>", at)
            return
        if name == HISTORY_ENTRY:
            assert isinstance(message, game_pb2.HistoryEntry)
            self.entry(message, path)
            return
        if name == VALUABLE:
            assert isinstance(message, pb.Valuable)
            self.card(message.id, message.kind, path, at)
            return
        if name == CURSE:
            self.problem(f"{path}: a Curse where the judge does not expect one")
            return
        if name == COMPONENTS:
            return  # the public component table: names and numbers only
        if name == MOVE:
            assert isinstance(message, game_pb2.Move)
            self.move(message, path, at)
            return
        if name == VIEW:
            assert isinstance(message, game_pb2.View)
            self.view(message, path, at)
        self.fields(message, path, at)

    def fields(self, message: Message, path: str, at: At) -> None:
        owner = message.DESCRIPTOR.full_name
        for fd, value in message.ListFields():
            where = f"{path}.{fd.name}"
            full = f"{owner}.{fd.name}"
            if fd.enum_type is not None and fd.enum_type.full_name == LOCATION_ENUM:
                self.report.locations_checked += 1
                if full not in PUBLIC_LOCATIONS and full not in PRIVATE_LOCATIONS:
                    self.problem(f"{where}: a Location field the judge does not know")
                continue
            if full in CURSE_FIELDS:
                continue  # judged with its view or event
            if full in CARD_ID_FIELDS:
                self.card(value, "", where, at)
                continue
            if full in CURSE_ID_FIELDS:
                continue  # judged with its move
            if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
                for key, item in value.items():
                    self.value(f"{where}[{key!r}]", key, at)
                    self.value(f"{where}[{key!r}]", item, at)
            elif fd.is_repeated and fd.message_type is not None:
                if fd.message_type.full_name == EVENT:
                    # A watch snapshot brings no events; every other list is the step's.
                    snapshot = bool(getattr(message, "snapshot", False))
                    self.event_list(list(value), where, at, complete=not snapshot)
                else:
                    for index, item in enumerate(value):
                        self.walk(item, f"{where}[{index}]", at)
            elif fd.is_repeated:
                for item in value:
                    self.value(where, item, at)
            else:
                self.value(where, value, at)

    def value(self, path: str, value: object, at: At) -> None:
        if isinstance(value, Message):
            self.walk(value, path, at)
        elif isinstance(value, str):
            self.text(value, path, at)
        elif isinstance(value, bytes):
            self.text(value.decode("latin-1"), path, at)

    # --- cards and texts ------------------------------------------------------------------

    def card(self, card: int, kind: str, path: str, at: At) -> None:
        self.report.cards_checked += 1
        if not 0 <= card < len(self.kinds):
            self.problem(f"{path}: no card {card} in this game")
            return
        if kind and kind != self.kind_name(card):
            self.problem(f"{path}: card {card} named a {kind!r}, truly a {self.kind_name(card)}")
        place = self.tracker.status(at.version, at.index)[card]
        moment = f"v{at.version}" + (f" event {at.index}" if at.index is not None else "")
        if place == DECK:
            self.leak(path, f"shows card {card}, which lies in the face-down deck at {moment}")
        elif place >= 0 and place != self.viewer:
            self.leak(path, f"shows card {card}, face down in seat {place}'s hand at {moment}")

    def text(self, text: str, path: str, at: At) -> None:
        if not text:
            return
        self.report.texts_checked += 1
        for where, what in self.hidden_locations(at.version).items():
            if PB_LOCATION[where] in self.item.asked:
                continue
            if LOCATION_WORDS[where].search(text):
                self.leak(path, f"names {where} ({what}) in {text!r}")
        status = self.tracker.status(at.version, at.index)
        for match in CARD_IN_TEXT.finditer(text):
            card = int(match.group(1))
            if 0 <= card < len(status) and (
                status[card] == DECK or (status[card] >= 0 and status[card] != self.viewer)
            ):
                self.leak(path, f"names hidden card {card} in {text!r}")
        mine = self._own_curses(at.version)
        for match in CURSE_IN_TEXT.finditer(text):
            if int(match.group(1)) not in mine:
                self.leak(path, f"names curse {match.group(1)} in {text!r}")

    def _own_curses(self, version: int) -> set[int]:
        state = self.states[version]
        return {c.id for c in state.curses[self.viewer]} if self.viewer is not None else set()

    # --- moves ----------------------------------------------------------------------------

    def move(self, move: game_pb2.Move, path: str, at: At) -> None:
        """A move in a legal-move list (the viewer's own) or a logged one (``at.mover``)."""
        body = move.pinched
        action = body.WhichOneof("action")
        mover = at.mover if at.history else self.viewer
        state = self.states[at.version]
        if action == "choose_location" and mover != self.viewer:
            if not self.revealing[at.version]:
                where = LOCATION_OF.get(body.choose_location.location)
                self.leak(path, f"shows seat {mover}'s sealed location card {where}")
        elif action == "pass_curse":
            curse, taker = body.pass_curse.curse, body.pass_curse.to_seat
            if at.history:
                if self.viewer not in (mover, taker):
                    self.leak(path, f"shows curse {curse} passed by seat {mover} to seat {taker}")
            elif curse not in self._own_curses(at.version):
                holder = next(
                    (s for s, row in enumerate(state.curses) if curse in {c.id for c in row}),
                    None,
                )
                self.leak(path, f"offers curse {curse}, held by {_who(holder)}")
        self.fields(move, path, at)

    def entry(self, entry: game_pb2.HistoryEntry, path: str) -> None:
        version = entry.version
        if not 1 <= version < len(self.states):
            self.problem(f"{path}: an entry of unknown version {version}")
            return
        if self.over():
            return  # the full log is public once the game is over
        at = At(version, mover=entry.seat, history=True)
        if entry.HasField("move"):
            self.move(entry.move, f"{path}.move", at)
        self.event_list(list(entry.events), f"{path}.events", at)

    # --- events ---------------------------------------------------------------------------

    def event_list(
        self, received: list[game_pb2.Event], path: str, at: At, complete: bool = True
    ) -> None:
        version = at.version
        true = list(self.events[version]) if version < len(self.events) else []
        if (complete or received) and len(received) != len(true):
            self.problem(f"{path}: {len(received)} events, step v{version} had {len(true)}")
        for index, event in enumerate(received):
            here = At(version, min(index, max(len(true) - 1, 0)), at.mover, at.history)
            where = f"{path}[{index}]"
            if index < len(true):
                self.event(event, true[index], where, here)
            self.fields(event, where, here)

    def event(self, event: game_pb2.Event, true: object, path: str, at: At) -> None:
        kind = event.pinched.WhichOneof("kind")
        if event.WhichOneof("game") != "pinched" or kind != event_tag(true):
            self.problem(f"{path}: a {kind} where the step had {event_tag(true)}")
            return
        body = getattr(event.pinched, kind)
        named = [c.id for c in body.cards] if kind in ("cards_drawn", "discarded") else []
        if kind in ("card_taken", "field_refilled", "stored"):
            named = [body.card.id] if body.HasField("card") else []
        if not set(named) <= set(event_cards(true)):
            self.problem(f"{path}: names cards {named}, the event had {event_cards(true)}")
        viewer = self.viewer
        match true:
            case ev.CardsDrawn(seat=seat, cards=cards):
                self.private(
                    path, "cards_drawn", viewer == seat, named, list(cards), f"seat {seat}'s draw"
                )
            case (
                ev.LocationChosen(seat=seat, location=where)
                | ev.LetterRead(seat=seat, location=where)
            ):
                got = LOCATION_OF.get(body.location)
                what = "sealed location card" if kind == "location_chosen" else "letter reading"
                self.private(path, kind, viewer == seat, got, where, f"seat {seat}'s {what}")
            case ev.CurseDrawn(seat=seat, curse=curse):
                got_curse = (body.curse.id, body.curse.points) if body.HasField("curse") else None
                want = (curse.id, curse.points) if curse is not None else None
                self.private(path, kind, viewer == seat, got_curse, want, f"seat {seat}'s curse")
            case ev.CursePassed(from_seat=giver, to_seat=taker, curse=curse):
                got_curse = (body.curse.id, body.curse.points) if body.HasField("curse") else None
                want = (curse.id, curse.points) if curse is not None else None
                entitled = viewer in (giver, taker)
                who = f"the curse seat {giver} passed to seat {taker}"
                self.private(path, kind, entitled, got_curse, want, who)

    def private(
        self, path: str, kind: str, entitled: bool, got: object, want: object, what: str
    ) -> None:
        """A hidden part of an event: whole for the entitled seats, absent for the rest."""
        empty = got is None or got == []
        if entitled:
            if got != want:
                self.problem(f"{path}: {what} shown as {_plain(got)}, truly {_plain(want)}")
            else:
                self.report.private_seen[kind] += 1
        elif not empty:
            self.leak(path, f"shows {what}: {_plain(got)}")
        else:
            self.report.private_seen[f"hidden:{kind}"] += 1

    # --- views ----------------------------------------------------------------------------

    def view(self, view: game_pb2.View, path: str, at: At) -> None:
        """The view is the viewer's own at its version: private parts exactly its own,
        sealed parts absent, true counts. Its cards are judged by the walk."""
        viewer, version = self.viewer, at.version
        self.report.views_checked[viewer] += 1
        seat = view.seat if view.HasField("seat") else None
        if seat != viewer:
            self.problem(f"{path}: a view for {_who(seat)}")
        if view.version != version:
            self.problem(f"{path}: a view of v{view.version}")
            return
        state = self.states[version]
        body = view.pinched
        self.counts(body, state, path)
        self.own_cards(body, state, path, version)
        self.own_curses(body, state, path)
        self.own_locations(body, state, path)

    def counts(self, body: pb.PinchedView, state: PinchedState, path: str) -> None:
        truth = {
            "deck_size": len(state.deck),
            "curse_pile": len(state.curse_pile),
            "hand_sizes": [len(hand) for hand in state.hands],
            "sold_counts": [len(sold) for sold in state.sold],
            "curse_counts": [len(curses) for curses in state.curses],
            "chosen_seats": [s for s, c in enumerate(state.choices) if c is not None],
        }
        for name, want in truth.items():
            got = getattr(body, name)
            got = list(got) if isinstance(want, list) else got
            if got != want:
                self.problem(f"{path}.pinched.{name} is {got}, truly {want}")

    def own_cards(self, body: pb.PinchedView, state: PinchedState, path: str, version: int) -> None:
        viewer = self.viewer
        for name, rows in (("hand", state.hands), ("sold", state.sold)):
            got = [card.id for card in getattr(body, name)]
            want = list(rows[viewer]) if viewer is not None else []
            if got == want:
                status = self.tracker.status(version, None)
                if name == "hand" and any(status[card] == viewer for card in got):
                    self.report.private_seen["hand"] += 1
                elif name == "sold" and got:
                    self.report.private_seen["sold"] += 1
                continue
            others = {
                card: seat
                for seat, row in enumerate(rows)
                if seat != viewer
                for card in row
                if card in got
            }
            if others:
                self.leak(
                    f"{path}.pinched.{name}",
                    f"shows {name} cards of other seats {others} (truly {want})",
                )
            else:
                self.problem(f"{path}.pinched.{name} is {got}, truly {want}")

    def own_curses(self, body: pb.PinchedView, state: PinchedState, path: str) -> None:
        viewer = self.viewer
        got = sorted((c.id, c.points) for c in body.curses)
        want = sorted((c.id, c.points) for c in state.curses[viewer]) if viewer is not None else []
        if got == want:
            self.report.private_seen["curses"] += bool(got)
            return
        foreign = [c for c in got if c not in want]
        if foreign:
            owners = {
                curse: _who(seat)
                for seat, row in enumerate(state.curses)
                for curse in row
                if (curse.id, curse.points) in foreign
            }
            self.leak(f"{path}.pinched.curses", f"shows curses {foreign} not its own: {owners}")
        else:
            self.problem(f"{path}.pinched.curses is {got}, truly {want}")

    def own_locations(self, body: pb.PinchedView, state: PinchedState, path: str) -> None:
        viewer = self.viewer
        sealed = state.phase in SEALED
        p = f"{path}.pinched"
        own = state.choices[viewer] if viewer is not None and state.choices else None
        mine = LOCATION_OF.get(body.my_choice)
        if mine != own:
            if mine is not None and sealed:
                self.leak(f"{p}.my_choice", f"is {mine}, the viewer's own card is {own}")
            else:
                self.problem(f"{p}.my_choice is {mine}, truly {own}")
        elif mine is not None and sealed:
            self.report.private_seen["my_choice"] += 1
        choices = [LOCATION_OF.get(c) for c in body.choices]
        if sealed and any(choice is not None for choice in choices):
            self.leak(f"{p}.choices", f"shows the sealed location cards {choices}")
        elif choices and choices != list(state.choices):
            self.problem(f"{p}.choices is {choices}, truly {list(state.choices)}")
        heist = LOCATION_OF.get(body.heist)
        if heist != state.heist:
            if sealed and heist is not None:
                self.leak(f"{p}.heist", f"shows {heist} before the reveal")
            else:
                self.problem(f"{p}.heist is {heist}, truly {state.heist}")
        letter, said = state.letter, LOCATION_OF.get(body.letter)
        entitled = letter is not None and (letter.opened or viewer in letter.seen_by)
        if not entitled:
            if said is not None:
                self.leak(f"{p}.letter", f"shows the unread letter's location {said}")
        elif letter is not None and said != letter.location:
            self.problem(f"{p}.letter is {said}, truly {letter.location} (read or opened)")
        elif letter is not None and not letter.opened:
            self.report.private_seen["letter"] += 1


def _plain(value: object) -> str:
    return str(value.value) if isinstance(value, Location) else repr(value)


def _unpack(message: any_pb2.Any) -> Message | None:
    try:
        desc = descriptor_pool.Default().FindMessageTypeByName(message.TypeName())
    except KeyError:
        return None
    inner = message_factory.GetMessageClass(desc)()
    return inner if message.Unpack(inner) else None


def check(
    items: Sequence[Received],
    states: Sequence[PinchedState],
    seed: bytes,
    events: Sequence[Events],
) -> Report:
    """Judge every received message against ``states[v]``, the true state at version v,
    and ``events[v]``, the true events of the step that made version v (``events[0]`` is
    empty: the deal's own events are never sent)."""
    report = Report()
    judge = Judge(states, events, seed, report)
    for item in items:
        judge.judge(item)
    return report


# --- the contract: where hidden things can be ----------------------------------------------


def paths_to(
    message: descriptor.Descriptor, want: str, seen: frozenset[str] = frozenset()
) -> set[str]:
    """Every field reachable inside ``message`` whose message or enum type is ``want``, by
    its full name (``referee.v1.Owner.field``), through messages not yet on the path."""
    out: set[str] = set()
    for fd in message.fields:
        kind = fd.message_type or fd.enum_type
        if kind is None:
            continue
        if kind.full_name == want:
            out.add(fd.full_name)
        elif fd.message_type is not None and fd.message_type.full_name not in seen:
            inner = seen | {message.full_name}
            out |= paths_to(fd.message_type, want, inner)
    return out


def iter_int_fields(message: descriptor.Descriptor) -> Iterator[descriptor.FieldDescriptor]:
    """Every int field reachable from ``message`` (each message type once)."""
    seen: set[str] = set()
    todo = [message]
    while todo:
        current = todo.pop()
        if current.full_name in seen:
            continue
        seen.add(current.full_name)
        for fd in current.fields:
            if fd.message_type is not None:
                todo.append(fd.message_type)
            elif fd.type in (fd.TYPE_INT32, fd.TYPE_INT64, fd.TYPE_UINT32, fd.TYPE_SINT32):
                yield fd
