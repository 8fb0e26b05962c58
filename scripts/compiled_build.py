"""Keep the compiled build (mypyc) in step with its sources: ``./dev`` runs this before it
serves or tests.

    python scripts/compiled_build.py

- ``REFEREE_PURE_PYTHON=1``: removes the extensions, and the pure-Python build runs.
- No C compiler (``$CC``, else Python's own, e.g. ``cc``), Python headers or mypyc: one line
  says so, and the pure-Python build runs.
- Else it compiles the modules of :mod:`service.compiled` in place (``setup.py build_ext
  --inplace`` on every core) unless each extension was built from its module's current
  source.

An extension is imported in its source's place, so one built from an older source would
run code that is no longer there. The sources an extension set was built from are recorded
by their SHA-256 in ``build/compiled.json``; an edited source, a module without its
extension or an extension of no listed module makes the set stale, and a stale set is
removed (and rebuilt where it can be), never left to run. Removing first also means a build
never rewrites a library a running referee has mapped: it gets new files.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: the repository's packages are importable

from service import compiled  # noqa: E402

MANIFEST = Path("build") / "compiled.json"
LOG = Path("build") / "compile.log"
SUFFIX = str(sysconfig.get_config_var("EXT_SUFFIX"))


def extensions(root: Path = ROOT) -> list[Path]:
    """Every extension in the compiled folders (those of listed modules, and any other)."""
    return sorted(path for folder in compiled.FOLDERS for path in (root / folder).rglob("*.so"))


def expected(root: Path = ROOT) -> set[Path]:
    """The files a build makes for each listed module: its extension and mypyc's library."""
    files: set[Path] = set()
    for source in compiled.sources(root):
        stem = (root / source).with_suffix("")
        files |= {Path(f"{stem}{SUFFIX}"), Path(f"{stem}__mypyc{SUFFIX}")}
    return files


def digests(root: Path = ROOT) -> dict[str, str]:
    return {
        source: hashlib.sha256((root / source).read_bytes()).hexdigest()
        for source in compiled.sources(root)
    }


def stale(root: Path = ROOT) -> list[str]:
    """Why the extensions in place may not run (empty: none are there, or all are current)."""
    present = set(extensions(root))
    if not present:
        return []
    reasons = [
        f"{path.relative_to(root)} has no listed module" for path in present - expected(root)
    ]
    reasons += [f"{path.relative_to(root)} is missing" for path in expected(root) - present]
    manifest = root / MANIFEST
    built = json.loads(manifest.read_text()) if manifest.is_file() else {}
    reasons += [
        f"{source} changed since it was compiled"
        for source, digest in digests(root).items()
        if built.get(source) != digest
    ]
    return sorted(reasons)


def remove(root: Path = ROOT) -> None:
    for path in extensions(root):
        path.unlink()
    (root / MANIFEST).unlink(missing_ok=True)


def missing_compiler() -> str | None:
    """Why this machine cannot compile the extensions (None: it can)."""
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        return f"no Python headers ({headers})"
    if importlib.util.find_spec("mypyc") is None:
        return "no mypyc (the mypy package)"
    return None


def compile_all(root: Path = ROOT) -> None:
    """Build every listed module in place; ``build/compile.log`` keeps the compiler's say."""
    remove(root)
    sources = digests(root)  # before compiling: a source edited meanwhile is found stale later
    began = time.monotonic()
    _say(f"compiling {len(sources)} modules of engines/ and service/domain/ with mypyc")
    (root / LOG).parent.mkdir(exist_ok=True)
    with (root / LOG).open("w") as log:
        command = [sys.executable, "setup.py", "build_ext", "--inplace"]  # on every core
        env = {**os.environ, "REFEREE_COMPILE": "1"}
        done = subprocess.run(command, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        remove(root)
        raise SystemExit(
            f"the compiled build failed (see {LOG}); REFEREE_PURE_PYTHON=1 runs the pure one"
        )
    (root / MANIFEST).write_text(json.dumps(sources, indent=1, sort_keys=True) + "\n")
    _say(f"compiled in {time.monotonic() - began:.0f} s")


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def main(root: Path = ROOT) -> int:
    if os.environ.get("REFEREE_PURE_PYTHON") == "1":
        remove(root)
        _say("pure-Python build (REFEREE_PURE_PYTHON=1)")
        return 0
    if extensions(root) and not stale(root):
        return 0
    why = missing_compiler()
    if why is None:
        compile_all(root)
    else:
        remove(root)  # whatever is left, stale or half: the one build that runs is the pure one
        _say(f"pure-Python build: {why} to compile engines/ and service/domain/ with mypyc")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
