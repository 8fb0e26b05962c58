"""Pinched!'s contract: what the derived codec cannot read off the engine's types.

Everything else pairs by name (:mod:`referee.codecs.derive`): the view names every card's
kind itself (``engines.pinched.view.Valuable``), events and moves name cards by id.
"""

from __future__ import annotations

from engines.pinched.components import Components
from engines.pinched.events import GameEnded
from engines.pinched.model import Location, Placement, Side
from engines.pinched.setup import PinchedOptions, options_of
from engines.pinched.view import PinchedView
from referee.codecs.derive import Contract, Leaf, Options, enum_table
from referee.codecs.errors import Malformed
from referee.v1 import pinched_pb2 as pb

_LOCATIONS = enum_table(Location, pb.Location.DESCRIPTOR)
_SIDES = enum_table(Side, pb.Side.DESCRIPTOR)
_LOCATIONS_BACK = {number: where for where, number in _LOCATIONS.items()}
_SIDES_BACK = {number: side for side, number in _SIDES.items()}


def _placement(placement: Placement) -> pb.LocationSide:
    return pb.LocationSide(
        location=_LOCATIONS[placement.location],  # type: ignore[arg-type]
        side=_SIDES[placement.side],  # type: ignore[arg-type]
    )


def _placement_from_proto(message: pb.LocationSide) -> Placement:
    """A placement is refused whole, with the reason the engine gives every other bad
    choice of locations (a missing or unknown location or side alike)."""
    where = _LOCATIONS_BACK.get(message.location)
    side = _SIDES_BACK.get(message.side)
    if where is None or side is None:
        raise Malformed("BAD_LOCATIONS", "each placement names a location and its side")
    return Placement(where, side)


CONTRACT = Contract(
    leaves={
        Placement: Leaf(
            pb.LocationSide,
            _placement,
            _placement_from_proto,
            Placement(Location.CLUBS, Side.CROWN),
        )
    },
    internal={PinchedView: frozenset({"viewer"})},  # the envelope's View.seat carries it
    # the component table is in every view, the final scores in every view after the end
    cached=frozenset({Components, GameEnded}),
    # a client names a setup (or a custom choice of locations), the config holds its seats
    # and the locations that setup makes
    options=Options(PinchedOptions, options_of),
)
