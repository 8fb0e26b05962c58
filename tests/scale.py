"""How many examples the random playout and fuzz tests try: ``REFEREE_TEST_SCALE`` times CI's.

Unset (as in CI) the scale is 1, CI's sizes; ``REFEREE_TEST_SCALE=10 ./dev test`` tries ten
times the examples. A whole number from 1 up: CI's sizes are the least.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

VARIABLE = "REFEREE_TEST_SCALE"


def read_scale(environ: Mapping[str, str] = os.environ) -> int:
    """The scale the environment asks for; 1 when it asks for none."""
    raw = environ.get(VARIABLE, "").strip() or "1"
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise ValueError(f"{VARIABLE} must be a whole number from 1 up, not {raw!r}")
    return value


SCALE = read_scale()


def scaled(examples: int) -> int:
    """``examples`` (CI's size) times the scale."""
    return examples * SCALE
