"""Pinched!: where hidden things can be in the service's answers, by protobuf field.

The message and enum type names the leak judge (:mod:`pinched_leaks`) walks by, the
``Location`` fields it knows (public ones, and private ones judged with their message), the
fields that hold a ``Curse``, a card id or a curse id, and walkers over message descriptors
that find such fields (a test checks the judge knows every one the contract has).
"""

from __future__ import annotations

from collections.abc import Iterator

from google.protobuf import descriptor

from engines.pinched.model import Location
from referee.v1 import pinched_pb2 as pb

PB_LOCATION = {where: pb.Location.Value(f"LOCATION_{where.name}") for where in Location}
LOCATION_OF = {value: where for where, value in PB_LOCATION.items()}

ANY = "google.protobuf.Any"
VIEW = "referee.v1.View"
PINCHED_VIEW = "referee.v1.PinchedView"
HISTORY_ENTRY = "referee.v1.HistoryEntry"
EVENT = "referee.v1.Event"
MOVE = "referee.v1.Move"
VALUABLE = "referee.v1.Valuable"
CURSE = "referee.v1.Curse"
COMPONENTS = "referee.v1.PinchedComponents"
LOCATION_ENUM = "referee.v1.Location"

PUBLIC_LOCATIONS = frozenset(
    {
        "referee.v1.LocationSide.location",
        "referee.v1.LocationFields.location",
        "referee.v1.PinchedEvent.LocationsRevealed.choices",
        "referee.v1.PinchedEvent.LocationsRevealed.heist",
        "referee.v1.PinchedEvent.LetterOpened.location",
        "referee.v1.PinchedEvent.CardTaken.location",
        "referee.v1.PinchedEvent.FieldRefilled.location",
        "referee.v1.PinchedMove.FieldRef.location",
    }
)
"""Location fields anyone may see."""
PRIVATE_LOCATIONS = frozenset(
    {
        "referee.v1.PinchedView.my_choice",
        "referee.v1.PinchedView.choices",
        "referee.v1.PinchedView.heist",
        "referee.v1.PinchedView.letter",
        "referee.v1.PinchedView.revealed_letter",
        "referee.v1.PinchedView.revealed_choices",
        "referee.v1.PinchedEvent.LocationChosen.location",
        "referee.v1.PinchedEvent.LetterRead.location",
        "referee.v1.PinchedMove.ChooseLocation.location",
    }
)
"""Location fields judged where their message is judged (view, event, move)."""
CURSE_FIELDS = frozenset(
    {
        "referee.v1.PinchedView.curses",
        "referee.v1.PinchedView.revealed_curse_pile",
        "referee.v1.SeatCurses.curses",
        "referee.v1.PinchedEvent.CurseDrawn.curse",
        "referee.v1.PinchedEvent.CursePassed.curse",
    }
)
"""Where a Curse may be: judged with its view or event."""
CARD_ID_FIELDS = frozenset(
    {
        "referee.v1.PinchedMove.Store.card",
        "referee.v1.PinchedEvent.CardsDrawn.cards",
        "referee.v1.PinchedEvent.CardTaken.card",
        "referee.v1.PinchedEvent.FieldRefilled.card",
        "referee.v1.PinchedEvent.Stored.card",
        "referee.v1.PinchedEvent.Discarded.cards",
    }
)
"""Card ids outside a ``Valuable``: moves and events name cards by id."""
CURSE_ID_FIELDS = frozenset({"referee.v1.PinchedMove.PassCurse.curse"})
REVEALED_ONLY = frozenset({"revealed_choices"})
"""Filled only in a revealed view (WatchGame `revealed`, a finished game's replay; judged by
tests/service/test_reveal.py and tests/pinched/test_revealed_view.py), never in a plain one,
finished or not: the views the judge sees are plain."""
REVEALED_FIELDS = (
    frozenset(
        name for name in pb.PinchedView.DESCRIPTOR.fields_by_name if name.startswith("revealed_")
    )
    - REVEALED_ONLY
)
"""The view's post-game reveal: everything hidden, once the game is over (judged with the
view: empty before the end, the whole truth after it)."""


def paths_to(
    message: descriptor.Descriptor, want: str, seen: frozenset[str] = frozenset()
) -> set[str]:
    """Every field reachable inside ``message`` whose message or enum type is ``want``, by
    its full name (``referee.v1.Owner.field``), through messages not yet on the path."""
    out: set[str] = set()
    for fd in message.fields:
        kind = fd.message_type or fd.enum_type
        if kind is None:
            continue
        if kind.full_name == want:
            out.add(fd.full_name)
        elif fd.message_type is not None and fd.message_type.full_name not in seen:
            inner = seen | {message.full_name}
            out |= paths_to(fd.message_type, want, inner)
    return out


def iter_int_fields(message: descriptor.Descriptor) -> Iterator[descriptor.FieldDescriptor]:
    """Every int field reachable from ``message`` (each message type once)."""
    seen: set[str] = set()
    todo = [message]
    while todo:
        current = todo.pop()
        if current.full_name in seen:
            continue
        seen.add(current.full_name)
        for fd in current.fields:
            if fd.message_type is not None:
                todo.append(fd.message_type)
            elif fd.type in (fd.TYPE_INT32, fd.TYPE_INT64, fd.TYPE_UINT32, fd.TYPE_SINT32):
                yield fd
