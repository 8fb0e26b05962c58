"""Choosing the locations and setting the table.

Seed, "Voorbereiding" and "Basisvoorbereiding": 2 players diamonds, clubs and hearts; 3
players diamonds, clubs, spades and hearts; 4 players diamonds, clubs and hearts plus the
bank; 5 players diamonds, clubs, spades and hearts plus the bank; all mansions on their
standard side. "Aanbevolen voorbereidingen voor latere potjes" are the four named setups.
A custom choice must respect each side's player counts; "bij 5 spelers speel je er altijd
mee" (the bank).
"""

from __future__ import annotations

import msgspec

from engines.base import rules_revision, split_rules_revision
from engines.checks import check_table
from engines.errors import InvalidConfigError
from engines.pinched.components import Components, check_components, default_components
from engines.pinched.model import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULES_REVISION,
    SIDE_PLAYERS,
    Location,
    PinchedConfig,
    Placement,
    Side,
)

D, C, S, H, B = (
    Location.DIAMONDS,
    Location.CLUBS,
    Location.SPADES,
    Location.HEARTS,
    Location.BANK,
)
STD, CROWN = Side.STANDARD, Side.CROWN


def _setup(*pairs: tuple[Location, Side]) -> tuple[Placement, ...]:
    return tuple(Placement(location, side) for location, side in pairs)


BASIC: dict[int, tuple[Placement, ...]] = {
    2: _setup((D, STD), (C, STD), (H, STD)),
    3: _setup((D, STD), (C, STD), (S, STD), (H, STD)),
    4: _setup((D, STD), (C, STD), (H, STD), (B, CROWN)),
    5: _setup((D, STD), (C, STD), (S, STD), (H, STD), (B, CROWN)),
}
RECOMMENDED: dict[str, tuple[int, tuple[Placement, ...]]] = {
    "paranoid_owner": (2, _setup((D, STD), (C, CROWN), (H, STD))),
    "search_for_lisa_mona": (3, _setup((D, CROWN), (C, CROWN), (S, STD), (H, STD))),
    "cursed_secrets": (4, _setup((D, CROWN), (S, STD), (H, CROWN), (B, CROWN))),
    "the_whole_package": (5, _setup((D, CROWN), (C, CROWN), (S, CROWN), (H, CROWN), (B, CROWN))),
}
SETUPS = ("basic", *RECOMMENDED)


class PinchedOptions(msgspec.Struct, frozen=True):
    """A table's options as a client gives them (see :func:`make_config`): a setup's name
    or a custom choice of ``locations``, and a replacement component table. They are not
    the config: a config has its seat count and always its locations and table."""

    setup: str = ""
    locations: tuple[Placement, ...] = ()
    components: Components | None = None


def options_of(config: PinchedConfig) -> PinchedOptions:
    """The options that make ``config``: the setup by name when it is one of the rules'
    setups, else its locations; always the whole component table, so that a history says
    which values were played."""
    if BASIC.get(config.players) == config.locations:
        return PinchedOptions(setup="basic", components=config.components)
    for name, (players, locations) in RECOMMENDED.items():
        if (players, locations) == (config.players, config.locations):
            return PinchedOptions(setup=name, components=config.components)
    return PinchedOptions(locations=config.locations, components=config.components)


def check_locations(players: int, locations: tuple[Placement, ...]) -> None:
    where = [placement.location for placement in locations]
    if len(where) < 2 or len(set(where)) != len(where):
        raise InvalidConfigError(
            "BAD_LOCATIONS", "choose at least two different locations, each once"
        )
    for placement in locations:
        seats = SIDE_PLAYERS.get((placement.location, placement.side))
        if seats is None:
            raise InvalidConfigError(
                "BAD_LOCATIONS",
                f"the {placement.location} has no {placement.side} side",
            )
        if players not in seats:
            raise InvalidConfigError(
                "SIDE_NOT_FOR_PLAYERS",
                f"the {placement.side} side of the {placement.location} is for "
                f"{seats.start} to {seats.stop - 1} players, not {players}",
            )
    if players == 5 and Location.BANK not in where:
        raise InvalidConfigError("BANK_REQUIRED", "with 5 players the bank is always in play")


def _placements(value: object) -> tuple[Placement, ...]:
    if not isinstance(value, list | tuple):
        raise InvalidConfigError("BAD_OPTION", "locations is a list of (location, side)")
    out: list[Placement] = []
    for item in value:
        if isinstance(item, Placement):
            out.append(item)
            continue
        try:
            location, side = item
            out.append(Placement(Location(location), Side(side)))
        except (TypeError, ValueError):
            raise InvalidConfigError("BAD_OPTION", f"not a location and side: {item!r}") from None
    order = list(Location)
    return tuple(sorted(out, key=lambda p: order.index(p.location)))


def make_config(players: int, options: dict[str, object]) -> PinchedConfig:
    """Options: ``setup`` (``basic`` or a recommended setup's name), or ``locations`` (a
    custom choice), and ``components`` (a replacement component table; without one, the
    default table of the table's rules revision)."""
    revision, options = split_rules_revision("Pinched!", options, RULES_REVISION)
    known = ("setup", "locations", "components")
    check_table(
        "Pinched!",
        players,
        range(MIN_PLAYERS, MAX_PLAYERS + 1),
        {key: value for key, value in options.items() if key not in known},
        (),
    )
    if "setup" in options and "locations" in options:
        raise InvalidConfigError("BAD_OPTION", "give a setup or locations, not both")
    if "locations" in options:
        locations = _placements(options["locations"])
    else:
        name = options.get("setup", "basic")
        if name == "basic":
            locations = BASIC[players]
        elif name in RECOMMENDED:
            seats, locations = RECOMMENDED[str(name)]
            if seats != players:
                raise InvalidConfigError(
                    "SETUP_NOT_FOR_PLAYERS", f"{name} is a setup for {seats} players"
                )
        else:
            raise InvalidConfigError("BAD_OPTION", f"setup must be one of {', '.join(SETUPS)}")
    components = options.get("components", default_components(rules_revision(revision)))
    if not isinstance(components, Components):
        raise InvalidConfigError("BAD_COMPONENTS", "components must be a component table")
    config = PinchedConfig(players, locations, components, revision)
    check_config(config)
    return config


def check_config(config: PinchedConfig) -> None:
    check_table("Pinched!", config.players, range(MIN_PLAYERS, MAX_PLAYERS + 1), {}, ())
    check_locations(config.players, config.locations)
    check_components(config.components, rules_revision(config.rules_revision))
