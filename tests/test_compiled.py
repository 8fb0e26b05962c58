"""The compiled build (mypyc; service/compiled.py, scripts/compiled_build.py): which build
the suite runs on, that CI's is the compiled one, that ``./dev`` never leaves a stale
extension to run, and that nothing compiled is a class mypyc would build otherwise."""

from __future__ import annotations

import ast
import json
import os
import shutil
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from scripts import compiled_build
from service import compiled
from service.process import cli

ROOT = Path(__file__).resolve().parent.parent


def test_the_listed_modules_run_all_compiled_or_all_pure() -> None:
    """CI sets REFEREE_EXPECT_COMPILED=1 (.ci/run): every listed module runs compiled. Else
    either build will do, but one build: a mix means an extension is missing. Which one
    ran is the suite's header line ``referee: compiled build (mypyc: N modules)``."""
    flags = compiled.loaded()
    if os.environ.get("REFEREE_EXPECT_COMPILED") == "1":
        assert all(flags.values()), [name for name, done in flags.items() if not done]
    assert compiled.build() in ("compiled", "pure"), flags


def test_modules_kept_pure_exist_and_a_module_kept_for_its_structs_has_one() -> None:
    """service/compiled.py's reasons stay true: a module that no longer defines a Struct
    is compiled again (drop it from PURE)."""
    for name, reason in compiled.PURE.items():
        text = (ROOT / name).read_text()
        assert name.startswith(compiled.FOLDERS), name
        if reason.startswith("defines msgspec Structs"):
            assert "(msgspec.Struct" in text, name


@pytest.mark.parametrize("source", compiled.sources(ROOT))
def test_a_compiled_module_defines_no_class_mypyc_would_build_otherwise(source: str) -> None:
    """mypyc calls the metaclass of a class it cannot compile without the class's keywords
    and with bare annotations (a Struct would lose frozen, tag, array_like and its field
    types), and cannot define a generic dataclass: such classes belong in a module of PURE."""
    for node in ast.walk(ast.parse((ROOT / source).read_text())):
        if not isinstance(node, ast.ClassDef):
            continue
        bases = [ast.unparse(base) for base in node.bases]
        decorators = [ast.unparse(decorator) for decorator in node.decorator_list]
        assert not node.keywords, f"{source}: class {node.name} has keywords"
        assert not any("Struct" in base for base in bases), f"{source}: {node.name}"
        generic = any(base.startswith("Generic") for base in bases)
        assert not (generic and any("dataclass" in d for d in decorators)), node.name


def _tree(tmp_path: Path) -> Path:
    """The compiled folders' sources in a scratch tree, each "compiled" to an empty file."""
    for folder in compiled.FOLDERS:
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("*.so"))
    for path in compiled_build.expected(tmp_path):
        path.touch()
    manifest = tmp_path / compiled_build.MANIFEST
    manifest.parent.mkdir()
    manifest.write_text(json.dumps(compiled_build.digests(tmp_path)))
    return tmp_path


def test_extensions_are_stale_once_a_source_changes_or_one_is_missing_or_unknown(
    tmp_path: Path,
) -> None:
    root = _tree(tmp_path)
    assert compiled_build.stale(root) == []
    rules = root / "engines" / "the_gang" / "rules.py"
    rules.write_text(rules.read_text() + "\n")
    assert compiled_build.stale(root) == ["engines/the_gang/rules.py changed since it was compiled"]
    extension = next(iter(compiled_build.expected(root)))
    extension.rename(root / "engines" / f"gone{compiled_build.SUFFIX}")
    assert len(compiled_build.stale(root)) == 3
    compiled_build.remove(root)
    assert compiled_build.extensions(root) == []
    assert compiled_build.stale(root) == []  # the pure build: nothing can run stale


def test_without_a_compiler_the_set_up_says_so_and_leaves_the_pure_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The set-up's fallback on a machine without a compiler: one line, and no extension
    left to run (an edited source makes the ones there stale)."""
    root = _tree(tmp_path)
    rules = root / "engines" / "the_gang" / "rules.py"
    rules.write_text(rules.read_text() + "\n")
    monkeypatch.setenv("CC", "no-such-compiler")
    monkeypatch.delenv("REFEREE_PURE_PYTHON", raising=False)
    assert compiled_build.main(root) == 0
    assert compiled_build.extensions(root) == []
    assert capsys.readouterr().err == (
        "pure-Python build: no C compiler (no-such-compiler) to compile engines/ and "
        "service/domain/ with mypyc\n"
    )


def test_referee_pure_python_removes_the_extensions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _tree(tmp_path)
    monkeypatch.setenv("REFEREE_PURE_PYTHON", "1")
    assert compiled_build.main(root) == 0
    assert compiled_build.extensions(root) == []


def test_referee_version_says_which_build_runs(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0
    assert (
        capsys.readouterr().out == f"referee {metadata.version('referee')}, {compiled.describe()}\n"
    )


def test_the_image_is_built_compiled_and_checks_it() -> None:
    """The Dockerfile's build stage compiles (mypyc, a compiler there alone) and fails unless
    the installed package runs compiled; a local build's extensions stay out of the context."""
    text = (ROOT / "Dockerfile").read_text()
    assert (
        "REFEREE_COMPILE=1 PYTHONPATH=/opt/mypyc pip install --no-deps --no-build-isolation ."
        in text
    )
    assert 'referee --version | grep "compiled build"' in text
    assert "COPY setup.py ./" in text
    stubs = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for stub in ("types-protobuf", '"grpc-stubs>=1.53"'):  # what mypy needs, as the suite has it
        assert stub in text and stub.strip('"') in stubs["test"]
    assert "**/*.so" in (ROOT / ".dockerignore").read_text().splitlines()
