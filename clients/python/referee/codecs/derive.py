"""Protobuf translation derived from the contract: engine values <-> ``referee.v1`` messages.

An engine's moves, events and views are frozen msgspec Structs; the contract's messages
name the same concepts with the same words. So one converter serves every game: it walks
the Struct's fields (``msgspec.inspect``) beside the message's descriptor and pairs them
by name, and it fails at start-up, loudly, when a field on either side has no partner.

The pairing rules:

* a Struct <-> a message, field by field, by name;
* ``int``/``bool``/``str``/``bytes`` <-> the scalar; ``X | None`` <-> a field with presence
  (unset is ``None``), or an enum's ``*_UNSPECIFIED``;
* ``tuple[X, ...]`` <-> ``repeated``;
* an engine ``Enum`` <-> a protobuf enum, member by name (``Colour.WHITE`` <->
  ``CHIP_COLOUR_WHITE``: the protobuf enum's prefix is its zero value's name less
  ``UNSPECIFIED``); an engine ``int`` <-> a protobuf enum by number (a poker hand's
  category, whose numbering the enum spells out);
* a union of tagged Structs <-> a ``oneof`` whose fields are the tags: the message's only
  oneof when the union is the whole value (a move, an event), or the oneof named like the
  Struct field that holds the union (The Gang's ``Propose.decision``);
* a :class:`Leaf` for the few values whose two forms genuinely differ (a card).

Encoders are hot (every view of every move), so each one is compiled once to a single
Python expression per message, as :mod:`dataclasses` compiles ``__init__``; decoders read
requests (one move, one set of options) and are plain closures that refuse a malformed
value with :class:`~referee.codecs.errors.Malformed`.
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec.inspect as mi
from google.protobuf import message_factory
from google.protobuf.descriptor import Descriptor, EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message

from referee.codecs.errors import Malformed

Encode = Callable[[Any], Any]
Decode = Callable[[Any], Any]


@dataclass(frozen=True)
class Leaf:
    """A value whose engine and protobuf forms genuinely differ (a card and its message).

    ``decode`` refuses a message that names no engine value with :class:`Malformed`.
    """

    message: type[Message]
    encode: Encode
    decode: Decode
    example: Any
    """One engine value, for the round-trip test of every type that holds a leaf."""


@dataclass(frozen=True)
class Options:
    """A game whose options message is not its config: the engine Struct that pairs with
    the message, and the options that make a given config (Pinched!'s setup by name)."""

    type: type
    of: Callable[[Any], Any]


@dataclass(frozen=True)
class Contract:
    """One game's pairing of engine types with messages: what cannot be derived.

    ``leaves`` by engine type; ``internal`` names the engine fields that are deliberately
    not part of the contract, per Struct (each with its reason in the game's module);
    ``cached`` lists Structs whose messages are built once per value (finished records that
    every later view repeats); ``options`` when the options message is not the config.
    """

    leaves: Mapping[type, Leaf] = field(default_factory=dict)
    internal: Mapping[type, frozenset[str]] = field(default_factory=dict)
    cached: frozenset[type] = frozenset()
    options: Options | None = None


class ContractMismatch(TypeError):
    """An engine type and its message do not pair: a field, an enum member or a tag."""


def _message_class(descriptor: Descriptor) -> type[Message]:
    return message_factory.GetMessageClass(descriptor)


def enum_prefix(descriptor: EnumDescriptor) -> str:
    """``CHIP_COLOUR_`` for ``ChipColour``: the zero value's name without ``UNSPECIFIED``."""
    zero = descriptor.values_by_number[0].name
    if not zero.endswith("UNSPECIFIED"):
        raise ContractMismatch(f"{descriptor.full_name}: its zero value must be *_UNSPECIFIED")
    return zero[: -len("UNSPECIFIED")]


def enum_table(cls: type[enum.Enum], descriptor: EnumDescriptor) -> dict[Any, int]:
    """Engine member -> protobuf number, by name; every member and every value must pair."""
    prefix = enum_prefix(descriptor)
    names = {value.name: value.number for value in descriptor.values if value.number != 0}
    table = {member: names.pop(prefix + member.name, -1) for member in cls}
    missing = [member.name for member, number in table.items() if number == -1]
    if missing or names:
        raise ContractMismatch(
            f"{cls.__name__} <-> {descriptor.full_name}: engine members without a value "
            f"{missing}, values without a member {sorted(names)}"
        )
    return table


def _struct(cls: type) -> mi.StructType:
    info = mi.type_info(cls)
    if not isinstance(info, mi.StructType):
        raise ContractMismatch(f"{cls!r} is not a msgspec Struct")
    return info


def _optional(info: mi.Type) -> tuple[mi.Type, bool]:
    """``X | None`` -> (X, True); anything else -> (it, False)."""
    if isinstance(info, mi.UnionType):
        rest = [t for t in info.types if not isinstance(t, mi.NoneType)]
        if len(rest) == 1 and len(rest) < len(info.types):
            return rest[0], True
    return info, False


def _tagged(info: mi.Type) -> list[mi.StructType] | None:
    """The variants of a union of tagged Structs, or None for any other type."""
    if isinstance(info, mi.UnionType) and all(
        isinstance(t, mi.StructType) and t.tag is not None for t in info.types
    ):
        return [t for t in info.types if isinstance(t, mi.StructType)]
    if isinstance(info, mi.StructType) and info.tag is not None:
        return [info]
    return None


def _message_of(fd: FieldDescriptor) -> Descriptor:
    if fd.message_type is None:
        raise ContractMismatch(f"{fd.full_name} is not a message field")
    return fd.message_type


def _enum_of(fd: FieldDescriptor) -> EnumDescriptor:
    if fd.enum_type is None:
        raise ContractMismatch(f"{fd.full_name} is not an enum field")
    return fd.enum_type


def _engine_type(info: mi.Type) -> type | None:
    return getattr(info, "cls", None)


class Deriver:
    """Compiles and caches the encoders and decoders of one game's contract."""

    def __init__(self, contract: Contract) -> None:
        self.contract = contract
        self._encoders: dict[tuple[type, str], Encode] = {}
        self._decoders: dict[tuple[type, str], Decode] = {}
        self._names = itertools.count()
        self.problems: list[str] = []
        """Every unpaired field found so far (all of them reported at once, not the first)."""

    def check(self) -> None:
        """Raise :class:`ContractMismatch` naming every field that did not pair."""
        if self.problems:
            found = list(dict.fromkeys(self.problems))  # each once, in the order found
            raise ContractMismatch("\n".join(["the contract does not pair:", *found]))

    # --- pairing ---------------------------------------------------------------------

    def fields(self, cls: type, descriptor: Descriptor) -> list[tuple[mi.Field, str, bool]]:
        """Each contract field of ``cls`` with its message field (or oneof) name, and
        whether it is a oneof; raises :class:`ContractMismatch` on any unpaired field."""
        info = _struct(cls)
        internal = self.contract.internal.get(cls, frozenset())
        paired: list[tuple[mi.Field, str, bool]] = []
        seen: set[str] = set()
        for item in info.fields:
            if item.name in internal:
                continue
            if item.name in descriptor.fields_by_name:
                paired.append((item, item.name, False))
                seen.add(item.name)
            elif item.name in descriptor.oneofs_by_name and _tagged(item.type):
                paired.append((item, item.name, True))
                seen.update(f.name for f in descriptor.oneofs_by_name[item.name].fields)
            else:
                self.problems.append(
                    f"{cls.__name__}.{item.name} has no field in {descriptor.full_name}"
                )
        unpaired = sorted(set(descriptor.fields_by_name) - seen)
        if unpaired:
            self.problems.append(
                f"{descriptor.full_name} fields {unpaired} have no field in {cls.__name__}"
            )
        return [p for p in paired if p[2] or p[1] in descriptor.fields_by_name]

    # --- encoding --------------------------------------------------------------------

    def encoder(self, cls: type, descriptor: Descriptor) -> Encode:
        """Struct -> message, compiled to one expression; a tagged union's variant goes to
        the message's only oneof."""
        key = (cls, descriptor.full_name)
        if key not in self._encoders:
            self._encoders[key] = self._compile_encoder(cls, descriptor)
        return self._encoders[key]

    def union_encoder(self, info: mi.Type, descriptor: Descriptor) -> Encode:
        """A value of a tagged union -> the message whose only oneof holds its variant."""
        variants = _tagged(info)
        assert variants is not None
        if len(descriptor.oneofs) != 1:
            raise ContractMismatch(f"{descriptor.full_name} must have exactly one oneof")
        make = _message_class(descriptor)
        by_class = self._variants(variants, descriptor.oneofs[0].fields, descriptor)

        def encode(value: Any) -> Message:
            try:
                tag, inner = by_class[type(value)]
            except KeyError:
                raise _not_a_variant(value, descriptor) from None
            return make(**{tag: inner(value)})

        return encode

    def _variants(
        self, variants: list[mi.StructType], fields: Sequence[FieldDescriptor], owner: Descriptor
    ) -> dict[type, tuple[str, Encode]]:
        by_tag = {f.name: f for f in fields}
        tags = {str(v.tag) for v in variants}
        if tags != set(by_tag):
            raise ContractMismatch(
                f"{owner.full_name}: engine tags without a field {sorted(tags - set(by_tag))},"
                f" fields without a tag {sorted(set(by_tag) - tags)}"
            )
        return {
            v.cls: (str(v.tag), self.encoder(v.cls, _message_of(by_tag[str(v.tag)])))
            for v in variants
        }

    def _compile_encoder(self, cls: type, descriptor: Descriptor) -> Encode:
        scope: dict[str, Any] = {"M": _message_class(descriptor)}
        arguments: list[str] = []
        spread: list[str] = []
        for item, name, oneof in self.fields(cls, descriptor):
            get = f"v.{item.name}"
            if oneof:
                variants = _tagged(item.type)
                assert variants is not None
                table = self._variants(variants, descriptor.oneofs_by_name[name].fields, descriptor)
                helper = self._bind(scope, _spread(table, descriptor))
                spread.append(f"**{helper}({get})")
                continue
            fd = descriptor.fields_by_name[name]
            try:
                arguments.append(f"{name}={self._value(scope, item.type, fd, get)}")
            except ContractMismatch as error:
                self.problems.append(f"{cls.__name__}.{item.name}: {error}")
        body = ", ".join([*arguments, *spread])
        source = f"def encode(v):\n    return M({body})\n"
        exec(source, scope)  # the dataclasses way: one compiled expression per message
        encode: Encode = scope["encode"]
        if cls in self.contract.cached:
            encode = functools.lru_cache(maxsize=4096)(encode)
        return encode

    def _bind(self, scope: dict[str, Any], value: Any) -> str:
        name = f"_h{next(self._names)}"
        scope[name] = value
        return name

    def _value(self, scope: dict[str, Any], info: mi.Type, fd: FieldDescriptor, get: str) -> str:
        """The expression that turns the engine value ``get`` into ``fd``'s value."""
        if fd.is_repeated:
            if not isinstance(info, mi.VarTupleType | mi.ListType):
                raise ContractMismatch(f"{fd.full_name} is repeated, the engine's is not a tuple")
            item = self._item(scope, info.item_type, fd)
            # No comprehension (a call of its own) for the empty tuples most views hold.
            return get if item is None else f"([{item}(x) for x in {get}] if {get} else ())"
        inner = self._item(scope, info, fd)
        if inner is None:
            return get
        _base, optional = _optional(info)
        if optional and fd.type != FieldDescriptor.TYPE_ENUM:
            return f"({inner}({get}) if {get} is not None else None)"
        return f"{inner}({get})"

    def _item(self, scope: dict[str, Any], info: mi.Type, fd: FieldDescriptor) -> str | None:
        """The name of the function that converts one value for ``fd``; None: as it is."""
        base, optional = _optional(info)
        leaf = self.contract.leaves.get(_engine_type(base))  # type: ignore[arg-type]
        if leaf is not None:
            if fd.message_type is None or leaf.message.DESCRIPTOR is not fd.message_type:
                raise ContractMismatch(f"{fd.full_name}: not the message of its leaf")
            return self._bind(scope, leaf.encode)
        if fd.type == FieldDescriptor.TYPE_ENUM:
            if isinstance(base, mi.IntType):
                return None if not optional else self._bind(scope, _zero_for_none)
            cls = _engine_type(base)
            if not (isinstance(cls, type) and issubclass(cls, enum.Enum)):
                raise ContractMismatch(f"{fd.full_name} is an enum, the engine's is not")
            table: dict[Any, int] = dict(enum_table(cls, _enum_of(fd)))
            if optional:
                table[None] = 0
            return self._bind(scope, table.__getitem__)
        if fd.type == FieldDescriptor.TYPE_MESSAGE:
            if _tagged(base) is not None and not isinstance(base, mi.StructType):
                return self._bind(scope, self.union_encoder(base, _message_of(fd)))
            if not isinstance(base, mi.StructType):
                raise ContractMismatch(f"{fd.full_name} is a message, the engine's is {base}")
            return self._bind(scope, self.encoder(base.cls, _message_of(fd)))
        _check_scalar(base, fd)
        return None

    # --- decoding --------------------------------------------------------------------

    def decoder(self, cls: type, descriptor: Descriptor) -> Decode:
        """Message -> Struct; refuses what no engine value is with :class:`Malformed`."""
        key = (cls, descriptor.full_name)
        if key not in self._decoders:
            self._decoders[key] = self._build_decoder(cls, descriptor)
        return self._decoders[key]

    def union_decoder(self, info: mi.Type, descriptor: Descriptor, empty: Malformed) -> Decode:
        """The message whose only oneof holds a variant -> that variant; ``empty`` when none."""
        variants = _tagged(info)
        assert variants is not None
        assert len(descriptor.oneofs) == 1
        return self._oneof(variants, descriptor, descriptor.oneofs[0].name, empty)

    def _oneof(
        self, variants: list[mi.StructType], owner: Descriptor, oneof: str, empty: Malformed
    ) -> Decode:
        by_tag = {f.name: f for f in owner.oneofs_by_name[oneof].fields}
        decoders = {
            str(v.tag): self.decoder(v.cls, _message_of(by_tag[str(v.tag)])) for v in variants
        }

        def decode(message: Any) -> Any:
            tag = message.WhichOneof(oneof)
            if tag is None:
                raise empty
            return decoders[tag](getattr(message, tag))

        return decode

    def _build_decoder(self, cls: type, descriptor: Descriptor) -> Decode:
        """Message -> Struct, compiled to one expression like the encoders (a move read
        from every request is on the hot path too)."""
        scope: dict[str, Any] = {"C": cls}
        arguments = [
            f"{item.name}=None"
            for item in _struct(cls).fields
            if item.required and item.name in self.contract.internal.get(cls, frozenset())
        ]
        for item, name, oneof in self.fields(cls, descriptor):
            if oneof:
                variants = _tagged(item.type)
                assert variants is not None
                missing = Malformed(f"{name.upper()}_MISSING", f"the {name} is missing")
                read = self._oneof(variants, descriptor, name, missing)
                arguments.append(f"{item.name}={self._bind(scope, read)}(m)")
                continue
            try:
                expression = self._reader(scope, item, descriptor.fields_by_name[name])
            except (ContractMismatch, AssertionError) as error:
                self.problems.append(f"{cls.__name__}.{item.name}: cannot read {error}")
                continue
            arguments.append(f"{item.name}={expression}")
        source = f"def decode(m):\n    return C({', '.join(arguments)})\n"
        exec(source, scope)  # as the encoders: one compiled expression per message
        decode: Decode = scope["decode"]
        return decode

    def _reader(self, scope: dict[str, Any], item: mi.Field, fd: FieldDescriptor) -> str:
        """The expression that reads ``fd`` of the message ``m`` as the engine field ``item``."""
        name = fd.name
        get = f"m.{name}"
        if fd.is_repeated:
            assert isinstance(item.type, mi.VarTupleType | mi.ListType)
            one = self._item_reader(item.type.item_type, fd)
            if one is _identity:
                return f"tuple({get})"
            return f"tuple([{self._bind(scope, one)}(x) for x in {get}])"
        _base, optional = _optional(item.type)
        one = self._item_reader(item.type, fd)
        default = None if item.required or optional else item.default
        if fd.has_presence and fd.type != FieldDescriptor.TYPE_ENUM:
            return f"{self._bind(scope, _present(name, one, optional, default))}(m)"
        read = get if one is _identity else f"{self._bind(scope, one)}({get})"
        if fd.type == FieldDescriptor.TYPE_ENUM and default is not None:
            return f"({read} if {get} else {self._bind(scope, default)})"
        return read

    def _item_reader(self, info: mi.Type, fd: FieldDescriptor) -> Decode:
        base, optional = _optional(info)
        leaf = self.contract.leaves.get(_engine_type(base))  # type: ignore[arg-type]
        if leaf is not None:
            return leaf.decode
        if fd.type == FieldDescriptor.TYPE_ENUM:
            if isinstance(base, mi.IntType):
                return _number_reader(_enum_of(fd), optional)
            cls = _engine_type(base)
            assert isinstance(cls, type)
            assert issubclass(cls, enum.Enum)
            return _enum_reader(cls, _enum_of(fd), optional)
        if fd.type == FieldDescriptor.TYPE_MESSAGE:
            if _tagged(base) is not None and not isinstance(base, mi.StructType):
                empty = Malformed(f"{fd.name.upper()}_MISSING", f"the {fd.name} is missing")
                return self.union_decoder(base, _message_of(fd), empty)
            assert isinstance(base, mi.StructType)
            return self.decoder(base.cls, _message_of(fd))
        return _identity


def _identity(value: Any) -> Any:
    return value


def _present(name: str, read: Decode, optional: bool, default: Any) -> Decode:
    """Reads a field with presence: unset is None, the engine's default, or missing."""
    missing = Malformed(f"{name.upper()}_MISSING", f"the move needs its {name}")

    def present(m: Any) -> Any:
        if m.HasField(name):
            return read(getattr(m, name))
        if optional or default is not None:
            return default
        raise missing

    return present


def _not_a_variant(value: Any, descriptor: Descriptor) -> TypeError:
    return TypeError(f"{value!r} is none of the variants of {descriptor.full_name}")


def _spread(
    table: dict[type, tuple[str, Encode]], descriptor: Descriptor
) -> Callable[[Any], dict[str, Any]]:
    """A union-typed Struct field -> the one oneof member it sets."""

    def spread(value: Any) -> dict[str, Any]:
        try:
            tag, encode = table[type(value)]
        except KeyError:
            raise _not_a_variant(value, descriptor) from None
        return {tag: encode(value)}

    return spread


def _enum_reader(cls: type[enum.Enum], descriptor: EnumDescriptor, optional: bool) -> Decode:
    """Protobuf number -> member; 0 is None where the engine allows it, else missing."""
    back = {number: member for member, number in enum_table(cls, descriptor).items()}
    prefix = enum_prefix(descriptor)
    missing = Malformed(f"{prefix}MISSING", f"name a {descriptor.name}")
    readable = prefix.rstrip("_")

    def read(number: int) -> Any:
        if number == 0:
            if optional:
                return None
            raise missing
        member = back.get(number)
        if member is None:
            raise Malformed(f"UNKNOWN_{readable}", f"there is no {descriptor.name} {number}")
        return member

    return read


def _zero_for_none(value: int | None) -> int:
    return 0 if value is None else value


def _number_reader(descriptor: EnumDescriptor, optional: bool) -> Decode:
    """An engine ``int`` kept as the enum's number (a poker hand's category, 1..10).

    The engine kept it an ``int``, so its range is the rules' to check (with their own
    reason, e.g. The Gang's GUESS_OUT_OF_RANGE); only the unset 0 is refused here.
    """
    prefix = enum_prefix(descriptor)
    missing = Malformed(f"{prefix}MISSING", f"name a {descriptor.name}")

    def read(number: int) -> int | None:
        if number == 0:
            if optional:
                return None
            raise missing
        return number

    return read


_SCALARS: dict[type[mi.Type], frozenset[int]] = {
    mi.IntType: frozenset(
        {
            FieldDescriptor.TYPE_INT32,
            FieldDescriptor.TYPE_INT64,
            FieldDescriptor.TYPE_UINT32,
            FieldDescriptor.TYPE_UINT64,
            FieldDescriptor.TYPE_SINT32,
            FieldDescriptor.TYPE_SINT64,
        }
    ),
    mi.BoolType: frozenset({FieldDescriptor.TYPE_BOOL}),
    mi.StrType: frozenset({FieldDescriptor.TYPE_STRING}),
    mi.BytesType: frozenset({FieldDescriptor.TYPE_BYTES}),
}


def _check_scalar(info: mi.Type, fd: FieldDescriptor) -> None:
    if fd.type not in _SCALARS.get(type(info), frozenset()):
        raise ContractMismatch(f"{fd.full_name}: the engine's {info} is not its scalar type")
