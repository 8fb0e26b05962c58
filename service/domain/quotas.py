"""Quotas and operator keys as configuration: what each caller may use, read from text.

A :class:`Quotas` names six limits (0: unlimited). Settings hold three of them (anonymous
callers by address, anonymous callers from a loopback address, and the default of every
operator key), each read from a line of ``name=value`` pairs::

    creates_per_minute=30 live_games=100 requests_per_second=50

Operator keys come one per line (from a file, or inline with ``;`` between keys)::

    # name     secret                             quotas over REFEREE_KEY_QUOTAS
    studio-a   5f0c6b1f0d7e4c1b9a3e8f2d6c4b2a19   live_games=20000 watch_streams=50000

Nothing here logs or shows a secret: :class:`OperatorKey` keeps it out of its ``repr``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

# An operator key needs this many bytes, so a short guessable one cannot be configured.
MIN_KEY_BYTES: Final = 16
_NAME = re.compile(r"[A-Za-z0-9_.-]{1,64}")


@dataclass(frozen=True)
class Quotas:
    """What one caller (a key, or an address) may hold and do; 0 is unlimited."""

    # CreateGame and CreateTournament calls admitted per minute (a fixed window).
    creates_per_minute: int = 0
    # Games created and not yet finished (nor expired).
    live_games: int = 0
    # Tournaments created and not yet finished (nor expired).
    live_tournaments: int = 0
    # Bot participants over the caller's live tournaments.
    live_bots: int = 0
    # WatchGame, WatchTournament and Play streams open at once.
    watch_streams: int = 0
    # Calls per second to this referee process (token bucket, bursts of twice that).
    requests_per_second: int = 0

    def replaced(self, pairs: Mapping[str, int]) -> Quotas:
        return dataclasses.replace(self, **pairs)

    def text(self) -> str:
        """These quotas in the form :func:`parse_quotas` reads."""
        return " ".join(f"{f.name}={getattr(self, f.name)}" for f in dataclasses.fields(self))


QUOTA_NAMES: Final = frozenset(f.name for f in dataclasses.fields(Quotas))


def quota_pairs(words: list[str]) -> dict[str, int]:
    """``name=value`` words as a mapping; unknown names and negative values are errors."""
    pairs: dict[str, int] = {}
    for word in words:
        name, sep, value = word.partition("=")
        if not sep or name not in QUOTA_NAMES:
            raise ValueError(f"not a quota: {word!r} (known: {', '.join(sorted(QUOTA_NAMES))})")
        number = int(value)
        if number < 0:
            raise ValueError(f"quota {name} must be >= 0 (0: unlimited)")
        pairs[name] = number
    return pairs


def parse_quotas(text: str, base: Quotas) -> Quotas:
    """``base`` with the ``name=value`` pairs of ``text`` (spaces or commas between them)."""
    return base.replaced(quota_pairs(text.replace(",", " ").split()))


@dataclass(frozen=True)
class OperatorKey:
    """A key that may create games and tournaments, under its own name and quotas."""

    name: str
    secret: bytes = field(repr=False)
    quotas: Quotas


def parse_keys(text: str, base: Quotas, where: str = "REFEREE_OPERATOR_KEYS") -> list[OperatorKey]:
    """The keys of ``text``: one per line (or per ``;``), ``name secret [quota=value ...]``,
    ``#`` starting a comment. Each key's quotas are ``base`` with its own pairs."""
    keys: list[OperatorKey] = []
    for number, line in enumerate(re.split(r"[;\n]", text), start=1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if len(words) < 2 or not _NAME.fullmatch(words[0]):
            raise ValueError(f"{where}, key {number}: expected 'name secret [quota=value ...]'")
        name, secret = words[0], words[1].encode()
        if len(secret) < MIN_KEY_BYTES:
            raise ValueError(f"{where}, key {name!r}: a key has at least {MIN_KEY_BYTES} bytes")
        keys.append(OperatorKey(name, secret, parse_quotas(" ".join(words[2:]), base)))
    names = [key.name for key in keys]
    if len(set(names)) != len(names):
        raise ValueError(f"{where}: each key needs its own name")
    if len({key.secret for key in keys}) != len(keys):
        raise ValueError(f"{where}: two keys have the same secret")
    return keys


def load_keys(inline: str, file: Path | None, base: Quotas) -> list[OperatorKey]:
    """The keys given inline and in ``file`` (None: no file), together."""
    keys = parse_keys(inline, base)
    if file is not None:
        keys += parse_keys(file.read_text(encoding="utf-8"), base, str(file))
    if len({key.name for key in keys}) != len(keys):
        raise ValueError("an operator key name is both inline and in the file")
    return keys
