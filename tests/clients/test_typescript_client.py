"""The TypeScript client (clients/typescript) plays whole games against a live referee.

Node's test runner runs clients/typescript/test/ against the BUILT package (dist/), once
for each face of the referee: gRPC (the ./node entry's HTTP/2 transport) and the Connect
protocol with JSON (the ./web entry's fetch transport, the browser path, and the ./node
JSON one). The referee runs in this test's event loop, so node runs as an async
subprocess.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
from pathlib import Path

import pytest

from service.process.server import Running

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGE = ROOT / "clients" / "typescript"
TIMEOUT_SECONDS = 240
SET_UP = "run ./dev test (it runs `npm ci && npm run build` in clients/typescript)"


def _node() -> str:
    node = shutil.which("node")
    assert node, "node (20 or later) is not on PATH: the TypeScript client's tests need it"
    needed = {"node_modules": PACKAGE / "node_modules", "dist": PACKAGE / "dist" / "index.js"}
    missing = [name for name, path in needed.items() if not path.exists()]
    assert not missing, f"clients/typescript/{' and '.join(missing)} missing: {SET_UP}"
    built = (PACKAGE / "dist" / "index.js").stat().st_mtime
    stale = [
        p.relative_to(ROOT) for p in (PACKAGE / "src").rglob("*.ts") if p.stat().st_mtime > built
    ]
    assert not stale, f"clients/typescript/dist is older than {stale[0]}: run `npm run build` there"
    return node


async def _node_tests(pattern: str, env: dict[str, str]) -> None:
    """``node --test`` on clients/typescript/test/, only the tests named ``pattern...``."""
    process = await asyncio.create_subprocess_exec(
        _node(),
        "--test",
        "--test-reporter=spec",
        f"--test-name-pattern=^{pattern}",
        "test/",
        cwd=PACKAGE,
        env={**os.environ, **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    try:
        output, _ = await asyncio.wait_for(process.communicate(), TIMEOUT_SECONDS)
    except TimeoutError:
        process.kill()
        output, _ = await process.communicate()
        pytest.fail(f"node --test ran over {TIMEOUT_SECONDS}s:\n{output.decode(errors='replace')}")
    text = output.decode(errors="replace")
    assert process.returncode == 0, f"node --test exited {process.returncode}:\n{text}"
    passed = re.findall(r"^\S* ?pass (\d+)$", text, flags=re.M)
    assert passed and int(passed[-1]) > 0, f"node ran no test:\n{text}"


async def test_the_typescript_client_over_grpc(referee_server: Running) -> None:
    await _node_tests("grpc: ", {"REFEREE_GRPC_URL": f"http://{referee_server.address}"})


async def test_the_typescript_client_over_connect_json(referee_server: Running) -> None:
    await _node_tests("connect-json: ", {"REFEREE_HTTP_URL": referee_server.http_url})
