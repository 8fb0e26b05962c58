"""VerifyHistory and the hash chain: any edit of a stored history is found.

Property-style: over several finished games (of every game) and every entry position, an
entry altered, dropped or swapped with the next one, a head changed, or a chain that only
some entries carry, is not verified. A forger who also recomputes every later head makes a
history whose chain is consistent again (the commitment is public, sha256 is not keyed): the
replay still catches any other move, but an entry whose stored bytes differ only in what the
replay cannot see (its client_move_id) verifies, unless somebody kept a view. That is what a
view's head is for: a view kept at version v fails against a history forged at or before v,
and says nothing about later entries, so a forgery after v passes that view's check.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from google.protobuf import json_format

from referee.v1 import game_pb2, referee_pb2
from service.domain import chain, records
from service.edge.verify import verify_history
from service.process import cli
from service.process.server import Running
from tests.service.fixtures.record_histories import SEATS, record
from tests.service.players import play_to_end
from tests.service.table import Stub, Table

R = referee_pb2
FIXTURES = Path(__file__).parent / "fixtures"
Tamper = Callable[[R.GetHistoryResponse, int], None]


async def _the_gang(stub: Stub, seed: bytes) -> R.GetHistoryResponse:
    table = await Table.create(stub, 3, seed=seed)
    await play_to_end(table, 3, win=seed.endswith(b"1"))
    return await table.history(None)


async def _recorded(address: str, game: str) -> R.GetHistoryResponse:
    return json_format.Parse(await record(game, SEATS[game], address), R.GetHistoryResponse())


def _copy(history: R.GetHistoryResponse) -> R.GetHistoryResponse:
    copy = R.GetHistoryResponse()
    copy.CopyFrom(history)
    return copy


def _forged_entry(entry: game_pb2.HistoryEntry) -> bytes:
    """The entry's stored bytes with another client_move_id: the same version, seat, move."""
    logged = records.log_decoder.decode(entry.log_entry)
    return records.encode(msgspec.structs.replace(logged, client_move_id="forged"))


def _rewrite(history: R.GetHistoryResponse, position: int) -> None:
    history.entries[position].log_entry = _forged_entry(history.entries[position])


def _drop(history: R.GetHistoryResponse, position: int) -> None:
    del history.entries[position]


def _swap(history: R.GetHistoryResponse, position: int) -> None:
    entries = history.entries
    nxt = (position + 1) % len(entries)
    first, second = game_pb2.HistoryEntry(), game_pb2.HistoryEntry()
    first.CopyFrom(entries[position])
    second.CopyFrom(entries[nxt])
    entries[position].CopyFrom(second)
    entries[nxt].CopyFrom(first)


def _rehead(history: R.GetHistoryResponse, position: int) -> None:
    history.entries[position].head = chain.link(history.entries[position].head, b"x")


def _unlog(history: R.GetHistoryResponse, position: int) -> None:
    history.entries[position].log_entry = b""


TAMPERS: dict[str, Tamper] = {
    "rewritten": _rewrite,
    "dropped": _drop,
    "swapped": _swap,
    "reheaded": _rehead,
    "unlogged": _unlog,
}


def _forge(history: R.GetHistoryResponse, position: int) -> R.GetHistoryResponse:
    """``_rewrite`` at ``position`` and every later head recomputed: a consistent chain."""
    forged = _copy(history)
    _rewrite(forged, position)
    heads = chain.heads(forged.seed_sha256, [entry.log_entry for entry in forged.entries])
    for entry, head in zip(forged.entries, heads[1:], strict=True):
        entry.head = head
    return forged


async def test_any_altered_dropped_or_reordered_entry_is_found(
    referee_server: Running, stub: Stub
) -> None:
    games = [await _the_gang(stub, b"tamper-0"), await _the_gang(stub, b"tamper-1")]
    games += [await _recorded(referee_server.address, name) for name in ("pinched",)]
    for history in games:
        assert verify_history(history).ok
        for position in range(len(history.entries)):
            for name, tamper in TAMPERS.items():
                tampered = _copy(history)
                tamper(tampered, position)
                report = verify_history(tampered)
                assert not report.ok, f"{history.setup.game}: {name} entry {position + 1}"
                if name in ("rewritten", "reheaded"):  # the chain itself names the entry
                    assert report.first_differing_version == position + 1, report.problems
                    assert "head does not follow" in report.problems[0]


async def test_gang_of_four_tampering_is_found_anywhere_in_a_long_game(
    referee_server: Running,
) -> None:
    """Every position is too many replays for ~700 moves: a random sample of them."""
    history = await _recorded(referee_server.address, "gang_of_four")
    positions = random.Random(20).sample(range(len(history.entries)), 12)
    for position in positions:
        for name, tamper in TAMPERS.items():
            tampered = _copy(history)
            tamper(tampered, position)
            assert not verify_history(tampered).ok, f"{name} entry {position + 1}"


async def test_a_kept_view_pins_the_history_up_to_its_version(stub: Stub) -> None:
    table = await Table.create(stub, 3, seed=b"pinned")
    await play_to_end(table, 3, win=True)
    history = await table.history(0)
    watch = stub.WatchGame(R.WatchGameRequest(game_id=table.game_id, after_version=0))
    views = {update.version: update.view async for update in watch}
    kept = len(history.entries) // 2
    for position in (0, kept - 1, kept, len(history.entries) - 1):
        forged = _forge(history, position)
        assert verify_history(forged).ok  # a consistent chain and the same moves
        report = verify_history(forged, [views[kept]])
        if position + 1 <= kept:  # forged at or before the kept view's version
            assert report.problems == [
                f"the view at version {kept} carries another head than the history's chain"
            ]
        else:  # forged after it: the view pins only what came before
            assert report.ok, report.problems


async def test_a_partial_chain_or_a_stripped_one_is_not_verified(stub: Stub) -> None:
    history = await _the_gang(stub, b"partial-1")
    headless = _copy(history)
    headless.entries[3].head = ""
    assert verify_history(headless).problems == [
        f"only some entries carry the hash chain ({len(history.entries) - 1} heads and "
        f"{len(history.entries)} log entries of {len(history.entries)})"
    ]
    stripped = _copy(history)
    for entry in stripped.entries:
        entry.head, entry.log_entry = "", b""
    assert verify_history(stripped).problems == [
        "the history carries no hash chain, yet it names a rules revision"
    ]


@pytest.mark.parametrize("game", sorted(SEATS))
def test_a_history_recorded_before_the_chain_still_verifies(game: str) -> None:
    """Recorded by commit f20484c (see record_histories.py): revision 1, no heads."""
    text = (FIXTURES / f"{game}-f20484c.json").read_text()
    history = json_format.Parse(text, R.GetHistoryResponse())
    assert history.setup.rules_revision == 0 and not history.entries[0].head
    report = verify_history(history)
    assert report.ok and not report.chained, str(report)
    assert report.replayed == len(history.entries) > 0
    assert "no hash chain (recorded before the chain existed)" in str(report)


@pytest.mark.parametrize("game", sorted(SEATS))
def test_referee_verify_passes_an_old_history_on_the_command_line(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["verify", "--file", str(FIXTURES / f"{game}-f20484c.json")]) == 0
    assert capsys.readouterr().out.startswith(f"verified: {game}, ")
