"""The package's extensions: none by default (the pure-Python build); with REFEREE_COMPILE=1
the modules service/compiled.py lists, compiled by mypyc (docs/hosting.md, "The compiled
build"). Everything else about the package is in pyproject.toml.

mypyc type-checks what it compiles against the installed dependencies (msgspec's types
decide how a Struct is read), so a compiled build runs in an environment that has them and
mypy: ``./dev`` runs ``scripts/compiled_build.py`` in its virtualenv, the Dockerfile builds
with ``pip install --no-build-isolation`` and mypy on PYTHONPATH.
"""

from __future__ import annotations

import os
import runpy
from pathlib import Path

from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent


def extensions() -> list[Extension]:
    if os.environ.get("REFEREE_COMPILE") != "1":
        return []
    from mypyc.build import mypycify

    os.chdir(ROOT)  # mypyc takes the sources relative to here, and writes its C to build/
    listed = runpy.run_path(str(ROOT / "service" / "compiled.py"))
    # separate=True: a library per module, beside it, so each compiles on its own (on every
    # core: build_ext --parallel) and its __file__ names its place. Calls between modules go
    # through mypyc's export tables, still native: bench.engine ran the same as one library.
    built: list[Extension] = mypycify(
        ["--cache-dir", "build/mypyc-cache", *listed["sources"](ROOT)],
        opt_level="3",
        separate=True,
    )
    return built


# Every core compiles: ./dev (scripts/compiled_build.py) and `pip install .` alike.
setup(ext_modules=extensions(), options={"build_ext": {"parallel": os.cpu_count() or 1}})
