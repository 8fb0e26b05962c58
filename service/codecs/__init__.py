"""Translation between engine values and the protobuf contract, one module per game."""

from __future__ import annotations

from service.codecs.base import GameCodec
from service.codecs.gang_of_four import GangOfFourCodec
from service.codecs.pinched import PinchedCodec
from service.codecs.the_gang import TheGangCodec

CODECS: dict[str, GameCodec] = {
    "the_gang": TheGangCodec(),
    "gang_of_four": GangOfFourCodec(),
    "pinched": PinchedCodec(),
}

__all__ = ["CODECS", "GameCodec"]
