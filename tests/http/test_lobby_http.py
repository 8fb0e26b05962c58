"""LobbyService over the HTTP/JSON face with a plain HTTP client: every RPC works, each
refusal carries the same code and reason as over gRPC (and changes nothing), and the
OpenAPI document lists the service."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import httpx
import pytest
from google.protobuf import json_format

from referee.v1 import lobby_pb2, lobby_pb2_grpc
from service.process.server import running
from tests.http.connect import JSON, Message, bearer, reason
from tests.servers import settings_for
from tests.service.table import auth, reason_of

ROOT = Path(__file__).resolve().parents[2]
LOBBY = "/referee.v1.LobbyService"
RPCS = (
    "JoinGame",
    "LeaveGame",
    "StartGame",
    "ListGames",
    "ReissueSeatToken",
    "ForfeitSeat",
    "ReplaceSeatByBot",
    "AbortGame",
)


@dataclasses.dataclass
class Faces:
    http: httpx.AsyncClient
    lobby: Any  # the gRPC LobbyService stub


@pytest.fixture
async def faces(redis_url: str, tmp_path: Path) -> AsyncIterator[Faces]:
    settings = dataclasses.replace(
        settings_for(redis_url, tmp_path),
        joins_per_minute=0,
        list_games_per_second=0,
        seat_code_attempts_per_minute=0,  # the bounds have their abuse test
    )
    async with (
        running(settings) as server,
        httpx.AsyncClient(base_url=server.http_url, timeout=10) as http,
        grpc.aio.insecure_channel(server.address) as channel,
    ):
        yield Faces(http, lobby_pb2_grpc.LobbyServiceStub(channel))


async def post(
    http: httpx.AsyncClient, method: str, body: Message, token: str | None = None
) -> httpx.Response:
    service = LOBBY if method in RPCS else "/referee.v1.RefereeService"
    return await http.post(f"{service}/{method}", json=body, headers={**JSON, **bearer(token)})


async def ok(http: httpx.AsyncClient, method: str, body: Message, token: str | None = None) -> Any:
    response = await post(http, method, body, token)
    assert response.status_code == 200, (method, response.status_code, response.text)
    return response.json()


async def create(http: httpx.AsyncClient, **fields: Any) -> Message:
    body = {"game": "gang_of_four", "seats": 4, "openSeats": 2, "names": ["Ada", "Bo"]}
    created: Message = await ok(http, "CreateGame", {**body, **fields})
    return created


async def test_every_lobby_rpc_over_http_json(faces: Faces) -> None:
    http = faces.http
    created = await create(http, listed=True)
    gid, admin = created["gameId"], created["adminToken"]
    assert created["table"]["status"] == "TABLE_STATUS_OPEN" and created["joinCode"]
    joined = await ok(http, "JoinGame", {"joinCode": created["joinCode"], "displayName": "Cy"})
    assert joined["gameId"] == gid and joined["seat"] == 2 and joined["seatToken"]
    listed = await ok(http, "ListGames", {"game": "gang_of_four", "pageSize": 200})
    mine = [g for g in listed["games"] if g["gameId"] == gid]
    assert mine and mine[0]["seatsTaken"] == 3 and mine[0]["status"] == "TABLE_STATUS_OPEN"
    left = await ok(http, "LeaveGame", {"gameId": gid}, joined["seatToken"])
    assert [s.get("name", "") for s in left["table"]["seats"]] == ["Ada", "Bo", "", ""]
    again = await ok(http, "JoinGame", {"gameId": gid, "displayName": "Di", "playerId": "u-9"})
    started = await ok(http, "StartGame", {"gameId": gid, "bot": "BOT_STRATEGY_RANDOM"}, admin)
    assert started["table"]["status"] == "TABLE_STATUS_LIVE"
    assert started["table"]["seats"][again["seat"]]["playerId"] == "u-9"
    reissued = await ok(http, "ReissueSeatToken", {"gameId": gid, "seat": 1}, admin)
    assert reissued["seat"] == 1 and reissued["seatToken"] != created["seatTokens"][1]["token"]
    forfeited = await ok(http, "ForfeitSeat", {"gameId": gid, "seat": 1}, reissued["seatToken"])
    assert forfeited["table"]["seats"][1]["forfeited"]
    botted = await ok(http, "ReplaceSeatByBot", {"gameId": gid, "seat": 0}, admin)
    assert botted["table"]["seats"][0]["holder"] == "SEAT_HOLDER_BOT"
    aborted = await ok(http, "AbortGame", {"gameId": gid}, admin)
    assert aborted["table"]["status"] == "TABLE_STATUS_ABORTED"
    history = await ok(http, "GetHistory", {"gameId": gid}, admin)
    kinds = [a["kind"] for a in history["actions"]]
    assert kinds[0] == "KIND_JOINED" and kinds[-1] == "KIND_ABORTED" and len(kinds) == 8


async def grpc_refusal(faces: Faces, method: str, body: Message, token: str | None) -> Any:
    request_type = getattr(lobby_pb2, f"{method}Request")
    request = json_format.ParseDict(body, request_type())
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await getattr(faces.lobby, method)(request, metadata=auth(token) if token else None)
    code, why, _ = reason_of(caught.value)
    return code, why


async def test_lobby_refusals_match_over_both_faces(faces: Faces) -> None:
    http = faces.http
    created = await create(http, listed=False)
    gid, admin = created["gameId"], created["adminToken"]
    seat0 = created["seatTokens"][0]["token"]
    before = await ok(http, "GetView", {"gameId": gid}, admin)
    cases: list[tuple[str, Message, str | None, int, str, str]] = [
        # method, body, token, HTTP status, Connect code, reason
        ("JoinGame", {"displayName": "Cy"}, None, 400, "invalid_argument", "JOIN_TARGET_INVALID"),
        (
            "JoinGame",
            {"gameId": gid, "displayName": "x" * 10_000},
            None,
            400,
            "invalid_argument",
            "NAME_INVALID",
        ),
        (
            "JoinGame",
            {"gameId": gid, "displayName": "Cy"},
            None,
            403,
            "permission_denied",
            "TABLE_NOT_LISTED",
        ),
        (
            "JoinGame",
            {"joinCode": "ZZZZ-ZZZZ", "displayName": "Cy"},
            None,
            404,
            "not_found",
            "JOIN_CODE_INVALID",
        ),
        ("LeaveGame", {"gameId": gid}, None, 401, "unauthenticated", "TOKEN_MISSING"),
        ("LeaveGame", {"gameId": gid}, admin, 403, "permission_denied", "SEAT_TOKEN_REQUIRED"),
        ("StartGame", {"gameId": gid}, seat0, 403, "permission_denied", "ADMIN_TOKEN_REQUIRED"),
        ("StartGame", {"gameId": "unknown-game"}, admin, 404, "not_found", "GAME_NOT_FOUND"),
        ("ListGames", {"game": "chess"}, None, 400, "invalid_argument", "GAME_UNKNOWN"),
        ("ListGames", {"pageToken": "x"}, None, 400, "invalid_argument", "PAGE_TOKEN_INVALID"),
        (
            "ReissueSeatToken",
            {"gameId": gid, "seat": 9},
            admin,
            403,
            "permission_denied",
            "SEAT_NOT_AT_TABLE",
        ),
        (
            "ReissueSeatToken",
            {"gameId": gid, "seat": 3},
            admin,
            400,
            "failed_precondition",
            "SEAT_NOT_HELD",
        ),
        (
            "ForfeitSeat",
            {"gameId": gid, "seat": 1},
            seat0,
            403,
            "permission_denied",
            "SEAT_NOT_YOURS",
        ),
        (
            "ReplaceSeatByBot",
            {"gameId": gid, "seat": 0},
            "v1.forged.0.token",
            401,
            "unauthenticated",
            "TOKEN_INVALID",
        ),
        ("AbortGame", {"gameId": gid}, seat0, 403, "permission_denied", "ADMIN_TOKEN_REQUIRED"),
    ]
    for method, body, token, status, code, why in cases:
        response = await post(http, method, body, token)
        assert response.status_code == status, (method, why, response.status_code, response.text)
        assert response.json()["code"] == code, (method, why, response.text)
        assert reason(response) == why, (method, why, response.text)
        grpc_code, grpc_why = await grpc_refusal(faces, method, body, token)
        assert (grpc_code.name.lower(), grpc_why) == (code, why), (method, why)
    assert await ok(http, "GetView", {"gameId": gid}, admin) == before, "a refusal changed it"


def test_the_openapi_document_lists_the_lobby() -> None:
    document = json.loads((ROOT / "service" / "edge" / "openapi.json").read_text())
    schemas = document["components"]["schemas"]
    for rpc in RPCS:
        operation = document["paths"][f"{LOBBY}/{rpc}"]["post"]
        body = json.dumps(operation["requestBody"])
        assert f"referee.v1.{rpc}Request" in body, rpc
        assert f"referee.v1.{rpc}Request" in schemas and f"referee.v1.{rpc}Response" in schemas
