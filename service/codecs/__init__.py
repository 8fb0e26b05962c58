"""Translation between engine values and the protobuf contract, one module per game."""

from __future__ import annotations

from engines.registry import GAMES
from service.codecs.base import GameCodec
from service.codecs.game import DerivedCodec
from service.codecs.gang_of_four import GangOfFourCodec
from service.codecs.pinched import CONTRACT as PINCHED
from service.codecs.the_gang import TheGangCodec

CODECS: dict[str, GameCodec] = {
    "the_gang": TheGangCodec(),
    "gang_of_four": GangOfFourCodec(),
    "pinched": DerivedCodec(GAMES["pinched"], PINCHED),
}

__all__ = ["CODECS", "GameCodec"]
