"""The showdown: hands revealed in red-chip order, each at least as strong as those before.

Seed: "De speler met het rode fiche met één ster laat als eerste zijn handkaarten zien.
Daarna volgt de speler met twee sterren, enzovoort." and "Elke hand die op tafel komt, moet
even sterk of sterker zijn dan de hand die net daarvoor werd getoond." Exactly equal hands
("ook als je de kickers meetelt") may stand in either order among themselves but must sit
right relative to everyone else; a non-decreasing check in reveal order is exactly that.
"""

from __future__ import annotations

from engines.poker import HandValue, evaluate
from engines.the_gang.model import Colour, HeistResult, Reveal, TheGangState


def judge(state: TheGangState) -> HeistResult:
    red = state.chips[Colour.RED]
    order = sorted(range(state.config.players), key=lambda seat: red.index(seat))
    reveals: list[Reveal] = []
    strongest: HandValue | None = None
    success = True
    for seat in order:
        value = evaluate(state.pockets[seat] + state.board)
        in_order = strongest is None or value >= strongest
        success = success and in_order
        strongest = value if strongest is None or value > strongest else strongest
        reveals.append(
            Reveal(
                seat=seat,
                red_stars=red.index(seat) + 1,
                pocket=state.pockets[seat],
                category=int(value.category),
                ranks=value.ranks,
                best=value.best,
                description=value.describe(),
                in_order=in_order,
            )
        )
    chips = tuple(tuple(holder for holder in row if holder is not None) for row in state.chips)
    return HeistResult(
        heist=state.heist, success=success, board=state.board, reveals=tuple(reveals), chips=chips
    )
