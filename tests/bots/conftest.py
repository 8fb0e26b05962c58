"""Every game in tests/bots is watched: a bot may submit only a move from its legal list."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from referee.client import AsyncSeat
from referee.v1 import game_pb2, referee_pb2


class LegalitySpy:
    """Records each seat's last ``ListLegalMoves`` answer and checks every submit against it."""

    def __init__(self) -> None:
        self.listed: dict[tuple[str, str | None], referee_pb2.ListLegalMovesResponse] = {}
        self.submitted: Counter[str] = Counter()
        self.illegal: list[game_pb2.Move] = []

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        legal_moves, submit = AsyncSeat.legal_moves, AsyncSeat.submit
        spy = self

        async def listed(seat: AsyncSeat) -> referee_pb2.ListLegalMovesResponse:
            answer = await legal_moves(seat)
            spy.listed[seat.game_id, seat.token] = answer
            return answer

        async def submitted(
            seat: AsyncSeat, move: game_pb2.Move, **options: Any
        ) -> referee_pb2.SubmitMoveResponse:
            last = spy.listed.get((seat.game_id, seat.token))
            if last is None or move not in last.moves:
                spy.illegal.append(move)
            if "expected_version" in options and last is not None:
                assert options["expected_version"] == last.version
            spy.submitted[move.WhichOneof("game") or ""] += 1
            return await submit(seat, move, **options)

        monkeypatch.setattr(AsyncSeat, "legal_moves", listed)
        monkeypatch.setattr(AsyncSeat, "submit", submitted)


@pytest.fixture(autouse=True)
def legality(monkeypatch: pytest.MonkeyPatch) -> Iterator[LegalitySpy]:
    spy = LegalitySpy()
    spy.install(monkeypatch)
    yield spy
    assert spy.illegal == [], f"bots submitted moves not in their legal lists: {spy.illegal[:3]}"
