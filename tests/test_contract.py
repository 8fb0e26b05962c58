"""The contract: protos lint clean, committed stubs match them, standard services answer."""

from __future__ import annotations

import filecmp
import shutil
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from service.process.server import Running

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


def _files(folder: Path) -> set[Path]:
    return {
        p.relative_to(folder)
        for p in folder.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


@pytest.mark.parametrize(
    ("generated", "hand_written"),
    [
        # The Python package: generated referee/v1 and markers; the rest is by hand.
        ("clients/python/referee", {"client", "bots", "codecs", "search"}),
        ("clients/typescript/src/gen", set()),
        ("clients/go/referee", set()),
        ("clients/cpp/gen", set()),
        ("clients/java/gen", set()),
    ],
)
def test_committed_stubs_are_up_to_date(
    regenerated: Path, generated: str, hand_written: set[str]
) -> None:
    fresh, committed = regenerated / generated, ROOT / generated
    committed_files = {p for p in _files(committed) if p.parts[0] not in hand_written}
    assert _files(fresh) == committed_files, "run: python scripts/gen_stubs.py"
    stale = sorted(
        str(p) for p in _files(fresh) if not filecmp.cmp(fresh / p, committed / p, shallow=False)
    )
    assert not stale, f"stale stubs {stale}; run: python scripts/gen_stubs.py"


def test_committed_openapi_document_is_up_to_date(regenerated: Path) -> None:
    document = "service/edge/openapi.json"
    assert filecmp.cmp(regenerated / document, ROOT / document, shallow=False), (
        "stale OpenAPI document; run: python scripts/gen_stubs.py"
    )


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every generated file, written afresh from proto/ into a temporary tree."""
    root = tmp_path_factory.mktemp("generated")
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_stubs.py"), "--root", str(root)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    return root


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


def _buf_breaking(against: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / "buf"), "breaking", "--against", against],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


RELEASES = ROOT / "proto" / "releases"


def _release_number(image: Path) -> tuple[int, ...]:
    """``v0.2.0.binpb`` -> (0, 2, 0)."""
    return tuple(int(part) for part in image.name.removesuffix(".binpb")[1:].split("."))


def newest_release() -> Path:
    """The newest committed Buf image of the contract (``proto/releases/v*.binpb``)."""
    images = sorted(RELEASES.glob("v*.binpb"), key=_release_number)
    assert images, f"no release image in {RELEASES}"
    return images[-1]


def test_the_contract_is_compatible_with_the_last_release() -> None:
    """`buf breaking` (FILE rules) against the newest committed release image: a release
    is a file in the repository, so the check needs no git tag."""
    image = newest_release()
    result = _buf_breaking(str(image), ROOT / "proto")
    assert result.returncode == 0, (
        f"incompatible with {image.name}:\n{result.stdout}{result.stderr}"
    )


def test_release_images_are_named_by_version() -> None:
    names = [image.name for image in RELEASES.iterdir()]
    assert names, "no release recorded"
    for name in names:
        assert _release_number(RELEASES / name), name


def test_buf_breaking_catches_an_incompatible_change(tmp_path: Path) -> None:
    """The release check above is real: renumbering a field fails it."""
    changed = tmp_path / "proto"
    shutil.copytree(ROOT / "proto", changed)
    referee = changed / "referee" / "v1" / "referee.proto"
    text = referee.read_text()
    assert "  string client_move_id = 3;" in text
    referee.write_text(text.replace("  string client_move_id = 3;", "  string client_move_id = 9;"))
    result = _buf_breaking(str(ROOT / "proto"), changed)
    assert result.returncode != 0
    assert "client_move_id" in result.stdout + result.stderr
    assert _buf_breaking(str(ROOT / "proto"), ROOT / "proto").returncode == 0
