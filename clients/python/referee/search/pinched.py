"""Pinched! as a forward model for the search bots, and :class:`PinchedSearchBot`.

The sampler (:mod:`referee.search.pinched_sample`) deals what a seat cannot see; the
playout policy (:mod:`referee.search.pinched_policy`) is the heuristic bot's judgement at
the engine level, the model of every burglar. A simulation runs to the end of the day it
began in (and ``days_ahead`` days more, none by default), then judges the table by
:func:`estimate` (what each seat would have if it sold its stash, a set short of a
threshold counted for part of what it promises); the game's end by its exact totals.

:class:`PinchedSearchBot` is the bot to play: determinized rollouts that compare the
seat's moves on shared samples (each sample played out after every candidate with the same
random draws), since a sample differs from the next far more than the moves do. The
morning is simultaneous: a sample lays the others' sealed cards from the policy's odds,
which the seat's own card cannot change, so nobody in a simulation sees the seat's card
before the reveal. The generic IS-MCTS (``referee.search.core``) over the same model stays
an option (``flat=False``); its horizon stops a simulation as soon as a card of the
morning it began in is laid, for the same reason.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Collection, Mapping, Sequence

from engines.pinched import GAME, scoring, stash
from engines.pinched.components import ValuableKind, sale_value
from engines.pinched.model import CLUE_POINTS, DIAMOND_POINTS, Phase, PinchedState
from engines.pinched.moves import (
    ChooseLocation,
    EndSelling,
    Move,
    PassCurse,
    Sell,
    TakeCard,
    TakeFromRiver,
    UsePassage,
)
from engines.pinched.night import passage_usable, take_options
from engines.pinched.view import PinchedView
from referee.search import pinched_policy
from referee.search.bot import SearchBot
from referee.search.core import Budget, Result, Search
from referee.search.pinched_sample import MORNING, SoldMemory, sample
from referee.v1 import game_pb2

WIDTH = 6
"""Most moves a search compares: the heuristic's best by its own scores (and its choice)."""
PROMISE = 0.55
"""The share of a threshold's value a set one card short of it counts for (the share's
square two cards short, and so on): the cards still to come are likely, not certain."""
MARGIN = 3.0
"""Points of lead that make a seat's reward about 0.73 (the logistic's scale)."""


class PinchedModel:
    """The :class:`~referee.search.model.GameModel` of Pinched!.

    ``days_ahead``: whole days the policy plays on after the day a simulation ends in
    (0: judge the table as that day ends). ``margin``: the logistic's scale of a lead.
    ``to_act``: the seats the table waits on, when the bot knows them (the sampler reads
    from them who owes a store); ``sold``: the cards known to be in each other seat's sold
    pile (:class:`~referee.search.pinched_sample.SoldMemory`).
    """

    game = "pinched"

    def __init__(self, days_ahead: int = 0, margin: float = MARGIN) -> None:
        self.days_ahead = days_ahead
        self.margin = margin
        self.to_act: Collection[int] | None = None
        self.sold: Mapping[int, Collection[int]] = {}

    def sample(self, view: PinchedView, seat: int, rng: random.Random) -> PinchedState:
        return sample(view, seat, rng, self.to_act, self.sold)

    def next_actor(self, state: PinchedState, rng: random.Random) -> int:
        return next_actor(state, rng)

    def playout_move(self, state: PinchedState, seat: int, rng: random.Random) -> Move:
        return policy_move(state, seat, rng)

    def horizon(self, state: PinchedState, root: PinchedState) -> bool:
        """The game's end, the next day's start, or a location card laid this morning."""
        if state.finished or state.day != root.day:
            return True
        return state.phase is Phase.PLAN and state.choices != root.choices

    def rewards(self, state: PinchedState, root: PinchedState) -> Sequence[float]:
        rng = random.Random(state.rng.seed + state.rng.counter.to_bytes(8, "big"))
        return self.judge(self.play_out(state, root, rng))

    def play_out(self, state: PinchedState, root: PinchedState, rng: random.Random) -> PinchedState:
        """The policy plays on to the end of ``root``'s day and ``days_ahead`` days more."""
        last = root.day + self.days_ahead
        while not state.finished and state.day <= last:
            seat = next_actor(state, rng)
            state, _ = GAME.apply(state, seat, policy_move(state, seat, rng))
        return state

    def judge(self, state: PinchedState) -> list[float]:
        """Per seat, the logistic of its lead over the best other seat: exact totals (the
        gold-bar tie-break a hundredth of a point) at the end, :func:`estimate` before."""
        players = state.config.players
        if state.finished:
            scores = sorted(scoring.final(state).scores, key=lambda score: score.seat)
            worth = [score.total + score.tiebreak / 100 for score in scores]
        else:
            worth = [estimate(state, seat) for seat in range(players)]
        out = []
        for seat in range(players):
            lead = worth[seat] - max(w for other, w in enumerate(worth) if other != seat)
            out.append(1.0 / (1.0 + math.exp(-lead / self.margin)))
        return out


def next_actor(state: PinchedState, rng: random.Random) -> int:
    """A seat of ``to_act``, read off the phase (cheaper than listing every seat's moves):
    a seat that owes storing first, then whoever the phase waits on. In the morning a seat
    without a card at random; after the heist the river pick before the sale (they are
    "tegelijk", and from rules revision 2 neither changes the other)."""
    for seat in range(state.config.players):
        if state.hands[seat] and stash.owes_storing(state, seat):
            return seat
    phase = state.phase
    if phase is Phase.PLAN:
        return rng.choice([s for s, c in enumerate(state.choices) if c is None])
    if phase is Phase.NIGHT:
        if state.takes:
            return state.takes[0].seat
        if state.passage_due or state.dog_due:
            return state.mastermind
        return state.curse_turns[0]
    if phase in (Phase.DOGS, Phase.FINAL_DOGS):
        return state.gordie_due[0]
    if phase is Phase.AFTER and state.river_turns:
        return state.river_turns[0]
    return state.selling[0]


def policy_move(state: PinchedState, seat: int, rng: random.Random) -> Move:
    """The policy's move for ``seat``, one of its legal moves, the commonest ones made
    without listing them all (listing is most of a playout's cost): a location card, a
    take at the heist without the passage, a river pick, a sale or its end, unless the
    seat owes a store."""
    if not (state.hands[seat] and stash.owes_storing(state, seat)):
        if state.phase is Phase.PLAN:
            return ChooseLocation(pinched_policy.draw_location(state, seat, rng))
        night = state.phase is Phase.NIGHT and state.takes and state.takes[0].seat == seat
        if night and not passage_usable(state):
            fields = take_options(state)
            return pinched_policy.choose(state, seat, [TakeCard(f) for f in fields], rng)
        if state.phase is Phase.AFTER and state.river_turns and seat == state.river_turns[0]:
            fields = [f for f, card in enumerate(state.river) if card is not None]
            return pinched_policy.choose(state, seat, [TakeFromRiver(f) for f in fields], rng)
        if state.phase in (Phase.AFTER, Phase.FINAL_SALE) and seat in state.selling:
            slots = [i for i, slot in enumerate(state.stashes[seat]) if slot.kind is not None]
            moves: list[Move] = [Sell(i) for i in slots]
            return pinched_policy.choose(state, seat, [*moves, EndSelling()], rng)
    return pinched_policy.choose(state, seat, GAME.legal_moves(state, seat), rng)


def promise(kind: ValuableKind, count: int) -> float:
    """What a set of ``count`` is worth towards the end: its sale value, or more for a
    threshold it is short of, ``PROMISE`` of its value per card missing."""
    best = float(sale_value(kind, count))
    for sale in kind.sales:
        if sale.threshold > count:
            best = max(best, sale.value * PROMISE ** (sale.threshold - count))
    return best


def estimate(state: PinchedState, seat: int) -> float:
    """``seat``'s wealth if the game ended soon: its sold cards, treasures and curses as
    the final score counts them ("Tel je gedekte, verkochte kaarten [...] Tel de
    bonuspunten erbij op [...] Trek de waarde van de vloeken [...] ervan af"), and each set
    on its stash at what it promises (:func:`promise`)."""
    table = state.config.components
    points = float(len(state.sold[seat]))
    if state.lisa_mona == seat:
        points += state.lisa_mona_points
    if state.diamonds:
        points += state.diamonds[seat] * DIAMOND_POINTS
    if state.clues:
        points += state.clues[seat] * CLUE_POINTS
    if state.curses:
        points -= sum(curse.points for curse in state.curses[seat])
    for slot in state.stashes[seat]:
        if slot.kind is not None:
            points += promise(table.kinds[slot.kind], len(slot.cards))
    return points


def candidates(
    state: PinchedState, seat: int, moves: Sequence[Move], rng: random.Random, width: int = WIDTH
) -> list[int]:
    """The indices of the moves worth comparing: one of each kind of equal moves (a curse
    of the same points to the same seat, a passage's cards in either order), at most
    ``width`` by the heuristic's own scores, and the heuristic's choice always."""
    seen: dict[object, int] = {}
    for index, move in enumerate(moves):
        seen.setdefault(_sameness(state, seat, move), index)
    keep = list(seen.values())
    if len(keep) > width:
        scores = {i: pinched_policy.score(state, seat, moves[i]) for i in keep}
        keep = sorted(keep, key=lambda i: -scores[i])[:width]
    choice = pinched_policy.choose(state, seat, list(moves), rng)
    first = moves.index(choice)
    if all(_sameness(state, seat, moves[i]) != _sameness(state, seat, choice) for i in keep):
        keep.append(first)
    return sorted(keep)


def _sameness(state: PinchedState, seat: int, move: Move) -> object:
    """Moves with the same key lead to the same tables (up to which curse is which)."""
    if isinstance(move, PassCurse):
        points = {curse.id: curse.points for curse in state.curses[seat]}
        return ("pass", points.get(move.curse), move.to_seat)
    if isinstance(move, UsePassage):
        return ("passage", frozenset(move.cards))
    return move


class PinchedSearchBot(SearchBot):
    """The search bot for Pinched!: its moves cut to :func:`candidates` (one is played at
    once), then determinized rollouts on shared samples (``flat``, the default), or
    IS-MCTS over :class:`PinchedModel`. Ties go to the heuristic's own choice. With
    ``Budget(iterations=N)`` a decision plays about N rollouts (whole rounds, at least one)."""

    def __init__(
        self, budget: Budget | None = None, days_ahead: int = 0, flat: bool = True
    ) -> None:
        self.pinched = PinchedModel(days_ahead)
        super().__init__(self.pinched, budget)
        self.flat = flat
        self.memory = SoldMemory()

    def choose(
        self, view: game_pb2.View, legal: Sequence[game_pb2.Move], rng: random.Random
    ) -> game_pb2.Move | None:
        seen = self.codec.view_from_proto(view)
        self.pinched.sold = self.memory.observe(seen, view.seat)
        if len(legal) <= 1:
            return legal[0] if legal else None
        moves = [self.codec.move_from_proto(move) for move in legal]
        self.pinched.to_act = frozenset(view.to_act) or None
        seed = random.Random(rng.getrandbits(64))
        table = self.pinched.sample(seen, view.seat, random.Random(0))
        keep = candidates(table, view.seat, moves, seed)
        if len(keep) == 1:
            return legal[keep[0]]
        shortlist = [moves[index] for index in keep]
        if self.flat:
            preferred = pinched_policy.choose(table, view.seat, shortlist, seed)
            return legal[keep[self._rollouts(seen, view.seat, shortlist, preferred, seed)]]
        search = Search(self.model, self.game, view.seat, seen, shortlist, self.exploration)
        self.last = search.run(self.budget, seed)
        return legal[keep[self.last.index]]

    def _rollouts(
        self,
        seen: PinchedView,
        seat: int,
        shortlist: Sequence[Move],
        preferred: Move,
        rng: random.Random,
    ) -> int:
        """The candidate with the best summed reward over shared samples; each sample is
        played out after every candidate with the same random draws."""
        totals = [0.0] * len(shortlist)
        iterations = self.budget.iterations
        rounds = None if iterations is None else max(1, iterations // len(shortlist))
        ends = time.perf_counter() + self.budget.seconds
        done = 0
        while done < 1 or (done < rounds if rounds is not None else time.perf_counter() < ends):
            start = self.pinched.sample(seen, seat, rng)
            draws = rng.getrandbits(64)
            for index, move in enumerate(shortlist):
                state = GAME.apply(start, seat, move)[0]
                state = self.pinched.play_out(state, start, random.Random(draws))
                totals[index] += self.pinched.judge(state)[seat]
            done += 1
        best = max(range(len(shortlist)), key=lambda i: (totals[i], shortlist[i] == preferred))
        self.last = Result(best, done * len(shortlist), (done,) * len(shortlist))
        return best


__all__ = [
    "MORNING",
    "PinchedModel",
    "PinchedSearchBot",
    "candidates",
    "estimate",
    "next_actor",
    "promise",
    "sample",
]
