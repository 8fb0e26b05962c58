"""The referee's move use cases (service.app.referee.Referee) on MemoryStore: create a game,
read it (views, legal moves, validation), move in it, and every refusal a move can meet,
with the store as the witness of what was (not) written. Seeds are fixed, so every game
here plays the same way each run."""

from __future__ import annotations

from typing import Any

import pytest

from service.app.referee import Referee
from service.errors import (
    BadRequest,
    PermissionDenied,
    RefereeError,
    RuleViolation,
    Unauthenticated,
    VersionConflict,
)
from service.storage.memory import MemoryStore
from service.storage.tables import Table, load_table
from tests.app.in_memory import create, logged, referee_on, writer_on


@pytest.fixture
def referee() -> Referee:
    return referee_on(writer_on(MemoryStore()))


async def table_of(referee: Referee, game_id: str) -> Table:
    return await load_table(referee.store, game_id)


async def refused(referee: Referee, game_id: str, error: type[RefereeError], call: Any) -> str:
    """Await ``call``, which must raise ``error``, and check that nothing was stored by it;
    the error's reason."""
    before = await table_of(referee, game_id)
    with pytest.raises(error) as raised:
        await call
    after = await table_of(referee, game_id)
    assert (after.version, after.host_version) == (before.version, before.host_version)
    assert len(await logged(referee.store, game_id)) == before.version
    return raised.value.reason


async def test_a_game_is_created_read_validated_and_moved_in(referee: Referee) -> None:
    """CreateGame hands a token per seat; a seat's view and legal moves are its own; a
    legal move validates (ValidateMove stores nothing) and SubmitMove stores it once, at
    version 1, under its client_move_id, and every read then shows version 1."""
    created = await create(referee, "gang_of_four", 3, seed=b"moves")
    game_id, tokens = created.game_id, created.tokens
    assert (created.version, len(tokens)) == (0, 3)
    table = await table_of(referee, game_id)
    (seat,) = table.awaited(table.state)
    other = (seat + 1) % 3

    view = await referee.get_view(game_id, tokens[seat])
    assert (view.game, view.version, view.viewer) == ("gang_of_four", 0, seat)
    assert view.to_act == {seat}
    assert view.outcome is None
    assert (await referee.get_view(game_id, None)).viewer is None  # a spectator
    name, version, legal = await referee.legal_moves(game_id, tokens[seat])
    assert (name, version) == ("gang_of_four", 0)
    assert legal == table.game.legal_moves(table.state, seat) and legal
    assert (await referee.legal_moves(game_id, tokens[other]))[2] == []  # not its turn

    move = legal[-1]
    assert await referee.validate_move(game_id, tokens[seat], "gang_of_four", move) == (0, None)
    at, error = await referee.validate_move(game_id, tokens[other], "gang_of_four", move)
    assert at == 0 and isinstance(error, RuleViolation)
    assert await logged(referee.store, game_id) == []  # validating stores nothing

    submitted = await referee.submit_move(game_id, tokens[seat], "gang_of_four", move, "one", 0)
    assert (submitted.version, submitted.duplicate, submitted.finished) == (1, False, False)
    assert (submitted.view.version, submitted.view.viewer) == (1, seat)
    (entry,) = await logged(referee.store, game_id)
    assert (entry.version, entry.seat, entry.client_move_id) == (1, seat, "one")
    assert table.decode_move(entry.move) == move
    assert (await referee.get_view(game_id, tokens[other])).version == 1
    assert (await referee.legal_moves(game_id, tokens[seat]))[1:] == (1, [])


@pytest.mark.parametrize("pinned", [None, 0])
async def test_a_repeated_move_id_gets_the_first_answer(
    referee: Referee, pinned: int | None
) -> None:
    """Rule: "A refused move that repeats a move id already applied (a retry whose first answer
    was lost) gets the first answer": the very same request again (the same move under the
    same id, pinned to the version it was made at or not), now out of turn and stale,
    returns version 1 with ``duplicate=True`` and stores nothing."""
    created = await create(referee, "gang_of_four", 3, seed=b"moves")
    game_id = created.game_id
    table = await table_of(referee, game_id)
    (seat,) = table.awaited(table.state)
    token = created.tokens[seat]
    move = table.game.legal_moves(table.state, seat)[0]
    first = await referee.submit_move(game_id, token, "gang_of_four", move, "once", pinned)
    again = await referee.submit_move(game_id, token, "gang_of_four", move, "once", pinned)
    assert (first.version, first.duplicate) == (1, False)
    assert (again.version, again.duplicate) == (1, True)
    assert again.view.version == 1 and again.view.body == first.view.body
    assert again.events == first.events
    assert len(await logged(referee.store, game_id)) == 1


async def play_on_until_legal_again(
    referee: Referee, game_id: str, tokens: list[str], seat: int, move: Any
) -> int:
    """Players' default moves, the other seat's first, until ``seat`` may play ``move``
    again; the version then."""
    for _ in range(60):
        table = await table_of(referee, game_id)
        awaited = table.awaited(table.state)
        if seat in awaited and move in table.game.legal_moves(table.state, seat):
            return table.version
        assert not table.finished, "the game ended first: pick another seed"
        mover = min(awaited, key=lambda candidate: candidate == seat)
        default = table.game.default_move(table.state, mover)
        await referee.submit_move(
            game_id, tokens[mover], table.game.name, default, f"p{table.version}", None
        )
    raise AssertionError(f"seat {seat} never had its move again")


async def test_a_move_id_repeated_when_its_move_is_legal_again_is_still_the_first(
    referee: Referee,
) -> None:
    """Rule: "A repeat that the store recognises gets it too": a late retry arriving when the
    same move is legal again is not a second move; its id's record answers it
    (``duplicate=True``, version 1) and the game stays where it was."""
    created = await create(referee, "pinched", 2, seed=b"again")
    game_id, tokens = created.game_id, created.tokens
    table = await table_of(referee, game_id)
    move = table.game.legal_moves(table.state, 0)[0]
    await referee.submit_move(game_id, tokens[0], "pinched", move, "late", None)
    version = await play_on_until_legal_again(referee, game_id, tokens, 0, move)
    assert version > 1
    again = await referee.submit_move(game_id, tokens[0], "pinched", move, "late", None)
    assert (again.version, again.duplicate) == (1, True)
    assert len(await logged(referee.store, game_id)) == version


@pytest.mark.parametrize("legal_again", [False, True])
async def test_another_move_under_a_used_id_is_move_id_reused(
    referee: Referee, legal_again: bool
) -> None:
    """A client_move_id names one move: a different move under an id already applied is
    BadRequest MOVE_ID_REUSED, whether the repeat is refused by the game (out of turn)
    or recognised by the store (legal again), and nothing is stored."""
    created = await create(referee, "pinched", 2, seed=b"again")
    game_id, tokens = created.game_id, created.tokens
    table = await table_of(referee, game_id)
    first, *others = table.game.legal_moves(table.state, 0)
    await referee.submit_move(game_id, tokens[0], "pinched", first, "mine", None)
    if legal_again:
        await play_on_until_legal_again(referee, game_id, tokens, 0, first)
        table = await table_of(referee, game_id)
        others = [m for m in table.game.legal_moves(table.state, 0) if m != first]
    assert others
    call = referee.submit_move(game_id, tokens[0], "pinched", others[0], "mine", None)
    assert await refused(referee, game_id, BadRequest, call) == "MOVE_ID_REUSED"


async def test_a_pinned_stale_version_is_version_mismatch(referee: Referee) -> None:
    """``expected_version`` pins the move to a version: a stale one is VersionConflict
    VERSION_MISMATCH carrying the current version, one ahead of the game BadRequest
    VERSION_AHEAD; the current one is accepted."""
    created = await create(referee, "gang_of_four", 3, seed=b"moves")
    game_id, tokens = created.game_id, created.tokens
    table = await table_of(referee, game_id)
    (seat,) = table.awaited(table.state)
    move = table.game.default_move(table.state, seat)
    await referee.submit_move(game_id, tokens[seat], "gang_of_four", move, "first", 0)
    table = await table_of(referee, game_id)
    (seat,) = table.awaited(table.state)
    move = table.game.default_move(table.state, seat)
    stale = referee.submit_move(game_id, tokens[seat], "gang_of_four", move, "stale", 0)
    before = len(await logged(referee.store, game_id))
    with pytest.raises(VersionConflict) as conflict:
        await stale
    assert conflict.value.reason == "VERSION_MISMATCH"
    assert conflict.value.metadata == {"current_version": "1"}
    assert len(await logged(referee.store, game_id)) == before
    ahead = referee.submit_move(game_id, tokens[seat], "gang_of_four", move, "ahead", 2)
    assert await refused(referee, game_id, BadRequest, ahead) == "VERSION_AHEAD"
    pinned = await referee.submit_move(game_id, tokens[seat], "gang_of_four", move, "ok", 1)
    assert pinned.version == 2


async def test_only_the_seat_to_move_with_its_own_token_moves(referee: Referee) -> None:
    """The caller's token decides the seat (service.app.seats): another game's token,
    a seat not at the table, the table admin's token (it holds no seat), no token, or
    the token of a seat not to act: each is refused and stores nothing."""
    created = await create(referee, "gang_of_four", 3, seed=b"moves")
    elsewhere = await create(referee, "gang_of_four", 3, seed=b"elsewhere")
    game_id = created.game_id
    table = await table_of(referee, game_id)
    (seat,) = table.awaited(table.state)
    move = table.game.legal_moves(table.state, seat)[0]
    signer = referee.signer

    def submit(token: str | None) -> Any:
        return referee.submit_move(game_id, token, "gang_of_four", move, "x", None)

    cases: list[tuple[str | None, type[RefereeError], str]] = [
        (elsewhere.tokens[seat], PermissionDenied, "TOKEN_FOR_OTHER_GAME"),
        (signer.issue(game_id, 3), PermissionDenied, "SEAT_NOT_AT_TABLE"),
        (created.admin_token, PermissionDenied, "ADMIN_HOLDS_NO_SEAT"),
        (None, Unauthenticated, "TOKEN_MISSING"),
        (created.tokens[(seat + 1) % 3], RuleViolation, "NOT_YOUR_TURN"),
    ]
    for token, error, reason in cases:
        assert await refused(referee, game_id, error, submit(token)) == reason, reason
    moved = await submit(created.tokens[seat])
    assert moved.version == 1


async def test_a_move_after_the_game_is_over_is_refused(referee: Referee) -> None:
    """A finished game takes no move (the engine's GAME_OVER), lists no legal move and has
    a final result; a late retry of one of its moves is still answered as the first
    (a finished game's idempotency records are answered from its log)."""
    created = await create(referee, "pinched", 2, seed=b"moves")
    game_id, tokens = created.game_id, created.tokens
    moves: list[tuple[int, Any, str]] = []  # seat, move, move id
    finished: list[bool] = []
    for _ in range(500):
        table = await table_of(referee, game_id)
        if table.finished:
            break
        seat = min(table.awaited(table.state))
        moves.append((seat, table.game.default_move(table.state, seat), f"p{table.version}"))
        submitted = await referee.submit_move(
            game_id, tokens[seat], "pinched", moves[-1][1], moves[-1][2], None
        )
        assert submitted.version == len(moves)
        finished.append(submitted.finished)
    else:
        pytest.fail("the game did not finish")
    version = table.version
    assert finished == [False] * (version - 1) + [True]  # told by the move that ended it

    seat, move, move_id = moves[-1]
    late = referee.submit_move(game_id, tokens[seat], "pinched", move, "after", None)
    assert await refused(referee, game_id, RuleViolation, late) == "GAME_OVER"
    assert (await referee.legal_moves(game_id, tokens[seat]))[1:] == (version, [])
    _, error = await referee.validate_move(game_id, tokens[seat], "pinched", move)
    assert isinstance(error, RuleViolation) and error.reason == "GAME_OVER"
    result = await referee.final_result(game_id)
    assert (result.game, result.version) == ("pinched", version)
    assert (await referee.get_view(game_id, None)).outcome == result.outcome

    for seat, move, move_id in (moves[0], moves[-1]):
        retry = await referee.submit_move(game_id, tokens[seat], "pinched", move, move_id, None)
        assert retry.duplicate and retry.finished == (move_id == moves[-1][2])
    assert len(await logged(referee.store, game_id)) == version
