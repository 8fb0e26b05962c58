"""Pinched!'s component values, as data: the valuables deck, jokers, curses, vault tracks.

The seed gives only some of them: gold bars sell 2 -> 1, 3 -> 2, 4+ -> 4; there are six
curses worth -1, -2 or -3; the crown-side vault track is 1, 2, 4, 6 and the standard track
starts at 0. Everything else below is PROVISIONAL (marked so in ``PROVISIONAL``): chosen to
respect what the seed says until the printed table is known. A sale puts as many cards face
down as its value, so a value never exceeds its threshold; and "Zeldzame soorten hebben
hogere verkoopwaarden, maar zijn lastiger te verzamelen" (:func:`check_rarity`). 108 cards,
so that five burglars' fifteen days rarely run the deck and the discards dry (54 did, in
every 3-5 player game of a sensible bot). A game's config may replace the whole table;
:func:`check_components` refuses a bad one.
"""

from __future__ import annotations

from functools import lru_cache

import msgspec

from engines.errors import InvalidConfigError

JOKER = -1
"""The kind of a document card (joker)."""
MAX_CARDS = 1000
"""The most cards a table may hold (the whole deck is stored with every version)."""


class Sale(msgspec.Struct, frozen=True, array_like=True):
    """Selling a set of at least ``threshold`` cards puts ``value`` of them face down."""

    threshold: int
    value: int


class ValuableKind(msgspec.Struct, frozen=True):
    """A kind of valuable: its name, how many copies the deck holds, and its sales table,
    lowest threshold first."""

    name: str
    copies: int
    sales: tuple[Sale, ...]


class Components(msgspec.Struct, frozen=True):
    kinds: tuple[ValuableKind, ...]
    jokers: int
    curses: tuple[int, ...]  # the points each curse takes away (1, 2 or 3)
    vault_standard: tuple[int, ...]  # the standard side's vault track, left to right
    vault_crown: tuple[int, ...]
    fields: int  # open card fields on each mansion
    tiebreak_kind: str = "gold_bars"


DOCUMENT = "document"
"""The name a view gives a joker's kind (document card); no kind may take it."""


DEFAULT = Components(
    kinds=(
        ValuableKind("coins", 26, (Sale(4, 1), Sale(7, 2))),
        ValuableKind("gold_bars", 12, (Sale(2, 1), Sale(3, 2), Sale(4, 4))),
        ValuableKind("paintings", 26, (Sale(4, 1), Sale(6, 2))),
        ValuableKind("jewels", 18, (Sale(3, 1), Sale(4, 2), Sale(6, 3))),
        ValuableKind("statues", 18, (Sale(3, 1), Sale(4, 2), Sale(5, 3))),
    ),
    jokers=8,
    curses=(1, 1, 1, 2, 2, 3),
    vault_standard=(0, 1, 2, 3, 4),
    vault_crown=(1, 2, 4, 6),
    fields=3,
)
"""The provisional table of rules revision 2 and later. Gold bars' 4 points for a set of
4 is the most any set of 4 can sell for (a value never exceeds its threshold), so no kind
can sell for more at that size: gold bars must be the rarest kind, and every commoner kind
sells below them. The others come in two tiers of equal copies (statues and jewels, then
coins and paintings), each selling for less than the tier above at every set size where
both have a value."""

FIRST_RELEASE_DEFAULT = Components(
    kinds=(
        ValuableKind("coins", 28, (Sale(3, 1), Sale(5, 3), Sale(7, 6))),
        ValuableKind("gold_bars", 24, (Sale(2, 1), Sale(3, 2), Sale(4, 4))),
        ValuableKind("paintings", 20, (Sale(2, 1), Sale(4, 3), Sale(5, 5))),
        ValuableKind("jewels", 16, (Sale(2, 2), Sale(3, 3))),
        ValuableKind("statues", 12, (Sale(2, 2),)),
    ),
    jokers=8,
    curses=(1, 1, 1, 2, 2, 3),
    vault_standard=(0, 1, 2, 3, 4),
    vault_crown=(1, 2, 4, 6),
    fields=3,
)
"""The provisional table of rules revision 1 (the first release), kept so that a table
made under it replays with its values. It breaks the rarity rule (statues, the rarest kind,
sold for at most 2; coins, the commonest, for 6), which revision 2 corrected."""


RARITY_REVISION = 2
"""The first rules revision whose component tables must obey :func:`check_rarity`."""


def default_components(revision: int) -> Components:
    """The component table a table plays with unless its options replace it."""
    return FIRST_RELEASE_DEFAULT if revision < RARITY_REVISION else DEFAULT


PROVISIONAL = (
    "every kind but gold_bars (copies and sales)",
    "gold_bars copies",
    "jokers",
    "the split of the six curses",
    "the standard vault track beyond its 0",
    "open card fields per mansion",
)


def _bad(message: str) -> InvalidConfigError:
    return InvalidConfigError("BAD_COMPONENTS", message)


def check_components(table: Components, revision: int) -> None:
    """Refuse a component table the rules cannot be played with (under rules
    ``revision``: from :data:`RARITY_REVISION` on, one that breaks the rarity rule too)."""
    names = [kind.name for kind in table.kinds]
    if not names or len(set(names)) != len(names) or not all(names):
        raise _bad("valuable kinds need distinct, non-empty names")
    if DOCUMENT in names:
        raise _bad(f"{DOCUMENT!r} names the jokers, not a kind")
    for kind in table.kinds:
        if kind.copies < 1:
            raise _bad(f"{kind.name}: a kind has at least one copy")
        thresholds = [sale.threshold for sale in kind.sales]
        if not thresholds or thresholds != sorted(set(thresholds)) or thresholds[0] < 1:
            raise _bad(f"{kind.name}: sales thresholds must rise from at least 1")
        values = [sale.value for sale in kind.sales]
        if values != sorted(values) or any(
            not 0 <= sale.value <= sale.threshold for sale in kind.sales
        ):
            raise _bad(f"{kind.name}: a sale puts at most its set's cards face down")
    if table.tiebreak_kind not in names:
        raise _bad(f"the tie-break kind {table.tiebreak_kind!r} is not a kind")
    if table.jokers < 0:
        raise _bad("jokers cannot be negative")
    if sum(kind.copies for kind in table.kinds) + table.jokers > MAX_CARDS:
        raise _bad(f"a component table holds at most {MAX_CARDS} cards")
    if len(table.curses) != 6 or any(value not in (1, 2, 3) for value in table.curses):
        raise _bad("there are six curses, each worth -1, -2 or -3")
    for name, track in (("standard", table.vault_standard), ("crown", table.vault_crown)):
        if not track or any(step < 0 for step in track) or list(track) != sorted(track):
            raise _bad(f"the {name} vault track must be rising, non-negative steps")
    if table.vault_standard[0] != 0:
        raise _bad("the standard vault track starts at 0")
    if not 1 <= table.fields <= 6:
        raise _bad("a mansion has 1 to 6 open card fields")
    if revision >= RARITY_REVISION:
        check_rarity(table)


def check_rarity(table: Components) -> None:
    """ "Zeldzame soorten hebben hogere verkoopwaarden" (RULES-NOTES): a kind with fewer
    copies sells for at least as much as a kind with more copies at every set size, and
    strictly more at its best size (the smallest set that fetches its highest value).
    Kinds with as many copies as each other are not compared."""
    for rare in table.kinds:
        best_value = rare.sales[-1].value
        best = next(sale.threshold for sale in rare.sales if sale.value == best_value)
        for common in table.kinds:
            if rare.copies >= common.copies:
                continue
            pair = f"{rare.name} ({rare.copies} copies) and {common.name} ({common.copies})"
            largest = max(rare.sales[-1].threshold, common.sales[-1].threshold)
            for size in range(1, largest + 1):
                if sale_value(rare, size) < sale_value(common, size):
                    raise _bad(f"{pair}: the rarer sells for less at a set of {size}")
            if sale_value(rare, best) <= sale_value(common, best):
                raise _bad(f"{pair}: the rarer must sell for more at its best set of {best}")


@lru_cache(maxsize=64)
def kinds_of(table: Components) -> tuple[int, ...]:
    """The kind of every card id: ids are the copies of each kind in order, then jokers."""
    out: list[int] = []
    for index, kind in enumerate(table.kinds):
        out += [index] * kind.copies
    return tuple(out + [JOKER] * table.jokers)


def sale_value(kind: ValuableKind, count: int) -> int:
    """Points for a set of ``count`` cards: the highest threshold reached, else nothing."""
    value = 0
    for sale in kind.sales:
        if count >= sale.threshold:
            value = sale.value
    return value
