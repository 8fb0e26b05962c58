"""eval7's compiled evaluator, called on a card mask.

eval7 (Cython) evaluates 5 to 7 cards; its algorithm (Keith Rule's port of pokersource)
works on rank masks and duplicate counts and is exact for 8 cards as well, which the tests
check against phevaluator. Its Python entry point ``eval7.evaluate(cards)`` wants a list
of ``eval7.Card`` objects and ORs their ``.mask`` attributes into one integer for the C
function ``cy_evaluate(mask, count)``, which eval7 exports in its Cython C-API table
(``__pyx_capi__``, the table ``cimport`` uses). We call that function through ctypes on
the mask directly: about 15% faster than ``eval7.evaluate`` on ready-made lists, and a hand
is then a plain int, so hole and board combine with one OR and one ``bit_count`` checks
for 5 to 8 distinct cards (eval7 itself checks nothing).

If the table is missing, has another signature, or disagrees with ``eval7.evaluate`` on
a few known hands (a different eval7 build), :data:`native_strength` falls back to the
public ``eval7.evaluate`` on cards rebuilt from the mask: same values, slower.
"""

from __future__ import annotations

import ctypes
import importlib
from collections.abc import Callable

import eval7

from engines.cards import cards
from engines.poker.tables import CARD_AT_BIT, CARD_BITS

_SIGNATURE = b"unsigned int (unsigned PY_LONG_LONG, unsigned int)"

_EVAL7_AT_BIT: tuple[eval7.Card, ...] = tuple(eval7.Card(str(card)) for card in CARD_AT_BIT)

# Our own prototypes, so the process-wide ctypes.pythonapi functions are left as they are.
_capsule_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.py_object, ctypes.c_char_p)(
    ("PyCapsule_IsValid", ctypes.pythonapi)
)
_capsule_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi)
)

_CHECK_HANDS = (
    "As Ks Qs Js Ts 2c 3d",
    "Ah 2d 3c 4h 5s 9c Jd",
    "7c 7d 7h 2s 2c Kd 4h",
    "9h 9d 4c 4s 2h 2d Ac Kc",
    "Jc Jd Jh Js 3c 3d 3h 8s",
)


def eval7_strength(mask: int, count: int) -> int:
    """``eval7.evaluate`` on the cards of ``mask`` (the public, slower way)."""
    hand = []
    while mask:
        low = mask & -mask
        hand.append(_EVAL7_AT_BIT[low.bit_length() - 1])
        mask ^= low
    return int(eval7.evaluate(hand))


def _mask(text: str) -> int:
    return sum(CARD_BITS[card] for card in cards(text))


def _exported() -> Callable[[int, int], int] | None:
    """``cy_evaluate`` from eval7's C-API table, or None when it cannot be trusted."""
    module = importlib.import_module("eval7.evaluate")
    capsule = getattr(module, "__pyx_capi__", {}).get("cy_evaluate")
    if capsule is None or not _capsule_is_valid(capsule, _SIGNATURE):
        return None
    address = _capsule_pointer(capsule, _SIGNATURE)
    # PYFUNCTYPE keeps the GIL: the call is far shorter than releasing and retaking it.
    function: Callable[[int, int], int] = ctypes.PYFUNCTYPE(
        ctypes.c_uint, ctypes.c_ulonglong, ctypes.c_uint
    )(address)
    for text in _CHECK_HANDS:
        mask = _mask(text)
        count = mask.bit_count()
        if function(mask, count) != eval7_strength(mask, count):
            return None
    return function


_EXPORTED = _exported()

native_strength: Callable[[int, int], int] = _EXPORTED or eval7_strength
"""``native_strength(mask, count)``: the strength of ``count`` (5..8) distinct ordinary
cards given as a mask. No checks: callers validate."""

USES_C_API = _EXPORTED is not None
"""Whether :data:`native_strength` is the direct C call (for the benchmark's report)."""
