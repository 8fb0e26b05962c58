"""Test-side leak detector: every message a viewer received, judged against the replay.

A test records each message a seat (or a spectator) received, with the game version it
belongs to. Once the game is over and the seed is revealed, the game is replayed with the
engine, and :func:`check` walks every recorded message structurally (protobuf descriptors,
``ListFields`` recursively, ``google.protobuf.Any`` unpacked) and as raw text.

The judge does not ask the engine what a seat may see (``view`` / ``view_event``): from the
true replayed states and the true, unredacted events of every step it works out on its own
which cards each viewer legitimately knows at each version:

* its own pocket now, and every card that was in its pocket earlier in the same heist: the
  pockets of every earlier state of the heist and the cards of its own ``PocketDealt``,
  ``PocketRedrawn`` and ``CardDrawn`` events of the heist (the Con Artist's first pocket,
  dealt and gathered again inside one step, is only in those events);
* an Informant card it showed or was shown (``Announcement`` of kind INFORMANT with
  ``seat`` or ``to_seat`` the viewer, in the true state or a true event of the heist);
* what is public: the board, the Jack card while someone holds it (everyone saw who took
  it), the hands shown while the scan guesses are due (all but the top red chip holder's),
  every finished heist's showdown, and after the game's end everything.

Every other card — in the deck, in another seat's pocket, on the face-down discards, a
Coordinator pass still sealed in another pocket, the Jack card while it is not in play — is
hidden, and a ``PlayingCard`` or a card code in any string that names one is a leak.
Besides:

* cards inside a ``HeistResult`` are public only if that heist is over at that version and
  its showdown revealed them (board and every reveal of that heist);
* every ``View`` must be the viewer's own: its pocket is the true pocket of the viewer
  (empty for a spectator; once the game is over, empty or the last one), ``deck_size`` and
  ``discard_count`` are the true sizes, ``my_pass`` is the viewer's true sealed pass, and
  an Informant card the viewer may know is there (so a test cannot pass by seeing nothing);
* the seed (raw bytes, hex or base64) appears in no message before the game is over;
* the ``revealed_*`` fields of a view are empty until the game is over, and a finished
  view reveals the true deck and discards.

``HistoryEntry`` messages are judged at their own version, the rest of a message at the
version it was received at. The step that ends a heist also deals the next one, so what
belongs to the heist that just ended — the move of a ``HistoryEntry`` and the events before
``HeistEnded`` in an event list — is judged by what the viewer knew when that heist ended
(its knowledge just before the step, what the step's own events told it, and the showdown).
A message received once the game is over may show anything: the whole log and the seed are
public then.
"""

from __future__ import annotations

import base64
import functools
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from google.protobuf import any_pb2, descriptor_pool, message_factory
from google.protobuf.message import Message

from engines.base import rules_revision
from engines.cards import DECK, Card, Suit
from engines.the_gang import events as ev
from engines.the_gang.model import JACK_CARD, AnnouncementKind, Colour, TheGangState
from referee.v1 import game_pb2, the_gang_pb2
from tests.service.received import Received, Recorder, Viewer

__all__ = ["Received", "Recorder", "Viewer", "check"]
Events = Sequence[object]
"""The true (unredacted) events of one step, as the engine produced them."""

_CARD_TOKEN = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA][cdhs]|J\*)(?![0-9A-Za-z])")
_SUITS = {
    the_gang_pb2.SUIT_CLUBS: Suit.CLUBS,
    the_gang_pb2.SUIT_DIAMONDS: Suit.DIAMONDS,
    the_gang_pb2.SUIT_HEARTS: Suit.HEARTS,
    the_gang_pb2.SUIT_SPADES: Suit.SPADES,
}
ALL_CARDS: frozenset[Card] = frozenset((*DECK, JACK_CARD))
PLAYING_CARD = "referee.v1.PlayingCard"
HEIST_RESULT = "referee.v1.HeistResult"
HISTORY_ENTRY = "referee.v1.HistoryEntry"
VIEW = "referee.v1.View"
EVENT = "referee.v1.Event"
ANY = "google.protobuf.Any"


# --- what a viewer knows, from the truth alone ----------------------------------------------


def told_by(event: object, viewer: Viewer) -> set[Card]:
    """Cards a true event puts in ``viewer``'s hands or shows it by the rules.

    Its own pocket dealt (twice under the Con Artist) or redrawn, the card it drew (Hacker),
    and an Informant card it showed or was shown.
    """
    if viewer is None:
        return set()
    match event:
        case ev.PocketDealt(seat=seat, cards=cards) | ev.PocketRedrawn(seat=seat, cards=cards):
            return set(cards) if seat == viewer else set()
        case ev.CardDrawn(seat=seat, card=card):
            return {card} if seat == viewer and card is not None else set()
        case ev.Announced(announcement=said):
            shown = said.kind is AnnouncementKind.INFORMANT and said.card is not None
            if shown and viewer in (said.seat, said.to_seat):
                assert said.card is not None
                return {said.card}
    return set()


def shown_to(state: TheGangState, viewer: Viewer) -> set[Card]:
    """Informant cards of the heist in play that ``viewer`` showed or was shown."""
    if viewer is None:
        return set()
    return {
        said.card
        for said in state.announcements
        if said.kind is AnnouncementKind.INFORMANT
        and said.card is not None
        and viewer in (said.seat, said.to_seat)
    }


def public_in(state: TheGangState) -> set[Card]:
    """Face-up cards: the board, the Jack card while a seat holds it, and while the scan
    guesses are due every hand but the top red chip holder's ("Voordat de speler met het
    hoogste rode fiche zijn kaarten laat zien, overleggen de andere spelers": the showdown
    has begun and he shows last)."""
    public = set(state.board)
    if any(JACK_CARD in pocket for pocket in state.pockets):
        public.add(JACK_CARD)
    if state.awaiting_guesses:
        last = state.chips[Colour.RED][state.config.players - 1]
        for seat, pocket in enumerate(state.pockets):
            if seat != last:
                public.update(pocket)
    return public


def revealed_by(state: TheGangState, heist: int) -> set[Card] | None:
    """Cards the showdown of ``heist`` made public, None if it is not over at ``state``."""
    if not 1 <= heist <= len(state.heists):
        return None
    result = state.heists[heist - 1]
    assert result.heist == heist
    cards = set(result.board)
    for reveal in result.reveals:
        cards.update(reveal.pocket)
        cards.update(reveal.best_five)
    return cards


def where_in(state: TheGangState, card: Card) -> str:
    """Where ``card`` lies at ``state``, for the report."""
    if card in state.deck:
        return "the deck"
    for seat, pocket in enumerate(state.pockets):
        if card in pocket:
            sealed = bool(state.passes) and state.passes[seat] == card
            return f"the pocket of seat {seat}" + (" (its sealed pass)" if sealed else "")
    if card in state.discards:
        return "the face-down discards"
    return "no place at the table (not in play)"


def _ended_heist(events: Events) -> int | None:
    """Index of the first HeistEnded among a step's true events."""
    return next((i for i, event in enumerate(events) if isinstance(event, ev.HeistEnded)), None)


@dataclass(frozen=True)
class Knowledge:
    """What one viewer knows at every version.

    ``now[v]``: at version v. ``ended[v]``: if step v ended a heist, what the viewer knew
    as that heist ended (before the step, what the step's events told it before
    ``HeistEnded``, and the showdown); None otherwise.
    """

    now: tuple[frozenset[Card], ...]
    ended: tuple[frozenset[Card] | None, ...]


def knowledge(
    states: Sequence[TheGangState], events: Sequence[Events], viewer: Viewer
) -> Knowledge:
    """Walk the game version by version: the private cards of the heist in play pile up
    (pockets held, cards dealt, drawn or shown to the viewer) and are forgotten when the
    step that ends the heist deals the next one; the public cards are added each time."""
    now: list[frozenset[Card]] = []
    ended: list[frozenset[Card] | None] = []
    held: set[Card] = set()  # private cards of the heist in play
    for version, state in enumerate(states):
        step = events[version] if version < len(events) else ()
        cut = _ended_heist(step)
        if cut is None:
            ended.append(None)
        else:
            result = step[cut]
            assert isinstance(result, ev.HeistEnded)
            end = set(now[-1]) if now else set()
            for event in step[:cut]:
                end |= told_by(event, viewer)
            end |= revealed_by(state, result.result.heist) or set()
            ended.append(frozenset(end))
            held = set()
            step = step[cut:]
        for event in step:
            held |= told_by(event, viewer)
        if viewer is not None and state.pockets:
            held |= set(state.pockets[viewer])
        held |= shown_to(state, viewer)
        now.append(frozenset(held | public_in(state)))
    return Knowledge(tuple(now), tuple(ended))


@dataclass(frozen=True)
class _Found:
    path: str
    version: int
    heist: int | None  # inside a HeistResult of this heist
    cards: tuple[Card, ...] = ()
    text: str | None = None
    view: Message | None = None
    tail: bool = False  # about the heist that the step at ``version`` ended


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
    return tuple(dict.fromkeys(cards)), problems


@functools.lru_cache(maxsize=4096)
def _heist_cards(serialized: bytes) -> tuple[int, tuple[Card, ...], tuple[str, ...]]:
    """Heist number, every card (also in strings) and any malformed card of a HeistResult."""
    result = the_gang_pb2.HeistResult.FromString(serialized)
    problems: list[str] = []
    cards: list[Card] = []
    for thing in _fields(result, "", 0, result.heist, problems, tail=False):
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
    message: Message, path: str, version: int, heist: int | None, problems: list[str], tail: bool
) -> Iterator[_Found]:
    """Everything card-like in ``message``: cards, strings and views, with their context."""
    name = message.DESCRIPTOR.full_name
    if name == HISTORY_ENTRY:
        assert isinstance(message, game_pb2.HistoryEntry)
        version = message.version
        tail = False
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
        yield _Found(path, version, heist, cards=cards, tail=tail)
        return
    elif name == ANY:
        assert isinstance(message, any_pb2.Any)
        inner = _unpack(message)
        if inner is None:
            problems.append(f"{path}: Any of unknown type {message.type_url!r}")
        else:
            where = f"{path}<{inner.DESCRIPTOR.name}>"
            yield from _walk(inner, where, version, heist, problems, tail)
        return
    yield from _fields(message, path, version, heist, problems, tail)


def _ends_heist(event: game_pb2.Event) -> bool:
    return event.WhichOneof("game") == "the_gang" and event.the_gang.HasField("heist_ended")


def _fields(
    message: Message,
    path: str,
    version: int,
    heist: int | None,
    problems: list[str],
    tail: bool,
) -> Iterator[_Found]:
    is_entry = message.DESCRIPTOR.full_name == HISTORY_ENTRY
    for fd, value in message.ListFields():
        where = f"{path}.{fd.name}"
        # A logged move was made in the heist its step may have ended.
        inner_tail = tail or (is_entry and fd.name == "move")
        if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
            entries: Mapping[object, object] = value
            for key, item in entries.items():
                yield from _values(
                    f"{where}[{key!r}]", [key, item], version, heist, problems, inner_tail
                )
        elif fd.is_repeated:
            # In a step's event list, what comes before HeistEnded is about the ended heist.
            cut = 0
            if fd.message_type is not None and fd.message_type.full_name == EVENT:
                cut = next((i for i, event in enumerate(value) if _ends_heist(event)), 0)
            for index, item in enumerate(value):
                yield from _values(
                    f"{where}[{index}]", [item], version, heist, problems, tail or index < cut
                )
        else:
            yield from _values(where, [value], version, heist, problems, inner_tail)


def _values(
    path: str,
    values: Sequence[object],
    version: int,
    heist: int | None,
    problems: list[str],
    tail: bool,
) -> Iterator[_Found]:
    for value in values:
        if isinstance(value, Message):
            yield from _walk(value, path, version, heist, problems, tail)
        elif isinstance(value, str):
            yield _Found(path, version, heist, text=value, tail=tail)
        elif isinstance(value, bytes):
            yield _Found(path, version, heist, text=value.decode("latin-1"), tail=tail)


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    cards_checked: int = 0
    own_pockets_seen: Counter[Viewer] = field(default_factory=Counter)
    views_checked: Counter[Viewer] = field(default_factory=Counter)
    sources: Counter[str] = field(default_factory=Counter)
    # Views that rightly showed a private card of the modes: "my_pass", "informant".
    private_seen: Counter[str] = field(default_factory=Counter)

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
    """The replayed states and true events, with each viewer's knowledge, cached."""

    def __init__(self, states: Sequence[TheGangState], events: Sequence[Events]) -> None:
        self.states = states
        self.events = events
        self._known: dict[Viewer, Knowledge] = {}
        self._public: dict[tuple[int, int], set[Card] | None] = {}

    def known(self, viewer: Viewer) -> Knowledge:
        if viewer not in self._known:
            self._known[viewer] = knowledge(self.states, self.events, viewer)
        return self._known[viewer]

    def hidden(
        self, version: int, viewer: Viewer, tail: bool
    ) -> tuple[frozenset[Card], TheGangState]:
        """What ``viewer`` must not see at ``version`` (``tail``: about the heist that step
        ended), and the state that says where those cards lie."""
        known = self.known(viewer)
        end = known.ended[version]
        if tail and end is not None:
            return ALL_CARDS - end, self.states[version - 1]
        return ALL_CARDS - known.now[version], self.states[version]

    def public(self, version: int, heist: int) -> set[Card] | None:
        key = (version, heist)
        if key not in self._public:
            self._public[key] = revealed_by(self.states[version], heist)
        return self._public[key]


def truth_of(
    initial: TheGangState, steps: Sequence[Any]
) -> tuple[list[TheGangState], list[Events]]:
    """States and true events by version from ``engines.base.replay``'s answer."""
    states = [initial, *(step.state for step in steps)]
    events: list[Events] = [(), *(tuple(step.events) for step in steps)]
    return states, events


def check(
    items: Sequence[Received],
    states: Sequence[TheGangState],
    seed: bytes,
    events: Sequence[Events] = (),
) -> Report:
    """Judge every received message against ``states[v]``, the true state at version v,
    and ``events[v]``, the true events of the step that made version v (``events[0]`` is
    empty; without events only the states are used)."""
    report = Report()
    truth = _Truth(states, events)
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
        found = list(_walk(item.message, item.source, item.version, None, problems, False))
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
        version = thing.version
        known = truth.known(item.viewer).now[version]
        at = f"{where} {thing.path}"
        _judge_view(report, item.viewer, thing.view, truth.states[version], version, known, at)
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
    hidden, state = truth.hidden(thing.version, item.viewer, thing.tail)
    for card in cards:
        if card in hidden:
            report.problems.append(
                f"LEAK {where}: {thing.path} shows {card}, which lies in {where_in(state, card)}"
                f" at v{thing.version}" + (" (as its heist ended)" if thing.tail else "")
            )


def _judge_view(
    report: Report,
    viewer: Viewer,
    view: game_pb2.View,
    state: TheGangState,
    version: int,
    known: frozenset[Card],
    where: str,
) -> None:
    """The view is the viewer's own, at its version, and shows what the viewer may know.

    Its cards are judged like any others (the walk goes on into the view's fields)."""
    report.views_checked[viewer] += 1
    seat = view.seat if view.HasField("seat") else None
    if seat != viewer:
        report.problems.append(f"{where}: a view for {_who(seat)}")
    if view.version != version:
        report.problems.append(f"{where}: view of v{view.version}")
    body = view.the_gang
    if body.deck_size != len(state.deck):
        report.problems.append(f"{where}: deck_size {body.deck_size}, truly {len(state.deck)}")
    if list(body.pocket_sizes) != [len(pocket) for pocket in state.pockets]:
        report.problems.append(f"{where}: pocket_sizes {list(body.pocket_sizes)}, wrong")
    if body.discard_count != len(state.discards):
        report.problems.append(
            f"{where}: discard_count {body.discard_count}, truly {len(state.discards)}"
        )
    _judge_private(report, viewer, body, state, known, where)
    _judge_revealed(report, body, state, where)
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


REVEALED_FIELDS = (
    "revealed_deck",
    "revealed_discards",
    "revealed_announcements",
    "revealed_challenge_pile",
    "revealed_specialist_pile",
)
# Filled only in a revealed view (WatchGame `revealed`, a finished game's replay; judged by
# tests/service/test_reveal.py and the engines' test_revealed_view), never in a plain one,
# finished or not: the views this judge sees are plain.
REVEALED_ONLY = ("revealed_pockets", "revealed_passes")


def _judge_revealed(
    report: Report, body: the_gang_pb2.TheGangView, state: TheGangState, where: str
) -> None:
    """The post-game reveal: only in a finished view (not one version earlier) of a game on
    rules revision 2, and there the true deck and discards; never a revealed view's own."""
    revealed_only = [name for name in REVEALED_ONLY if len(getattr(body, name))]
    if revealed_only:
        report.problems.append(f"LEAK {where}: {revealed_only} set in a plain view")
    if not state.finished or rules_revision(state.config.rules_revision) < 2:
        early = [name for name in REVEALED_FIELDS if len(getattr(body, name))]
        if early:
            report.problems.append(f"LEAK {where}: {early} set before the game is over")
        return
    for name, truth in (("revealed_deck", state.deck), ("revealed_discards", state.discards)):
        shown = [card.code for card in getattr(body, name)]
        if shown != [str(card) for card in truth]:
            report.problems.append(f"{where}: {name} {shown}, truly {[str(c) for c in truth]}")
    report.private_seen["revealed"] += 1


def _judge_private(
    report: Report,
    viewer: Viewer,
    body: the_gang_pb2.TheGangView,
    state: TheGangState,
    known: frozenset[Card],
    where: str,
) -> None:
    """The modes' private cards in a view: the sealed pass and the Informant's card."""
    mine = state.passes[viewer] if viewer is not None and state.passes else None
    shown = body.my_pass.code if body.HasField("my_pass") else None
    if shown != (str(mine) if mine is not None else None):
        report.problems.append(f"{where}: my_pass {shown}, truly {mine}")
    elif mine is not None:
        report.private_seen["my_pass"] += 1
    if state.finished:
        return
    entitled = shown_to(state, viewer) & known
    cards = {
        card
        for said in body.announcements
        if said.kind == the_gang_pb2.Announcement.KIND_INFORMANT and said.HasField("card")
        for card in _card_of(said.card, "")[0]
    }
    if entitled - cards:
        report.problems.append(f"{where}: the Informant's {sorted(entitled - cards)} is missing")
    elif entitled:
        report.private_seen["informant"] += 1
