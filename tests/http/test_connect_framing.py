"""A Connect streaming request with bad framing is the client's mistake: INVALID_ARGUMENT
``MALFORMED_REQUEST`` at the end of the stream, never ``internal`` or ``unimplemented``
(service.edge.connect.framing)."""

from __future__ import annotations

import gzip
import json
import struct
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from connectrpc.errors import ConnectError

from service.edge.connect.framing import Envelopes
from service.process.server import Running
from tests.http.connect import JSON, SERVICE, frame

STREAM = {"Content-Type": "application/connect+json", "Connect-Protocol-Version": "1"}


@pytest.fixture
async def http(referee_server: Running) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=referee_server.http_url, timeout=10) as client:
        yield client


async def _game(http: httpx.AsyncClient) -> str:
    created = await http.post(
        f"{SERVICE}/CreateGame", json={"game": "pinched", "seats": 2}, headers=JSON
    )
    assert created.status_code == 200, created.text
    game_id: str = created.json()["gameId"]
    return game_id


async def _end_of_stream(http: httpx.AsyncClient, body: bytes, **headers: str) -> dict[str, Any]:
    """The error of the stream's end message (the only message: nothing was watched)."""
    reply = await http.post(f"{SERVICE}/WatchGame", content=body, headers={**STREAM, **headers})
    assert reply.status_code == 200, reply.text
    flags, length = struct.unpack(">BI", reply.content[:5])
    assert flags == 0x02 and len(reply.content) == 5 + length, reply.content
    error: dict[str, Any] = json.loads(reply.content[5:])["error"]
    return error


def _reason(error: dict[str, Any]) -> str:
    details: list[dict[str, Any]] = error.get("details", [])
    return str(details[0]["debug"]["reason"]) if details else ""


@pytest.mark.parametrize("flags", [0xFF, 0x02, 0x80, 0x01])
async def test_flags_a_client_may_not_set_are_invalid_argument(
    http: httpx.AsyncClient, flags: int
) -> None:
    """Only the compressed flag, and only with a Connect-Content-Encoding, is a client's."""
    body = frame({"gameId": await _game(http)}, flags=flags)
    error = await _end_of_stream(http, body)
    assert error["code"] == "invalid_argument", error
    assert _reason(error) == "MALFORMED_REQUEST"
    assert f"0x{flags:02x}" in error["message"]


@pytest.mark.parametrize("cut", [3, 8])
async def test_a_body_ending_inside_an_envelope_is_invalid_argument(
    http: httpx.AsyncClient, cut: int
) -> None:
    """A header cut short, or a length larger than the bytes that follow it."""
    whole = frame({"gameId": await _game(http)})
    error = await _end_of_stream(http, whole[:cut] if cut < 5 else whole[:-cut])
    assert (error["code"], _reason(error)) == ("invalid_argument", "MALFORMED_REQUEST")
    assert "ends inside an envelope" in error["message"]


async def test_a_compressed_envelope_with_its_encoding_reaches_the_method(
    http: httpx.AsyncClient,
) -> None:
    """Well framed, the request is read and judged by WatchGame itself (no seat token for a
    game without spectators), not refused at the framing."""
    payload = gzip.compress(json.dumps({"gameId": await _game(http)}).encode())
    body = struct.pack(">BI", 0x01, len(payload)) + payload
    error = await _end_of_stream(http, body, **{"Connect-Content-Encoding": "gzip"})
    assert (error["code"], _reason(error)) == ("unauthenticated", "TOKEN_MISSING")


def test_envelopes_are_followed_across_any_split_of_the_body() -> None:
    """Bytes arrive in chunks of any size: one at a time here, over two envelopes."""
    body = frame({"gameId": "g"}) + frame({"gameId": "h"})
    envelopes = Envelopes(compressed_allowed=False)
    for byte in body:
        envelopes.feed(bytes([byte]))
    envelopes.end()
    cut = Envelopes(compressed_allowed=False)
    for byte in body[:-1]:
        cut.feed(bytes([byte]))
    with pytest.raises(ConnectError, match="1 bytes short"):
        cut.end()
