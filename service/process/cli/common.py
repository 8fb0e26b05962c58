"""What the `referee` commands share: the connection flags, the operator key and tokens
from flags or the environment, one JSON document per answer, ids given as ``--game-id``
(or, as before, positionally), and a failure told in one line on stderr with its exit code
(:class:`~referee.client.exits.ExitCode`, defined once for every verb, the bot's included)."""

from __future__ import annotations

import argparse
import functools
import json
import os
from collections.abc import Callable, Sequence
from typing import Any

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message
from rich.console import Console

from referee.client.calls import auth_metadata
from referee.client.errors import from_rpc_error
from referee.client.exits import EXIT_CODES_HELP, Asked, ExitCode, Parser, fail
from referee.v1 import game_pb2, tournament_pb2

BOT_STRATEGIES = {
    name.removeprefix("BOT_STRATEGY_").lower(): number
    for name, number in tournament_pb2.BotStrategy.items()
    if number
}
"""The bots by the names the commands take ("random", "heuristic", "search"), from the
contract's ``BotStrategy``."""

__all__ = ["EXIT_CODES_HELP", "Asked", "ExitCode", "Parser", "UsageError", "fail"]


class UsageError(Exception):
    """A value the command checks itself is wrong: told in one line, exit code 2."""


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
    parser.add_argument(
        "--address",
        default=default_address,
        help="the referee's gRPC address (default %(default)s)",
    )
    parser.add_argument("--key", help="operator key (x-referee-key; default $REFEREE_KEY)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least ``minimum`` (else a usage error)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"{value} is below {minimum}")
        return value

    return parse


def options_json(text: str) -> game_pb2.TableOptions:
    """An argparse type: ``--options``, TableOptions as JSON (else a usage error)."""
    try:
        return json_format.Parse(text, game_pb2.TableOptions())
    except json_format.ParseError as error:
        raise argparse.ArgumentTypeError(f"not TableOptions as JSON: {error}") from None


class _SameId(argparse.Action):
    """``--game-id ID`` and the positional ``ID`` store one id: given both, they must agree."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        if values is None:  # the positional left out: argparse still calls its action
            return
        given = getattr(namespace, self.dest, None)
        if given is not None and given != values:
            raise argparse.ArgumentError(
                self, f"two different ids given: {given!r} and {values!r}; give one"
            )
        setattr(namespace, self.dest, values)


def id_flags(parser: argparse.ArgumentParser, what: str, text: str) -> None:
    """``--WHAT-id ID`` (required) and the older positional form of the same id."""
    dest, flag = f"{what}_id", f"--{what}-id"
    parser.add_argument(flag, dest=dest, action=_SameId, metavar="ID", help=text)
    parser.add_argument(
        dest, nargs="?", action=_SameId, metavar=dest.upper(), help=f"the same as {flag}"
    )
    parser.set_defaults(check=functools.partial(_require, parser, dest, flag))


def _require(
    parser: argparse.ArgumentParser, dest: str, flag: str, args: argparse.Namespace
) -> None:
    if getattr(args, dest) is None:
        parser.error(f"the following arguments are required: {flag}")


def check(args: argparse.Namespace) -> None:
    """The checks a command's parser left for after parsing (``check`` in its defaults:
    what argparse cannot say alone, such as an id given one way or the other); each is a
    usage error (exit 2) through that parser."""
    checked: Callable[[argparse.Namespace], None] | None = getattr(args, "check", None)
    if checked is not None:
        checked(args)


def run_on_channel(
    args: argparse.Namespace, asked: Asked, command: Callable[[grpc.Channel, Console], None]
) -> int:
    """Run ``command`` on a channel to ``--address``; its exit code (a refusal told on
    stderr in one line, as ``asked`` puts it)."""
    out = Console(soft_wrap=True)
    try:
        with grpc.insecure_channel(args.address) as channel:
            command(channel, out)
    except grpc.RpcError as error:
        return fail(from_rpc_error(error), asked)
    return ExitCode.OK
