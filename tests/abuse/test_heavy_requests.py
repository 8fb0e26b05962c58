"""Heavy, compressed and malformed requests against `referee serve` as its own process.

VerifyHistory floods from 3 attacker processes, while a well-behaved client on another
table is measured (tests/abuse/harness.py): 8 MB bodies over gRPC are refused by gRPC's
transport before Python sees them (the cap is 4 MiB, what the longest history a table may
have needs: issue 33); bodies at the cap over HTTP, and 1 MB of bogus JSON, get reports or
VERIFY_BUSY at the verify pool's pace (service.edge.verifying): the event loop never
parses them, a worker process does. A body over its cap is refused typed (on HTTP before
it is read); gzip bombs (a megabyte that inflates to a gibibyte) are refused once a cap's
worth is inflated, on both faces; malformed protobuf and long names get short typed
errors. bench.verify_flood measures the verify floods with more calls, p95 included.
"""

from __future__ import annotations

import functools
import time
import zlib
from collections import Counter
from collections.abc import Callable
from typing import Any

import grpc
import httpx
import pytest
from google.protobuf.message import DecodeError
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from engines.rng import commitment
from referee.v1 import game_pb2, referee_pb2, referee_pb2_grpc
from service.edge.calls import MAX_JSON_VERIFY_BYTES, MAX_REQUEST_BYTES, MAX_VERIFY_BYTES
from tests.abuse.harness import (
    CALLS,
    ROUNDS,
    Stop,
    Victim,
    attacking,
    check_unhurt,
    compare,
    merged,
)
from tests.servers import Served

R = referee_pb2
AttackResult = dict[str, Any]
# Bytes of one bogus history entry (a version of 3 bytes, a 32-character head, a 40-byte
# log entry, and the tags and lengths).
ENTRY_BYTES = 82
EIGHT_MB = 8 * 1024 * 1024  # the bodies of issue 33's flood, twice VerifyHistory's cap
JSON_ENTRIES = 60_000  # about 1 MB of JSON: just under its 1 MiB cap
ATTACKERS = 3
MALFORMED = [b"\xff\xff\xff\xff", b"\x10\x80\x80", b"\x0d\x00\x00\x00\x00", b"\x0a\x02\xc3\x28"]
VERIFY = "/referee.v1.RefereeService/VerifyHistory"
CREATE = "/referee.v1.RefereeService/CreateGame"
GIB = 1 << 30


def _reason(error: grpc.RpcError) -> tuple[grpc.StatusCode, str]:
    status = rpc_status.from_call(error)  # type: ignore[arg-type]
    assert status is not None, error
    for detail in status.details:
        info = error_details_pb2.ErrorInfo()
        if detail.Unpack(info):
            return error.code(), info.reason
    raise AssertionError(f"no ErrorInfo on {error}")


def _http_reason(response: httpx.Response) -> str:
    return f"{response.status_code}/{response.json()['details'][0]['debug']['reason']}"


@functools.cache
def bogus_verify_request(size: int = MAX_VERIFY_BYTES) -> bytes:
    """A history that is no game (chained entries with empty moves), of a little under
    ``size`` bytes: by default just under VerifyHistory's cap."""
    seed = b"bogus"
    history = R.GetHistoryResponse(seed=seed, seed_sha256=commitment(seed))
    history.setup.game, history.setup.seats = "the_gang", 3
    history.setup.rules_revision = 2
    for version in range(1, (size - 1024) // ENTRY_BYTES + 1):
        history.entries.add(version=version, seat=0, head="h" * 32, log_entry=b"e" * 40)
    data = R.VerifyHistoryRequest(history=history).SerializeToString()
    assert 0.99 * size < len(data) <= size
    return data


@functools.cache
def bogus_json_request() -> bytes:
    """Just under 1 MiB of JSON entries, the slowest kind to parse (0.6 s per MB)."""
    body = b'{"history": {"entries": [' + b'{"version": "1"},' * JSON_ENTRIES
    body = body[:-1] + b"]}}"
    assert MAX_JSON_VERIFY_BYTES * 0.9 < len(body) <= MAX_JSON_VERIFY_BYTES
    return body


@functools.cache
def gzip_bomb(inflated: int) -> bytes:
    """A gzip body of zeros that inflates to ``inflated`` bytes (a multiple of 16 MiB),
    about a thousandth of that on the wire: deflate blocks ended by a full flush are
    independent, so one block of 16 MiB of zeros is repeated. Its trailer's checksum is
    that of two blocks: an inflater that stops at its cap never gets there."""
    chunk = 1 << 24
    deflater = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    first = deflater.compress(bytes(chunk)) + deflater.flush(zlib.Z_FULL_FLUSH)
    block = deflater.compress(bytes(chunk)) + deflater.flush(zlib.Z_FULL_FLUSH)
    return first + block * (inflated // chunk - 1) + deflater.flush()


def _flood(stop: Stop, one_call: Callable[[], str]) -> AttackResult:
    """``one_call`` (it returns "OK" or the refusal's reason) back to back until ``stop``."""
    outcomes: Counter[str] = Counter()
    started = time.monotonic()
    while not stop.is_set():
        outcomes[one_call()] += 1
    attempts = sum(outcomes.values())
    return {
        "attempts": attempts,
        "answered": outcomes.pop("OK", 0),
        "refusals": dict(outcomes),
        "rate": attempts / (time.monotonic() - started),
    }


def _transport_refusal(error: grpc.RpcError) -> str | None:
    """``RESOURCE_EXHAUSTED/TRANSPORT`` for a message over gRPC's own limit (refused by
    grpc's core before any handler ran: no ErrorInfo), else None."""
    if error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and "larger than max" in (
        error.details() or ""
    ):
        return "StatusCode.RESOURCE_EXHAUSTED/TRANSPORT"
    return None


def attack_verify_flood(served: Served, stop: Stop) -> AttackResult:
    """8 MB bogus VerifyHistory requests over gRPC, one after another (issue 33's flood:
    twice the cap)."""
    body = bogus_verify_request(EIGHT_MB)
    options = [("grpc.max_send_message_length", 16 * 1024 * 1024)]
    with grpc.insecure_channel(served.grpc, options=options) as channel:
        verify = channel.unary_unary(
            VERIFY,
            request_serializer=lambda data: data,
            response_deserializer=R.VerifyHistoryResponse.FromString,
        )

        def one_call() -> str:
            try:
                answer = verify(body, timeout=30)
            except grpc.RpcError as error:
                return _transport_refusal(error) or "/".join(map(str, _reason(error)))
            assert not answer.verified and answer.problems  # a typed report
            return "OK"

        return _flood(stop, one_call)


def attack_http_verify_flood(served: Served, stop: Stop) -> AttackResult:
    """Bogus binary VerifyHistory bodies at the cap, to the HTTP face."""
    body = bogus_verify_request()
    with httpx.Client(base_url=served.http, timeout=30) as http:

        def one_call() -> str:
            response = http.post(
                VERIFY, content=body, headers={"Content-Type": "application/proto"}
            )
            if response.status_code == 200:
                assert R.VerifyHistoryResponse.FromString(response.content).problems
                return "OK"
            return _http_reason(response)

        return _flood(stop, one_call)


def attack_json_verify_flood(served: Served, stop: Stop) -> AttackResult:
    """1 MB bogus JSON VerifyHistory bodies (within the JSON cap) to the HTTP face."""
    body = bogus_json_request()
    with httpx.Client(base_url=served.http, timeout=30) as http:

        def one_call() -> str:
            response = http.post(VERIFY, content=body, headers={"Content-Type": "application/json"})
            if response.status_code == 200:
                assert response.json()["problems"]  # a typed report, as JSON
                return "OK"
            return _http_reason(response)

        return _flood(stop, one_call)


def attack_oversized_json_verify(served: Served, stop: Stop) -> AttackResult:
    """8 MB JSON VerifyHistory bodies, 8 times the JSON cap, to the HTTP face."""
    body = b'{"history": {"entries": [' + b'{"version": "1"},' * (EIGHT_MB // 17)
    body = body[:-1] + b"]}}"
    with httpx.Client(base_url=served.http, timeout=30) as http:

        def one_call() -> str:
            response = http.post(VERIFY, content=body, headers={"Content-Type": "application/json"})
            return "OK" if response.status_code == 200 else _http_reason(response)

        return _flood(stop, one_call)


def attack_gzip_bombs(served: Served, stop: Stop) -> AttackResult:
    """gzip bodies of 1 MB inflating to 1 GiB at VerifyHistory (binary and JSON), and of
    32 KB inflating to 32 MiB at CreateGame, on the HTTP face."""
    big, small = gzip_bomb(GIB), gzip_bomb(32 << 20)
    assert len(big) <= MAX_VERIFY_BYTES and len(small) <= MAX_REQUEST_BYTES
    calls = [
        (VERIFY, big, "application/proto"),
        (VERIFY, big[: MAX_JSON_VERIFY_BYTES - 1], "application/json"),
        (CREATE, small, "application/json"),
    ]
    count = iter(range(1 << 62))
    with httpx.Client(base_url=served.http, timeout=30) as http:

        def one_call() -> str:
            path, body, kind = calls[next(count) % len(calls)]
            headers = {"Content-Type": kind, "Content-Encoding": "gzip"}
            response = http.post(path, content=body, headers=headers)
            return "OK" if response.status_code == 200 else _http_reason(response)

        return _flood(stop, one_call)


def _under_attack(served: Served, attack: Callable[[Served, Stop], AttackResult]) -> AttackResult:
    """``attack`` from 3 processes while the victim is measured (the harness's bar), its
    figures recorded; the victim must be answered throughout."""
    with Victim(served.grpc) as victim, attacking(attack, served, ATTACKERS) as attackers:
        before, during = compare(victim, attackers)
    seen = merged(attackers.results)
    assert len(during.get_view) >= CALLS - ROUNDS, seen
    check_unhurt(attack.__name__.removeprefix("attack_").replace("_", " "), before, during, seen)
    return seen


def test_an_8_mb_verify_flood_is_refused_by_the_transport(served: Served) -> None:
    """The bodies never reach Python: grpc's core refuses them (RESOURCE_EXHAUSTED, no
    ErrorInfo) at service.process.server.TRANSPORT_LIMIT."""
    attack = _under_attack(served, attack_verify_flood)
    assert attack["attempts"] >= ATTACKERS and attack["answered"] == 0, attack
    assert set(attack["refusals"]) == {"StatusCode.RESOURCE_EXHAUSTED/TRANSPORT"}, attack


def test_a_verify_flood_at_the_cap_over_http_gets_reports_or_verify_busy(served: Served) -> None:
    """At the verify pool's pace (4 MiB a second): each attacker waits its turn."""
    attack = _under_attack(served, attack_http_verify_flood)
    assert attack["attempts"] >= ATTACKERS and attack["answered"] > 0
    assert set(attack["refusals"]) <= {"503/VERIFY_BUSY"}, attack


def test_a_verify_body_over_the_cap_is_refused_typed_on_both_faces(served: Served) -> None:
    """Just over the cap: INVALID_ARGUMENT REQUEST_TOO_LARGE from the servicer (gRPC) and
    400 REQUEST_TOO_LARGE before the body is read (HTTP); 8 MB on gRPC: grpc's transport
    refuses it (RESOURCE_EXHAUSTED, no ErrorInfo). The referee answers on after each."""
    over = bogus_verify_request(MAX_VERIFY_BYTES + 64 * 1024)
    assert len(over) > MAX_VERIFY_BYTES
    options = [("grpc.max_send_message_length", -1)]
    with grpc.insecure_channel(served.grpc, options=options) as channel:
        verify = channel.unary_unary(
            VERIFY,
            request_serializer=lambda data: data,
            response_deserializer=R.VerifyHistoryResponse.FromString,
        )
        with pytest.raises(grpc.RpcError) as caught:
            verify(over, timeout=30)
        assert _reason(caught.value) == (grpc.StatusCode.INVALID_ARGUMENT, "REQUEST_TOO_LARGE")
        with pytest.raises(grpc.RpcError) as caught:
            verify(bogus_verify_request(EIGHT_MB), timeout=30)
        assert _transport_refusal(caught.value), caught.value
        assert verify(bogus_verify_request(), timeout=30).problems  # a report, as ever
    for body in (over, bogus_verify_request(EIGHT_MB)):
        response = httpx.post(
            f"{served.http}{VERIFY}", content=body, headers={"Content-Type": "application/proto"}
        )
        assert _http_reason(response) == "400/REQUEST_TOO_LARGE", response.text


def test_a_1_mb_json_verify_flood_gets_reports_or_verify_busy(served: Served) -> None:
    attack = _under_attack(served, attack_json_verify_flood)
    assert attack["attempts"] >= ATTACKERS and attack["answered"] > 0
    assert set(attack["refusals"]) <= {"503/VERIFY_BUSY"}, attack


def test_a_json_body_over_its_cap_is_refused_before_it_is_parsed(served: Served) -> None:
    attack = _under_attack(served, attack_oversized_json_verify)
    assert attack["answered"] == 0 and attack["refusals"] == {
        "400/REQUEST_TOO_LARGE": attack["attempts"]
    }
    # Just over the JSON cap is refused too; a cap's worth of binary is not.
    over = httpx.post(
        f"{served.http}{VERIFY}",
        content=b" " * (MAX_JSON_VERIFY_BYTES + 1),
        headers={"Content-Type": "application/json"},
    )
    assert over.status_code == 400 and "REQUEST_TOO_LARGE" in over.text


def test_gzip_bombs_are_refused_once_a_caps_worth_is_inflated(served: Served) -> None:
    attack = _under_attack(served, attack_gzip_bombs)
    assert attack["answered"] == 0 and attack["refusals"] == {
        "400/REQUEST_TOO_LARGE": attack["attempts"]
    }, attack
    # A gzipped request within its caps is answered like any other.
    request = R.VerifyHistoryRequest()
    request.history.setup.game = "no-such-game"
    body = zlib.compress(request.SerializeToString(), wbits=16 + zlib.MAX_WBITS)
    headers = {"Content-Type": "application/proto", "Content-Encoding": "gzip"}
    answer = httpx.post(f"{served.http}{VERIFY}", content=body, headers=headers)
    assert answer.status_code == 200, answer.text
    assert R.VerifyHistoryResponse.FromString(answer.content).problems == [
        "unknown game 'no-such-game'"
    ]


def test_a_grpc_gzip_bomb_is_refused_by_its_decompressed_size(served: Served) -> None:
    """grpc-encoding gzip: grpc's core inflates at most ``grpc.max_receive_message_length``
    (service.process.server.TRANSPORT_LIMIT) and refuses the rest before any handler runs."""
    options = [("grpc.max_send_message_length", -1)]
    with grpc.insecure_channel(served.grpc, options=options) as channel:
        verify = channel.unary_unary(
            VERIFY, request_serializer=lambda data: data, response_deserializer=lambda d: d
        )
        started = time.monotonic()
        with pytest.raises(grpc.RpcError) as caught:
            verify(bytes(64 << 20), timeout=30, compression=grpc.Compression.Gzip)
        assert caught.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "larger than max" in (caught.value.details() or ""), caught.value
        assert time.monotonic() - started < 10
        # The same request within the limit, gzipped, is answered (as a report).
        small = verify(bogus_verify_request(), timeout=30, compression=grpc.Compression.Gzip)
        assert R.VerifyHistoryResponse.FromString(small).problems


def _parses_as_verify(body: bytes) -> bool:
    """Whether ``body`` parses as a VerifyHistoryRequest: a field of the wrong wire type
    does (VerifyHistory is not walked for those; its replay reports what it cannot read)."""
    try:
        R.VerifyHistoryRequest.FromString(body)
    except DecodeError:
        return False
    return True


@pytest.mark.parametrize("body", MALFORMED, ids=["garbage", "varint", "wire type", "utf-8"])
def test_malformed_protobuf_on_both_faces(served: Served, body: bytes) -> None:
    """CreateGame refuses each; VerifyHistory, parsed in its worker, refuses each that does
    not parse, with the same reason."""
    verify_refuses = not _parses_as_verify(body)
    with grpc.insecure_channel(served.grpc) as channel:
        for path, refuses in ((CREATE, True), (VERIFY, verify_refuses)):
            call = channel.unary_unary(
                path, request_serializer=lambda data: data, response_deserializer=lambda d: d
            )
            if not refuses:
                assert R.VerifyHistoryResponse.FromString(call(body, timeout=10)).problems
                continue
            with pytest.raises(grpc.RpcError) as caught:
                call(body, timeout=10)
            assert _reason(caught.value) == (
                grpc.StatusCode.INVALID_ARGUMENT,
                "MALFORMED_REQUEST",
            ), path
        # The referee still answers a well-formed call.
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        assert stub.CreateGame(R.CreateGameRequest(game="the_gang", seats=3)).game_id
    for path, refuses in ((CREATE, True), (VERIFY, verify_refuses)):
        response = httpx.post(
            f"{served.http}{path}", content=body, headers={"Content-Type": "application/proto"}
        )
        if not refuses:
            assert response.status_code == 200, response.text
            continue
        assert response.status_code == 400, (path, response.text)
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
