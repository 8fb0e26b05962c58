"""The tables the Pinched! playouts run on: every seat count on the basic setup, the
recommended setups, custom choices of locations and sides, and two custom component tables
(a tiny deck that runs dry, a wide one with many storage choices)."""

from __future__ import annotations

from typing import Any

from engines.pinched.components import Components, Sale, ValuableKind
from engines.pinched.model import Location, Side

D, C, S, H, B = Location.DIAMONDS, Location.CLUBS, Location.SPADES, Location.HEARTS, Location.BANK
STD, CROWN = Side.STANDARD, Side.CROWN

TINY = Components(
    kinds=(
        ValuableKind("gold_bars", 4, (Sale(2, 1), Sale(3, 2), Sale(4, 4))),
        ValuableKind("coins", 4, (Sale(2, 1), Sale(3, 3))),
    ),
    jokers=4,
    curses=(3, 1, 2, 1, 3, 2),
    vault_standard=(0, 2, 5),
    vault_crown=(1, 2, 4, 6),
    fields=2,
)
"""12 cards: the draw pile and the discards run dry at once, fields stay bare. (As many
coins as gold bars: the rarity rule compares only kinds with different copies.)"""

WIDE = Components(
    kinds=(
        ValuableKind("gold_bars", 8, (Sale(2, 1), Sale(3, 2), Sale(4, 4))),
        ValuableKind("coins", 8, (Sale(1, 1),)),
        ValuableKind("maps", 8, (Sale(3, 2), Sale(6, 6))),
        ValuableKind("clocks", 8, (Sale(2, 1), Sale(4, 3))),
        ValuableKind("vases", 8, (Sale(2, 2),)),
        ValuableKind("crowns", 8, (Sale(3, 3),)),
    ),
    jokers=12,
    curses=(3, 3, 3, 2, 2, 1),
    vault_standard=(0, 3, 6),
    vault_crown=(1, 2, 4, 6),
    fields=5,
    tiebreak_kind="gold_bars",
)
"""Six kinds, twelve jokers, five fields a mansion: many storage choices. (Every kind has
as many copies, so the rarity rule leaves their different sales alone.)"""


def locations(*pairs: tuple[Location, Side]) -> list[tuple[str, str]]:
    return [(str(location), str(side)) for location, side in pairs]


Case = tuple[str, int, dict[str, Any]]

CASES: tuple[Case, ...] = (
    *((f"basic_{n}p", n, {"setup": "basic"}) for n in range(2, 6)),
    ("paranoid_owner", 2, {"setup": "paranoid_owner"}),
    ("search_for_lisa_mona", 3, {"setup": "search_for_lisa_mona"}),
    ("cursed_secrets", 4, {"setup": "cursed_secrets"}),
    ("the_whole_package", 5, {"setup": "the_whole_package"}),
    ("custom_2p_clubs_crown_hearts", 2, {"locations": locations((C, CROWN), (H, STD))}),
    (
        "custom_3p_diamonds_crown_spades",
        3,
        {"locations": locations((D, CROWN), (C, STD), (S, STD))},
    ),
    (
        "custom_4p_all_crowns",
        4,
        {"locations": locations((D, CROWN), (C, CROWN), (S, CROWN), (H, CROWN), (B, CROWN))},
    ),
    (
        "custom_5p_spades_hearts_bank",
        5,
        {"locations": locations((S, CROWN), (H, CROWN), (B, CROWN))},
    ),
    (
        "tiny_deck_4p",
        4,
        {"locations": locations((D, CROWN), (H, CROWN), (B, CROWN)), "components": TINY},
    ),
    (
        "wide_table_2p",
        2,
        {"locations": locations((D, STD), (C, CROWN), (H, STD)), "components": WIDE},
    ),
)
