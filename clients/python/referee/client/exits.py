"""How a command-line program on the client fails: the exit codes of every ``referee``
verb (:class:`ExitCode`) and one line in words for each refusal of the referee
(:func:`failure`).

The bot verb (``referee.bots.cli``) and the service's own commands
(``service.process.cli``) share it. It lives in the client package because the service's
commands may import the client package but never the other way round.
"""

from __future__ import annotations

import argparse
import enum
import sys
from dataclasses import dataclass
from typing import NoReturn

import grpc

from referee.client.errors import RefereeError


class ExitCode(enum.IntEnum):
    """The exit codes of every ``referee`` verb."""

    OK = 0  # done; for verify: the game verifies
    NOT_VERIFIED = 1  # verify only: the game does not replay as recorded
    USAGE = 2  # argparse's own code, and bad values the command checks itself
    NOT_FINISHED = 3  # verify only: the game is still running
    UNREACHABLE = 4  # no referee at the address, or not allowed, or no such game/tournament
    REFUSED = 5  # the referee answered and said no (e.g. start a table already started)


EXIT_CODES_HELP = (
    "exit codes: 0 done (verify: the game verifies); 1 the game does not verify; "
    "2 usage (a bad flag or value); 3 the game is not finished (verify); "
    "4 cannot reach the referee or not allowed (no referee at the address, a bad token or "
    "key, an unknown game or tournament id); 5 refused (the referee answered no, e.g. the "
    "table has already started). Every failure is one line on stderr."
)

# A status with one of these codes means the command could not get at what it named:
# the referee is unreachable, or the caller may not (or cannot) see the thing.
UNREACHABLE_CODES = frozenset(
    {
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.UNAUTHENTICATED,
        grpc.StatusCode.PERMISSION_DENIED,
        grpc.StatusCode.NOT_FOUND,
    }
)

# The referee's reasons (ErrorInfo) that read better in the command's own words, with what
# to do; every other refusal is told in the referee's message.
REASONS = {
    "GAME_NOT_FOUND": "{subject} not found (never created, or expired)",
    "TOURNAMENT_NOT_FOUND": "{subject} not found (never created, or expired)",
    "JOIN_CODE_INVALID": "this join code is unknown, expired or spent (the table started)",
    "TOKEN_MISSING": "{no_token}",
    "TOKEN_MALFORMED": "--token is not a token this referee issued; check it",
    "TOKEN_INVALID": "the referee does not accept this token; check --token",
    "TOKEN_REVOKED": "this token was reissued, or its seat was left or handed over: "
    "ask the table's admin for a new one",
    "TOKEN_FOR_OTHER_GAME": "this token is for another game; check --token and the game id",
    "ADMIN_TOKEN_REQUIRED": "only the admin token may do this: pass --token with it",
    "OPERATOR_KEY_INVALID": "the operator key is not valid: check --key or $REFEREE_KEY",
}


class Parser(argparse.ArgumentParser):
    """An argument parser whose usage error is one line on stderr (no usage block), exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(ExitCode.USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


@dataclass(frozen=True)
class Asked:
    """What a command asked of which referee, to tell its failure in words."""

    command: str  # "referee verify"
    address: str
    subject: str = "it"  # what the command names: "game 123", "tournament abc"
    no_token: str = "the referee wants a token for this: pass --token"


def failure(error: RefereeError, asked: Asked) -> tuple[ExitCode, str]:
    """The exit code and the one line (``referee VERB: ...``) for a failed call."""
    code = ExitCode.UNREACHABLE if error.code in UNREACHABLE_CODES else ExitCode.REFUSED
    return code, f"{asked.command}: {_words(error, asked)}"


def _words(error: RefereeError, asked: Asked) -> str:
    message = " ".join(error.message.split())  # one line, whatever the referee sent
    if error.reason == error.code.name:  # no ErrorInfo: the transport's own status
        if error.code is grpc.StatusCode.UNAVAILABLE:
            return f"no referee at {asked.address} (is `referee serve` running?)"
        if error.code is grpc.StatusCode.DEADLINE_EXCEEDED:
            return f"no answer from the referee at {asked.address} in time; try again"
        return f"the call to {asked.address} failed ({error.code.name}): {message}"
    template = REASONS.get(error.reason)
    if template is not None:
        return template.format(subject=asked.subject, no_token=asked.no_token)
    if error.code is grpc.StatusCode.UNAVAILABLE:
        return f"the referee at {asked.address} cannot serve this now: {message}"
    return message


def fail(error: RefereeError, asked: Asked) -> ExitCode:
    """Tell ``error`` on stderr in one line; its exit code."""
    code, line = failure(error, asked)
    print(line, file=sys.stderr)
    return code
