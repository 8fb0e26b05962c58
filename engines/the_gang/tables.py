"""Facts derived from The Gang's state that several rules share (no changes here)."""

from __future__ import annotations

from collections import Counter

from engines.cards import Card
from engines.poker import Category, evaluate
from engines.the_gang.model import Challenge, Colour, DarkChip, Mode, TheGangState

_DARK_COLOURS = (Colour.WHITE, Colour.YELLOW, Colour.ORANGE)
_FACES = (11, 12, 13)


def visible_rounds(state: TheGangState) -> tuple[Colour, ...]:
    """The rounds whose chips lie on the table.

    Blackout: "Aan het begin van ronde 2 leg je allemaal je fiches van ronde 1 weg [...]",
    so only the current round's chips stay.
    """
    played = state.rounds_played()
    if state.active(Challenge.BLACKOUT) and not state.finished:
        return played[-1:]
    return played


def dark_chips(state: TheGangState) -> tuple[DarkChip, ...]:
    """The chips turned to their dark side.

    Noise Sensors: "Draai na het delen de fiches met één ster van ronde 1, 2 en 3 om naar de
    donkere kant." Ventilation Shaft: "[...] de fiches met de meeste sterren van ronde 1, 2
    en 3 [...]".
    """
    if not state.challenges:
        return ()
    stars: list[int] = []
    if state.active(Challenge.NOISE_SENSORS):
        stars.append(1)
    if state.active(Challenge.VENTILATION_SHAFT):
        stars.append(state.config.players)
    skipped = state.skipped_colours()
    return tuple(DarkChip(c, s) for c in _DARK_COLOURS if c not in skipped for s in stars)


def is_locked(state: TheGangState, colour: Colour, stars: int) -> bool:
    """A dark chip someone took from the centre "kan het niet meer van eigenaar wisselen"."""
    dark = DarkChip(colour, stars) in dark_chips(state)
    return dark and state.chips[colour][stars - 1] is not None


def top_red_seat(state: TheGangState) -> int | None:
    """The holder of the red chip with the most stars (the scans' subject)."""
    return state.chips[Colour.RED][state.config.players - 1]


def left_of(state: TheGangState, seat: int) -> int:
    """Seats are numbered clockwise, so the left neighbour is the next seat."""
    return (seat + 1) % state.config.players


def faces(pocket: tuple[Card, ...]) -> int:
    """Investor: "hoeveel plaatjes (boer, vrouw of heer) hij in zijn hand heeft"."""
    return sum(card.rank in _FACES for card in pocket)


def pip_sum(pocket: tuple[Card, ...]) -> int:
    """Math Whiz: "De kaarten 2 tot en met 10 tellen voor hun eigen waarde, plaatjes tellen
    voor 10 en een aas telt voor 11." """
    return sum(11 if card.rank == 14 else min(card.rank, 10) for card in pocket)


def hand_so_far(cards: tuple[Card, ...]) -> Category:
    """Getaway Driver: the poker hand in these cards "op dit moment" (fewer than five cards
    make at most four of a kind; straights and flushes need five)."""
    if len(cards) >= 5:
        return evaluate(cards).category
    counts = sorted(Counter(card.rank for card in cards).values(), reverse=True) or [0]
    if counts[0] >= 4:
        return Category.FOUR_OF_A_KIND
    if counts[0] == 3:
        return Category.THREE_OF_A_KIND
    if counts.count(2) >= 2:
        return Category.TWO_PAIR
    if counts[0] == 2:
        return Category.PAIR
    return Category.HIGH_CARD


def uses_piles(state: TheGangState) -> bool:
    return state.config.mode is not Mode.BASIC
