"""Bots for Gang of Four: a random player and a heuristic climber."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from referee.bots.base import UniformBot
from referee.v1 import game_pb2, gang_of_four_pb2

Card = gang_of_four_pb2.GangOfFourCard
MULTICOLOURED = gang_of_four_pb2.GANG_OF_FOUR_COLOUR_MULTICOLOURED


def card_rank(card: Card) -> int:
    """The single-card order: value first, then colour (green < yellow < red < multi)."""
    return card.value * 4 + card.colour


def is_gang(cards: Sequence[Card]) -> bool:
    return len(cards) >= 4 and len({card.value for card in cards}) == 1


class GangOfFourRandom(UniformBot):
    """Any legal move, uniformly (a forgotten last-card announcement included)."""

    def __init__(self) -> None:
        super().__init__("gang_of_four/random")


class GangOfFourHeuristic:
    """Plays the cheapest combination that beats the table, and gets rid of cards.

    Cost of a play: its highest card, plus a penalty for every pair, triple or Gang it
    breaks up, minus a bonus per card it sheds; a Gang costs a lot. Leading, it sheds low
    multi-card combinations first; following, it passes rather than spend a Gang, a Phoenix
    or Dragon single, or a broken set, unless an opponent is close to going out or its own
    hand is small. Always announces its last card; gives back its lowest loose card.
    """

    name = "gang_of_four/heuristic"

    def choose(
        self, view: game_pb2.View, legal: Sequence[game_pb2.Move], rng: random.Random
    ) -> game_pb2.Move | None:
        if not legal:
            return None
        game = view.gang_of_four
        hand = list(game.cards)
        counts = Counter(card.value for card in hand)
        gives = [move for move in legal if move.gang_of_four.HasField("give_back")]
        if gives:
            return min(
                gives,
                key=lambda move: (
                    counts[move.gang_of_four.give_back.card.value] > 1,
                    card_rank(move.gang_of_four.give_back.card),
                ),
            )
        plays = [move for move in legal if move.gang_of_four.HasField("play")]
        passes = [move for move in legal if move.gang_of_four.HasField("pass")]
        # Of a play that leaves one card, keep only the announcing variant.
        announced = {_key(move) for move in plays if move.gang_of_four.play.announce_last_card}
        plays = [
            move
            for move in plays
            if move.gang_of_four.play.announce_last_card or _key(move) not in announced
        ]
        if not plays:
            return passes[0] if passes else legal[0]
        for move in plays:
            if len(move.gang_of_four.play.cards) == len(hand):
                return move  # going out
        seat = view.seat
        opponents = [
            count
            for other, count in enumerate(game.card_counts)
            if other != seat and other not in game.out and count > 0
        ]
        danger = bool(opponents) and min(opponents) <= 3
        leading = not game.current

        def cost(move: game_pb2.Move) -> float:
            cards = list(move.gang_of_four.play.cards)
            used = Counter(card.value for card in cards)
            broken = sum(1 for value, n in used.items() if n < counts[value])
            gang = is_gang(cards)
            bombs_broken = sum(
                1 for value in used if counts[value] >= 4 and not (gang and used[value] >= 4)
            )
            top = max(card.value for card in cards)
            if danger and leading and len(cards) == 1:
                top = 13 - top  # lead high singles when someone is about to go out
            return top + 3.0 * broken + 12.0 * bombs_broken + 25.0 * gang - 2.0 * (len(cards) - 1)

        choice = min(plays, key=lambda move: (cost(move), _key(move)))
        if passes and not danger and len(hand) > 5:
            cards = list(choice.gang_of_four.play.cards)
            used = Counter(card.value for card in cards)
            breaks = any(n < counts[value] for value, n in used.items())
            expensive = is_gang(cards) or (len(cards) == 1 and cards[0].value >= 11)
            if expensive or (breaks and cost(choice) > 9):
                return passes[0]
        return choice


def _key(move: game_pb2.Move) -> tuple[int, ...]:
    return tuple(sorted(card_rank(card) for card in move.gang_of_four.play.cards))
