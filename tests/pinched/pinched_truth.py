"""The truth of a replayed Pinched! game: states and true events by version, and every
card's place, event by event (:class:`Tracker`), as the leak judge follows them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.pinched import events as ev
from engines.pinched.components import kinds_of
from engines.pinched.model import PinchedState

Events = Sequence[object]
"""The true (unredacted) events of one step, as the engine produced them."""

DECK = -2
OPEN = -1
"""A card's place for the judge: DECK, OPEN, or the seat holding it face down."""


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
