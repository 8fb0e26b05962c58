"""One writer: only the table writer (service.app.writer) calls the game store's writes.

Every change of a stored game (a move, a clock or bot move, the no-show rule, a join, a
leave, a start, a reissue, a forfeit, a hand-over to a bot, an abort, a creation, a discard)
is a decide function run by :class:`service.app.writer.TableWriter`, which alone holds the
lock, runs the compare-and-set and does what must follow a write. This test reads every
module of the service and fails on any other call of a game store's write.
"""

from __future__ import annotations

import ast
from pathlib import Path

from service.storage.games import GameStore

ROOT = Path(__file__).resolve().parent.parent
SERVICE = ROOT / "service"
WRITER = SERVICE / "app" / "writer.py"
# The stores themselves (their methods call their own helpers by these names).
STORES = {SERVICE / "storage" / "store.py", SERVICE / "storage" / "memory.py"}
WRITES = {"create", "commit", "change_host", "delete"}
# Calls of these names on other objects: the tournament store's own record (a tournament,
# not a game) and Redis's DEL of the listing's and codes' keys.
OTHER_STORES = {("tournaments/host.py", "create")}


def store_writes(path: Path) -> list[str]:
    """``line: call`` of every call of a write's name on a receiver named like a store."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in WRITES:
            continue
        receiver = ast.unparse(node.func.value)
        if receiver.split(".")[-1].endswith("store"):
            found.append(f"{node.lineno}: {receiver}.{node.func.attr}")
    return found


def test_the_writes_are_the_store_protocols_own() -> None:
    """The names this test looks for are the protocol's writes (a renamed write would
    slip past it otherwise)."""
    assert set(dir(GameStore)) >= WRITES


def test_only_the_writer_calls_the_game_stores_writes() -> None:
    offenders = {}
    for path in sorted(SERVICE.rglob("*.py")):
        if path == WRITER or path in STORES:
            continue
        relative = path.relative_to(SERVICE).as_posix()
        calls = [
            call
            for call in store_writes(path)
            if (relative, call.rsplit(".", 1)[1]) not in OTHER_STORES
        ]
        if calls:
            offenders[relative] = calls
    assert offenders == {}


def test_the_writer_is_seen_to_write() -> None:
    """The scan finds the writer's own calls (so an empty result above means something)."""
    assert {call.rsplit(".", 1)[1] for call in store_writes(WRITER)} == WRITES
