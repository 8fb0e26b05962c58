"""The release version: one place (pyproject.toml's ``version``), copied to every package.

    python scripts/set_version.py            # print it, and every place that states it
    python scripts/set_version.py 0.4.0      # set it everywhere (docs/releasing.md)

The referee (``pyproject.toml``) carries the version; the clients that are published as
packages of their own state it again because their package managers read it from their own
manifest: the Python client (``clients/python/pyproject.toml``), the TypeScript client
(``package.json`` and its lock file; the console's, which the referee serves, follow) and
the C# client (``RefereeClient.Version``, sent as its
User-Agent). Go has no version in a file (a module's version is its git tag,
``clients/go/vX.Y.Z``); the Java and C++ stubs are folders to build from. A test
(tests/test_versions.py) fails when any place disagrees with pyproject.toml.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SEMVER = re.compile(r"\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?")
PYPROJECT_VERSION = re.compile(r'^version = "([^"]+)"$', re.MULTILINE)
CSHARP_VERSION = re.compile(r'public const string Version = "([^"]+)";')


@dataclass(frozen=True)
class Place:
    """A file that states the version: how to read it there and how to write it."""

    path: Path
    read: Callable[[str], str]
    write: Callable[[str, str], str]


def _regex_place(path: str, pattern: re.Pattern[str]) -> Place:
    def found(text: str) -> re.Match[str]:
        match = pattern.search(text)
        if match is None:
            raise SystemExit(f"{path}: no version found ({pattern.pattern})")
        return match

    def read(text: str) -> str:
        return found(text).group(1)

    def write(text: str, version: str) -> str:
        start, end = found(text).span(1)
        return text[:start] + version + text[end:]

    return Place(ROOT / path, read, write)


def _json_place(path: str, *keys: tuple[str, ...]) -> Place:
    """An npm manifest or lock file, stating the version at each of ``keys`` (paths)."""

    def at(document: Any, key: tuple[str, ...]) -> Any:
        for name in key:
            document = document[name]
        return document

    def read(text: str) -> str:
        document = json.loads(text)
        found = {str(at(document, key)["version"]) for key in keys}
        if len(found) != 1:
            raise SystemExit(f"{path}: versions disagree ({', '.join(sorted(found))})")
        return found.pop()

    def write(text: str, version: str) -> str:
        document = json.loads(text)
        for key in keys:
            at(document, key)["version"] = version
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"

    return Place(ROOT / path, read, write)


SOURCE = _regex_place("pyproject.toml", PYPROJECT_VERSION)
PLACES = (
    SOURCE,
    _regex_place("clients/python/pyproject.toml", PYPROJECT_VERSION),
    _json_place("clients/typescript/package.json", ()),
    _json_place("clients/typescript/package-lock.json", (), ("packages", "")),
    # The console is served by the referee (never published), built on the client above.
    _json_place("clients/console/package.json", ()),
    _json_place(
        "clients/console/package-lock.json", (), ("packages", ""), ("packages", "../typescript")
    ),
    _regex_place("clients/csharp/src/RefereeClient.cs", CSHARP_VERSION),
)


def release_version() -> str:
    """The version, as pyproject.toml states it."""
    return SOURCE.read(SOURCE.path.read_text())


def stated_versions() -> dict[Path, str]:
    """What every place states now (the test compares them to :func:`release_version`)."""
    return {place.path: place.read(place.path.read_text()) for place in PLACES}


def set_version(version: str) -> None:
    if not SEMVER.fullmatch(version):
        raise SystemExit(f"{version!r} is not a version like 1.2.3 or 1.2.3-rc.1")
    # Every place is read (and checked) before any is written: a missing file changes nothing.
    texts = [(place, place.path.read_text()) for place in PLACES]
    for place, text in texts:
        place.read(text)
    for place, text in texts:
        place.path.write_text(place.write(text, version))


def main() -> None:
    if len(sys.argv) > 2:
        raise SystemExit("usage: python scripts/set_version.py [VERSION]")
    if len(sys.argv) == 2:
        set_version(sys.argv[1])
    for path, version in stated_versions().items():
        print(f"{version}  {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
