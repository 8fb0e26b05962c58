"""The showdown order with the Muscle specialist (The Gang).

Seed: "Bij de onthulling wint die speler van iedere andere speler met een hand van dezelfde
soort. [...] Tegen een sterkere soort hand, zoals drie gelijke, verliest hij nog steeds."
So the Muscle's hand ranks above every other hand of its category and below every hand of a
stronger one. The royal flush is a category of its own here (the seed lists ten), so a
Muscle's straight flush still loses to a royal flush.
"""

from __future__ import annotations

from engines.poker.hands import Category, HandValue

ShowdownKey = tuple[Category, bool, tuple[int, ...]]


def showdown_key(value: HandValue, muscle: bool = False) -> ShowdownKey:
    """Compare hands at a showdown by this key: category, then Muscle, then the ranks.

    >>> from engines.poker import evaluate
    >>> from engines.cards import cards
    >>> weak, strong = evaluate(cards("2c 2d 5h 7s 9c")), evaluate(cards("Ac Ad 5h 7s 9c"))
    >>> showdown_key(weak, muscle=True) > showdown_key(strong)
    True
    >>> showdown_key(weak, muscle=True) > showdown_key(evaluate(cards("3c 3d 3h 7s 9c")))
    False
    """
    return value.category, muscle, value.ranks
