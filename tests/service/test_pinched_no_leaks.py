"""Pinched!: no hidden information leaks; every message a seat or a spectator receives is
judged.

Random games are played through gRPC on real Redis from fixed seeds, for 2, 3, 4 and 5
seats on the basic setups and on the crown-heavy recommended ones (the sealed letter and
its clues, the curses, Gordie, the bank): random legal moves (ListLegalMoves) of random
seats among the view's ``to_act``, a little biased towards the hidden parts (the passage
that draws a curse, passing curses, a mastermind alone at the diamonds mansion or at the
letter's location). Every seat and a spectator watch the whole game and one more watcher
resumes mid-game; every answer anyone gets is recorded: views, SubmitMove replies with
their events, legal-move lists, dry runs, history during the game, and rejections (status
details, ErrorInfo, details string, trailing metadata) of provoked bad moves. Probes also
ask about cards and curses a seat does not hold, with dry runs of the same move naming
things that lie in different hidden places: the answers must not differ (no oracle).

After the game the revealed seed is replayed with the engine and :mod:`pinched_leaks`
judges every message against the true states and true events (see there); the games must
have exercised the hidden parts. The driver is in :mod:`pinched_driver`, the game and its
judgement in :mod:`pinched_leak_games`; planted leaks that show the judge catches each kind
are in :mod:`test_pinched_planted_leaks`.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from google.protobuf import descriptor

from engines.pinched import events as ev
from engines.pinched.model import Location, Side
from engines.pinched.setup import make_config
from referee.v1 import pinched_pb2 as pb
from referee.v1 import referee_pb2
from tests.pinched.pinched_hidden_fields import (
    CARD_ID_FIELDS,
    CURSE_FIELDS,
    CURSE_ID_FIELDS,
    LOCATION_ENUM,
    PRIVATE_LOCATIONS,
    PUBLIC_LOCATIONS,
    REVEALED_FIELDS,
    REVEALED_ONLY,
    VALUABLE,
    iter_int_fields,
    paths_to,
)
from tests.pinched.pinched_leak_games import assert_no_leaks, assert_no_oracle, happened, play
from tests.service.table import Stub


@dataclass(frozen=True)
class Game:
    name: str
    seats: int
    setup: str
    variant: str = ""  # picks the seed (and the drivers' choices) among equally fine ones
    letter: bool = False  # diamonds on the crown side: the letter is read
    curses: bool = False  # hearts on the crown side: curses are drawn and passed
    opened: bool = False  # a clue holder takes the Lisa Mona and the letter is opened


GAMES = [
    Game("basic-2", 2, "basic", "/0"),
    Game("basic-3", 3, "basic"),
    Game("basic-4", 4, "basic", "/1"),
    Game("basic-5", 5, "basic", "/3"),
    Game("search_for_lisa_mona", 3, "search_for_lisa_mona", "/11", letter=True, opened=True),
    Game("cursed_secrets", 4, "cursed_secrets", "/4", letter=True, curses=True, opened=True),
    Game("the_whole_package", 5, "the_whole_package", letter=True, curses=True),
]
"""The seeds are fixed: each game shows every hidden part its setup has (asserted)."""


@pytest.mark.parametrize("game", GAMES, ids=[game.name for game in GAMES])
async def test_no_message_shows_a_hidden_thing(stub: Stub, game: Game) -> None:
    played = await play(stub, game.seats, game.setup, game.name + game.variant)
    report = assert_no_leaks(played)
    seen = report.private_seen
    # Sealed choices: each seat saw its own card and no one else's, in events and views.
    assert seen["location_chosen"] and seen["hidden:location_chosen"]
    assert seen["my_choice"]
    # Face-down draws (the last take, the vault, the bank) reached the drawer only, and a
    # face-down card in a hand was shown to its holder.
    drawn = happened(played.events, ev.CardsDrawn)
    assert drawn, "no card was drawn face down"
    assert seen["cards_drawn"] and seen["hidden:cards_drawn"]
    assert seen["hand"] and seen["sold"]
    assert seen["revealed"], "no finished view revealed the hidden parts"
    if game.letter:
        assert happened(played.events, ev.LetterRead), "nobody read the letter"
        assert seen["letter_read"] and seen["hidden:letter_read"] and seen["letter"]
    if game.opened:
        assert happened(played.events, ev.LetterOpened), "the letter was never opened"
    if game.curses:
        assert happened(played.events, ev.CurseDrawn) and happened(played.events, ev.CursePassed)
        assert seen["curse_drawn"] and seen["hidden:curse_drawn"]
        assert seen["curse_passed"] and seen["hidden:curse_passed"]
        assert seen["curses"]
    oracle = assert_no_oracle(played)
    mixed = [key for key in oracle if key.startswith("store")]
    assert any("another's hand" in key and "deck" in key for key in mixed), oracle
    if game.curses:
        assert any(key.startswith("curse") for key in oracle), oracle
    assert sum(played.rejections.values()) >= 10, played.rejections


def test_the_games_cover_every_seat_count_and_the_crown_setups() -> None:
    assert {game.seats for game in GAMES} == {2, 3, 4, 5}
    assert {game.setup for game in GAMES} >= {
        "basic",
        "search_for_lisa_mona",
        "cursed_secrets",
        "the_whole_package",
    }
    for game in GAMES:
        locations = make_config(game.seats, {"setup": game.setup}).locations
        sides = {placement.location: placement.side for placement in locations}
        assert game.letter == (sides.get(Location.DIAMONDS) is Side.CROWN)
        assert game.curses == (sides.get(Location.HEARTS) is Side.CROWN)


# --- the contract: where hidden things can be -------------------------------------------------


def _outputs() -> list[descriptor.Descriptor]:
    service = referee_pb2.DESCRIPTOR.services_by_name["RefereeService"]
    return [method.output_type for method in service.methods]


def _everywhere(want: str) -> set[str]:
    return set().union(*(paths_to(output, want) for output in _outputs()))


def test_the_judge_knows_every_field_that_can_hold_a_hidden_thing() -> None:
    """Every Location field, every Curse and every int that names a card or a curse, in
    any answer of the service, is one the judge judges; the deck is only a count; the
    only bytes are the seed of GetHistory (revealed at the end)."""
    assert _everywhere(LOCATION_ENUM) == PUBLIC_LOCATIONS | PRIVATE_LOCATIONS
    assert _everywhere("referee.v1.Curse") == CURSE_FIELDS
    assert _everywhere(VALUABLE), "cards are Valuables"
    named = {
        fd.full_name
        for output in _outputs()
        for fd in iter_int_fields(output)
        if fd.full_name.rsplit(".", 1)[0] in _pinched_types()
        and (
            fd.name in ("id", "card", "cards", "curse", "curses")
            or fd.name.endswith(("_card", "_curse", "_id"))
        )
    }
    public_numbers = {
        "referee.v1.PinchedEvent.DeckReshuffled.cards",  # how many
        "referee.v1.PinchedComponents.curses",  # the printed table
        "referee.v1.PinchedScore.curses",  # the final score
    }
    assert named - public_numbers == {
        "referee.v1.Valuable.id",
        "referee.v1.Curse.id",
        *CARD_ID_FIELDS,
        *CURSE_ID_FIELDS,
    }
    view = pb.PinchedView.DESCRIPTOR.fields_by_name
    assert [name for name in view if "deck" in name] == ["deck_size", "revealed_deck"]
    revealed = {name for name in view if name.startswith("revealed_")}
    assert revealed == REVEALED_FIELDS | REVEALED_ONLY
    assert {"revealed_choices"} == REVEALED_ONLY  # a revealed view's own, never in a plain one
    assert view["deck_size"].type == descriptor.FieldDescriptor.TYPE_INT32
    assert view["curse_pile"].type == descriptor.FieldDescriptor.TYPE_INT32
    bytes_fields = {
        fd.full_name
        for output in _outputs()
        for fd in _all_fields(output)
        if fd.type == descriptor.FieldDescriptor.TYPE_BYTES
    }
    # The stored log entries are bytes too, set like the seed only once the game is over.
    assert bytes_fields == {
        "referee.v1.GetHistoryResponse.seed",
        "referee.v1.HistoryEntry.log_entry",
    }


def _pinched_types() -> set[str]:
    """Every message type of pinched.proto, nested ones included."""
    todo = list(pb.DESCRIPTOR.message_types_by_name.values())
    names: set[str] = set()
    while todo:
        current = todo.pop()
        names.add(current.full_name)
        todo += current.nested_types
    return names


def _all_fields(message: descriptor.Descriptor) -> list[descriptor.FieldDescriptor]:
    seen: set[str] = set()
    out: list[descriptor.FieldDescriptor] = []
    todo = [message]
    while todo:
        current = todo.pop()
        if current.full_name in seen:
            continue
        seen.add(current.full_name)
        out += current.fields
        todo += [fd.message_type for fd in current.fields if fd.message_type is not None]
    return out
