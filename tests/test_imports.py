"""The import graph: no cycle anywhere, and no import hidden inside a function.

An import inside a function is how a cycle hides (each module imports the other only
once the call comes), so every such import in the project's packages is refused unless
it is on :data:`ALLOWED` with its reason. The cycle check reads every import of
``engines``, ``service`` and ``referee`` (module level, inside functions, under
``TYPE_CHECKING``) and finds any cycle, also the one between a package's ``__init__`` and
its own modules, which import-linter's ``acyclic_siblings`` contract (pyproject.toml)
does not see.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Where each first-party package's source lives.
PACKAGES = {
    "engines": ROOT / "engines",
    "service": ROOT / "service",
    "referee": ROOT / "clients" / "python" / "referee",
}
GENERATED = "referee.v1"

ALLOWED: dict[tuple[str, str], str] = {
    # (module, the module it imports, or a package whose modules it imports): why.
    (
        "service.process.cli",
        "service.process.server",
    ): "each `referee` command loads only what it runs: "
    "`referee verify` needs no server stack (gRPC server, HTTP, Redis)",
    (
        "service.process.cli",
        "service.process.workers",
    ): "each `referee` command loads only what it runs: "
    "the supervisor of `referee serve --workers` loads the server stack",
    (
        "service.process.cli",
        "service.edge.verify",
    ): "each `referee` command loads only what it runs: `referee serve --help` needs no engines",
    ("service.edge.observability", "opentelemetry"): "tracing is off by default: its SDK and "
    "instrumentations load only when it is turned on",
    ("referee.bots.poker", "eval7"): "an optional dependency of the client package (the "
    "heuristic bot of The Gang only)",
}


def _modules() -> Iterator[tuple[str, Path]]:
    """Every hand-written module of the project's packages, by its dotted name."""
    for package, folder in PACKAGES.items():
        for path in sorted(folder.rglob("*.py")):
            parts = [package, *path.relative_to(folder).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join(parts)
            if name != GENERATED and not name.startswith(GENERATED + "."):
                yield name, path


MODULES = dict(_modules())
PACKAGE_NAMES = {name for name, path in MODULES.items() if path.name == "__init__.py"}


def _imported(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The modules ``node`` imports (for ``from P import n``: ``P.n`` if that is a module)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = module if module in PACKAGE_NAMES else module.rpartition(".")[0]
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        base = f"{package}.{base}" if base else package
    return [
        f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
        for alias in node.names
    ]


def _function_imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for inner in ast.walk(node):
                if isinstance(inner, ast.Import | ast.ImportFrom):
                    yield inner


def _allowed(module: str, imported: str) -> tuple[str, str] | None:
    for key in ALLOWED:
        owner, target = key
        if owner == module and (imported == target or imported.startswith(target + ".")):
            return key
    return None


def test_no_import_hides_inside_a_function() -> None:
    hidden, used = [], set()
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(), str(path))
        for node in _function_imports(tree):
            for imported in _imported(module, node):
                key = _allowed(module, imported)
                if key is None:
                    hidden.append(f"{path.relative_to(ROOT)}:{node.lineno}: imports {imported}")
                else:
                    used.add(key)
    assert not hidden, (
        "import at module level (move a shared piece where both modules can import it), "
        "or add the import to ALLOWED with its reason:\n" + "\n".join(hidden)
    )
    stale = sorted(set(ALLOWED) - used)
    assert not stale, f"ALLOWED names imports that no longer happen: remove {stale}"


def _graph() -> dict[str, set[str]]:
    """First-party module -> the first-party modules it imports, anywhere in it."""
    graph: dict[str, set[str]] = {module: set() for module in MODULES}
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                graph[module] |= {name for name in _imported(module, node) if name in MODULES}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative), plus any module importing itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = [[m] for m, targets in graph.items() if m in targets]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, targets = work[-1]
            target = next(targets, None)
            if target is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif target not in index:
                index[target] = low[target] = len(index)
                stack.append(target)
                on_stack.add(target)
                work.append((target, iter(sorted(graph[target]))))
            elif target in on_stack:
                low[node] = min(low[node], index[target])
    return found


def test_the_import_graph_has_no_cycle() -> None:
    cycles = _cycles(_graph())
    assert not cycles, "modules that import each other, directly or not: " + "; ".join(
        " <-> ".join(cycle) for cycle in cycles
    )


def test_the_cycle_check_finds_cycles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert sorted(_cycles(graph)) == [["a", "b", "c"], ["e"]]
