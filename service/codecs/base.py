"""What a game's protobuf translation provides to the game-agnostic service."""

from __future__ import annotations

from typing import Any, Protocol

from referee.v1 import game_pb2


class GameCodec(Protocol):
    def options_from_proto(self, options: game_pb2.TableOptions) -> dict[str, object]:
        """Engine table options from the request; raises BadRequest on another game's options."""
        ...

    def options_to_proto(self, config: Any) -> game_pb2.TableOptions: ...

    def move_from_proto(self, move: game_pb2.Move) -> Any:
        """The engine move; raises BadRequest when the shape is wrong (missing oneof...)."""
        ...

    def move_to_proto(self, move: Any) -> game_pb2.Move: ...

    def fill_view(self, view: Any, target: game_pb2.View) -> None:
        """Write the game-specific part of a view into ``target``."""
        ...

    def event_to_proto(self, event: Any) -> game_pb2.Event: ...
