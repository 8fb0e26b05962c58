"""VerifyHistory on the HTTP face as the generated Connect client calls it.

The body reaches a worker unparsed (service.edge.connect.encoded), yet the call is the Connect
protocol's: binary and JSON, the Connect and gRPC-Web protocols, a gzipped body (this
client's default) and a gzipped answer, typed errors with their ErrorInfo details.
"""

from __future__ import annotations

import gzip

import httpx
import pytest
from connectrpc.code import Code
from connectrpc.compression.gzip import GzipCompression
from connectrpc.errors import ConnectError
from connectrpc.protocol import ProtocolType
from google.rpc import error_details_pb2

from referee.v1 import referee_pb2, referee_pb2_grpc
from referee.v1.referee_connect import RefereeServiceClient
from service.edge.calls import MAX_JSON_VERIFY_BYTES, MAX_REQUEST_BYTES
from service.process.server import Running
from tests.service.test_verify_history import _finished

R = referee_pb2
CASES = [
    pytest.param(False, ProtocolType.CONNECT, GzipCompression(), id="connect-proto-gzip"),
    pytest.param(True, ProtocolType.CONNECT, None, id="connect-json"),
    pytest.param(True, ProtocolType.CONNECT, GzipCompression(), id="connect-json-gzip"),
    pytest.param(False, ProtocolType.GRPC_WEB, GzipCompression(), id="grpc-web-proto-gzip"),
]


def _reason(error: ConnectError) -> str:
    info = error_details_pb2.ErrorInfo()
    assert any(detail.Unpack(info) for detail in error.details), error
    return str(info.reason)


@pytest.mark.parametrize(("json", "protocol", "compression"), CASES)
async def test_the_generated_connect_client_verifies_a_game(
    referee_server: Running,
    stub: referee_pb2_grpc.RefereeServiceAsyncStub,
    json: bool,
    protocol: ProtocolType,
    compression: GzipCompression | None,
) -> None:
    history, updates = await _finished(stub)
    request = R.VerifyHistoryRequest(history=history, views=[u.view for u in updates])
    async with RefereeServiceClient(
        referee_server.http_url,
        proto_json=json,
        protocol=protocol,
        send_compression=compression,
        accept_compression=[GzipCompression()],
    ) as client:
        answer = await client.verify_history(request)
        assert answer.verified, answer.problems
        assert answer.views_checked == len(updates)
        crowded = R.VerifyHistoryRequest(history=history)
        for _ in range((len(history.entries) + 1) * (history.setup.seats + 1) + 1):
            crowded.views.add()
        with pytest.raises(ConnectError) as refused:
            await client.verify_history(crowded)
        assert refused.value.code == Code.INVALID_ARGUMENT
        assert _reason(refused.value) == "TOO_MANY_VIEWS"


async def test_a_json_body_inflated_past_its_cap_is_refused(referee_server: Running) -> None:
    """The cap of a JSON body holds once it is inflated, in the worker; malformed gzip and
    malformed JSON are the client's errors."""
    url = f"{referee_server.http_url}/referee.v1.RefereeService/VerifyHistory"
    inflated = b'{"history": {"seed": "' + b"A" * MAX_JSON_VERIFY_BYTES + b'"}}'
    headers = {"Content-Type": "application/json", "Content-Encoding": "gzip"}
    async with httpx.AsyncClient(timeout=30) as http:
        big = await http.post(url, content=gzip.compress(inflated), headers=headers)
        garbled = await http.post(url, content=b"\x1f\x8b not gzip", headers=headers)
        bad_json = await http.post(url, content=gzip.compress(b"{"), headers=headers)
    assert (big.status_code, big.json()["details"][0]["debug"]["reason"]) == (
        400,
        "REQUEST_TOO_LARGE",
    )
    for response in (garbled, bad_json):
        assert response.status_code == 400, response.text
        assert response.json()["details"][0]["debug"]["reason"] == "MALFORMED_REQUEST"
    assert bad_json.json()["message"].startswith("malformed JSON request")


@pytest.mark.parametrize(
    "service", ["RefereeService/CreateGame", "TournamentService/GetTournament"]
)
async def test_a_gzip_bomb_at_any_route_inflates_no_further_than_its_cap(
    referee_server: Running, service: str
) -> None:
    """32 KB of gzip that would inflate to 32 MiB: refused after 64 KiB, typed."""
    bomb = gzip.compress(bytes(32 << 20), compresslevel=9)
    assert len(bomb) < MAX_REQUEST_BYTES
    headers = {"Content-Type": "application/proto", "Content-Encoding": "gzip"}
    async with httpx.AsyncClient(base_url=referee_server.http_url, timeout=30) as http:
        refused = await http.post(f"/referee.v1.{service}", content=bomb, headers=headers)
        small = gzip.compress(R.CreateGameRequest(game="the_gang", seats=3).SerializeToString())
        created = await http.post(
            "/referee.v1.RefereeService/CreateGame", content=small, headers=headers
        )
    assert refused.status_code == 400, refused.text
    assert refused.json()["details"][0]["debug"]["reason"] == "REQUEST_TOO_LARGE"
    assert R.CreateGameResponse.FromString(created.content).game_id
