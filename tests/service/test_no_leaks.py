"""No hidden information leaks: every message a seat or a spectator receives is checked.

Random games are played through gRPC (fixed seeds): the base game with random legal moves of
random seats, and the modes (Advanced, Professional, Master Thief) with a driver that also
makes the group decisions (proposes, accepts — mostly —, withdraws and supersedes, agrees
on the scan guesses) and the card actions (shows, discards, passes), and plays each heist
to the outcome its plan asks for, so chosen specialist and challenge cards come up. Every
seat and one spectator watch the whole game, and every answer anyone gets is recorded:
views, submit results with their events, legal-move lists, dry runs, history during the
game and rejections (status, ErrorInfo, details string, trailing metadata). After the game
the revealed seed is replayed with the engine and :mod:`leakcheck` judges each message
against the true states and events: no card of the deck, of another seat's pocket, of the
face-down discards or of another seat's sealed pass, no Informant card shown to someone
else, no seed before the end, and every view shows its viewer's own true pocket (so the
test cannot pass by seeing nothing). The modes' games also check that each private card
reached the seats the rules name, and that the cards they were set up for really came up.

The drivers are in :mod:`the_gang_driver` and :mod:`the_gang_mode_driver`, the games and
their judgement in :mod:`the_gang_leak_games`; planted leaks that show the checker catches
each kind are in :mod:`test_the_gang_planted_leaks`.
"""

from __future__ import annotations

import pytest
from google.protobuf import descriptor

from referee.v1 import referee_pb2, the_gang_pb2
from tests.service.table import Stub
from tests.the_gang import leakcheck
from tests.the_gang.the_gang_leak_games import (
    MODE_GAMES,
    REQUIRED,
    SCAN_CARDS,
    ModeGame,
    S,
    assert_no_leaks,
    assert_private_cards_delivered,
    cards_used,
    name_of,
    names,
    play,
)

Pb = the_gang_pb2

GAMES = [(3, False), (4, True), (5, False), (6, True), (6, False)]


@pytest.mark.parametrize(("seats", "confirm"), GAMES)
async def test_no_message_shows_a_hidden_card(stub: Stub, seats: int, confirm: bool) -> None:
    played = await play(stub, seats, confirm, f"game-{seats}-{confirm}")
    assert_no_leaks(played)
    assert played.rejections, "the game provoked no rejection"
    assert len(played.states[-1].heists) >= 3  # several heists: old showdowns are public


# --- the modes ---------------------------------------------------------------------------------


def test_the_mode_games_cover_the_private_cards() -> None:
    """Across the games: every specialist that moves a card in secret, and a scan."""
    covered = frozenset[str]().union(*(game.expected for game in MODE_GAMES))
    assert covered >= REQUIRED
    assert covered & names(*SCAN_CARDS)
    assert {game.seats for game in MODE_GAMES} == {3, 4, 5, 6}
    assert any(game.shuffle for game in MODE_GAMES)
    assert {game.mode for game in MODE_GAMES} == {
        Pb.THE_GANG_MODE_ADVANCED,
        Pb.THE_GANG_MODE_PROFESSIONAL,
        Pb.THE_GANG_MODE_MASTER_THIEF,
    }


@pytest.mark.parametrize("game", MODE_GAMES, ids=[game.name for game in MODE_GAMES])
async def test_no_message_shows_a_hidden_card_in_the_modes(stub: Stub, game: ModeGame) -> None:
    played = await play(stub, game.seats, game.confirm, game.name, game)
    report = assert_no_leaks(played)
    results = played.states[-1].heists
    outcomes = "".join("W" if result.success else "L" for result in results)
    planned = "".join(game.plan[min(i, len(game.plan) - 1)] for i in range(len(results)))
    assert outcomes == planned, "the driver did not play the heists to their plan"
    used = cards_used(played.states, played.events)
    assert game.expected <= used, f"never came up or never used: {game.expected - used}"
    delivered = assert_private_cards_delivered(played)
    if name_of(S.INFORMANT) in game.expected:
        assert delivered["announced"] and report.private_seen["informant"]
    if name_of(S.COORDINATOR) in game.expected:
        assert delivered["card_passed"] == game.seats and report.private_seen["my_pass"]
    if name_of(S.HACKER) in game.expected:
        assert delivered["card_drawn"] and delivered["card_discarded"] >= 2
    if name_of(S.CON_ARTIST) in game.expected:
        # Every heist after the first is dealt inside a step; one of them twice.
        assert delivered["pocket_dealt"] > game.seats * (len(results) - 1)
    assert played.rejections, "the game provoked no rejection"
    assert sum(played.rejections.values()) >= 5


# --- the contract ---------------------------------------------------------------------------


def _card_paths(message: descriptor.Descriptor, path: str, seen: frozenset[str]) -> set[str]:
    """Every path to a PlayingCard inside ``message`` (each message type once per path)."""
    out: set[str] = set()
    for fd in message.fields:
        if fd.message_type is None or fd.message_type.full_name in seen:
            continue
        where = f"{path}.{fd.name}" if path else fd.name
        if fd.message_type.full_name == "referee.v1.PlayingCard":
            out.add(where)
        else:
            out |= _card_paths(fd.message_type, where, seen | {message.full_name})
    return out


async def test_the_deck_order_and_the_seed_never_leave_the_referee(stub: Stub) -> None:
    # The contract: the deck appears only as a count until the game is over (then
    # revealed_deck), and no answer has a bytes field but the seed of GetHistory (revealed
    # at the end). The cards a view can carry: the board, the pocket, the sealed pass, the
    # Informant's card, the hands shown while the scan guesses are due, the finished heists'
    # reveals and the post-game reveal; leakcheck judges every one (and demands the
    # revealed_* fields empty before the end, and a revealed view's own pockets and sealed
    # passes empty in every plain view).
    view = the_gang_pb2.TheGangView.DESCRIPTOR
    assert _card_paths(view, "", frozenset()) == {
        "board",
        "pocket",
        "my_pass",
        "announcements.card",
        "heists.board",
        "heists.reveals.pocket",
        "heists.reveals.best_five",
        "shown.pocket",
        "shown.best_five",
        "revealed_deck",
        "revealed_discards",
        "revealed_announcements.card",
        "revealed_pockets.cards",
        "revealed_passes.card",
    }
    view_fields = view.fields_by_name
    revealed = {name for name in view_fields if name.startswith("revealed_")}
    assert revealed == {*leakcheck.REVEALED_FIELDS, *leakcheck.REVEALED_ONLY}
    assert [name for name in view_fields if "deck" in name] == ["deck_size", "revealed_deck"]
    assert view_fields["deck_size"].type == descriptor.FieldDescriptor.TYPE_INT32
    assert [name for name in view_fields if "discard" in name] == [
        "discard_count",
        "revealed_discards",
    ]
    assert view_fields["discard_count"].type == descriptor.FieldDescriptor.TYPE_INT32
    service = referee_pb2.DESCRIPTOR.services_by_name["RefereeService"]
    bytes_fields = set()
    for method in service.methods:
        for fd in _reachable_fields(method.output_type):
            if fd.type == descriptor.FieldDescriptor.TYPE_BYTES:
                bytes_fields.add(fd.full_name)
    # The stored log entries of GetHistory are bytes too, revealed at the end like the seed.
    assert bytes_fields == {
        "referee.v1.GetHistoryResponse.seed",
        "referee.v1.HistoryEntry.log_entry",
    }

    played = await play(stub, 4, False, "deck-and-seed")
    assert_no_leaks(played)  # includes: no seed (bytes, hex, base64) in any message before the end
    before_end = [item for item in played.recorder.items if item.version < played.final_version]
    histories = [item.message for item in before_end if item.source == "GetHistory"]
    assert histories
    assert all(
        isinstance(h, referee_pb2.GetHistoryResponse)
        and not h.seed
        and not any(entry.log_entry for entry in h.entries)  # the stored entries neither
        for h in histories
    )
    # The search would find the seed: the history after the end holds it.
    final = [item for item in played.recorder.items if item.source == "GetHistory"][-1]
    assert final.version == played.final_version
    assert played.seed in final.message.SerializeToString()
    # deck_size is the true deck's size at every version; the deck's cards themselves
    # appear nowhere before they are dealt (leakcheck counts them as leaks).
    sizes = {m.version: m.view.the_gang.deck_size for m in played.watched[None]}
    assert sizes == {v: len(state.deck) for v, state in enumerate(played.states)}


def _reachable_fields(
    message: descriptor.Descriptor, seen: set[str] | None = None
) -> list[descriptor.FieldDescriptor]:
    seen = set() if seen is None else seen
    if message.full_name in seen:
        return []
    seen.add(message.full_name)
    out = list(message.fields)
    for fd in message.fields:
        if fd.message_type is not None:
            out += _reachable_fields(fd.message_type, seen)
    return out
