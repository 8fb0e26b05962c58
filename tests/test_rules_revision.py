"""Rules revisions: a corrected reading of a rule never changes how a recorded game replays.

New tables play by each game's current revision; an earlier one is accepted only as the
``rules_revision`` option that :func:`service.edge.verify.verify_history` gives to replay a game
recorded under it. Revision 1 is stored exactly as a config from before revisions existed.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engines.base import rules_revision
from engines.errors import InvalidConfigError
from engines.gang_of_four.model import RULES_REVISION as GANG_OF_FOUR_REVISION
from engines.pinched.model import RULES_REVISION as PINCHED_REVISION
from engines.registry import GAMES
from engines.the_gang.model import RULES_REVISION as THE_GANG_REVISION

CURRENT = {
    "the_gang": THE_GANG_REVISION,
    "gang_of_four": GANG_OF_FOUR_REVISION,
    "pinched": PINCHED_REVISION,
}


@pytest.mark.parametrize("name", sorted(CURRENT))
def test_a_new_table_plays_by_the_current_revision(name: str) -> None:
    config: Any = GAMES[name].make_config(4, {})
    assert rules_revision(config.rules_revision) == CURRENT[name] >= 2


@pytest.mark.parametrize("name", sorted(CURRENT))
def test_revision_one_encodes_like_a_config_from_before_revisions(name: str) -> None:
    game = GAMES[name]
    old: Any = game.make_config(4, {"rules_revision": 1})
    assert old.rules_revision is msgspec.UNSET and rules_revision(old.rules_revision) == 1
    encoded = msgspec.msgpack.encode(old)
    assert b"rules_revision" not in encoded
    assert msgspec.msgpack.decode(encoded, type=game.config_type) == old
    new = game.make_config(4, {})
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(new), type=game.config_type) == new


@pytest.mark.parametrize("name", sorted(CURRENT))
@pytest.mark.parametrize("revision", [0, -1, "2", True, 99])
def test_an_unknown_revision_is_refused(name: str, revision: object) -> None:
    with pytest.raises(InvalidConfigError) as refused:
        GAMES[name].make_config(4, {"rules_revision": revision})
    assert refused.value.reason == "BAD_OPTION"
