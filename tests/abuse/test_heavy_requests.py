"""Heavy and malformed requests against `referee serve` as its own process (issue 16).

Each attack is a function ``attack_<name>(served, seconds)`` returning what it did
(attempts, refusals by reason, answers, the attacker's rate), so a shared harness can run
it while it measures a well-behaved client; each test here runs it, checks the attacker
got its typed answer, and that a victim on another table was answered throughout (its
GetView p50/p99 before and during are printed, for docs/security.md).
"""

from __future__ import annotations

import statistics
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import grpc
import httpx
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from engines.rng import commitment
from referee.v1 import game_pb2, referee_pb2, referee_pb2_grpc
from service.calls import MAX_JSON_VERIFY_BYTES, MAX_VERIFY_BYTES
from tests.servers import Served, referee_process

R = referee_pb2
AttackResult = dict[str, Any]
BOGUS_ENTRIES = 88_000  # about 7.9 MB: under VerifyHistory's 8 MiB and 100,000 entries
CLIENTS = 3
ATTACK_SECONDS = 4.0
VICTIM_CALLS = 200
MALFORMED = [b"\xff\xff\xff\xff", b"\x10\x80\x80", b"\x0d\x00\x00\x00\x00", b"\x0a\x02\xc3\x28"]


@pytest.fixture(scope="module")
def served(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    with referee_process(redis_url, tmp_path_factory.mktemp("heavy")) as process:
        yield process


def _reason(error: grpc.RpcError) -> tuple[grpc.StatusCode, str]:
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None, error
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return error.code(), info.reason
    raise AssertionError(f"no ErrorInfo on {error}")


def bogus_verify_request() -> bytes:
    """About 8 MB of a history that is no game: chained entries with empty moves."""
    seed = b"bogus"
    history = R.GetHistoryResponse(seed=seed, seed_sha256=commitment(seed))
    history.setup.game, history.setup.seats = "the_gang", 3
    history.setup.rules_revision = 2
    for version in range(1, BOGUS_ENTRIES + 1):
        history.entries.add(version=version, seat=0, head="h" * 32, log_entry=b"e" * 40)
    data = R.VerifyHistoryRequest(history=history).SerializeToString()
    assert 7_000_000 < len(data) <= MAX_VERIFY_BYTES
    return data


def _flood(clients: int, seconds: float, one_call: Callable[[], str]) -> AttackResult:
    """``clients`` threads calling ``one_call`` (it returns "OK" or the refusal's reason)
    until ``seconds`` have passed."""
    outcomes: Counter[str] = Counter()
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def attacker() -> None:
        while time.monotonic() < deadline:
            outcome = one_call()
            with lock:
                outcomes[outcome] += 1

    threads = [threading.Thread(target=attacker) for _ in range(clients)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 60)
    elapsed = time.monotonic() - started
    attempts = sum(outcomes.values())
    return {
        "attempts": attempts,
        "answered": outcomes.pop("OK", 0),
        "refusals": dict(outcomes),
        "rate": attempts / elapsed,
    }


def attack_verify_flood(served: Served, seconds: float) -> AttackResult:
    """3 clients sending 8 MB bogus VerifyHistory requests over gRPC, back to back."""
    body = bogus_verify_request()
    options = [("grpc.max_send_message_length", 16 * 1024 * 1024)]
    with grpc.insecure_channel(served.grpc, options=options) as channel:
        verify = channel.unary_unary(
            "/referee.v1.RefereeService/VerifyHistory",
            request_serializer=lambda data: data,
            response_deserializer=R.VerifyHistoryResponse.FromString,
        )

        def one_call() -> str:
            try:
                answer = verify(body, timeout=30)
            except grpc.RpcError as error:
                return "/".join(str(part) for part in _reason(error))
            assert not answer.verified and answer.problems  # a typed report
            return "OK"

        return _flood(CLIENTS, seconds, one_call)


def attack_json_verify_flood(served: Served, seconds: float) -> AttackResult:
    """3 clients posting 8 MB JSON VerifyHistory bodies to the HTTP face."""
    body = b'{"history": {"entries": [' + b'{"version": "1"},' * (MAX_VERIFY_BYTES // 17)
    body = body[:-1] + b"]}}"

    def one_call() -> str:
        response = httpx.post(
            f"{served.http}/referee.v1.RefereeService/VerifyHistory",
            content=body,
            headers={"Content-Type": "application/json"},
            timeout=30,
        )
        if response.status_code == 200:
            return "OK"
        return f"{response.status_code}/{response.json()['details'][0]['debug']['reason']}"

    return _flood(CLIENTS, seconds, one_call)


class Victim:
    """A well-behaved client on its own table: GetView, timed."""

    def __init__(self, served: Served) -> None:
        self.channel = grpc.insecure_channel(served.grpc)
        self.stub = referee_pb2_grpc.RefereeServiceStub(self.channel)
        created = self.stub.CreateGame(R.CreateGameRequest(game="the_gang", seats=3))
        self.request = R.GetViewRequest(game_id=created.game_id)
        self.metadata = (("authorization", f"Bearer {created.seat_tokens[0].token}"),)

    def latencies(self, calls: int) -> list[float]:
        seconds = []
        for _ in range(calls):
            started = time.perf_counter()
            self.stub.GetView(self.request, metadata=self.metadata, timeout=30)
            seconds.append(time.perf_counter() - started)
        return seconds

    def close(self) -> None:
        self.channel.close()


def _p50_p99(seconds: list[float]) -> tuple[float, float]:
    ordered = sorted(seconds)
    return statistics.median(ordered) * 1000, ordered[int(0.99 * (len(ordered) - 1))] * 1000


def _under_attack(
    served: Served, attack: Callable[[Served, float], AttackResult]
) -> tuple[AttackResult, list[float], list[float]]:
    """The victim's GetView latencies before and while ``attack`` runs, and its result."""
    victim = Victim(served)
    try:
        before = victim.latencies(VICTIM_CALLS)
        result: dict[str, AttackResult] = {}
        attacking = threading.Thread(
            target=lambda: result.setdefault("attack", attack(served, ATTACK_SECONDS))
        )
        attacking.start()
        during: list[float] = []
        while attacking.is_alive():
            during += victim.latencies(10)
        attacking.join()
    finally:
        victim.close()
    print(
        f"\n{attack.__name__}: {result['attack']}; victim GetView p50/p99 "
        "before %.1f/%.1f ms, during %.1f/%.1f ms" % (*_p50_p99(before), *_p50_p99(during))
    )
    return result["attack"], before, during


def test_an_8_mb_verify_flood_gets_reports_or_verify_busy(served: Served) -> None:
    attack, before, during = _under_attack(served, attack_verify_flood)
    assert attack["attempts"] >= CLIENTS
    assert set(attack["refusals"]) <= {"StatusCode.UNAVAILABLE/VERIFY_BUSY"}, attack
    assert len(during) >= 10 and len(before) == VICTIM_CALLS  # GetView answered throughout


def test_a_json_body_over_its_cap_is_refused_before_it_is_parsed(served: Served) -> None:
    attack, _, during = _under_attack(served, attack_json_verify_flood)
    assert attack["answered"] == 0 and attack["refusals"] == {
        "400/REQUEST_TOO_LARGE": attack["attempts"]
    }
    assert len(during) >= 10
    # Just over the JSON cap is refused too; a cap's worth of binary is not.
    over = httpx.post(
        f"{served.http}/referee.v1.RefereeService/VerifyHistory",
        content=b" " * (MAX_JSON_VERIFY_BYTES + 1),
        headers={"Content-Type": "application/json"},
    )
    assert over.status_code == 400 and "REQUEST_TOO_LARGE" in over.text


@pytest.mark.parametrize("body", MALFORMED, ids=["garbage", "varint", "wire type", "utf-8"])
def test_malformed_protobuf_on_both_faces(served: Served, body: bytes) -> None:
    with grpc.insecure_channel(served.grpc) as channel:
        create = channel.unary_unary(
            "/referee.v1.RefereeService/CreateGame",
            request_serializer=lambda data: data,
            response_deserializer=lambda data: data,
        )
        with pytest.raises(grpc.RpcError) as caught:
            create(body, timeout=10)
        assert _reason(caught.value) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")
        # The referee still answers a well-formed call.
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        assert stub.CreateGame(R.CreateGameRequest(game="the_gang", seats=3)).game_id
    response = httpx.post(
        f"{served.http}/referee.v1.RefereeService/CreateGame",
        content=body,
        headers={"Content-Type": "application/proto"},
    )
    assert response.status_code == 400
    assert response.json()["details"][0]["debug"]["reason"] == "MALFORMED_REQUEST"


def test_a_60_kb_game_name_or_option_value_gets_a_short_typed_error(served: Served) -> None:
    """A standard client reads the refusal (the message was once 60 KB of trailer, which
    such a client refuses as RESOURCE_EXHAUSTED)."""
    long = "g" * 60_000
    options = game_pb2.TableOptions()
    options.pinched.setup = long
    cases = [
        (R.CreateGameRequest(game=long, seats=3), "GAME_UNKNOWN"),
        (R.CreateGameRequest(game="pinched", seats=3, options=options), "BAD_OPTION"),
    ]
    with grpc.insecure_channel(served.grpc) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        for request, reason in cases:
            with pytest.raises(grpc.RpcError) as caught:
                stub.CreateGame(request, timeout=10)
            assert _reason(caught.value) == (grpc.StatusCode.INVALID_ARGUMENT, reason)
            assert len(caught.value.details() or "") < 600
