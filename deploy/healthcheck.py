#!/usr/bin/env python3
"""Container health check: exit 0 when the referee's gRPC health service says SERVING.

Installed in the image as ``referee-healthcheck`` (the Dockerfile's HEALTHCHECK and the
compose file use it). It asks the standard ``grpc.health.v1.Health/Check`` on
``127.0.0.1:$REFEREE_PORT`` (50051 unless set); an argument overrides the address. The
referee answers SERVING once it listens and NOT_SERVING from the moment it starts a
graceful shutdown, so a stopping replica is reported unhealthy before it goes away.

Usage: referee-healthcheck [ADDRESS] [--service NAME] [--timeout SECONDS]
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="gRPC health check of the referee")
    parser.add_argument(
        "address",
        nargs="?",
        default=f"127.0.0.1:{os.environ.get('REFEREE_PORT', '50051')}",
        help="host:port of the referee (default 127.0.0.1:$REFEREE_PORT)",
    )
    parser.add_argument("--service", default="", help='health service name ("" = the whole server)')
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds")
    args = parser.parse_args(argv)
    request = health_pb2.HealthCheckRequest(service=args.service)
    try:
        with grpc.insecure_channel(args.address) as channel:
            reply = health_pb2_grpc.HealthStub(channel).Check(request, timeout=args.timeout)
    except grpc.RpcError as error:
        code = error.code() if isinstance(error, grpc.Call) else None
        print(f"{args.address}: health check failed: {code}", file=sys.stderr)
        return 1
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(reply.status)
    if reply.status != health_pb2.HealthCheckResponse.SERVING:
        print(f"{args.address}: {status}", file=sys.stderr)
        return 1
    print(f"{args.address}: {status}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
