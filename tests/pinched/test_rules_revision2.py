"""Pinched! rules revision 2: the two readings the rules audit corrected.

1. Selling and the river picks are simultaneous: "Daarna voert het brein de stap 'Verkopen
   en dumpen' uit, terwijl de andere inbrekers tegelijk een kaart uit de rivier nemen." The
   result must not depend on which arrives first, so the river is refilled from the deck
   only; the discards become a new deck at the end of the day ("Einde van een dag": "Is de
   trekstapel op, schud dan de aflegstapel en vorm een nieuwe trekstapel").
2. "Zeldzame soorten hebben hogere verkoopwaarden, maar zijn lastiger te verzamelen." The
   provisional table obeys it, and a replacement table that breaks it is refused.

Revision 1 (a table recorded before these corrections) keeps its old behaviour, tested
here too; ``test_golden_revision1.py`` replays whole recorded games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from engines.base import rules_revision
from engines.errors import InvalidConfigError
from engines.pinched import GAME, Event
from engines.pinched.components import (
    DEFAULT,
    FIRST_RELEASE_DEFAULT,
    Components,
    Sale,
    ValuableKind,
    sale_value,
)
from engines.pinched.events import DayEnded, DeckReshuffled, FieldRefilled
from engines.pinched.model import Dog, Phase, PinchedConfig, PinchedState
from engines.pinched.moves import EndSelling, Sell, TakeFromRiver
from tests.pinched.support import (
    COIN,
    EMPTY,
    GOLD,
    JEWEL,
    SEED,
    STATUE,
    Cards,
    Play,
    after_heist,
    apply_all,
    of_type,
    rig,
    slot,
    table,
)


def revision_one(state: PinchedState) -> PinchedState:
    """The same table, recorded under rules revision 1."""
    config = msgspec.structs.replace(state.config, rules_revision=msgspec.UNSET)
    return msgspec.structs.replace(state, config=config)


def dry_deck_after_heist() -> PinchedState:
    """Seat 0 sells five coins (one face down, four to the discards) while seats 1 and 2
    pick from a full river; the deck is empty and so are the discards."""
    cards = Cards()
    coins, river = cards(COIN, 5), (*cards(GOLD, 1), *cards(JEWEL, 1), *cards(STATUE, 1))
    stashes = ((slot(COIN, *coins), *EMPTY[1:]), EMPTY, EMPTY)
    state = table(3, mastermind=0, river=river, stashes=stashes, **after_heist(3, 0))
    return rig(state, deck=(), sold=((), (), state.deck))


SALE_FIRST: list[Play] = [(0, Sell(0)), (1, TakeFromRiver(0)), (2, TakeFromRiver(1))]
PICKS_FIRST: list[Play] = [(1, TakeFromRiver(0)), (2, TakeFromRiver(1)), (0, Sell(0))]
BETWEEN: list[Play] = [(1, TakeFromRiver(0)), (0, Sell(0)), (2, TakeFromRiver(1))]
END: list[Play] = [(0, EndSelling())]


def play(state: PinchedState, plays: Sequence[Play]) -> tuple[PinchedState, list[Event]]:
    return apply_all(state, [*plays, *END])


def as_multiset(events: list[Event]) -> list[bytes]:
    return sorted(msgspec.json.encode(event) for event in events)


def test_the_sale_and_the_river_picks_give_the_same_day_in_any_order() -> None:
    """Seed: "Daarna voert het brein de stap 'Verkopen en dumpen' uit, terwijl de andere
    inbrekers tegelijk een kaart uit de rivier nemen." RULES-NOTES: "the result must not
    depend on the order in which the mastermind's sale and the others' river picks arrive.
    River refills come from the deck only"."""
    start = dry_deck_after_heist()
    days = [play(start, order) for order in (SALE_FIRST, PICKS_FIRST, BETWEEN)]
    (first, first_events), *others = days
    assert first.day == 2 and first.phase is Phase.PLAN
    for state, events in others:
        assert state == first
        assert as_multiset(events) == as_multiset(first_events)


def test_an_empty_deck_leaves_the_river_bare_until_the_day_s_end() -> None:
    """Seed: "vul je de rivier aan met een kaart van de trekstapel" (the deck, not the
    discards); "Einde van een dag": "Is de trekstapel op, schud dan de aflegstapel en vorm
    een nieuwe trekstapel." The sale's four discards are reshuffled only then."""
    state, events = apply_all(dry_deck_after_heist(), SALE_FIRST)
    assert state.phase is Phase.AFTER and state.river[:2] == (None, None)
    assert len(state.discard) == 4 and not of_type(events, DeckReshuffled)
    after, events = GAME.apply(state, 0, EndSelling())
    reshuffled = of_type(events, DeckReshuffled)
    assert reshuffled == [DeckReshuffled(4)]
    assert events.index(reshuffled[0]) < events.index(of_type(events, DayEnded)[0])
    assert None not in after.river and after.discard == ()


def test_rufus_refills_the_river_from_the_deck_only() -> None:
    """Seed: "alle 3 kaarten uit de rivier. Vul de rivier daarna aan." From revision 2 a
    river refill draws from the deck only: with the deck empty the river stays bare (the
    discards wait for the end of the day)."""
    cards = Cards()
    river, old = cards(GOLD, 3), cards(COIN, 2)
    state = table(3, mastermind=0, river=river, discard=old, **after_heist(3, 0, river_turns=()))
    state = rig(state, dogs=(1, None))
    state = rig(state, deck=(), sold=((), (), state.deck))
    day_two, events = GAME.apply(state, 0, EndSelling())
    assert day_two.mastermind == 1 and day_two.river == (None, None, None)
    assert set(river) <= {card for s in day_two.stashes[1] for card in s.cards}
    assert day_two.discard == old
    assert not of_type(events, FieldRefilled) and not of_type(events, DeckReshuffled)
    old_rules, events = GAME.apply(revision_one(state), 0, EndSelling())
    assert of_type(events, DeckReshuffled) == [DeckReshuffled(2)], "revision 1 reshuffled"
    assert sorted(card for card in old_rules.river if card is not None) == sorted(old)
    assert old_rules.dogs[Dog.RUFUS] == 1


def test_revision_one_keeps_its_order_dependent_river() -> None:
    """Revision 1 (games recorded before the correction) turned a sale's discards into a new
    deck for the next river refill: the sale first, the picks found a refilled river."""
    start = revision_one(dry_deck_after_heist())
    sale_first, sale_events = apply_all(start, SALE_FIRST)
    picks_first, _ = apply_all(start, PICKS_FIRST)
    assert of_type(sale_events, DeckReshuffled) == [DeckReshuffled(4)]
    assert None not in sale_first.river and picks_first.river[:2] == (None, None)
    assert sale_first != picks_first


# --- rarer kinds sell for more -----------------------------------------------------------


def _pairs(table: Components) -> list[tuple[ValuableKind, ValuableKind]]:
    """(rarer, commoner) for every two kinds with different copies."""
    return [(a, b) for a in table.kinds for b in table.kinds if a.copies < b.copies]


def test_the_default_table_sells_a_rarer_kind_for_strictly_more() -> None:
    """Seed: "Zeldzame soorten hebben hogere verkoopwaarden, maar zijn lastiger te
    verzamelen." Issue 20: fewer copies sells for strictly more at every set size where both
    kinds have a value, gold bars keep "2 [...] 1 punt [...] 3 [...] 2 punten [...] 4 of
    meer [...] 4 punten"."""
    pairs = _pairs(DEFAULT)
    assert len(pairs) == 8
    for rare, common in pairs:
        for size in range(1, 12):
            rare_value, common_value = sale_value(rare, size), sale_value(common, size)
            assert rare_value >= common_value, (rare.name, common.name, size)
            if rare_value and common_value:
                assert rare_value > common_value, (rare.name, common.name, size)
    gold = next(kind for kind in DEFAULT.kinds if kind.name == "gold_bars")
    assert gold.sales == (Sale(2, 1), Sale(3, 2), Sale(4, 4))
    assert sum(kind.copies for kind in DEFAULT.kinds) + DEFAULT.jokers == 108


def test_a_new_table_plays_with_the_default_table_revision_one_with_the_first_release_s() -> None:
    assert GAME.make_config(3, {}).components == DEFAULT
    old = GAME.make_config(3, {"rules_revision": 1})
    assert old.components == FIRST_RELEASE_DEFAULT and rules_revision(old.rules_revision) == 1


def _with_kinds(*kinds: tuple[str, int, tuple[tuple[int, int], ...]]) -> Components:
    made = tuple(ValuableKind(n, c, tuple(Sale(*s) for s in sales)) for n, c, sales in kinds)
    return msgspec.structs.replace(DEFAULT, kinds=made)


GOLD_BARS = ("gold_bars", 10, ((2, 1), (3, 2), (4, 4)))

AGAINST_RARITY = {
    "the first release's table": FIRST_RELEASE_DEFAULT,
    "rarer sells for less at one size": _with_kinds(GOLD_BARS, ("coins", 12, ((2, 2),))),
    "rarer never more": _with_kinds(GOLD_BARS, ("coins", 12, ((2, 1), (3, 2), (4, 4)))),
    "rarer more only below its best": _with_kinds(
        ("rubies", 4, ((2, 2), (5, 4))), ("coins", 12, ((2, 1), (5, 4))), GOLD_BARS
    ),
    "rarer sells for nothing": _with_kinds(("rubies", 4, ((5, 0),)), GOLD_BARS),
}


@pytest.mark.parametrize("name", list(AGAINST_RARITY))
def test_a_table_where_a_rarer_kind_sells_for_less_is_refused(name: str) -> None:
    """RULES-NOTES: "in any component table, a kind with fewer copies sells for at least as
    much as a kind with more copies at every set size, and strictly more at its best size.
    The engine refuses a table that breaks this." Revision 1 did not check it."""
    components = AGAINST_RARITY[name]
    with pytest.raises(InvalidConfigError) as refused:
        GAME.make_config(3, {"components": components})
    assert refused.value.reason == "BAD_COMPONENTS"
    locations = GAME.make_config(3, {}).locations
    with pytest.raises(InvalidConfigError) as refused:
        GAME.new_game(PinchedConfig(3, locations, components, 2), SEED)
    assert refused.value.reason == "BAD_COMPONENTS"
    old = GAME.make_config(3, {"components": components, "rules_revision": 1})
    assert GAME.new_game(old, SEED).phase is Phase.PLAN


ALONG_RARITY: dict[str, Any] = {
    "the default table": DEFAULT,
    "equal copies are not compared": _with_kinds(GOLD_BARS, ("coins", 10, ((2, 2), (5, 5)))),
    "rarer at least as much, more at its best": _with_kinds(
        ("rubies", 4, ((2, 1), (3, 2), (4, 4), (6, 6))), GOLD_BARS
    ),
    "a commoner kind selling from larger sets only": _with_kinds(
        GOLD_BARS, ("coins", 20, ((3, 1), (6, 3)))
    ),
}


@pytest.mark.parametrize("name", list(ALONG_RARITY))
def test_a_table_where_rarer_kinds_sell_for_more_is_accepted(name: str) -> None:
    config = GAME.make_config(3, {"components": ALONG_RARITY[name]})
    assert config.components == ALONG_RARITY[name]
