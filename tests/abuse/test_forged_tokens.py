"""Forged credentials at full speed: each refused UNAUTHENTICATED, the victim unhurt.

The audit's forged-token probe, as a flood: an attacker that sends GetView and SubmitMove
with made-up, truncated and re-signed tokens as fast as it can gets UNAUTHENTICATED each
time, and a client on another table keeps its latencies (see tests/abuse/harness.py).
"""

from __future__ import annotations

import base64
import os
import time
from typing import Any

import grpc

from referee.v1 import referee_pb2, referee_pb2_grpc
from tests.abuse.harness import (
    Pace,
    Stop,
    Victim,
    attacking,
    check_unhurt,
    compare,
    merged,
    metadata,
)
from tests.servers import Served


def _forged(attempt: int, genuine: str) -> str:
    """A token that looks right but is not: random, truncated, or with a flipped signature."""
    kind = attempt % 3
    if kind == 0:
        return base64.urlsafe_b64encode(os.urandom(48)).decode().rstrip("=")
    if kind == 1:
        return genuine[: len(genuine) // 2]
    last = "A" if genuine[-1] != "A" else "B"
    return genuine[:-1] + last


def attack_forged_tokens(served: Served, stop: Stop) -> dict[str, Any]:
    """Forged tokens on a real game's GetView and SubmitMove until ``stop``."""
    refusals: dict[str, int] = {}
    with grpc.insecure_channel(served.grpc) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        created = stub.CreateGame(referee_pb2.CreateGameRequest(game="gang_of_four", seats=4))
        view = stub.GetView(
            referee_pb2.GetViewRequest(game_id=created.game_id),
            metadata=metadata(created.seat_tokens[0].token),
        ).view
        genuine = created.seat_tokens[view.to_act[0]].token
        legal = stub.ListLegalMoves(
            referee_pb2.ListLegalMovesRequest(game_id=created.game_id), metadata=metadata(genuine)
        )
        attempts, pace = 0, Pace()
        while not stop.is_set():
            time.sleep(pace.delay())
            auth = metadata(_forged(attempts, genuine))
            try:
                if attempts % 2:
                    stub.GetView(referee_pb2.GetViewRequest(game_id=created.game_id), metadata=auth)
                else:
                    stub.SubmitMove(
                        referee_pb2.SubmitMoveRequest(
                            game_id=created.game_id,
                            move=legal.moves[0],
                            client_move_id=f"forged-{attempts}",
                        ),
                        metadata=auth,
                    )
                refusals["ACCEPTED"] = refusals.get("ACCEPTED", 0) + 1
            except grpc.RpcError as error:
                code = error.code().name
                refusals[code] = refusals.get(code, 0) + 1
            attempts += 1
        after = stub.GetView(
            referee_pb2.GetViewRequest(game_id=created.game_id), metadata=metadata(genuine)
        )
    return {"attempts": attempts, "refusals": refusals, "final_version": after.view.version}


def test_forged_tokens_are_refused_and_the_victim_is_unhurt(served: Served) -> None:
    with (
        Victim(served.grpc) as victim,
        attacking(attack_forged_tokens, served, processes=2) as attack,
    ):
        before, during = compare(victim, attack)
    seen = merged(attack.results)
    assert seen["attempts"] > 0
    assert seen["refusals"] == {"UNAUTHENTICATED": seen["attempts"]}
    assert seen["final_version"] == 0, "a forged token changed the game"
    check_unhurt("forged tokens", before, during, seen)
