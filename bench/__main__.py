"""Every benchmark in sequence, with short durations, then one summary table.

``python -m bench [--quick]``. Each benchmark is also a module of its own with its own
options: ``python -m bench.engine``, ``python -m bench.evaluator``,
``python -m bench.the_gang_modes``, ``python -m bench.gang_of_four``,
``python -m bench.pinched``, ``python -m bench.e2e``, ``python -m bench.http_face``.
``python -m bench.console`` (the web console's calls), the load test ``python -m
bench.loadtest`` and its figures ``python -m bench.loadtest.figures``, and the hosting
figures of issue 19 (``python -m bench.play_stream``, ``bench.capacity``, ``bench.workers``,
``bench.redis_100k``; each needs a quiet machine for a minute or more) run only on their
own, as does ``python -m bench.faults`` (issue 33: moves lost or doubled while workers
and Redis are killed). So does ``python -m bench.verify_flood`` (issue 33: a victim's
p95 beside 8 MB VerifyHistory floods; ``--weights``: what real histories weigh), and
``python -m bench.peers`` (issue 29: the referee's CPU per move beside boardgame.io's and
Colyseus'; needs Node.js 20 and npm), and ``python -m bench.bots`` (issue 31: the search
bots' strength against the heuristic ones, hundreds of whole games: an hour or more).

``python -m bench NAME [options]`` (so ``./dev bench NAME …``) runs the one module
``bench.NAME`` with those options, e.g. ``./dev bench loadtest -n 200 -m 2 --seconds 60``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import re
import runpy
import sys
import time
from collections.abc import Callable, Sequence

from bench import e2e, engine, gang_of_four, http_face, pinched, the_gang_modes
from bench.common import Row, machine, print_table

EVALUATOR_ROW = re.compile(r"^(\S.*?)\s{2,}([\d,]+) /s$")


def evaluator_rows(argv: list[str]) -> list[Row]:
    """Run ``bench.evaluator`` (it prints, returns nothing) and read its rows back."""
    from bench import evaluator

    captured = io.StringIO()
    with contextlib.redirect_stdout(captured):
        evaluator.main(argv)
    text = captured.getvalue()
    print(text, end="")
    rows = []
    for line in text.splitlines():
        match = EVALUATOR_ROW.match(line)
        if match:
            name, rate = match.groups()
            rows.append(
                Row("evaluator", " ".join(name.split()), float(rate.replace(",", "")), "evals/s")
            )
        elif line.startswith("summary:") and "goal" in line:
            goal = line.rsplit("goal", 1)[1].strip()
            rows.append(Row("evaluator", "goal " + goal.split(":")[0], goal.split(":")[-1].strip()))
    return rows


def run_one(name: str, argv: Sequence[str]) -> None:
    """``python -m bench.NAME *argv``, in this process (the module exits as it would alone)."""
    module = f"bench.{name}"
    try:
        spec = importlib.util.find_spec(module)
    except ModuleNotFoundError:  # a dotted name whose parent is not a package
        spec = None
    if spec is None:
        sys.exit(f"python -m bench: no benchmark {module} (see python -m bench --help)")
    sys.argv = [module, *argv]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


def main(argv: Sequence[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and not argv[0].startswith("-"):
        run_one(argv[0], argv[1:])
        return
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description=__doc__.splitlines()[0] if __doc__ else None,
        epilog="python -m bench NAME [options] runs bench.NAME alone (e.g. loadtest, e2e).",
    )
    parser.add_argument("--quick", action="store_true", help="even shorter runs (smoke test)")
    args = parser.parse_args(argv)
    scale = 0.25 if args.quick else 1.0
    runs: list[tuple[str, Callable[[], list[Row]]]] = [
        ("engine", lambda: engine.main(["--seconds", f"{0.5 * scale:g}"])),
        (
            "evaluator",
            lambda: evaluator_rows(["--seconds", f"{0.5 * scale:g}", "--hands", "20000"]),
        ),
        ("the_gang_modes", lambda: the_gang_modes.main(["--seconds", f"{2 * scale:g}"])),
        ("gang_of_four", lambda: gang_of_four.main(["--seconds", f"{2 * scale:g}"])),
        ("pinched", lambda: pinched.main(["--seconds", f"{0.5 * scale:g}"])),
        ("e2e", lambda: e2e.main(["--seconds", f"{10 * scale:g}", "--warmup", "1"])),
        ("http_face", lambda: http_face.main(["--seconds", f"{3 * scale:g}"])),
    ]
    rows: list[Row] = []
    started = time.perf_counter()
    for name, run in runs:
        print(f"\n=== {name} " + "=" * (70 - len(name)), flush=True)
        began = time.perf_counter()
        try:
            rows += run()
        except Exception as error:  # one broken benchmark must not hide the others
            print(f"{name} failed: {type(error).__name__}: {error}", file=sys.stderr)
            rows.append(Row(name, "FAILED", f"{type(error).__name__}: {error}"))
        print(f"({name}: {time.perf_counter() - began:.0f}s)", flush=True)
    print(f"\n=== summary ({time.perf_counter() - started:.0f}s; {machine()})")
    print_table(
        ["bench", "figure", "value", "unit"],
        [[row.bench, row.metric, row.formatted(), row.unit] for row in rows],
        left=2,
    )


if __name__ == "__main__":
    main()
