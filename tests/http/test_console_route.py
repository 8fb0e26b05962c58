"""The HTTP port serves the built console at /console/ (and says so when it is not built)."""

from __future__ import annotations

from pathlib import Path

import httpx
from starlette.applications import Starlette

from service.edge.connect.app import CONSOLE_BUILD, console_routes
from service.process.server import Running


async def test_the_console_is_served_beside_the_api(referee_server: Running) -> None:
    assert (CONSOLE_BUILD / "index.html").is_file(), "./dev builds the console"
    async with httpx.AsyncClient(base_url=referee_server.http_url) as http:
        page = await http.get("/console/")
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        assert "default-src 'self'" in page.headers["content-security-policy"]
        assert page.headers["cache-control"] == "no-cache"
        for bare in ("/", "/console"):
            moved = await http.get(bare)
            assert (moved.status_code, moved.headers["location"]) == (307, "/console/")
        # Every script and stylesheet the page names is served, from this origin only.
        assets = [part.split('"')[0] for part in page.text.split('="./assets/')[1:]]
        assert assets
        for asset in assets:
            served = await http.get(f"/console/assets/{asset}")
            assert served.status_code == 200, asset
            assert "no-cache" not in served.headers.get("cache-control", "")
        assert (await http.get("/console/nothing-here.js")).status_code == 404


async def test_an_unbuilt_console_says_how_to_build_it(tmp_path: Path) -> None:
    app = Starlette(routes=console_routes(tmp_path))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://console") as client:
        reply = await client.get("/console/")
    assert reply.status_code == 404
    assert "npm ci && npm run build" in reply.text
