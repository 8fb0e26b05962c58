"""The compiled build: which modules mypyc compiles, and which build a process has loaded.

Every module of ``engines/`` and ``service/domain/`` (pure, strictly typed, and where the
referee spends its time deciding moves) is compiled to a C extension by mypyc, except those
of :data:`PURE`, which stay Python for the reason given there, and the packages'
``__init__.py`` files, which only gather their package's names. An extension sits beside its
``.py`` (``rules.cpython-311-x86_64-linux-gnu.so`` and the ``rules__mypyc`` library it
loads) and Python imports it in the source's place; without it the same source runs as
Python. ``./dev`` builds them when it finds a C compiler (scripts/compiled_build.py), the
container image always; docs/hosting.md says how and how to tell which build runs.

setup.py runs this file by its path: it imports nothing but the standard library.
"""

from __future__ import annotations

import importlib
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

FOLDERS = ("engines", "service/domain")
"""The folders whose modules are compiled (all of them but :data:`PURE` and packages)."""

_STRUCTS = (
    "defines msgspec Structs: mypyc creates a class it cannot compile by calling its "
    "metaclass without the class's keywords (frozen, tag, array_like, order, gc) and with "
    "its annotations stripped of their arguments, and msgspec builds, encodes and decodes a "
    "Struct from exactly those"
)

PURE: dict[str, str] = {
    "engines/base.py": _STRUCTS + " (Outcome); and GameDefinition and Step are generic "
    "dataclasses, which a compiled module cannot define (mypyc/mypyc#827)",
    "engines/cards.py": _STRUCTS,
    "engines/rng.py": _STRUCTS,
    "engines/poker/hands.py": "HandValue is a dataclass that msgspec encodes and decodes by "
    "its annotations and that pickles: mypyc's native dataclass keeps neither",
    "engines/the_gang/events.py": _STRUCTS,
    "engines/the_gang/model.py": _STRUCTS,
    "engines/the_gang/moves.py": _STRUCTS,
    "engines/the_gang/seen.py": _STRUCTS,
    "engines/gang_of_four/cards.py": _STRUCTS,
    "engines/gang_of_four/events.py": _STRUCTS,
    "engines/gang_of_four/kinds.py": _STRUCTS,
    "engines/gang_of_four/model.py": _STRUCTS,
    "engines/gang_of_four/moves.py": _STRUCTS,
    "engines/gang_of_four/seen.py": _STRUCTS,
    "engines/pinched/components.py": _STRUCTS,
    "engines/pinched/events.py": _STRUCTS,
    "engines/pinched/model.py": _STRUCTS,
    "engines/pinched/moves.py": _STRUCTS,
    "engines/pinched/setup.py": _STRUCTS,
    "engines/pinched/seen.py": _STRUCTS,
    "service/domain/clocks.py": _STRUCTS,
    "service/domain/records.py": _STRUCTS,
    "service/domain/quotas.py": "Quotas, a frozen dataclass, goes pickled to the workers of "
    "referee serve --workers in their Settings, and a frozen dataclass mypyc compiled does "
    "not unpickle (mypyc/mypyc#1213)",
}
"""The modules of :data:`FOLDERS` that stay Python, and why. (A package's ``__init__.py``
stays Python too: a compiled module's extension loads its library by importing it from
its package, which a compiled ``__init__`` would be in the middle of creating.)"""

ROOT = Path(__file__).resolve().parents[1]
"""Where ``engines/`` and ``service/`` are: the checkout, or site-packages."""


def sources(root: Path = ROOT) -> list[str]:
    """The source files mypyc compiles, relative to ``root`` (``engines/the_gang/rules.py``)."""
    found: list[str] = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            name = path.relative_to(root).as_posix()
            if path.name != "__init__.py" and name not in PURE:
                found.append(name)
    return found


def modules(root: Path = ROOT) -> list[str]:
    """The names of the modules mypyc compiles (``engines.the_gang.rules``)."""
    return [name.removesuffix(".py").replace("/", ".") for name in sources(root)]


def loaded() -> dict[str, bool]:
    """Each compiled module's name, and whether this process runs it compiled (imports it)."""
    return {name: _is_extension(importlib.import_module(name).__file__) for name in modules()}


def _is_extension(file: str | None) -> bool:
    return file is not None and file.endswith(tuple(EXTENSION_SUFFIXES))


def build() -> str:
    """``"compiled"`` when every module of :func:`modules` runs compiled, ``"pure"`` when none
    does (the pure-Python build), else ``"mixed"`` (a broken build: ``./dev`` rebuilds it)."""
    compiled = loaded().values()
    if all(compiled):
        return "compiled"
    return "mixed" if any(compiled) else "pure"


def describe() -> str:
    """One line for ``referee --version``: which build runs, and of how many modules."""
    flags = loaded()
    done = sum(flags.values())
    if done == len(flags):
        return f"compiled build (mypyc: {done} modules)"
    if done == 0:
        return "pure-Python build"
    return f"mixed build: {done} of {len(flags)} modules compiled"
