"""What the `referee tournament` and `referee game` commands share: the connection flags,
the operator key and tokens from flags or the environment, one JSON document per answer,
and a refused call told on stderr with exit code 1."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message
from rich.console import Console

from referee.client.calls import auth_metadata
from referee.client.errors import from_rpc_error


def print_json(message: Message) -> None:
    """One JSON document on a line of its own: the message, with the .proto's field names."""
    print(json.dumps(json_format.MessageToDict(message, preserving_proto_field_name=True)))


def metadata(args: argparse.Namespace, token: str | None = None) -> tuple[tuple[str, str], ...]:
    """The call's metadata: ``token`` as the bearer, the operator key from ``--key`` or
    ``REFEREE_KEY``."""
    return auth_metadata(token, args.key or os.environ.get("REFEREE_KEY") or None)


def admin_token(args: argparse.Namespace) -> str | None:
    """``--token``, else ``REFEREE_ADMIN_TOKEN``."""
    token: str | None = args.token or os.environ.get("REFEREE_ADMIN_TOKEN")
    return token


def common_flags(parser: argparse.ArgumentParser, default_address: str) -> None:
    parser.add_argument("--address", default=default_address, help="the referee's gRPC address")
    parser.add_argument("--key", help="operator key (x-referee-key; default $REFEREE_KEY)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def run_on_channel(
    args: argparse.Namespace, command: Callable[[grpc.Channel, Console], None]
) -> int:
    """Run ``command`` on a channel to ``--address``; 0, or 1 when the referee refused."""
    out = Console(soft_wrap=True)
    try:
        with grpc.insecure_channel(args.address) as channel:
            command(channel, out)
    except grpc.RpcError as error:
        refused = from_rpc_error(error)
        print(f"error: {refused.code.name} {refused.reason}: {refused.message}", file=sys.stderr)
        return 1
    return 0
