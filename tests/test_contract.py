"""The contract: protos lint clean, committed stubs match them, standard services answer."""

from __future__ import annotations

import filecmp
import subprocess
import sys
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from service.server import Running

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def test_buf_lint_passes() -> None:
    result = subprocess.run(
        [str(BIN / "buf"), "lint"], cwd=ROOT / "proto", capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_buf_format_is_clean() -> None:
    result = subprocess.run(
        [str(BIN / "buf"), "format", "-d", "--exit-code"],
        cwd=ROOT / "proto",
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_committed_python_stubs_are_up_to_date(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_stubs.py"), "--out", str(tmp_path)],
        check=True,
        capture_output=True,
    )
    fresh = tmp_path / "referee"
    committed = ROOT / "clients" / "python" / "referee"
    fresh_files = sorted(p.relative_to(fresh) for p in fresh.rglob("*") if p.is_file())
    committed_files = sorted(
        p.relative_to(committed)
        for p in committed.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    )
    assert fresh_files == committed_files, "run: python scripts/gen_stubs.py"
    stale = [
        str(p) for p in fresh_files if not filecmp.cmp(fresh / p, committed / p, shallow=False)
    ]
    assert not stale, f"stale stubs {stale}; run: python scripts/gen_stubs.py"


async def test_health_reports_serving(referee_server: Running) -> None:
    async with grpc.aio.insecure_channel(referee_server.address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        for service in ("", "referee.v1.RefereeService"):
            reply = await health.Check(health_pb2.HealthCheckRequest(service=service))
            assert reply.status == health_pb2.HealthCheckResponse.SERVING


async def test_reflection_lists_the_referee(referee_server: Running) -> None:
    async with grpc.aio.insecure_channel(referee_server.address) as channel:
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        request = reflection_pb2.ServerReflectionRequest(list_services="")
        names: set[str] = set()
        async for reply in stub.ServerReflectionInfo(iter([request])):
            names |= {s.name for s in reply.list_services_response.service}
    assert {"referee.v1.RefereeService", "grpc.health.v1.Health"} <= names
