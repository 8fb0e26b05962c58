"""The Gang's search bot: determinized rollouts over the deals a seat cannot tell apart,
as a team.

The Gang is cooperative (every seat's reward is the heist's success), so each seat
searches alone over its own view and models its teammates as the playout policy
(:mod:`referee.search.the_gang_policy`): a teammate ranks its own hand and takes the chip
nearest that rank. What the search adds is the seat's own choice weighed against the
deals the table allows, weighted by what every round's chips and the announcements said
about the hidden hands (:mod:`referee.search.the_gang_sample`), and played out to the
heist's showdown.

Where it searches: "Alleen de rode fiches tellen nu nog", so the red chips, the card
actions owed (show, discard, pass) and the scans' guesses are searched; the chips of the
earlier rounds are the gang's signals, and the bot takes them as the policy does (the
policy its teammates' samples are read with). The seat considers only the moves that make
the table progress, as the referee's own clock does (engines.the_gang.defaults): a seat
without this round's chip takes a free one, or (red round, a bot kept between decisions,
once a round) a teammate's for a clear gain, who then chooses again; a seat holding a red
chip may move to a free one for a clear gain, else it leaves it; a scan's guess is
proposed by the first guesser and accepted by the others (a counter-proposal could start
a tug of war). Specialists are never proposed, only accepted.

:class:`TheGangModel` is the game's :class:`~referee.search.model.GameModel`; with
``flat=False`` the bot runs the core's IS-MCTS over it instead (the tree holds the seat's
own decisions; a teammate's move in it is the policy's one move, because a teammate
decides on cards this seat cannot see).
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Sequence
from typing import Any

import msgspec

from engines.the_gang import GAME, TheGangState, TheGangView, flow, tables
from engines.the_gang.decisions import CATEGORIES, RANKS, matter_of, required_seats
from engines.the_gang.model import JACK_CARD, Challenge, Colour, PendingKind
from engines.the_gang.moves import (
    Accept,
    ConfirmRoundEnd,
    DiscardCard,
    Move,
    PassCard,
    Propose,
    ShowCard,
    TakeChip,
)
from referee.codecs import CODECS
from referee.search.core import PLAYOUT_LIMIT, Budget, Result, Search
from referee.search.the_gang_policy import due_scans, guess_decision, policy_move, strength
from referee.search.the_gang_sample import (
    PARTICLES,
    Particles,
    build_state,
    draw_deal,
    known,
    passing_in_view,
)
from referee.v1 import game_pb2

EXPLORATION = 0.7
SIGNAL_PARTICLES = 192
"""Deals weighed for an earlier round's chip."""
STEAL_MARGIN = 0.08
"""How much more often (a share of the samples) taking a teammate's red chip must succeed
than the best free chip: the teammate must choose again, so only for a clear gain."""
REVISION_MARGIN = 0.05
"""How much more often (a share of the samples) moving to another free red chip must
succeed than staying before a seat moves: a small bias for rest, so rounds end."""


class TheGangModel:
    """The :class:`~referee.search.model.GameModel` of The Gang.

    ``particles``: deals drawn per decision for the weighted sampler. The weighted deals
    are kept for the view last sampled (the search samples one view many times).
    """

    game = "the_gang"

    def __init__(self, particles: int = PARTICLES) -> None:
        self.particles = particles
        self._view: TheGangView | None = None
        self._seat = -1
        self._drawn: Particles | None = None
        self._passing: tuple[TheGangView, bool] | None = None

    def know_passing(self, view: TheGangView, passing: bool) -> None:
        """Whether the Coordinator's passes are being chosen at ``view`` (a bot knows it
        from its legal moves; the view alone cannot always tell)."""
        self._passing = (view, passing)

    def sample(self, view: TheGangView, seat: int, rng: random.Random) -> TheGangState:
        if self._drawn is None or self._view is not view or self._seat != seat:
            own = random.Random(rng.getrandbits(64))
            self._drawn = Particles(view, seat, own, self.particles)
            self._view, self._seat = view, seat
        return build_state(view, seat, self._drawn.pick(rng), rng, self._passing_at(view))

    def glance(self, view: TheGangView, seat: int, rng: random.Random) -> TheGangState:
        """A state for the seat's own choices (its cards, the table): the other pockets
        one unweighted draw, without the particles a search needs."""
        deal = draw_deal(view, seat, known(view, seat), rng)
        return build_state(view, seat, deal, rng, self._passing_at(view))

    def _passing_at(self, view: TheGangView) -> bool:
        if self._passing is not None and self._passing[0] is view:
            return self._passing[1]
        return passing_in_view(view)

    def next_actor(self, state: TheGangState, rng: random.Random) -> int:
        """Any seat the table waits for: the seats act at once, in no known order."""
        return rng.choice(sorted(GAME.waiting_for(state)))

    def playout_move(self, state: TheGangState, seat: int, rng: random.Random) -> Move:
        move = policy_move(state, seat, rng)
        if move is None or not GAME.is_legal(state, seat, move):
            return GAME.default_move(state, seat)
        return move

    def play_out(self, state: TheGangState, root: TheGangState, rng: random.Random) -> TheGangState:
        """``state`` played on by the policy to the horizon (or a playout's limit)."""
        for _ in range(PLAYOUT_LIMIT):
            if self.horizon(state, root):
                break
            seat = self.next_actor(state, rng)
            state = GAME.apply(state, seat, self.playout_move(state, seat, rng))[0]
        return state

    def horizon(self, state: TheGangState, root: TheGangState) -> bool:
        """The heist's showdown ends a simulation: only then does the gang learn anything."""
        return state.finished or state.heist != root.heist

    def rewards(self, state: TheGangState, root: TheGangState) -> Sequence[float]:
        """1 for every seat if the heist under way at ``root`` succeeded, else 0 (0.5 if a
        playout was cut short before its showdown)."""
        done = len(root.heists)
        value = 0.5 if len(state.heists) <= done else float(state.heists[done].success)
        return (value,) * state.config.players


# --- the moves a seat considers ---------------------------------------------------------


def candidates(state: TheGangState, seat: int) -> list[Move]:
    """The moves worth searching for ``seat`` (empty: it would rather wait)."""
    pocket = state.pockets[seat]
    if state.passes:
        return [PassCard(card) for card in pocket] if state.passes[seat] is None else []
    for owed in state.pending:
        if owed.seat == seat:
            if owed.kind is PendingKind.SHOW_CARD:
                return [ShowCard(card) for card in pocket]
            return [DiscardCard(card) for card in pocket if card != JACK_CARD]
    for proposal in state.proposals:
        if seat in required_seats(state, proposal.decision) and seat not in proposal.accepted:
            return [Accept(proposal.id)]
    if state.awaiting_guesses:
        return _guesses(state, seat)
    row = state.chips[state.round]
    if seat not in row:
        return [TakeChip(state.round, s) for s, holder in enumerate(row, 1) if holder is None]
    if flow.needs_confirmation(state) and flow.all_hold_a_chip(state):
        return [] if seat in state.confirmed_seats else [ConfirmRoundEnd()]
    return []


def steals_of(state: TheGangState, seat: int) -> list[Move]:
    """This round's chips held by teammates, which a seat without one may take."""
    row = state.chips[state.round]
    if seat in row:
        return []
    return [TakeChip(state.round, s) for s, holder in enumerate(row, 1) if holder is not None]


def revisions(state: TheGangState, seat: int) -> list[Move]:
    """The free chips a seat holding one of this round's may move to."""
    row = state.chips[state.round]
    if seat not in row or state.passes or state.pending or state.awaiting_guesses:
        return []
    return [TakeChip(state.round, s) for s, holder in enumerate(row, 1) if holder is None]


def _guesses(state: TheGangState, seat: int) -> list[Move]:
    """Proposals for the first due scan nobody has proposed (accepting is done above)."""
    if seat == tables.top_red_seat(state):
        return []
    for scan in due_scans(state):
        if any(matter_of(p.decision) == scan for p in state.proposals):
            continue
        values = RANKS if scan is Challenge.RETINA_SCAN else CATEGORIES
        return [Propose(guess_decision(scan, value)) for value in values]
    return []


def tree_game(seat: int) -> Any:
    """The engine with each seat's moves in the tree cut down: ``seat``'s to its
    candidates, a teammate's to the policy's one move (made from its own cards)."""

    def moves(state: TheGangState, actor: object) -> list[Move]:
        assert isinstance(actor, int)
        if actor == seat:
            own = candidates(state, actor)
            if own:
                return own
        rng = random.Random(f"{state.heist}/{state.round}/{actor}")
        move = policy_move(state, actor, rng)
        if move is None or not GAME.is_legal(state, actor, move):
            move = GAME.default_move(state, actor)
        return [move]

    return dataclasses.replace(GAME, legal_moves=moves)


def _engine_view(decoded: TheGangView, view: game_pb2.View) -> TheGangView:
    """The engine's view as ``definition.view`` gives it: the codec leaves the fields the
    envelope carries (the viewer, whether the game is over) unset."""
    return msgspec.structs.replace(
        decoded,
        viewer=view.seat if decoded.viewer is None else decoded.viewer,
        finished=view.HasField("outcome") if decoded.finished is None else decoded.finished,
    )


class TheGangSearchBot:
    """A :class:`~referee.bots.base.Bot` for one seat of The Gang that searches (1 s by
    default; an iteration count makes it deterministic from each decision's ``rng``).
    Answers None when the seat would rather wait (it holds its chip).

    ``flat`` (the default): determinized rollouts that compare the seat's options on the
    *same* samples, each played out by the policy after every option with the same
    random draws; the deals differ far more than the options do, so comparing options on
    one deal at a time is what separates them within a small budget. A seat holding the
    red chip also weighs moving to a free one against staying (it moves only for a clear
    gain, so rounds still end). ``early``: search the chips of the rounds before the red
    one too (else the policy takes them: only the red chips count at the showdown, and
    the earlier ones are the gang's signals). ``flat=False``: IS-MCTS over
    :class:`TheGangModel` instead.
    """

    name = "the_gang/search"

    def __init__(
        self,
        budget: Budget | None = None,
        exploration: float = EXPLORATION,
        model: TheGangModel | None = None,
        flat: bool = True,
        early: bool = False,
        signals: bool = True,
    ) -> None:
        self.budget = budget or Budget()
        self.exploration = exploration
        self.model = model or TheGangModel()
        self.flat, self.early, self.signals = flat, early, signals
        self.codec = CODECS["the_gang"]
        self.last: Result | None = None
        self._decisions = 0
        self._stolen: set[tuple[int, int]] = set()

    def choose(
        self, view: game_pb2.View, legal: Sequence[game_pb2.Move], rng: random.Random
    ) -> game_pb2.Move | None:
        self.last = None
        self._decisions += 1
        if not legal:
            return None
        seat = view.seat
        seen = _engine_view(self.codec.view_from_proto(view), view)
        moves: list[Move] = [self.codec.move_from_proto(move) for move in legal]
        self.model.know_passing(seen, any(isinstance(m, PassCard) for m in moves))
        own = random.Random(rng.getrandbits(64))
        table = self.model.glance(seen, seat, own)
        wanted = candidates(table, seat)
        keep = [i for i, move in enumerate(moves) if move in wanted]
        chips = bool(keep) and isinstance(moves[keep[0]], TakeChip)
        if chips and table.round is not Colour.RED and not self.early:
            if self.signals:
                preferred: Move = self._signal(seen, seat, table, own)
            else:
                preferred = self.model.playout_move(table, seat, own)
            return legal[moves.index(preferred)] if preferred in moves else legal[keep[0]]
        if not self.flat:
            if len(keep) <= 1:
                return legal[keep[0]] if keep else None
            shortlist = [moves[i] for i in keep]
            search = Search(self.model, tree_game(seat), seat, seen, shortlist, self.exploration)
            self.last = search.run(self.budget, own)
            return legal[keep[self.last.index]]
        options: list[Move | None] = [moves[i] for i in keep]
        handicaps = [0.0] * len(options)
        if chips and self._may_steal(table):
            steals = [move for move in steals_of(table, seat) if move in moves]
            options += steals
            handicaps += [STEAL_MARGIN] * len(steals)
        elif not keep and table.round is Colour.RED and not table.awaiting_guesses:
            options = [None, *revisions(table, seat)]
            handicaps = [0.0] + [REVISION_MARGIN] * (len(options) - 1)
        if len(options) <= 1:
            return legal[keep[0]] if keep else None
        best = self._rollouts(seen, seat, options, handicaps, own)
        if best is None:
            return None
        if best in steals_of(table, seat):
            self._stolen.add((table.heist, table.round))
        return legal[moves.index(best)]

    def _signal(
        self, seen: TheGangView, seat: int, table: TheGangState, rng: random.Random
    ) -> Move:
        """An earlier round's chip: the free one nearest the seat's expected place among
        the seats, its hand's strength against each teammate's in deals weighted by the
        chips (the policy's reading of the chips, made with the whole table's history)."""
        drawn = Particles(seen, seat, rng, SIGNAL_PARTICLES)
        board = table.board
        mine = strength(table.pockets[seat], board)
        place = total = 0.0
        for deal in drawn.deals:
            beaten = 0.0
            for other, pocket in enumerate(deal.pockets):
                if other != seat:
                    theirs = strength(pocket, board)
                    beaten += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            place += deal.weight * beaten
            total += deal.weight
        expected = 1.0 + (place / total if total > 0 else (len(table.pockets) - 1) * mine)
        row = table.chips[table.round]
        free = [stars for stars, holder in enumerate(row, 1) if holder is None]
        return TakeChip(table.round, min(free, key=lambda s: (abs(s - expected), s)))

    def _may_steal(self, table: TheGangState) -> bool:
        """Whether this seat may take a teammate's red chip now: once a round, and only a
        bot kept from an earlier decision (a fresh bot per call cannot count its steals,
        so it never steals and every round ends)."""
        return (
            self._decisions > 1
            and table.round is Colour.RED
            and (table.heist, table.round) not in self._stolen
        )

    def _rollouts(
        self,
        seen: TheGangView,
        seat: int,
        options: Sequence[Move | None],
        handicaps: Sequence[float],
        rng: random.Random,
    ) -> Move | None:
        """The option with the best summed reward over shared samples (None: stay), less
        its handicap (a share of the samples); the budget's iterations count playouts
        (whole rounds of the options, at least one)."""
        totals = [0.0] * len(options)
        iterations = self.budget.iterations
        rounds = None if iterations is None else max(1, iterations // len(options))
        ends = time.perf_counter() + self.budget.seconds
        done = 0
        while done < 1 or (done < rounds if rounds is not None else time.perf_counter() < ends):
            start = self.model.sample(seen, seat, rng)
            seed = rng.getrandbits(64)
            for index, move in enumerate(options):
                state = start if move is None else GAME.apply(start, seat, move)[0]
                state = self.model.play_out(state, start, random.Random(seed))
                totals[index] += self.model.rewards(state, start)[seat]
            done += 1
        visits = tuple(done for _ in options)
        totals = [
            total - handicap * done for total, handicap in zip(totals, handicaps, strict=True)
        ]
        best = max(range(len(options)), key=lambda i: (totals[i], -i))
        self.last = Result(best, done * len(options), visits)
        return options[best]
