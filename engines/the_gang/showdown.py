"""The showdown: hands revealed in red-chip order, each at least as strong as those before.

Seed: "De speler met het rode fiche met één ster laat als eerste zijn handkaarten zien.
Daarna volgt de speler met twee sterren, enzovoort." and "Elke hand die op tafel komt, moet
even sterk of sterker zijn dan de hand die net daarvoor werd getoond." Exactly equal hands
("ook als je de kickers meetelt") may stand in either order among themselves but must sit
right relative to everyone else; a non-decreasing check in reveal order is exactly that.

The Muscle's hand beats every other hand of its category (``engines.poker.showdown_key``).
The scans: "Zitten de anderen ernaast, dan mislukt de overval, ook als de volgorde van de
rode fiches klopte." Retina Scan guesses a value "minstens één keer in zijn handkaarten"
(the Jack card counts as a jack); Fingerprint Scan guesses "welke pokerhand [...] die
speler volgens hen heeft": the category of his best five.
"""

from __future__ import annotations

from engines.poker import ShowdownKey, evaluate, showdown_key
from engines.the_gang import tables
from engines.the_gang.model import (
    Challenge,
    ChipRow,
    Colour,
    HeistResult,
    Reveal,
    ScanResult,
    Specialist,
    TheGangState,
)


def _muscle(state: TheGangState) -> int | None:
    if state.specialist is Specialist.MUSCLE and state.specialist_use is not None:
        return state.specialist_use.seat
    return None


def red_order(state: TheGangState) -> list[int]:
    red = state.chips[Colour.RED]
    return sorted(range(state.config.players), key=red.index)


def reveal(state: TheGangState, seats: list[int]) -> tuple[tuple[Reveal, ...], bool]:
    """The hands of ``seats`` shown in this order, and whether each stood in order."""
    red = state.chips[Colour.RED]
    muscle = _muscle(state)
    reveals: list[Reveal] = []
    strongest: ShowdownKey | None = None
    success = True
    for seat in seats:
        value = evaluate(state.pockets[seat] + state.board)
        key = showdown_key(value, muscle=seat == muscle)
        in_order = strongest is None or key >= strongest
        success = success and in_order
        strongest = key if strongest is None or key > strongest else strongest
        reveals.append(
            Reveal(
                seat=seat,
                red_stars=red.index(seat) + 1,
                pocket=state.pockets[seat],
                category=int(value.category),
                ranks=value.ranks,
                best_five=value.best,
                description=value.describe(),
                in_order=in_order,
                muscle=seat == muscle,
            )
        )
    return tuple(reveals), success


def shown_before_guessing(state: TheGangState) -> tuple[Reveal, ...]:
    """Scans: "Voordat de speler met het hoogste rode fiche zijn kaarten laat zien,
    overleggen de andere spelers", so every other hand is already on the table."""
    return reveal(state, red_order(state)[:-1])[0]


def judge(state: TheGangState) -> HeistResult:
    reveals, success = reveal(state, red_order(state))
    categories = {r.seat: r.category for r in reveals}
    scans = _scans(state, categories)
    return HeistResult(
        heist=state.heist,
        success=success and all(scan.correct for scan in scans),
        board=state.board,
        reveals=reveals,
        chips=tuple(ChipRow.of(colour, state.chips[colour]) for colour in state.rounds_played()),
        challenges=state.challenges,
        specialist=state.specialist,
        scans=scans,
    )


def _scans(state: TheGangState, categories: dict[int, int]) -> tuple[ScanResult, ...]:
    seat = tables.top_red_seat(state)
    if seat is None:
        return ()
    out: list[ScanResult] = []
    for scan in state.guesses:
        challenge, guess = scan.challenge, scan.value
        if challenge is Challenge.RETINA_SCAN:
            actual = tuple(sorted({card.rank for card in state.pockets[seat]}))
            out.append(ScanResult(challenge, seat, guess, actual, guess in actual))
        else:
            category = categories[seat]
            out.append(ScanResult(challenge, seat, guess, (category,), guess == category))
    return tuple(out)
