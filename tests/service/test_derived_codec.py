"""The derived codec: every engine move, event and view type of every game round-trips
through its message, and a field that has no partner on the other side fails loudly."""

from __future__ import annotations

import enum
from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest

from engines.registry import GAMES
from referee.codecs import CODECS
from referee.codecs.derive import Contract, ContractMismatch, Deriver, enum_table
from referee.codecs.game import DerivedCodec, game_message
from referee.v1 import game_pb2, the_gang_pb2

DERIVED = sorted(name for name, codec in CODECS.items() if isinstance(codec, DerivedCodec))


def _codec(game: str) -> DerivedCodec:
    codec = CODECS[game]
    assert isinstance(codec, DerivedCodec)
    return codec


def example(info: mi.Type, contract: Contract, *, filled: bool) -> Any:
    """One engine value of the type: every optional set (``filled``) or left out."""
    match info:
        case mi.IntType():
            return 1
        case mi.BoolType():
            return True
        case mi.StrType():
            return "x"
        case mi.BytesType():
            return b"x"
        case mi.EnumType(cls=cls):  # every Enum, IntEnum and StrEnum alike
            return next(iter(cls))
        case mi.VarTupleType(item_type=item) | mi.ListType(item_type=item):
            return (example(item, contract, filled=filled),)
        case mi.UnionType(types=types):
            present = [t for t in types if not isinstance(t, mi.NoneType)]
            if len(present) < len(types) and not filled:
                return None
            return example(present[0], contract, filled=filled)
        case mi.StructType(cls=cls):
            return struct_example(cls, contract, filled=filled)
    raise AssertionError(f"no example for {info}")


def struct_example(cls: type, contract: Contract, *, filled: bool) -> Any:
    leaf = contract.leaves.get(cls)
    if leaf is not None:
        return leaf.example
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    internal = contract.internal.get(cls, frozenset())
    return cls(
        **{
            item.name: None
            if item.name in internal
            else example(item.type, contract, filled=filled)
            for item in info.fields
        }
    )


def _variants(union: Any) -> list[type]:
    info = mi.type_info(union)
    assert isinstance(info, mi.UnionType)
    return [t.cls for t in info.types if isinstance(t, mi.StructType)]


def _types(game: str) -> list[tuple[str, type]]:
    definition = GAMES[game]
    return [
        *(("move", cls) for cls in _variants(definition.move_type)),
        *(("event", cls) for cls in _variants(definition.event_type)),
        ("view", definition.view_type),
    ]


def test_every_game_has_a_derived_codec() -> None:
    assert sorted(GAMES) == DERIVED


@pytest.mark.parametrize("game", DERIVED)
@pytest.mark.parametrize("filled", [True, False], ids=["filled", "empty"])
def test_every_move_event_and_view_type_round_trips(game: str, filled: bool) -> None:
    codec = _codec(game)
    contract = codec.deriver.contract
    for kind, cls in _types(game):
        value = struct_example(cls, contract, filled=filled)
        if kind == "move":
            back = codec.move_from_proto(codec.move_to_proto(value))
        elif kind == "event":
            back = codec.event_from_proto(codec.event_to_proto(value))
        else:
            view = game_pb2.View(game=game)
            codec.fill_view(value, view)
            back = codec.view_from_proto(view)
        assert back == value, f"{game} {kind} {cls.__name__} does not round-trip"


def _extended(cls: type, extra: str) -> type:
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    fields = [(f.name, Any) for f in info.fields]
    return msgspec.defstruct(cls.__name__, [*fields, (extra, int)], frozen=True)


def _reduced(cls: type, descriptor: Any) -> type:
    """``cls`` without its first field that the message has (a view's ``viewer`` has none)."""
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    names = [f.name for f in info.fields]
    dropped = next(name for name in names if name in descriptor.fields_by_name)
    fields = [(name, Any) for name in names if name != dropped]
    return msgspec.defstruct(cls.__name__, fields, frozen=True)


@pytest.mark.parametrize("game", DERIVED)
def test_an_engine_field_without_a_proto_field_fails_loudly(game: str) -> None:
    definition = GAMES[game]
    deriver = Deriver(_codec(game).deriver.contract)
    deriver.encoder(
        _extended(definition.view_type, "no_such_field"),
        game_message(game_pb2.View.DESCRIPTOR, game),
    )
    with pytest.raises(ContractMismatch, match="no_such_field has no field"):
        deriver.check()


@pytest.mark.parametrize("game", DERIVED)
def test_a_proto_field_without_an_engine_field_fails_loudly(game: str) -> None:
    definition = GAMES[game]
    deriver = Deriver(Contract())
    descriptor = game_message(game_pb2.View.DESCRIPTOR, game)
    deriver.encoder(_reduced(definition.view_type, descriptor), descriptor)
    with pytest.raises(ContractMismatch, match="have no field in"):
        deriver.check()


class _Colour(enum.Enum):
    WHITE = 1
    PURPLE = 2


def test_an_enum_member_without_a_proto_value_fails_loudly() -> None:
    with pytest.raises(ContractMismatch, match="PURPLE"):
        enum_table(_Colour, the_gang_pb2.ChipColour.DESCRIPTOR)
