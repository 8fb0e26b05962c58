"""The move limit of a table: how many moves (versions) a game may have at most.

A seat could otherwise inflate a game without end (The Gang's chip swaps never end a
round by themselves), and every later GetHistory, watch from version 0 and verification
would pay for each of those moves. The limit is a table option (``move_limit``, split off
the engine's options at creation as :func:`engines.base.split_rules_revision` splits the
rules revision) stored in the game's meta, so every replica enforces the same value; a game
stored before limits existed gets its game's default. Each game sets its default itself
(``engines.base.GameDefinition.default_move_limit``, with the measurement behind it).

A game at its limit stays unfinished: every further move is refused with
FAILED_PRECONDITION ``MOVE_LIMIT_REACHED`` (retrying never helps, so this is not
RESOURCE_EXHAUSTED, which tells clients and proxies to retry later), ListLegalMoves lists
nothing, and the game expires by the idle TTL like any game nobody moves in.
"""

from __future__ import annotations

import msgspec

from service.domain.records import GameMeta
from service.errors import BadRequest, RuleViolation

MOVE_LIMIT_OPTION = "move_limit"

# No table may ask for more (the largest default): a game's replay
# (GetHistory on another replica, a duplicate move id, a watch from version 0) stays
# bounded, and 20,000 chip swaps stay impossible. Every game's default is 1 to this
# (tests/test_architecture.py).
MAX_MOVE_LIMIT = 16_000


def move_limit(meta: GameMeta, default: int) -> int:
    """The limit a stored game plays under: its own, or ``default`` (its game's
    ``default_move_limit``) if it was stored before limits existed."""
    if isinstance(meta.move_limit, msgspec.UnsetType):
        return default
    return meta.move_limit


def split_move_limit(default: int, options: dict[str, object]) -> tuple[int, dict[str, object]]:
    """The table's move limit (``default``, its game's ``default_move_limit``, unless given)
    and the engine's options; BadRequest ``MOVE_LIMIT_INVALID`` for a limit that is not 1
    to :data:`MAX_MOVE_LIMIT`."""
    rest = {key: value for key, value in options.items() if key != MOVE_LIMIT_OPTION}
    limit = options.get(MOVE_LIMIT_OPTION, default)
    if type(limit) is not int or not 1 <= limit <= MAX_MOVE_LIMIT:
        raise BadRequest(
            "MOVE_LIMIT_INVALID", f"move_limit must be 1 to {MAX_MOVE_LIMIT}, not {limit!r}"
        )
    return limit, rest


def check_room(version: int, limit: int) -> None:
    """Refuse a move at a game that has reached its limit (``version`` moves made)."""
    if version >= limit:
        raise RuleViolation(
            "MOVE_LIMIT_REACHED",
            f"this game has reached its limit of {limit} moves; it accepts no more",
            {"move_limit": str(limit)},
        )
