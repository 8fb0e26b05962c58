"""Static checks that run with the suite: ruff, mypy --strict, and the import contract."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
# The hand-written parts of the client package (its v1/ is generated).
CLIENT = ["clients/python/referee/client", "clients/python/referee/bots"]
CODE = ["engines", "service", "bench", "scripts", "tests", "deploy", "setup.py", *CLIENT]


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_is_clean() -> None:
    result = _run(str(BIN / "ruff"), "check", *CODE)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = _run(str(BIN / "ruff"), "format", "--check", *CODE)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_is_clean() -> None:
    typed = ["engines", "service", "bench", "scripts", "tests", "setup.py", *CLIENT]
    result = _run(sys.executable, "-m", "mypy", "--strict", *typed)
    assert result.returncode == 0, result.stdout + result.stderr


def test_engines_never_import_the_service_grpc_or_redis() -> None:
    result = _run(str(BIN / "lint-imports"))
    assert result.returncode == 0, result.stdout + result.stderr
