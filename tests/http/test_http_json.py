"""The HTTP/JSON face with a plain HTTP client: a whole game, the watch stream, every error
class of DESIGN.md with its HTTP status, CORS and the published OpenAPI document."""

from __future__ import annotations

import asyncio
import base64
import dataclasses
import hashlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import httpx
import pytest
from google.protobuf import json_format

from referee.v1 import referee_pb2, referee_pb2_grpc
from service.edge.calls import MAX_JSON_REQUEST_BYTES, MAX_JSON_VERIFY_BYTES
from service.process.server import Running, running
from tests.http.connect import JSON, Message, call, ok, reason, watch
from tests.servers import settings_for

ROOT = Path(__file__).resolve().parents[2]
COLOURS = ["CHIP_COLOUR_WHITE", "CHIP_COLOUR_YELLOW", "CHIP_COLOUR_ORANGE", "CHIP_COLOUR_RED"]


@pytest.fixture
async def http(referee_server: Running) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=referee_server.http_url, timeout=10) as client:
        yield client


async def _create(http: httpx.AsyncClient, seats: int = 3) -> Message:
    return await ok(
        http, "CreateGame", {"game": "the_gang", "seats": seats, "allowSpectators": True}
    )


def _take(colour: str, stars: int) -> Message:
    return {"theGang": {"takeChip": {"colour": colour, "stars": stars}}}


async def _view(http: httpx.AsyncClient, game_id: str, token: str | None = None) -> Message:
    view: Message = (await ok(http, "GetView", {"gameId": game_id}, token))["view"]
    return view


async def test_a_whole_game_of_the_gang_over_plain_http_json(http: httpx.AsyncClient) -> None:
    """Create, hand out tokens, watch, list legal moves, submit: the README's flow."""
    created = await _create(http)
    game_id = created["gameId"]
    tokens = [t["token"] for t in created["seatTokens"]]
    assert [t.get("seat", 0) for t in created["seatTokens"]] == [0, 1, 2]

    subscribed = asyncio.Event()

    async def spectate() -> list[Message]:
        seen: list[Message] = []
        async for message in watch(http, {"gameId": game_id}):
            seen.append(message)
            subscribed.set()  # the snapshot is in: every move from now on is a live update
        return seen

    watching = asyncio.create_task(spectate())
    await asyncio.wait_for(subscribed.wait(), 10)
    view = await _view(http, game_id)
    moves = 0
    while "outcome" not in view:
        colour = view["theGang"]["round"]
        for seat, token in enumerate(tokens):
            legal = (await ok(http, "ListLegalMoves", {"gameId": game_id}, token))["moves"]
            move = _take(colour, seat + 1)
            assert move in legal, (move, legal)
            reply = await ok(
                http,
                "SubmitMove",
                {"gameId": game_id, "move": move, "clientMoveId": f"m{moves}"},
                token,
            )
            moves += 1
            assert int(reply["version"]) == moves  # int64 is a string in proto3 JSON
            view = reply["view"]
            if view["theGang"].get("round") != colour or "outcome" in view:
                break

    watched = await asyncio.wait_for(watching, 10)
    assert watched[0]["snapshot"] is True
    assert [int(m["version"]) for m in watched[1:]] == list(range(1, moves + 1))
    assert "outcome" in watched[-1]["view"]
    assert all("pocket" not in m["view"].get("theGang", {}) for m in watched), "spectator leak"

    history = await ok(http, "GetHistory", {"gameId": game_id})
    seed = base64.b64decode(history["seed"])
    assert hashlib.sha256(seed).hexdigest() == created["seedSha256"]
    assert len(history["entries"]) == moves


async def test_each_error_class_has_its_http_status_and_changes_nothing(
    http: httpx.AsyncClient,
) -> None:
    created = await _create(http)
    game_id = created["gameId"]
    token = created["seatTokens"][0]["token"]
    other = (await _create(http))["seatTokens"][0]["token"]
    first = {"gameId": game_id, "move": _take(COLOURS[0], 2), "clientMoveId": "first"}
    await ok(http, "SubmitMove", first, created["seatTokens"][1]["token"])
    before = await _view(http, game_id, token)
    good = {"gameId": game_id, "move": _take(COLOURS[0], 1), "clientMoveId": "x"}
    cases: list[tuple[Message, str | None, int, str, str]] = [
        # body, token, HTTP status, Connect code, reason
        ({**good, "move": {"theGang": {}}}, token, 400, "invalid_argument", "MOVE_EMPTY"),
        ({**good, "gameId": "no such!"}, token, 400, "invalid_argument", "GAME_ID_INVALID"),
        (
            {**good, "move": _take(COLOURS[2], 1)},
            token,
            400,
            "failed_precondition",
            "CHIP_NOT_IN_PLAY",
        ),
        (good, "v1.forged.0.token", 401, "unauthenticated", "TOKEN_INVALID"),
        (good, None, 401, "unauthenticated", "TOKEN_MISSING"),
        (good, other, 403, "permission_denied", "TOKEN_FOR_OTHER_GAME"),
        ({**good, "gameId": "unknown-game"}, token, 404, "not_found", "GAME_NOT_FOUND"),
        ({**good, "expectedVersion": "0"}, token, 409, "aborted", "VERSION_MISMATCH"),
    ]
    for body, who, status, code, why in cases:
        response = await call(http, "SubmitMove", body, who)
        assert response.status_code == status, (why, response.status_code, response.text)
        assert response.json()["code"] == code, (why, response.text)
        assert reason(response) == why, (why, response.text)
    conflict = await call(http, "SubmitMove", {**good, "expectedVersion": "0"}, token)
    assert conflict.json()["details"][0]["debug"]["metadata"]["current_version"] == "1"
    assert await _view(http, game_id, token) == before, "a rejected call changed the game"
    malformed = await http.post(
        "/referee.v1.RefereeService/SubmitMove",
        content=b'{"gameId": ',
        headers={"Content-Type": "application/json"},
    )
    assert malformed.status_code == 400
    assert malformed.json()["code"] == "invalid_argument"
    assert reason(malformed) == "MALFORMED_REQUEST"
    unknown_field = await call(http, "GetView", {"gameId": game_id, "bogus": 1}, token)
    assert unknown_field.status_code == 400
    assert await _view(http, game_id, token) == before


async def test_the_watch_stream_resumes_after_a_version(http: httpx.AsyncClient) -> None:
    created = await _create(http)
    game_id, tokens = created["gameId"], [t["token"] for t in created["seatTokens"]]
    for seat in range(2):
        await ok(
            http,
            "SubmitMove",
            {"gameId": game_id, "move": _take(COLOURS[0], seat + 1), "clientMoveId": "a"},
            tokens[seat],
        )

    async def first_after(version: int) -> Message:
        async for message in watch(http, {"gameId": game_id, "afterVersion": version}, tokens[0]):
            return message
        raise AssertionError("the stream ended")

    resumed = await asyncio.wait_for(first_after(1), 5)
    assert int(resumed["version"]) == 2
    assert resumed.get("snapshot", False) is False
    assert resumed["events"], "an update carries the events of its move"


async def test_the_openapi_document_is_served(http: httpx.AsyncClient) -> None:
    response = await http.get("/openapi.json")
    assert response.status_code == 200
    assert response.json() == json.loads((ROOT / "service" / "edge" / "openapi.json").read_text())


async def test_cors_is_off_by_default_and_configurable(
    http: httpx.AsyncClient, redis_url: str, tmp_path: Path
) -> None:
    preflight = {
        "Origin": "https://table.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization,content-type,connect-protocol-version",
    }
    path = "/referee.v1.RefereeService/GetView"
    closed = await http.options(path, headers=preflight)
    assert "access-control-allow-origin" not in closed.headers

    settings = dataclasses.replace(
        settings_for(redis_url, tmp_path), cors_origins=("https://table.example",)
    )
    async with (
        running(settings) as handle,
        httpx.AsyncClient(base_url=handle.http_url) as client,
    ):
        allowed = await client.options(path, headers=preflight)
        assert allowed.status_code == 200
        assert allowed.headers["access-control-allow-origin"] == "https://table.example"
        assert "authorization" in allowed.headers["access-control-allow-headers"].lower()
        stranger = await client.options(path, headers={**preflight, "Origin": "https://x.test"})
        assert stranger.status_code == 400
        created = await client.post(
            "/referee.v1.RefereeService/CreateGame",
            json={"game": "the_gang", "seats": 3},
            headers={"Origin": "https://table.example"},
        )
        assert created.status_code == 200
        assert created.headers["access-control-allow-origin"] == "https://table.example"


async def test_every_seat_sees_the_same_redacted_view_over_both_faces(
    http: httpx.AsyncClient, referee_server: Running
) -> None:
    """The HTTP face adds no field and drops no redaction: its JSON is the gRPC view's."""
    created = await _create(http, seats=4)
    game_id = created["gameId"]
    tokens = [None, *(t["token"] for t in created["seatTokens"])]
    await ok(
        http,
        "SubmitMove",
        {"gameId": game_id, "move": _take(COLOURS[0], 1), "clientMoveId": "a"},
        tokens[1],
    )
    async with grpc.aio.insecure_channel(referee_server.address) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        for token in tokens:
            metadata = (("authorization", f"Bearer {token}"),) if token else ()
            over_grpc = await stub.GetView(
                referee_pb2.GetViewRequest(game_id=game_id), metadata=metadata
            )
            over_http = json_format.ParseDict(
                await ok(http, "GetView", {"gameId": game_id}, token), referee_pb2.GetViewResponse()
            )
            assert over_http == over_grpc
            history = await ok(http, "GetHistory", {"gameId": game_id}, token)
            assert "seed" not in history, "the seed is revealed only at the end"


PROTO = {"Content-Type": "application/proto", "Connect-Protocol-Version": "1"}


@pytest.mark.parametrize(
    "body",
    [b"\xff\xff\xff\xff", b"\x10\x80\x80", b"\x0d\x00\x00\x00\x00", b"\x0a\x02\xc3\x28"],
    ids=["garbage", "truncated varint", "wrong wire type", "bad utf-8"],
)
async def test_malformed_protobuf_is_malformed_request(
    http: httpx.AsyncClient, body: bytes
) -> None:
    response = await http.post("/referee.v1.RefereeService/CreateGame", content=body, headers=PROTO)
    assert response.status_code == 400, response.text
    assert response.json()["code"] == "invalid_argument"
    assert reason(response) == "MALFORMED_REQUEST"


async def test_json_bodies_are_capped_far_below_binary_ones(http: httpx.AsyncClient) -> None:
    """Over its cap a body is refused before it is parsed, whether its Content-Length says
    so or it comes in chunks without one; binary keeps the higher caps."""
    padding = {"game": "the_gang", "seats": 3, "seed": "A" * (MAX_JSON_REQUEST_BYTES + 10)}
    declared = await call(http, "CreateGame", padding)
    assert (declared.status_code, reason(declared)) == (400, "REQUEST_TOO_LARGE"), declared.text

    async def chunks() -> AsyncIterator[bytes]:
        yield b'{"game": "the_gang", "seed": "'
        for _ in range(MAX_JSON_VERIFY_BYTES // 8192 + 2):
            yield b"A" * 8192
        yield b'"}'

    streamed = await http.post(
        "/referee.v1.RefereeService/VerifyHistory", content=chunks(), headers=JSON
    )
    assert (streamed.status_code, reason(streamed)) == (400, "REQUEST_TOO_LARGE")
    # The same size as binary protobuf is far below VerifyHistory's binary cap: an answer.
    request = referee_pb2.VerifyHistoryRequest()
    request.history.seed = b"A" * (MAX_JSON_VERIFY_BYTES + 10)
    binary = await http.post(
        "/referee.v1.RefereeService/VerifyHistory",
        content=request.SerializeToString(),
        headers=PROTO,
    )
    assert binary.status_code == 200, binary.text
    answer = referee_pb2.VerifyHistoryResponse.FromString(binary.content)
    assert not answer.verified and answer.problems == ["unknown game ''"]


async def test_a_long_game_name_is_echoed_as_a_short_prefix(http: httpx.AsyncClient) -> None:
    response = await call(http, "CreateGame", {"game": "x" * 60_000, "seats": 3})
    assert (response.status_code, reason(response)) == (400, "GAME_UNKNOWN")
    message = response.json()["message"]
    assert message.startswith("unknown game 'xxx") and len(message) < 200, message
    unknown = await call(http, "CreateGame", {"game": "the_gang", "y" * 60_000: 1})
    assert (unknown.status_code, reason(unknown)) == (400, "MALFORMED_REQUEST")
    assert len(unknown.json()["message"]) < 200


@pytest.mark.parametrize(
    "path",
    [
        "/referee.v1.RefereeService/GetView",
        "/referee.v1.RefereeService/VerifyHistory",
        "/referee.v1.RefereeService/WatchGame",
        "/referee.v1.LobbyService/ListGames",
        "/referee.v1.TournamentService/ListTournaments",
        "/referee.v1.RatingService/ListLeaderboard",
    ],
)
async def test_a_header_that_is_not_utf8_is_malformed_request_not_an_unknown_error(
    http: httpx.AsyncClient, path: str
) -> None:
    """A header value is bytes on the wire; connect-python reads them as UTF-8 and raised
    on one that was not (500 unknown, found by tests/http/test_fuzz.py). Every service of
    the HTTP port refuses it as a malformed request, unary and stream alike."""
    stream = path.endswith("WatchGame")
    content_type = b"application/connect+json" if stream else b"application/json"
    for name in (b"authorization", b"x-referee-key", b"x-forwarded-for"):
        answer = await http.post(
            path,
            content=b"\x00\x00\x00\x00\x02{}" if stream else b"{}",
            headers={b"content-type": content_type, name: b"Bearer \x80\xff"},
        )
        assert answer.status_code == 400, (name, answer.text)
        assert answer.json()["code"] == "invalid_argument"
        assert reason(answer) == "MALFORMED_REQUEST"
