"""The abuse suite's figures as the markdown table of docs/security.md.

    REFEREE_ABUSE_FIGURES=/tmp/abuse.jsonl ./dev test tests/abuse -p no:randomly
    .venv/bin/python scripts/abuse_figures.py /tmp/abuse.jsonl

Each line of the file is one attack's row, written by ``tests.abuse.harness.check_unhurt``:
the victim's GetView and SubmitMove p50/p99 before and during the attack, and what the
attackers saw (attempts, refusals by reason).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HEADER = (
    "| attack | attempts | refusals | GetView p50/p99 before → during (ms) "
    "| SubmitMove p50/p99 before → during (ms) |\n|---|---|---|---|---|"
)


def _pair(figures: dict[str, float], name: str) -> str:
    return f"{figures[f'{name}_p50']:.1f}/{figures[f'{name}_p99']:.1f}"


def row(figures: dict[str, Any]) -> str:
    before, during = figures["before"], figures["during"]
    refusals = ", ".join(f"{reason} {count}" for reason, count in figures["refusals"].items())
    return (
        f"| {figures['attack']} | {figures['attempts']} | {refusals} "
        f"| {_pair(before, 'get_view')} → {_pair(during, 'get_view')} "
        f"| {_pair(before, 'submit_move')} → {_pair(during, 'submit_move')} |"
    )


def main(path: str) -> None:
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    print(HEADER)
    for line in lines:
        print(row(json.loads(line)))


if __name__ == "__main__":
    main(sys.argv[1])
