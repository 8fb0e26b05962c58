"""A plain HTTP client of the referee's HTTP/JSON face: httpx, JSON dicts, no generated code.

What any language's HTTP library would do: POST canonical proto3 JSON to
``/referee.v1.RefereeService/<Method>`` and, for WatchGame, read Connect stream frames
(1 flag byte, a 4-byte big-endian length, a JSON message; flag 0x02 ends the stream).
"""

from __future__ import annotations

import json
import struct
from collections.abc import AsyncIterator
from typing import Any

import httpx

SERVICE = "/referee.v1.RefereeService"
JSON = {"Content-Type": "application/json", "Connect-Protocol-Version": "1"}
Message = dict[str, Any]


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


async def call(
    http: httpx.AsyncClient, method: str, body: Message, token: str | None = None
) -> httpx.Response:
    return await http.post(f"{SERVICE}/{method}", json=body, headers={**JSON, **bearer(token)})


async def ok(
    http: httpx.AsyncClient, method: str, body: Message, token: str | None = None
) -> Message:
    response = await call(http, method, body, token)
    assert response.status_code == 200, (method, response.status_code, response.text)
    answer: Message = response.json()
    return answer


def reason(response: httpx.Response) -> str:
    """The referee's reason code: the decoded google.rpc.ErrorInfo of a Connect error."""
    details = response.json().get("details", [])
    infos = [d for d in details if d.get("type") == "google.rpc.ErrorInfo"]
    assert infos, response.text
    found: str = infos[0]["debug"]["reason"]
    return found


def frame(message: Message, flags: int = 0) -> bytes:
    payload = json.dumps(message).encode()
    return struct.pack(">BI", flags, len(payload)) + payload


async def watch(
    http: httpx.AsyncClient, body: Message, token: str | None = None
) -> AsyncIterator[Message]:
    """WatchGame's messages as they come; raises AssertionError on an end-of-stream error."""
    headers = {
        "Content-Type": "application/connect+json",
        "Connect-Protocol-Version": "1",
        **bearer(token),
    }
    path = f"{SERVICE}/WatchGame"
    async with http.stream("POST", path, content=frame(body), headers=headers) as r:
        assert r.status_code == 200, r.status_code
        buffer = b""
        async for chunk in r.aiter_bytes():
            buffer += chunk
            while len(buffer) >= 5:
                flags, length = struct.unpack(">BI", buffer[:5])
                if len(buffer) < 5 + length:
                    break
                message = json.loads(buffer[5 : 5 + length])
                buffer = buffer[5 + length :]
                if flags & 0x02:
                    assert "error" not in message, message
                    return
                yield message
