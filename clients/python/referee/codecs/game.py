"""One game's codec, derived: its messages are found in the contract by the game's name.

``referee.v1.Move``, ``Event``, ``View`` and ``TableOptions`` each have a oneof member
named after the game (``the_gang``); that member's message is the game's move, event, view
or options message, and :class:`~referee.codecs.derive.Deriver` pairs it with the engine's
type from its :class:`~engines.base.GameDefinition`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec.inspect as mi
from google.protobuf.descriptor import Descriptor
from google.protobuf.message import Message

from engines.base import GameDefinition
from referee.codecs.derive import Contract, ContractMismatch, Deriver
from referee.codecs.errors import Malformed
from referee.v1 import game_pb2

AnyGame = GameDefinition[Any, Any, Any, Any, Any]


def game_message(envelope: Descriptor, game: str) -> Descriptor:
    """The game's message in one of the envelopes (Move, Event, View, TableOptions)."""
    member = envelope.fields_by_name.get(game)
    if member is None or member.message_type is None:
        raise ContractMismatch(f"{envelope.full_name} has no member {game!r}")
    return member.message_type


class DerivedCodec:
    """A game's codec: options, moves, events and views, every translation derived."""

    def __init__(self, game: AnyGame, contract: Contract) -> None:
        self.name = game.name
        self.deriver = Deriver(contract)
        move = game_message(game_pb2.Move.DESCRIPTOR, game.name)
        event = game_message(game_pb2.Event.DESCRIPTOR, game.name)
        self._options = game_message(game_pb2.TableOptions.DESCRIPTOR, game.name)
        options = contract.options
        self._options_of: Callable[[Any], Any] = options.of if options else _identity
        options_type = options.type if options else game.config_type
        self._encode_move = self.deriver.union_encoder(_union(game.move_type), move)
        self._decode_move = self.deriver.union_decoder(
            _union(game.move_type), move, Malformed("MOVE_EMPTY", "the move names no action")
        )
        self._encode_event = self.deriver.union_encoder(_union(game.event_type), event)
        self._decode_event = self.deriver.union_decoder(
            _union(game.event_type), event, Malformed("EVENT_EMPTY", "the event is empty")
        )
        self._encode_view = self.deriver.encoder(
            game.view_type, game_message(game_pb2.View.DESCRIPTOR, game.name)
        )
        self._decode_view = self.deriver.decoder(
            game.view_type, game_message(game_pb2.View.DESCRIPTOR, game.name)
        )
        self._encode_options = self.deriver.encoder(options_type, self._options)
        self._read_options = self.deriver.decoder(options_type, self._options)
        self.deriver.check()

    # --- what the edge calls ------------------------------------------------------------

    def options_from_proto(self, options: game_pb2.TableOptions) -> dict[str, object]:
        """The engine's table options: only the ones set, so every default stays the
        engine's own."""
        given = self._own(options, "OPTIONS_FOR_OTHER_GAME", "options")
        if given is None:
            return {}
        config = self._read_options(given)
        return {
            item.name: getattr(config, item.name)
            for item in given.DESCRIPTOR.fields
            if _is_set(given, item.name)
        }

    def options_to_proto(self, config: Any) -> game_pb2.TableOptions:
        options = self._encode_options(self._options_of(config))
        return game_pb2.TableOptions(**{self.name: options})

    def move_from_proto(self, move: game_pb2.Move) -> Any:
        given = self._own(move, "MOVE_FOR_OTHER_GAME", "move")
        if given is None:
            raise Malformed("MOVE_FOR_OTHER_GAME", f"this game takes a `{self.name}` move")
        return self._decode_move(given)

    def move_to_proto(self, move: Any) -> game_pb2.Move:
        return game_pb2.Move(**{self.name: self._encode_move(move)})

    def view_message(self, view: Any) -> Message:
        """The game's own view message (the ``View`` envelope's member for this game)."""
        message: Message = self._encode_view(view)
        return message

    def fill_view(self, view: Any, target: game_pb2.View) -> None:
        getattr(target, self.name).CopyFrom(self._encode_view(view))

    def event_to_proto(self, event: Any) -> game_pb2.Event:
        return game_pb2.Event(**{self.name: self._encode_event(event)})

    # --- the other way, for round trips and replays --------------------------------------

    def event_from_proto(self, event: game_pb2.Event) -> Any:
        given = self._own(event, "EVENT_FOR_OTHER_GAME", "event")
        if given is None:
            raise Malformed("EVENT_EMPTY", "the event names no game")
        return self._decode_event(given)

    def view_from_proto(self, view: game_pb2.View) -> Any:
        if view.WhichOneof("game_view") != self.name:
            raise Malformed("VIEW_FOR_OTHER_GAME", f"this is not a view of {self.name}")
        return self._decode_view(getattr(view, self.name))

    def _own(self, envelope: Any, reason: str, what: str) -> Any:
        """The envelope's member for this game; None when it has none; refuses another's."""
        which = envelope.WhichOneof("game")  # Move, Event and TableOptions name it so
        if which is None:
            return None
        if which != self.name:
            raise Malformed(reason, f"{what} for {which}, not {self.name}")
        return getattr(envelope, which)


def _identity(value: Any) -> Any:
    return value


def _union(tp: Any) -> mi.Type:
    return mi.type_info(tp)


def _is_set(message: Any, name: str) -> bool:
    fd = message.DESCRIPTOR.fields_by_name[name]
    if fd.is_repeated:
        return len(getattr(message, name)) > 0
    if fd.has_presence:
        return bool(message.HasField(name))
    return bool(getattr(message, name))
