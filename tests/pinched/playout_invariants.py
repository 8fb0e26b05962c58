"""The invariants the Pinched! playouts check after every move (see ``test_playouts.py``):
the cards are conserved, storage follows the rules, the day's course (who acts, the days,
the supplies, the river picks, the sales) and the final scores, recounted from the final
state."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engines.base import rules_revision
from engines.pinched import GAME, Event, PinchedState
from engines.pinched.components import JOKER, ValuableKind, kinds_of
from engines.pinched.events import (
    CardTaken,
    DayEnded,
    DayStarted,
    DeckReshuffled,
    FieldRefilled,
    GameEnded,
    LocationsRevealed,
    Sold,
)
from engines.pinched.model import DECK_ONLY_RIVER, WEEKS, Location, Phase, Side
from engines.pinched.moves import ChooseLocation, Sell, Store, TakeFromRiver
from tests.pinched.bots import Play
from tests.pinched.playout_cases import CROWN

SLOTS = 3
RIVER = 3


def every_card(state: PinchedState) -> list[int]:
    out = [*state.deck, *state.discard]
    out += [card for row in state.fields for card in row if card is not None]
    out += [card for card in state.river if card is not None]
    out += [card for stash in state.stashes for slot in stash for card in slot.cards]
    out += [card for hand in state.hands for card in hand]
    return out + [card for sold in state.sold for card in sold]


# --- invariants ------------------------------------------------------------------------


def check_cards(state: PinchedState) -> None:
    config = state.config
    total = len(kinds_of(config.components))
    assert sorted(every_card(state)) == list(range(total)), "a card is lost or doubled"
    assert len(state.fields) == len(config.locations)
    for placement, row in zip(config.locations, state.fields, strict=True):
        width = 0 if placement.location is Location.BANK else config.components.fields
        assert len(row) == width
    assert len(state.river) == RIVER
    players = config.players
    for rows in (state.stashes, state.hands, state.sold, state.curses):
        assert len(rows) == players


def storable(state: PinchedState, seat: int) -> set[tuple[int, int]]:
    """Every (card, slot) the storage rules allow for the cards in ``seat``'s hand."""
    kinds = kinds_of(state.config.components)
    stash = state.stashes[seat]
    held = {slot.kind: index for index, slot in enumerate(stash) if slot.kind is not None}
    empty = [index for index, slot in enumerate(stash) if slot.kind is None]
    out: set[tuple[int, int]] = set()
    for card in state.hands[seat]:
        kind = kinds[card]
        if kind == JOKER:
            out |= {(card, index) for index in range(SLOTS)}
        elif kind in held:
            out.add((card, held[kind]))
        else:
            out |= {(card, index) for index in empty}
    return out


def check_storage(state: PinchedState) -> None:
    kinds = kinds_of(state.config.components)
    for seat, stash in enumerate(state.stashes):
        assert len(stash) == SLOTS
        on_stash = []
        for slot in stash:
            found = {kinds[card] for card in slot.cards}
            if slot.kind is None:
                assert found <= {JOKER}, "a slot without a kind holds a valuable"
            else:
                assert slot.kind in found, "a slot's kind has no card of it"
                assert found <= {slot.kind, JOKER}, "two kinds on one slot"
                on_stash.append(slot.kind)
        assert len(on_stash) == len(set(on_stash)), "one kind on two slots"
        for card in state.hands[seat]:
            assert kinds[card] not in on_stash, "a card of a kind on the stash kept in hand"
        allowed = storable(state, seat)
        legal = GAME.legal_moves(state, seat)
        stores = {(move.card, move.slot) for move in legal if isinstance(move, Store)}
        if allowed:
            assert not state.finished, "the game ended with a card still to store"
            assert stores == allowed
            assert len(stores) == len(legal), "a seat owing a Store may do something else"
        else:
            assert not stores


def expected_to_act(state: PinchedState) -> frozenset[int]:
    """Who must or may move now, from the phase alone."""
    players = state.config.players
    seats = {seat for seat in range(players) if storable(state, seat)}
    phase = state.phase
    if phase is Phase.OVER:
        return frozenset()
    if phase is Phase.PLAN:
        seats |= {seat for seat in range(players) if state.choices[seat] is None}
    elif phase in (Phase.DOGS, Phase.FINAL_DOGS):
        seats |= set(state.gordie_due)
    elif phase is Phase.NIGHT:
        if state.takes:
            seats.add(state.takes[0].seat)
        if state.passage_due or state.dog_due:
            seats.add(state.mastermind)
        if state.curse_turns:  # clockwise from the mastermind, one at a time
            seats.add(state.curse_turns[0])
    elif phase in (Phase.AFTER, Phase.FINAL_SALE):
        seats |= set(state.selling)
        if state.river_turns:
            seats.add(state.river_turns[0])
    return frozenset(seats)


def check_course(prev: PinchedState, state: PinchedState, events: list[Event]) -> None:
    """Who acts, the days, the supplies of treasures, clues, curses and dogs, the vault."""
    config = state.config
    players = config.players
    assert GAME.to_act(state) == expected_to_act(state)
    assert state.finished or GAME.to_act(state), "nobody can move in an unfinished game"
    assert state.finished or GAME.outcome(state) is None
    days = players * WEEKS[players]
    for event in events:
        if isinstance(event, DayStarted):
            assert 1 <= event.day <= days
            assert event.mastermind == (state.first_mastermind + event.day - 1) % players
            assert event.watch == WEEKS[players] - (event.day - 1) // players
        if isinstance(event, DayEnded):
            assert event.next_mastermind == (prev.mastermind + 1) % players
            if state.phase not in (Phase.FINAL_DOGS, Phase.FINAL_SALE, Phase.OVER):
                assert state.hands[prev.mastermind] == (), "the mastermind kept cards"
    if state.finished:
        assert state.day == days
    diamonds = state.side(Location.DIAMONDS)
    if diamonds is Side.STANDARD:
        assert state.diamonds_left + sum(state.diamonds) == 2
        assert state.lisa_mona_points == (0 if state.lisa_mona is None else 3)
        assert sum(state.diamonds) == 0 or state.lisa_mona is not None
    else:
        assert state.diamonds_left == sum(state.diamonds) == 0
    if diamonds is Side.CROWN:
        assert state.clues_left + sum(state.clues) == players
        assert state.letter is not None
        assert state.letter.location in [p.location for p in config.locations]
        assert state.letter.location is not Location.DIAMONDS
        assert state.letter.opened == (state.lisa_mona is not None)
        assert state.lisa_mona_points == (0 if state.lisa_mona is None else 5)
        assert set(state.letter.seen_by) <= set(range(players))
        if state.lisa_mona is not None:
            assert state.clues[state.lisa_mona] > 0
    else:
        assert state.clues_left == sum(state.clues) == 0 and state.letter is None
    if diamonds is None:
        assert state.lisa_mona is None
    curses = [*state.curse_pile, *(c for row in state.curses for c in row)]
    if state.side(Location.HEARTS) is Side.CROWN:
        assert sorted(c.id for c in curses) == list(range(len(config.components.curses)))
        assert all(c.points == config.components.curses[c.id] for c in curses)
    else:
        assert not curses
    spades = state.side(Location.SPADES)
    rufus, gordie = state.dogs
    assert rufus is None or (spades is not None and 0 <= rufus < players)
    assert gordie is None or (spades is Side.CROWN and 0 <= gordie < players)
    clubs = state.side(Location.CLUBS)
    if clubs is None:
        assert state.vault == 0
    else:
        track = (
            config.components.vault_crown if clubs is CROWN else config.components.vault_standard
        )
        assert 0 <= state.vault < len(track)


def check_river_turns(
    prev: PinchedState, state: PinchedState, play: Play, events: list[Event]
) -> None:
    """After the heist every other burglar picks from the river in turn; a turn is lost
    only when the river is bare (revision 1: the deck and the discards dry; from revision
    2: the deck dry, as the river is refilled from the deck only until the day ends).

    The river is followed up to the end of the day, whose refills start with a location's
    field or (from revision 2, where a pick never reshuffles) a reshuffle."""
    if prev.phase is not Phase.AFTER or not prev.river_turns:
        return
    move = play[1]
    due = prev.river_turns[1:] if isinstance(move, TakeFromRiver) else prev.river_turns
    river = list(prev.river)
    deck_only = rules_revision(prev.config.rules_revision) >= DECK_ONLY_RIVER
    for event in events:
        day_end = isinstance(event, FieldRefilled) and event.location is not None
        if isinstance(event, DayEnded) or day_end:
            break
        if deck_only and isinstance(event, DeckReshuffled):
            break
        if isinstance(event, CardTaken) and event.location is None:
            river[event.field] = None
        elif isinstance(event, FieldRefilled) and event.location is None:
            river[event.field] = event.card
    same_day = state.phase is Phase.AFTER and state.day == prev.day
    if due != (state.river_turns if same_day else ()):
        assert all(card is None for card in river), (
            f"seats {due} lost their river pick with {river} in the river"
        )


def sale_points(kind: ValuableKind, count: int) -> int:
    return max((sale.value for sale in kind.sales if count >= sale.threshold), default=0)


def check_events(prev: PinchedState, state: PinchedState, play: Play, events: list[Event]) -> None:
    seat, move = play
    ended = [event for event in events if isinstance(event, GameEnded)]
    assert len(ended) == (state.finished and not prev.finished)
    if ended:
        assert events[-1] is ended[0], "something happened after the game ended"
    if isinstance(move, Sell):
        slot = prev.stashes[seat][move.slot]
        assert slot.kind is not None
        points = sale_points(prev.config.components.kinds[slot.kind], len(slot.cards))
        sold = [event for event in events if isinstance(event, Sold)]
        assert sold == [Sold(seat, move.slot, slot.kind, len(slot.cards), points)]
        assert len(state.sold[seat]) == len(prev.sold[seat]) + points
    else:
        assert not any(isinstance(event, Sold) for event in events)
        assert state.sold == prev.sold
    for event in events:
        if isinstance(event, LocationsRevealed):
            m = prev.mastermind
            choices = list(prev.choices)
            assert isinstance(move, ChooseLocation)
            choices[seat] = move.location
            assert list(event.choices) == choices
            assert event.heist is choices[m]
            players = prev.config.players
            clockwise = [(m + step) % players for step in range(players)]
            assert event.present == tuple(s for s in clockwise if choices[s] is event.heist)


def recount(state: PinchedState) -> tuple[list[int], tuple[int, ...]]:
    """Every seat's wealth and the winners, from the final state alone."""
    table = state.config.components
    kinds = kinds_of(table)
    gold = [kind.name for kind in table.kinds].index("gold_bars")
    lisa = 3 if state.side(Location.DIAMONDS) is Side.STANDARD else 5
    totals, gold_bars = [], []
    for seat in range(state.config.players):
        total = len(state.sold[seat])
        total += lisa if state.lisa_mona == seat else 0
        total += state.diamonds[seat] + 2 * state.clues[seat]
        total -= sum(curse.points for curse in state.curses[seat])
        totals.append(total)
        gold_bars.append(sum(kinds[card] == gold for card in state.sold[seat]))
    best = max(zip(totals, gold_bars, strict=True))
    winners = tuple(
        seat for seat, key in enumerate(zip(totals, gold_bars, strict=True)) if key == best
    )
    return totals, winners


def check_final(state: PinchedState, events: list[Event], treasures: Counter[Any]) -> None:
    ended = events[-1]
    assert isinstance(ended, GameEnded)
    totals, winners = recount(state)
    assert [score.total for score in ended.scores] == totals
    assert ended.winners == winners
    for score in ended.scores:
        seat = score.seat
        assert score.sold == len(state.sold[seat])
        assert score.diamonds == treasures[seat, "diamond"] == state.diamonds[seat]
        assert score.clues == 2 * treasures[seat, "clue"] == 2 * state.clues[seat]
        lisa = 3 if state.side(Location.DIAMONDS) is Side.STANDARD else 5
        assert score.lisa_mona == lisa * treasures[seat, "lisa_mona"]
        assert treasures[seat, "lisa_mona"] == (state.lisa_mona == seat)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == winners
    assert GAME.to_act(state) == frozenset()
