"""Every `referee` verb given bad input, as its own process: the exit code of the one table
(:class:`~referee.client.exits.ExitCode`), exactly one line in words on stderr (never a
traceback) and nothing on stdout. Usage errors, no referee at the address, and against a
live referee an unknown id, a bad token, a refusal, a finished game without spectators and
no token, and a game not over yet. All the commands run at once, against one referee."""

from __future__ import annotations

import argparse
import asyncio
import socket
import sys
from dataclasses import dataclass

import grpc

from referee.bots import cli as bot_cli
from referee.v1 import game_pb2, referee_pb2, referee_pb2_grpc
from service.process import cli
from service.process.cli.common import ExitCode
from service.process.server import Running
from tests.service.players import play_to_end
from tests.service.table import Table

USAGE, UNREACHABLE, REFUSED = ExitCode.USAGE, ExitCode.UNREACHABLE, ExitCode.REFUSED
# At most this many commands at once: each is a Python start (~0.4 s of a core).
AT_ONCE = 8


@dataclass(frozen=True)
class Case:
    """A command, the exit code it must end with, and words its one line must hold."""

    args: tuple[str, ...]
    code: int
    words: str


def free_address() -> str:
    """A loopback address nobody listens on (a port the system just handed out, closed)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{probe.getsockname()[1]}"


def usage_cases(busy_port: int) -> list[Case]:
    """Bad flags and values, refused before any call (no referee needed); ``busy_port`` is
    a loopback port something listens on."""
    wanted = "the following arguments are required"
    return [
        Case(("--bogus",), USAGE, "required: COMMAND"),
        Case((), USAGE, wanted),
        Case(("serve", "--port", "x"), USAGE, "--port: not a whole number"),
        Case(("serve", "--workers", "-1"), USAGE, "--workers: -1 is below 0"),
        # serve's own code for "cannot start" (its epilog): a port something listens on.
        Case(("serve", "--workers", "1", "--port", str(busy_port)), 1, "cannot serve on"),
        Case(
            ("serve", "--workers", "1", "--port", "0", "--http-port", str(busy_port)),
            1,
            "cannot serve on",
        ),
        Case(("verify",), USAGE, "needs --game-id or --file"),
        Case(("verify", "--game-id", "g", "--wait", "-1"), USAGE, "--wait must be 0 or more"),
        Case(("verify", "--file", "/nonexistent.json"), USAGE, "cannot read /nonexistent.json"),
        Case(("game", "create", "--game", "chess", "--seats", "2"), USAGE, "invalid choice"),
        Case(("game", "create", "--game", "pinched", "--seats", "0"), USAGE, "0 is below 1"),
        Case(
            ("game", "create", "--game", "pinched", "--seats", "2", "--increment-seconds", "5"),
            USAGE,
            "--increment-seconds needs --bank-seconds",
        ),
        Case(
            ("game", "create", "--game", "pinched", "--seats", "2", "--options", "{"),
            USAGE,
            "not TableOptions as JSON",
        ),
        Case(("game", "join", "--name", "Ada"), USAGE, "needs --code or --game-id"),
        Case(("game", "start"), USAGE, f"{wanted}: --game-id"),
        Case(("game", "start", "a", "--game-id", "b"), USAGE, "two different ids"),
        Case(("game", "abort"), USAGE, f"{wanted}: --game-id"),
        Case(("game", "list", "--status", "finished"), USAGE, "invalid choice"),
        Case(
            (
                "tournament",
                "create",
                "--game",
                "pinched",
                "--seats-per-table",
                "2",
                "--participant",
                "ada:genius",
            ),
            USAGE,
            "bots: random, heuristic, search",
        ),
        Case(("tournament", "start", "a", "--tournament-id", "b"), USAGE, "two different ids"),
        Case(("tournament", "watch"), USAGE, f"{wanted}: --tournament-id"),
        Case(("tournament", "list", "--limit", "-1"), USAGE, "-1 is below 0"),
        Case(("bot", "--token", "t"), USAGE, f"{wanted}: --game-id"),
        Case(
            ("bot", "--game-id", "g", "--token", "t", "--strategy", "genius"),
            USAGE,
            "no strategy 'genius'",
        ),
    ]


def unreachable_cases(address: str) -> list[Case]:
    """Every verb that calls a referee, sent where none listens."""
    at = ("--address", address)
    words = f"no referee at {address} (is `referee serve` running?)"
    commands: list[tuple[str, ...]] = [
        ("verify", "--game-id", "g"),
        ("game", "create", "--game", "pinched", "--seats", "2"),
        ("game", "join", "--code", "c", "--name", "Ada"),
        ("game", "start", "--game-id", "g"),
        ("game", "list"),
        ("game", "abort", "g"),
        (
            "tournament",
            "create",
            "--game",
            "pinched",
            "--seats-per-table",
            "2",
            "--participant",
            "ada:random",
            "--participant",
            "bo:random",
        ),
        ("tournament", "start", "--tournament-id", "t"),
        ("tournament", "watch", "t"),
        ("tournament", "list"),
        ("bot", "--game-id", "g", "--token", "t"),
    ]
    return [Case((*command, *at), UNREACHABLE, words) for command in commands]


@dataclass(frozen=True)
class Games:
    """What the live cases name: a finished game without spectators, a running one, and a
    table started (with its admin token)."""

    finished: str
    running: str
    running_token: str
    started: str
    admin: str


class SeatedTable(Table):
    """A table played as seat 0 sees it: a table without spectators can be played too."""

    async def view(self, seat: int | None) -> game_pb2.View:
        return await super().view(0 if seat is None else seat)


async def games(address: str) -> Games:
    async with grpc.aio.insecure_channel(address) as channel:
        stub = referee_pb2_grpc.RefereeServiceStub(channel)
        finished = await SeatedTable.create(stub, 3, seed=b"errors", spectators=False)
        running = await Table.create(stub, 3, seed=b"running")
        await play_to_end(finished, 3, win=True)
        created = await stub.CreateGame(
            referee_pb2.CreateGameRequest(game="pinched", seats=2, open_seats=1)
        )
    return Games(finished.game_id, running.game_id, running.tokens[0], created.game_id,
                 created.admin_token)  # fmt: skip


def live_cases(address: str, made: Games) -> list[Case]:
    """Unknown ids, bad tokens and refusals, from a live referee."""
    at = ("--address", address)
    bad = ("--token", "v2.not-a-token")
    return [
        Case(("verify", "--game-id", "nope", *at), UNREACHABLE, "game nope not found"),
        Case(
            ("verify", "--game-id", made.finished, *at),
            UNREACHABLE,
            "this table allows no spectators: pass --token with a seat token",
        ),
        Case(("verify", "--game-id", made.finished, *bad, *at), UNREACHABLE, "token"),
        Case(
            ("verify", "--game-id", made.running, *at),
            ExitCode.NOT_FINISHED,
            "the game is not over yet (version 0)",
        ),
        Case(
            ("game", "start", "--game-id", "nope", "--token", made.admin, *at),
            UNREACHABLE,
            "game nope not found",
        ),
        Case(
            ("game", "start", "--game-id", made.started, *at),
            UNREACHABLE,
            "this needs the table's admin token",
        ),
        Case(("game", "abort", made.started, *bad, *at), UNREACHABLE, "token"),
        Case(
            ("game", "start", made.running, "--token", made.running_token, *at),
            UNREACHABLE,
            "only the admin token may do this",
        ),
        Case(
            ("game", "join", "--code", "nope", "--name", "Ada", *at),
            UNREACHABLE,
            "this join code is unknown",
        ),
        Case(("game", "list", "--page-token", "nope", *at), REFUSED, "page"),
        Case(
            ("tournament", "start", "--tournament-id", "nope", "--token", "t1.x", *at),
            UNREACHABLE,
            "tournament nope not found",
        ),
        Case(("tournament", "watch", "nope", *at), UNREACHABLE, "tournament nope not found"),
        Case(
            ("bot", "--game-id", "nope", "--token", made.running_token, *at),
            UNREACHABLE,
            "game nope not found",
        ),
        Case(("bot", "--game-id", made.running, *bad, *at), UNREACHABLE, "token"),
    ]


async def referee(args: tuple[str, ...], limit: asyncio.Semaphore) -> tuple[int, str, str]:
    """``referee ARGS...`` as a process: its exit code, stdout and stderr."""
    async with limit:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "service.process.cli", *args,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def wrong(case: Case, result: tuple[int, str, str]) -> str | None:
    """What is wrong with ``result`` for ``case``, or None."""
    code, out, err = result
    lines = err.splitlines()
    if code != case.code or out or len(lines) != 1 or "Traceback" in err:
        return f"{code}, stdout {out!r}, stderr {err!r}"
    if not lines[0].startswith("referee") or case.words not in lines[0]:
        return f"{lines[0]!r} lacks {case.words!r}"
    return None


async def test_every_verb_fails_in_one_line_of_words_with_its_exit_code(
    referee_server: Running,
) -> None:
    made = await games(referee_server.address)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        cases = [
            *usage_cases(busy.getsockname()[1]),
            *unreachable_cases(free_address()),
            *live_cases(referee_server.address, made),
        ]
        limit = asyncio.Semaphore(AT_ONCE)
        results = await asyncio.gather(*(referee(case.args, limit) for case in cases))
    problems = [
        f"referee {' '.join(case.args)}: {problem}"
        for case, result in zip(cases, results, strict=True)
        if (problem := wrong(case, result)) is not None
    ]
    assert not problems, "\n".join(problems)


def test_the_help_texts_say_what_each_flag_does_and_list_the_exit_codes() -> None:
    parsers = dict(_parsers(cli.parser()))
    parsers["bot"] = bot_cli.parser()
    for verb, parser in parsers.items():
        for action in parser._actions:
            assert action.help, f"{verb} {action.option_strings or action.dest}: no help"
    helps = {verb: " ".join(parser.format_help().split()) for verb, parser in parsers.items()}
    for verb in ("referee", "verify", "bot"):
        assert "exit codes: 0 done (verify: the game verifies)" in helps[verb], verb
    assert "gRPC" in helps["serve"] and "HTTP/JSON" in helps["serve"]
    assert "console" in helps["serve"]
    assert "added to a seat's bank after each of its own moves" in helps["game create"]
    assert "the referee's gRPC address (default 127.0.0.1:50051)" in helps["verify"]


def _parsers(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    """This parser's and every (sub)command's, by its verb ("referee", "game create")."""
    found = [(parser.prog.removeprefix("referee ") or "referee", parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found += _parsers(sub)
    return found
