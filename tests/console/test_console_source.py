"""The console is a client of the generated stubs only: no hand-written protocol code."""

from __future__ import annotations

import re

from tests.console.support import ROOT

SOURCE = ROOT / "clients" / "console" / "src"
# Ways a page could reach a server other than through the generated Connect clients.
HAND_WRITTEN = re.compile(r"\bfetch\s*\(|XMLHttpRequest|WebSocket|EventSource|/referee\.v1\.")
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"']*?\bfrom\s+["']([^"']+)["']""", re.M)


def test_the_console_reaches_the_referee_only_through_the_generated_client() -> None:
    files = sorted(SOURCE.rglob("*.ts"))
    assert len(files) > 5
    for path in files:
        text = path.read_text(encoding="utf-8")
        found = HAND_WRITTEN.search(text)
        assert found is None, f"{path.relative_to(ROOT)}: {found.group(0)!r}"
        for module in IMPORT.findall(text):
            assert module.startswith(".") or module in ("@referee/client/web", "lit-html"), (
                f"{path.relative_to(ROOT)} imports {module}"
            )
