"""Test-side leak detector: every message a viewer received, judged against the replay.

A test records each message a seat (or a spectator) received, with the game version it
belongs to. Once the game is over and the seed is revealed, the game is replayed with the
engine, and :func:`check` walks every recorded message structurally (protobuf descriptors,
``ListFields`` recursively, ``google.protobuf.Any`` unpacked) and as raw text:

* a ``PlayingCard`` or a card code in any string is a leak when, at that version, the card
  lies in the face-down deck or in the pocket of a seat other than the viewer (any seat,
  for a spectator) of the heist still being played;
* cards inside a ``HeistResult`` are public only if that heist is over at that version and
  its showdown revealed them (board and every reveal of that heist);
* every ``View`` must be the viewer's own: its pocket is the true pocket of the viewer
  (empty for a spectator; once the game is over, empty or the last one) and
  ``deck_size`` is the true size of the deck;
* the seed (raw bytes, hex or base64) appears in no message before the game is over.

``HistoryEntry`` messages are judged at their own version, the rest of a message at the
version it was received at. A message received once the game is over may show anything:
the whole log and the seed are public then.
"""

from __future__ import annotations

import base64
import functools
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf import any_pb2, descriptor_pool, message_factory
from google.protobuf.message import Message
from grpc_status import rpc_status

from engines.cards import Card, Suit
from engines.the_gang.model import TheGangState
from referee.v1 import game_pb2, the_gang_pb2

Viewer = int | None

_CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA][cdhs])(?![0-9A-Za-z])")
_SUITS = {
    the_gang_pb2.SUIT_CLUBS: Suit.CLUBS,
    the_gang_pb2.SUIT_DIAMONDS: Suit.DIAMONDS,
    the_gang_pb2.SUIT_HEARTS: Suit.HEARTS,
    the_gang_pb2.SUIT_SPADES: Suit.SPADES,
}
PLAYING_CARD = "referee.v1.PlayingCard"
HEIST_RESULT = "referee.v1.HeistResult"
HISTORY_ENTRY = "referee.v1.HistoryEntry"
VIEW = "referee.v1.View"
ANY = "google.protobuf.Any"


@dataclass(frozen=True)
class Received:
    """One message as a viewer got it, at the version it speaks for.

    ``texts`` and ``blobs`` hold what came outside the protobuf message: metadata values
    and, for a rejection, the status details string.
    """

    viewer: Viewer
    version: int
    source: str
    message: Message
    texts: tuple[str, ...] = ()
    blobs: tuple[bytes, ...] = ()


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
        self, viewer: Viewer, version: int, source: str, error: grpc.aio.AioRpcError
    ) -> None:
        """A rejection: its rich status (ErrorInfo inside), details string and metadata."""
        status = rpc_status.from_call(error)  # type: ignore[arg-type]
        assert status is not None, f"{source}: rejection without rich status: {error.details()}"
        metadata: Any = [*(error.initial_metadata() or ()), *(error.trailing_metadata() or ())]
        texts, blobs = _split(metadata)
        texts = (error.details() or "", error.debug_error_string() or "", *texts)
        self.items.append(Received(viewer, version, source, status, texts, blobs))


def _split(
    metadata: Sequence[tuple[str, str | bytes]],
) -> tuple[tuple[str, ...], tuple[bytes, ...]]:
    """Metadata values as texts (searched like strings) and binary blobs (seed search only)."""
    texts = tuple(value for _key, value in metadata if isinstance(value, str))
    blobs = tuple(value for _key, value in metadata if isinstance(value, bytes))
    return texts, blobs


def hidden_from(state: TheGangState, viewer: Viewer) -> dict[Card, str]:
    """Cards ``viewer`` must not learn at ``state``, each with where it lies."""
    if state.finished:
        return {}
    hidden = dict.fromkeys(state.deck, "the deck")
    for seat, pocket in enumerate(state.pockets):
        if seat != viewer:
            hidden.update(dict.fromkeys(pocket, f"the pocket of seat {seat}"))
    return hidden


def revealed_by(state: TheGangState, heist: int) -> set[Card] | None:
    """Cards the showdown of ``heist`` made public, None if it is not over at ``state``."""
    if not 1 <= heist <= len(state.history):
        return None
    result = state.history[heist - 1]
    assert result.heist == heist
    cards = set(result.board)
    for reveal in result.reveals:
        cards.update(reveal.pocket)
        cards.update(reveal.best)
    return cards


@dataclass(frozen=True)
class _Found:
    path: str
    version: int
    heist: int | None  # inside a HeistResult of this heist
    cards: tuple[Card, ...] = ()
    text: str | None = None
    view: Message | None = None


def _card_of(message: Message, path: str) -> tuple[tuple[Card, ...], list[str]]:
    """The card a PlayingCard names, read both from rank/suit and from its code."""
    assert isinstance(message, the_gang_pb2.PlayingCard)
    problems: list[str] = []
    cards: list[Card] = []
    if message.rank or message.suit:
        cards.append(Card(message.rank, _SUITS.get(message.suit)))
    if message.code:
        try:
            cards.append(Card.parse(message.code))
        except ValueError:
            problems.append(f"{path}: unreadable card code {message.code!r}")
    if len(set(cards)) > 1:
        problems.append(f"{path}: rank/suit and code disagree: {cards}")
    return tuple(cards), problems


@functools.lru_cache(maxsize=4096)
def _heist_cards(serialized: bytes) -> tuple[int, tuple[Card, ...], tuple[str, ...]]:
    """Heist number, every card (also in strings) and any malformed card of a HeistResult."""
    result = the_gang_pb2.HeistResult.FromString(serialized)
    problems: list[str] = []
    cards: list[Card] = []
    for thing in _fields(result, "", 0, result.heist, problems):
        cards += thing.cards
        if thing.text is not None:
            cards += [Card.parse(token) for token in _CARD_TOKEN.findall(thing.text)]
    return result.heist, tuple(cards), tuple(problems)


def _unpack(message: any_pb2.Any) -> Message | None:
    try:
        desc = descriptor_pool.Default().FindMessageTypeByName(message.TypeName())
    except KeyError:
        return None
    inner = message_factory.GetMessageClass(desc)()
    return inner if message.Unpack(inner) else None


def _walk(
    message: Message, path: str, version: int, heist: int | None, problems: list[str]
) -> Iterator[_Found]:
    """Everything card-like in ``message``: cards, strings and views, with their context."""
    name = message.DESCRIPTOR.full_name
    if name == HISTORY_ENTRY:
        assert isinstance(message, game_pb2.HistoryEntry)
        version = message.version
    elif name == HEIST_RESULT:
        # Every later view repeats every finished heist: judge each distinct one once.
        heist, shown, shown_problems = _heist_cards(message.SerializeToString(deterministic=True))
        problems.extend(f"{path}{problem}" for problem in shown_problems)
        yield _Found(path, version, heist, cards=shown)
        return
    elif name == VIEW:
        yield _Found(path, version, heist, view=message)
    elif name == PLAYING_CARD:
        cards, bad = _card_of(message, path)
        problems.extend(bad)
        yield _Found(path, version, heist, cards=cards)
        return
    elif name == ANY:
        assert isinstance(message, any_pb2.Any)
        inner = _unpack(message)
        if inner is None:
            problems.append(f"{path}: Any of unknown type {message.type_url!r}")
        else:
            yield from _walk(inner, f"{path}<{inner.DESCRIPTOR.name}>", version, heist, problems)
        return
    yield from _fields(message, path, version, heist, problems)


def _fields(
    message: Message, path: str, version: int, heist: int | None, problems: list[str]
) -> Iterator[_Found]:
    for fd, value in message.ListFields():
        where = f"{path}.{fd.name}"
        if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
            entries: Mapping[object, object] = value
            for key, item in entries.items():
                yield from _values(f"{where}[{key!r}]", [key, item], version, heist, problems)
        elif fd.is_repeated:
            for index, item in enumerate(value):
                yield from _values(f"{where}[{index}]", [item], version, heist, problems)
        else:
            yield from _values(where, [value], version, heist, problems)


def _values(
    path: str, values: Sequence[object], version: int, heist: int | None, problems: list[str]
) -> Iterator[_Found]:
    for value in values:
        if isinstance(value, Message):
            yield from _walk(value, path, version, heist, problems)
        elif isinstance(value, str):
            yield _Found(path, version, heist, text=value)
        elif isinstance(value, bytes):
            yield _Found(path, version, heist, text=value.decode("latin-1"))


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    cards_checked: int = 0
    own_pockets_seen: Counter[Viewer] = field(default_factory=Counter)
    views_checked: Counter[Viewer] = field(default_factory=Counter)
    sources: Counter[str] = field(default_factory=Counter)

    def __str__(self) -> str:
        head = f"{len(self.problems)} problems; first ones:\n  "
        return head + "\n  ".join(self.problems[:25])


def _seed_forms(seed: bytes) -> tuple[bytes, ...]:
    return (
        seed,
        seed.hex().encode(),
        seed.hex().upper().encode(),
        base64.b64encode(seed),
        base64.urlsafe_b64encode(seed).rstrip(b"="),
    )


class _Truth:
    """The replayed states, with the per-version answers the judge asks for, cached."""

    def __init__(self, states: Sequence[TheGangState]) -> None:
        self.states = states
        self._hidden: dict[tuple[int, Viewer], dict[Card, str]] = {}
        self._public: dict[tuple[int, int], set[Card] | None] = {}

    def hidden(self, version: int, viewer: Viewer) -> dict[Card, str]:
        key = (version, viewer)
        if key not in self._hidden:
            self._hidden[key] = hidden_from(self.states[version], viewer)
        return self._hidden[key]

    def public(self, version: int, heist: int) -> set[Card] | None:
        key = (version, heist)
        if key not in self._public:
            self._public[key] = revealed_by(self.states[version], heist)
        return self._public[key]


def check(items: Sequence[Received], states: Sequence[TheGangState], seed: bytes) -> Report:
    """Judge every received message against ``states[v]``, the true state at version v."""
    report = Report()
    truth = _Truth(states)
    forms = _seed_forms(seed)
    for item in items:
        report.sources[item.source] += 1
        where = f"{item.source} to {_who(item.viewer)} at v{item.version}"
        if not 0 <= item.version < len(states):
            report.problems.append(f"{where}: version outside the game (0..{len(states) - 1})")
            continue
        if not states[item.version].finished:
            wire = [item.message.SerializeToString(), *item.blobs]
            wire += [text.encode("utf-8", "replace") for text in item.texts]
            if any(form in blob for form in forms for blob in wire):
                report.problems.append(f"{where}: the seed appears before the game is over")
        problems: list[str] = []
        found = list(_walk(item.message, item.source, item.version, None, problems))
        # Blobs (binary trailing metadata) are only searched for the seed: the one binary
        # entry, grpc-status-details-bin, is the status walked structurally above.
        found += [_Found(f"{item.source}#text", item.version, None, text=t) for t in item.texts]
        report.problems.extend(f"{where}: {problem}" for problem in problems)
        for thing in found:
            _judge(report, item, thing, truth, where)
    return report


def _who(viewer: Viewer) -> str:
    return "the spectator" if viewer is None else f"seat {viewer}"


def _judge(report: Report, item: Received, thing: _Found, truth: _Truth, where: str) -> None:
    if not 0 <= thing.version < len(truth.states):
        report.problems.append(f"{where}: {thing.path} speaks of unknown version {thing.version}")
        return
    if thing.view is not None:
        assert isinstance(thing.view, game_pb2.View)
        state = truth.states[thing.version]
        _judge_view(report, item.viewer, thing.view, state, thing.version, f"{where} {thing.path}")
        return
    cards = list(thing.cards)
    if thing.text is not None:
        cards += [Card.parse(token) for token in _CARD_TOKEN.findall(thing.text)]
    report.cards_checked += len(cards)
    if not cards:
        return
    if thing.heist is not None:
        public = truth.public(thing.version, thing.heist)
        if public is None:
            report.problems.append(
                f"{where}: {thing.path} shows heist {thing.heist}, not over at v{thing.version}"
            )
        elif not public.issuperset(cards):
            report.problems.append(
                f"{where}: {thing.path} shows {sorted(set(cards) - public)}, not revealed by "
                f"heist {thing.heist}"
            )
        return
    if truth.states[item.version].finished:
        return  # at the end the whole log is public (GetHistory), seed included
    hidden = truth.hidden(thing.version, item.viewer)
    for card in cards:
        lies = hidden.get(card)
        if lies is not None:
            report.problems.append(
                f"LEAK {where}: {thing.path} shows {card}, which lies in {lies} at v{thing.version}"
            )


def _judge_view(
    report: Report,
    viewer: Viewer,
    view: game_pb2.View,
    state: TheGangState,
    version: int,
    where: str,
) -> None:
    report.views_checked[viewer] += 1
    seat = view.seat if view.HasField("seat") else None
    if seat != viewer:
        report.problems.append(f"{where}: a view for {_who(seat)}")
    if view.version != version:
        report.problems.append(f"{where}: view of v{view.version}")
    body = view.the_gang
    if body.deck_size != len(state.deck):
        report.problems.append(f"{where}: deck_size {body.deck_size}, truly {len(state.deck)}")
    pocket = [card.code for card in body.pocket]
    if viewer is None:
        if pocket:
            report.problems.append(f"{where}: a pocket {pocket} in a spectator's view")
        return
    truth = [str(card) for card in state.pockets[viewer]]
    if state.finished and not pocket:
        return  # once the game is over a view may drop the pocket
    if pocket != truth:
        report.problems.append(f"{where}: pocket {pocket}, truly {truth}")
    elif not state.finished:
        report.own_pockets_seen[viewer] += 1
