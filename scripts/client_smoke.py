"""The clients stage: build each non-Python client and play it against a live referee.

    python scripts/client_smoke.py [--only go,cpp,java,csharp] [--jobs N]

Starts one ``referee serve`` (one worker, free ports on 127.0.0.1, its own embedded Redis in
a temporary folder), then runs ``clients/<language>/smoke.sh BUILD_DIR GRPC_ADDRESS HTTP_URL``
for Go, C++, Java and C#, ``--jobs`` at a time (default 2, the cores CI has). Each script
builds its client from the committed sources with Debian's toolchain into ``BUILD_DIR``
(``build/clients/<language>``, kept between runs, so a second run only relinks) and plays
the same script: create a Gang of Four table, take the seat that acts, list its legal moves,
follow the watch stream, submit one move, see its update arrive on the stream, and read the
typed refusal (status code and ``ErrorInfo`` reason) of an illegal move. The stage fails
unless every script exits 0; each one's time and output are printed. ``./dev test`` runs it
after the suite, and ``.ci/run`` through that; its time is counted apart from the suite's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script: the repository's packages are importable

from service.process.announce import read_addresses  # noqa: E402

LANGUAGES = ("go", "cpp", "java", "csharp")
# A stage that hangs must not hold CI: each script gets this long, building included.
SCRIPT_SECONDS = 240.0


@dataclass(frozen=True)
class Result:
    language: str
    returncode: int
    seconds: float
    output: str


@contextmanager
def referee() -> Iterator[tuple[str, str]]:
    """A ``referee serve`` process; yields its gRPC address and HTTP base URL."""
    with tempfile.TemporaryDirectory(prefix="referee-smoke-") as data:
        env = {
            **os.environ,
            "REFEREE_PORT": "0",
            "REFEREE_HTTP_PORT": "0",
            "REFEREE_WORKERS": "1",
            "REFEREE_DATA_DIR": data,
            "REFEREE_LOG_LEVEL": "warning",
        }
        env.pop("REDIS_URL", None)
        process = subprocess.Popen(
            [sys.executable, "-m", "service.process.cli", "serve"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            yield _addresses(process)
        finally:
            process.terminate()
            process.wait(30)


def _addresses(process: subprocess.Popen[str]) -> tuple[str, str]:
    assert process.stdout is not None
    try:
        addresses = read_addresses(process.stdout)
    except ValueError as error:
        raise SystemExit(str(error)) from None
    threading.Thread(target=process.stdout.read, daemon=True).start()
    return addresses


def play(language: str, grpc_address: str, http_url: str) -> Result:
    """Build and run one language's smoke program; never raises."""
    build = ROOT / "build" / "clients" / language
    build.mkdir(parents=True, exist_ok=True)
    script = ROOT / "clients" / language / "smoke.sh"
    started = time.monotonic()
    try:
        done = subprocess.run(
            ["bash", str(script), str(build), grpc_address, http_url],
            cwd=script.parent,
            capture_output=True,
            text=True,
            timeout=SCRIPT_SECONDS,
        )
        code, output = done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired as expired:
        partial = expired.stdout.decode() if isinstance(expired.stdout, bytes) else expired.stdout
        code, output = 124, f"timed out after {SCRIPT_SECONDS:.0f} s\n{partial or ''}"
    return Result(language, code, time.monotonic() - started, output)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", default=",".join(LANGUAGES))
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    languages = [name for name in args.only.split(",") if name]
    unknown = sorted(set(languages) - set(LANGUAGES))
    if unknown:
        raise SystemExit(f"unknown language(s): {', '.join(unknown)}")
    started = time.monotonic()
    with referee() as (grpc_address, http_url), ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda name: play(name, grpc_address, http_url), languages))
    for result in results:
        verdict = "ok" if result.returncode == 0 else f"FAILED (exit {result.returncode})"
        print(f"--- {result.language}: {verdict} in {result.seconds:.1f} s")
        print(result.output.rstrip())
    print(f"clients stage: {len(results)} clients in {time.monotonic() - started:.1f} s")
    if any(result.returncode != 0 for result in results):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
