"""The Pinched! leak judge's first part: what one viewer may see of one thing.

:class:`ViewJudge` holds the truth (states, events, the card tracker) and the
:class:`Report`, and judges single parts where they lie: a card id, a text, the raw bytes
of a message (the seed, the deck's order) and a view (its counts, its own private parts,
its sealed parts). :class:`pinched_leaks.Judge` adds the second part, the walk through
whole messages (fields, moves, history entries and events); the rules are told there.
"""

from __future__ import annotations

import base64
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from engines.pinched import events as ev
from engines.pinched.components import JOKER, kinds_of
from engines.pinched.model import Location, Phase, PinchedState
from referee.v1 import game_pb2
from referee.v1 import pinched_pb2 as pb
from tests.pinched.pinched_hidden_fields import (
    LOCATION_OF,
    PB_LOCATION,
    REVEALED_FIELDS,
    REVEALED_ONLY,
)
from tests.pinched.pinched_received import Received, Viewer
from tests.pinched.pinched_truth import DECK, Events, Tracker

SEALED = (Phase.DOGS, Phase.PLAN)

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


def who(viewer: Viewer) -> str:
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


class ViewJudge:
    """Judges a card, a text, the raw bytes and a view for the viewer of the message
    being judged (``item``), at the moment a part speaks for (:class:`At`)."""

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

    # --- the raw bytes --------------------------------------------------------------------

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

    # --- views ----------------------------------------------------------------------------

    def view(self, view: game_pb2.View, path: str, at: At) -> None:
        """The view is the viewer's own at its version: private parts exactly its own,
        sealed parts absent, true counts. Its cards are judged by the walk."""
        viewer, version = self.viewer, at.version
        self.report.views_checked[viewer] += 1
        seat = view.seat if view.HasField("seat") else None
        if seat != viewer:
            self.problem(f"{path}: a view for {who(seat)}")
        if view.version != version:
            self.problem(f"{path}: a view of v{view.version}")
            return
        state = self.states[version]
        body = view.pinched
        self.counts(body, state, path)
        self.own_cards(body, state, path, version)
        self.own_curses(body, state, path)
        self.own_locations(body, state, path)
        self.revealed(body, state, path)

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
                curse: who(seat)
                for seat, row in enumerate(state.curses)
                for curse in row
                if (curse.id, curse.points) in foreign
            }
            self.leak(f"{path}.pinched.curses", f"shows curses {foreign} not its own: {owners}")
        else:
            self.problem(f"{path}.pinched.curses is {got}, truly {want}")

    def revealed(self, body: pb.PinchedView, state: PinchedState, path: str) -> None:
        """The post-game reveal: nothing before the end; the whole truth once it is over."""
        p = f"{path}.pinched"
        for name in [fd.name for fd, _ in body.ListFields() if fd.name in REVEALED_ONLY]:
            self.leak(f"{p}.{name}", "a revealed view's own field, in a plain view")
        shown = [fd.name for fd, _ in body.ListFields() if fd.name in REVEALED_FIELDS]
        if not state.finished:
            for name in shown:
                self.leak(f"{p}.{name}", "reveals a hidden part before the game is over")
            return
        letter = state.letter
        truth: dict[str, object] = {
            "revealed_hands": [list(hand) for hand in state.hands],
            "revealed_sold": [list(sold) for sold in state.sold],
            "revealed_curses": [[(c.id, c.points) for c in row] for row in state.curses],
            "revealed_letter": letter.location if letter is not None else None,
            "revealed_deck": list(state.deck),
            "revealed_curse_pile": [(c.id, c.points) for c in state.curse_pile],
        }
        got: dict[str, object] = {
            "revealed_hands": [[c.id for c in row.cards] for row in body.revealed_hands],
            "revealed_sold": [[c.id for c in row.cards] for row in body.revealed_sold],
            "revealed_curses": [
                [(c.id, c.points) for c in row.curses] for row in body.revealed_curses
            ],
            "revealed_letter": LOCATION_OF.get(body.revealed_letter),
            "revealed_deck": [c.id for c in body.revealed_deck],
            "revealed_curse_pile": [(c.id, c.points) for c in body.revealed_curse_pile],
        }
        assert set(truth) == REVEALED_FIELDS, "a revealed_* field the judge does not know"
        for name, want in truth.items():
            if got[name] != want:
                self.problem(f"{p}.{name} is {got[name]}, truly {want}")
        self.report.private_seen["revealed"] += 1

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
