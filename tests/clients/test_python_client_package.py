"""clients/python is a real distribution, built as a maintainer releases it: PyPA's ``build``
makes its sdist and wheel (docs/releasing.md), the sdist holds everything a build from it
needs, pip installs the wheel (not the source tree, not editable) into a fresh venv, and a
script there plays against the referee importing only ``referee.client``."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tarfile
import time
import zipfile
from pathlib import Path

from scripts.set_version import release_version
from service.process.server import Running
from tests.clients.commands import run

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "clients" / "python"
# build + venv + pip install (the dependencies' wheels from the index or pip's cache) + script
BUDGET_SECONDS = 90.0
# What a wheel built from the sdist needs, and what the wheel gives its users (typed).
IN_THE_SDIST = ("pyproject.toml", "README.md", "referee/v1/referee_pb2.pyi", "referee/py.typed")
IN_THE_WHEEL = ("referee/py.typed", "referee/v1/referee_pb2.pyi", "referee/client/aio.py")

SCRIPT = r"""
import importlib.metadata
import json
import sys

import referee.client
from referee.client import RefereeClient, VersionConflict

with RefereeClient(sys.argv[1]) as client:
    created = client.create_game("the_gang", 3, allow_spectators=True)
    seats = client.seats(created)
    versions = []
    for seat in seats:
        view = seat.view()
        row = [row for row in view.the_gang.chips if row.colour == view.the_gang.round][0]
        free = {chip.stars for chip in row.chips if not chip.HasField("holder")}
        legal = seat.legal_moves()
        move = next(
            move for move in legal.moves
            if move.the_gang.WhichOneof("action") == "take_chip"
            and move.the_gang.take_chip.stars in free
        )
        versions.append(seat.submit(move, expected_version=legal.version).version)
    try:
        seats[0].submit(move, expected_version=0)
    except VersionConflict as conflict:
        refused = [conflict.reason, conflict.current_version]
    history = client.seat(created.game_id).history()

print(json.dumps({
    "module": referee.client.__file__,
    "version": importlib.metadata.version("referee-client"),
    "versions": versions,
    "refused": refused,
    "entries": [entry.seat for entry in history.entries],
}))
"""


async def test_pip_installs_the_client_and_it_plays(
    referee_server: Running, tmp_path: Path
) -> None:
    deadline = time.monotonic() + BUDGET_SECONDS
    # No PYTHON* variables of this process (PYTHONPATH would show the venv the source tree).
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}
    # Built from a copy, so setuptools' build/ and *.egg-info never land in the work tree.
    source = tmp_path / "referee-client"
    shutil.copytree(
        PACKAGE,
        source,
        ignore=shutil.ignore_patterns("__pycache__", "build", "dist", "*.egg-info"),
    )
    dist = tmp_path / "dist"
    # --no-isolation: the build backend (setuptools, in the test extras) is this venv's,
    # instead of a fresh one downloaded for every run.
    build = ("-m", "build", "--sdist", "--wheel", "--no-isolation", "--outdir", dist, source)
    await run(sys.executable, *build, deadline=deadline, cwd=tmp_path, env=env)
    version = release_version()
    sdist = dist / f"referee_client-{version}.tar.gz"
    wheel = dist / f"referee_client-{version}-py3-none-any.whl"
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert set(IN_THE_SDIST) <= names, sorted(set(IN_THE_SDIST) - names)
    with zipfile.ZipFile(wheel) as archive:
        assert set(IN_THE_WHEEL) <= set(archive.namelist())
    venv = tmp_path / "venv"
    # A bare venv, and this pip installing into it (--python): seeding the venv with a pip
    # of its own (ensurepip) takes most of the test's time and proves nothing more.
    await run(
        sys.executable,
        "-m",
        "venv",
        "--without-pip",
        venv,
        deadline=deadline,
        cwd=tmp_path,
        env=env,
    )
    python = venv / "bin" / "python"
    install = ("-m", "pip", "--python", python, "install", "-q", wheel)
    await run(sys.executable, *install, deadline=deadline, cwd=tmp_path, env=env)
    # -I: isolated, so only the venv's site-packages can provide `referee`.
    out = await run(
        python, "-I", "-c", SCRIPT, referee_server.address, deadline=deadline, cwd=tmp_path, env=env
    )
    report = json.loads(out.strip().splitlines()[-1])

    installed = Path(report["module"]).parent.parent
    assert installed.is_relative_to(venv), installed
    assert report["version"] == version
    assert report["versions"] == [1, 2, 3]
    assert report["refused"] == ["VERSION_MISMATCH", 3]
    assert report["entries"] == [0, 1, 2]
    # Typed for its users: the marker and the message stubs are installed too.
    for name in IN_THE_WHEEL:
        assert (installed.parent / name).is_file(), name
