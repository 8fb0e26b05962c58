"""Test-side leak judge for Pinched!: every message a viewer received, against the replay.

A test records each message a seat (or a spectator) received with the game version it
speaks for. Once the game is over and the seed is revealed, the game is replayed with
``engines.base.replay``, and :func:`check` walks every recorded message structurally
(protobuf descriptors, ``ListFields`` recursively, ``google.protobuf.Any`` unpacked).

The judge does not ask the engine what a viewer may see (``view``, ``view_event``,
``view_move``): it follows the true states and the true, unredacted events itself.

Cards. A card id is an int, so cards are found by message type and field only: every
``Valuable`` (views) and the card id fields of moves and events (``CARD_ID_FIELDS``). The
judge tracks every card's place, event by event (``Tracker``): in the face-down deck,
face-down in one seat's hand (drawn face down and not shown since), or open (on a field or
the river, in a stash, on the face-up discards, taken openly, or sold from an open stash).
A card named to a viewer is a leak if at that moment it lies in the deck (a) or face-down
in another seat's hand (b). Events are judged at their own place in their step (the
``Discarded`` cards of a step that then reshuffles the discards into the deck were open
when discarded), everything else at the end of the step. After each step the tracker must
agree with the true state.

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
* a view's ``revealed_*`` fields are empty until the game is over, then every hidden
  part of the final state, the same for every viewer ("after the end, everything is
  public"); before the end their cards are judged like any other;
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

The judge comes in two parts: :class:`pinched_view_judge.ViewJudge` judges single things
(a card, a text, the raw bytes, a view) and :class:`Judge` here walks whole messages
(fields, moves, history entries, events). What was received is recorded with
:mod:`pinched_received`, the truth is followed by :mod:`pinched_truth`, and the fields that
can hold a hidden thing are listed in :mod:`pinched_hidden_fields`.
"""

from __future__ import annotations

from collections.abc import Sequence

from google.protobuf import any_pb2, descriptor_pool, message_factory
from google.protobuf.message import Message

from engines.pinched import events as ev
from engines.pinched.model import Location, PinchedState
from referee.v1 import game_pb2
from referee.v1 import pinched_pb2 as pb
from tests.pinched.pinched_hidden_fields import (
    ANY,
    CARD_ID_FIELDS,
    COMPONENTS,
    CURSE,
    CURSE_FIELDS,
    CURSE_ID_FIELDS,
    EVENT,
    HISTORY_ENTRY,
    LOCATION_ENUM,
    LOCATION_OF,
    MOVE,
    PRIVATE_LOCATIONS,
    PUBLIC_LOCATIONS,
    REVEALED_FIELDS,
    VALUABLE,
    VIEW,
)
from tests.pinched.pinched_received import Received
from tests.pinched.pinched_truth import Events, event_cards, event_tag
from tests.pinched.pinched_view_judge import At, Report, ViewJudge, who


class Judge(ViewJudge):
    """Walks every received message (``Any`` unpacked, history entries, moves and event
    lists at the moment they speak for) and judges each part on the way."""

    # --- entry ----------------------------------------------------------------------------

    def judge(self, item: Received) -> None:
        self.item = item
        self.where = f"{item.source} to {who(item.viewer)} at v{item.version}"
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
            if fd.name in REVEALED_FIELDS and self.states[at.version].finished:
                continue  # the post-game reveal, judged with its view
            if full in CARD_ID_FIELDS:
                for card in value if fd.is_repeated else [value]:
                    self.card(card, "", where, at)
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
                self.leak(path, f"offers curse {curse}, held by {who(holder)}")
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
        named = list(body.cards) if kind in ("cards_drawn", "discarded") else []
        if kind in ("card_taken", "field_refilled", "stored"):
            named = [body.card]
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
