"""Translation between engine values and the protobuf contract: one derived codec per game;
each game's module holds only what cannot be derived (its ``CONTRACT``)."""

from __future__ import annotations

from engines.registry import GAMES
from referee.codecs import gang_of_four, pinched, the_gang
from referee.codecs.game import DerivedCodec

CODECS: dict[str, DerivedCodec] = {
    "the_gang": DerivedCodec(GAMES["the_gang"], the_gang.CONTRACT),
    "gang_of_four": DerivedCodec(GAMES["gang_of_four"], gang_of_four.CONTRACT),
    "pinched": DerivedCodec(GAMES["pinched"], pinched.CONTRACT),
}

__all__ = ["CODECS", "DerivedCodec"]
