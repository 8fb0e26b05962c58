"""The lines `referee serve` prints once it serves, and their one reader.

Programs that start a referee (the tests, the clients stage, benchmarks) learn its ports
from these lines, so the format is written here once: :func:`announce` prints it and
:func:`read_addresses` reads it back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

GRPC_LINE = re.compile(r"referee listening on (\S+)")
HTTP_LINE = re.compile(r"HTTP/JSON on (http://\S+)")


def announce(
    host: str,
    port: int,
    redis: str,
    http_port: int = 0,
    metrics_ports: Sequence[int] = (),
    worker_ports: Sequence[int] = (),
) -> None:
    """Print where the referee serves: gRPC first, then HTTP/JSON (if on), metrics, workers."""
    print(f"referee listening on {host}:{port} (redis: {redis})", flush=True)
    if http_port:
        print(f"HTTP/JSON on http://{host}:{http_port}", flush=True)
    for index, metrics_port in enumerate(metrics_ports):
        worker = f" (worker {index})" if len(metrics_ports) > 1 else ""
        print(f"metrics on http://{host}:{metrics_port}/metrics{worker}", flush=True)
    for index, worker_port in enumerate(worker_ports):
        print(f"worker {index} alone on {host}:{worker_port}", flush=True)


def read_addresses(lines: Iterable[str]) -> tuple[str, str]:
    """The gRPC address and HTTP/JSON base URL from a referee's output, read up to the
    HTTP line (the rest is left unread). ValueError if the output ends first."""
    grpc_address = None
    for line in lines:
        if match := GRPC_LINE.search(line):
            grpc_address = match.group(1)
        elif (match := HTTP_LINE.search(line)) and grpc_address is not None:
            return grpc_address, match.group(1)
    raise ValueError("the referee did not start (no gRPC and HTTP/JSON lines)")
