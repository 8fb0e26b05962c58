"""Gang of Four as a forward model for the search bots (IS-MCTS, ``referee.search.core``).

What a seat cannot see (``engines.gang_of_four.view``): the other seats' hands and, at three
players, the 16 cards dealt to nobody ("3 players get 16 each and 16 stay hidden",
shared/RULES-NOTES.md, Gang of Four 1). Everything else is public: the counts, the play to
beat, who passed, the exchanged cards ("both cards are shown to the others", notes 7), the
last-card announcements, the scores. A sample keeps all of that and deals the hidden cards
at random among those the seat cannot rule out:

* cards it has seen leave the game: its own plays, and every play it found on the table at
  one of its turns (a bot is shown the table only at its turns, so plays made and beaten in
  between stay unknown, and may be drawn into a hand again: the view does not tell);
* the exchange: the winner holds the card he was given and the loser the card returned to
  him, when the seat saw every play either made since; and the loser gave "his highest
  card" (seed: "der Spieler ... gibt seine höchste Karte"), so all his others are no higher;
* hand 1's first lead "must include" the multicoloured 1 (notes 6): the seat to lead holds it.

The playout policy is the heuristic bot's (``referee.bots.gang_of_four``) at the engine
level: the cheapest play that beats the table, passing rather than breaking a set or
spending a Gang. A playout stops at the end of the hand; its value is each seat's chance
to win the game estimated from the totals (lowest total wins, notes 9).

:class:`GangOfFourSearchBot` is the bot to play: the generic IS-MCTS over this model loses
to the heuristic bots (a 16-card lead has hundreds of plays, each tried once before any is
compared), so it cuts the root to a few candidates and compares them by determinized
rollouts on shared samples. docs/benchmarks.md has the figures.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

import msgspec

from engines.gang_of_four import rules
from engines.gang_of_four.cards import DECK, HAND_SIZE, GofCard
from engines.gang_of_four.combos import classify
from engines.gang_of_four.model import (
    GAME_END_SCORE,
    RULES_REVISION,
    GangOfFourConfig,
    GangOfFourState,
    Phase,
)
from engines.gang_of_four.moves import GiveBack, Move, Pass, Play
from engines.gang_of_four.view import GangOfFourView
from engines.rng import Rng
from referee.search.bot import SearchBot
from referee.search.core import Budget, Search
from referee.v1 import game_pb2

WIDTH = 6
"""How many of the heuristic's cheapest plays a search compares (besides one per shape)."""

Cards = Counter[GofCard]


class Deal(msgspec.Struct, frozen=True):
    """What a sample deals: for each seat the cards it surely holds (``fixed``) and how
    many more it gets, the loser's ceiling, and the ``pool`` the rest are drawn from (the
    cards the seat cannot place; those not dealt were played unseen)."""

    fixed: tuple[tuple[GofCard, ...], ...]
    missing: tuple[int, ...]
    set_aside: int
    pool: tuple[GofCard, ...]
    capped: int | None = None  # the exchange's loser: his other cards are at most ``cap``
    cap: GofCard | None = None
    extra: GofCard | None = None  # but for the card returned to him, if it may be in his hand


class Seen(NamedTuple):
    """What a seat saw leave the hands: every card (``gone``) and each seat's share."""

    gone: Cards
    by_seat: tuple[Cards, ...]


def first_sight(view: GangOfFourView) -> Seen:
    """What a seat sees of the cards gone from one view alone: the play on the table."""
    by_seat: list[Cards] = [Counter() for _ in range(view.players)]
    if view.current_by is not None:
        by_seat[view.current_by].update(view.current)
    return Seen(Counter(view.current), tuple(by_seat))


class _HandMemory:
    """What one seat saw during one hand: every card it held, and the plays it found on the
    table (each once: a play is named by who made it, what it was and the count it left)."""

    def __init__(self, key: tuple[int, tuple[int, ...]]) -> None:
        self.key = key
        self.held: Cards = Counter()
        self.plays: dict[tuple[int, int, tuple[GofCard, ...]], None] = {}

    def observe(self, view: GangOfFourView) -> None:
        self.held |= Counter(view.cards)
        if view.current and view.current_by is not None:
            by = view.current_by
            self.plays[by, view.card_counts[by], view.current] = None

    def seen(self, view: GangOfFourView, seat: int) -> Seen:
        """The cards the seat knows left every hand: the plays it saw on the table and its
        own plays (the cards it held and holds no longer, but the one it gave back)."""
        own = self.held - Counter(view.cards)
        exchange = view.exchange
        if exchange is not None and exchange.winner == seat and exchange.returned is not None:
            own -= Counter([exchange.returned])
        by_seat: list[Cards] = [Counter() for _ in range(view.players)]
        for by, _left, played in self.plays:
            by_seat[by].update(played)
        own -= by_seat[seat]
        by_seat[seat] += own
        gone: Cards = Counter()
        for cards in by_seat:
            gone += cards
        return Seen(gone, tuple(by_seat))


class GangOfFourModel:
    """The model of ``referee.search.model.GameModel`` for Gang of Four.

    One object serves one bot (it remembers what its seats saw, per seat and per hand);
    ``sample`` must see each of the seat's views in turn to know the cards played so far.
    """

    game = "gang_of_four"

    def __init__(self, temperature: float = 12.0) -> None:
        self.temperature = temperature
        self._memory: dict[int, _HandMemory] = {}
        self._deals: dict[int, tuple[GangOfFourView, Deal]] = {}

    # --- sampling -------------------------------------------------------------------------

    def sample(self, view: GangOfFourView, seat: int, rng: random.Random) -> GangOfFourState:
        """A whole table the seat cannot tell from the real one (module docstring)."""
        if view.phase is Phase.OVER:
            return _state(view, _revealed(view), view.revealed_set_aside, rng)
        deal = self.deal(view, seat)
        hands, set_aside = _draw(deal, rng)
        hands[seat] = tuple(view.cards)
        return _state(view, hands, tuple(sorted(set_aside)), rng)

    def deal(self, view: GangOfFourView, seat: int) -> Deal:
        """The deal a sample of ``view`` draws from (remembered for the view just seen)."""
        cached = self._deals.get(seat)
        if cached is not None and cached[0] is view:
            return cached[1]
        deal = deal_for(view, seat, self._observe(view, seat))
        self._deals[seat] = (view, deal)
        return deal

    def _observe(self, view: GangOfFourView, seat: int) -> Seen:
        key = (view.hand, view.totals)
        memory = self._memory.get(seat)
        if memory is None or memory.key != key:
            memory = self._memory[seat] = _HandMemory(key)
        memory.observe(view)
        seen = memory.seen(view, seat)
        if _unseen(view, seen.gone) is None:
            memory = self._memory[seat] = _HandMemory(key)  # not this game's hand: start over
            memory.observe(view)
            seen = memory.seen(view, seat)
        return seen

    # --- playing out ----------------------------------------------------------------------

    def next_actor(self, state: GangOfFourState, rng: random.Random) -> int:
        """Gang of Four has one seat to act at a time: the turn, or the exchange's winner."""
        if state.phase is Phase.EXCHANGE and state.exchange is not None:
            return state.exchange.winner
        return state.turn

    def playout_move(self, state: GangOfFourState, seat: int, rng: random.Random) -> Move:
        return heuristic_move(state, seat, rng)

    def play_out(
        self, state: GangOfFourState, root: GangOfFourState, rng: random.Random
    ) -> GangOfFourState:
        """Play ``state`` on by the playout policy to the horizon (what IS-MCTS does below
        its tree; the determinized rollouts of :class:`GangOfFourSearchBot` use it)."""
        while not self.horizon(state, root):
            seat = self.next_actor(state, rng)
            state = rules.apply(state, seat, self.playout_move(state, seat, rng))[0]
        return state

    def horizon(self, state: GangOfFourState, root: GangOfFourState) -> bool:
        """The hand is over (a new one dealt, or the game ended)."""
        return state.phase is Phase.OVER or state.hand != root.hand

    def rewards(self, state: GangOfFourState, root: GangOfFourState) -> Sequence[float]:
        """The game's result if it ended, else each seat's chance to win it from the totals."""
        if state.phase is Phase.OVER:
            low = min(state.totals)
            return [1.0 if total == low else 0.0 for total in state.totals]
        return win_chances(state.totals, self.temperature)


class GangOfFourSearchBot(SearchBot):
    """The search bot for Gang of Four: its root cut to the moves worth searching
    (:func:`candidates`; a single candidate is played at once), then either determinized
    rollouts (``flat``, the default) or IS-MCTS over :class:`GangOfFourModel`.

    Determinized rollouts compare the candidates on the *same* samples (each sample is
    played out once after every candidate, by the heuristic policy): the deals differ far
    more than the moves do, so comparing moves on one deal at a time is what separates
    them within a small budget. Ties go to the heuristic's own choice.
    """

    def __init__(self, budget: Budget | None = None, width: int = WIDTH, flat: bool = True) -> None:
        self.gof = GangOfFourModel()
        super().__init__(self.gof, budget)
        self.width = width
        self.flat = flat

    def choose(
        self, view: game_pb2.View, legal: Sequence[game_pb2.Move], rng: random.Random
    ) -> game_pb2.Move | None:
        if len(legal) <= 1:
            return legal[0] if legal else None
        moves = [self.codec.move_from_proto(move) for move in legal]
        seen = self.codec.view_from_proto(view)
        table = self.gof.sample(seen, view.seat, random.Random(0))
        keep = candidates(table, view.seat, moves, self.width)
        if len(keep) == 1:
            return legal[keep[0]]
        shortlist = [moves[index] for index in keep]
        seed = random.Random(rng.getrandbits(64))
        if self.flat:
            preferred = heuristic_move(table, view.seat, seed)
            return legal[keep[self._rollouts(seen, view.seat, shortlist, preferred, seed)]]
        search = Search(self.model, self.game, view.seat, seen, shortlist, self.exploration)
        self.last = search.run(self.budget, seed)
        return legal[keep[self.last.index]]

    def _rollouts(
        self,
        seen: GangOfFourView,
        seat: int,
        shortlist: Sequence[Move],
        preferred: Move,
        rng: random.Random,
    ) -> int:
        """The candidate with the best summed reward over shared samples; the budget's
        iterations count playouts (rounded down to whole rounds, at least one round)."""
        totals = [0.0] * len(shortlist)
        iterations = self.budget.iterations
        rounds = None if iterations is None else max(1, iterations // len(shortlist))
        ends = time.perf_counter() + self.budget.seconds
        done = 0
        while done < 1 or (done < rounds if rounds is not None else time.perf_counter() < ends):
            start = self.gof.sample(seen, seat, rng)
            for index, move in enumerate(shortlist):
                state = self.gof.play_out(rules.apply(start, seat, move)[0], start, rng)
                totals[index] += self.gof.rewards(state, start)[seat]
            done += 1
        return max(range(len(shortlist)), key=lambda i: (totals[i], shortlist[i] == preferred))


def win_chances(totals: Sequence[int], temperature: float) -> list[float]:
    """Each seat's chance to have the lowest total when somebody reaches 100, estimated as
    a softmax of the totals whose temperature grows with the hands still to play (about
    one per 25 points the leader still has to go)."""
    hands_left = max(1.0, (GAME_END_SCORE - max(totals)) / 25.0)
    scale = temperature * math.sqrt(hands_left)
    low = min(totals)
    weights = [math.exp(-(total - low) / scale) for total in totals]
    whole = sum(weights)
    return [weight / whole for weight in weights]


# --- the deal -------------------------------------------------------------------------------


def _unseen(view: GangOfFourView, gone: Cards) -> Cards | None:
    """The deck less the seat's hand and the cards gone; None if they hold more copies of
    a card than the deck does (a memory that is not of this hand)."""
    rest = Counter(DECK)
    rest.subtract(view.cards)
    rest.subtract(gone)
    if any(count < 0 for count in rest.values()):
        return None
    return +rest


def deal_for(view: GangOfFourView, seat: int, seen: Seen) -> Deal:
    """Where the hidden cards of ``view`` can be, given what the seat ``seen`` leave the
    hands (the play on the table among them).

    An exchanged card is placed only where that is certain: its holder has played nothing
    the seat did not see, and no copy of it among that. The loser's ceiling always holds
    (cards only leave a hand), for every card but the one returned to him.
    """
    pool = _unseen(view, seen.gone)
    if pool is None:
        raise ValueError("the seat's hand and the cards gone hold more than the deck")
    players = view.players
    fixed: list[list[GofCard]] = [[] for _ in range(players)]
    missing = [0 if other == seat else view.card_counts[other] for other in range(players)]

    def place(card: GofCard, holder: int) -> bool:
        played = 0 if view.phase is Phase.EXCHANGE else HAND_SIZE - view.card_counts[holder]
        certain = sum(seen.by_seat[holder].values()) >= played and not seen.by_seat[holder][card]
        if holder == seat or not certain or missing[holder] == 0 or pool[card] == 0:
            return holder == seat
        pool[card] -= 1
        missing[holder] -= 1
        fixed[holder].append(card)
        return True

    if view.must_include is not None:
        place(view.must_include, view.turn)
    exchange = view.exchange
    capped, cap, extra = None, None, None
    if exchange is not None:
        if exchange.returned != exchange.given:  # else it went straight back
            place(exchange.given, exchange.winner)
        placed = exchange.returned is None or place(exchange.returned, exchange.loser)
        if exchange.loser != seat:
            capped, cap = exchange.loser, exchange.given
            extra = None if placed else exchange.returned
    return Deal(
        fixed=tuple(tuple(cards) for cards in fixed),
        missing=tuple(missing),
        set_aside=view.set_aside_count,
        pool=tuple(sorted(pool.elements())),
        capped=capped,
        cap=cap,
        extra=extra,
    )


def _draw(deal: Deal, rng: random.Random) -> tuple[list[tuple[GofCard, ...]], list[GofCard]]:
    """Deal the pool: the capped loser first, from the cards no higher than the cap (all
    such deals are equally likely, as each leaves the same number of cards to the rest),
    then every other seat and the set-aside cards."""
    pool = list(deal.pool)
    hands = [list(cards) for cards in deal.fixed]
    missing = list(deal.missing)
    capped, cap = deal.capped, deal.cap
    if capped is not None and cap is not None:
        low = [index for index, card in enumerate(pool) if card <= cap]
        if deal.extra is not None and deal.extra > cap and deal.extra in pool:
            low.append(pool.index(deal.extra))
        if len(low) >= missing[capped]:
            chosen = set(rng.sample(low, missing[capped]))
            hands[capped] += [pool[index] for index in chosen]
            pool = [card for index, card in enumerate(pool) if index not in chosen]
            missing[capped] = 0
    rng.shuffle(pool)
    for other, need in enumerate(missing):
        hands[other] += pool[:need]
        del pool[:need]
    return [tuple(sorted(cards)) for cards in hands], pool[: deal.set_aside]


def _revealed(view: GangOfFourView) -> list[tuple[GofCard, ...]]:
    hands: list[tuple[GofCard, ...]] = [() for _ in range(view.players)]
    for shown in view.revealed_hands:
        hands[shown.seat] = shown.cards
    return hands


def _state(
    view: GangOfFourView,
    hands: Sequence[tuple[GofCard, ...]],
    set_aside: tuple[GofCard, ...],
    rng: random.Random,
) -> GangOfFourState:
    """The engine state of ``view`` with these hands, and a fresh seed for future deals."""
    config = GangOfFourConfig(
        players=view.players,
        auto_announce_last_card=view.auto_announce_last_card,
        rules_revision=RULES_REVISION,
    )
    return GangOfFourState(
        config=config,
        rng=Rng(rng.getrandbits(256).to_bytes(32, "big")),
        hand=view.hand,
        dealer=view.dealer,
        direction=view.direction,
        phase=view.phase,
        hands=tuple(hands),
        set_aside=set_aside,
        turn=view.turn,
        current=classify(view.current) if view.current else None,
        current_by=view.current_by,
        passes=len(view.passed),
        passed=view.passed,
        announced=view.announced,
        out=view.out,
        must_include=view.must_include,
        exchange=view.exchange,
        totals=view.totals,
        results=view.results,
    )


# --- the moves worth searching ---------------------------------------------------------------


def candidates(state: GangOfFourState, seat: int, moves: Sequence[Move], width: int) -> list[int]:
    """The indices of the moves worth a search among ``moves`` (a seat's legal list).

    A 16-card hand leads hundreds of combinations (every flush); IS-MCTS tries each root
    move once before it compares any, so the root is cut to the heuristic's ``width``
    cheapest plays, the cheapest of every kind and size beside them, the pass, and going
    out. Forgetting the last card is never searched (notes 8: it puts the player out of
    the hand). A give-back keeps the ``width`` lowest cards, loose ones first.
    """
    hand = state.hands[seat]
    counts = Counter(card.value for card in hand)
    gives = [i for i, move in enumerate(moves) if isinstance(move, GiveBack)]
    if gives:
        return sorted(gives, key=lambda i: _give_order(moves[i], counts))[:width]
    keep = [i for i, move in enumerate(moves) if isinstance(move, Pass)]
    plays = [
        (i, move)
        for i, move in enumerate(moves)
        if isinstance(move, Play) and (move.announce_last_card or len(hand) - len(move.cards) != 1)
    ]
    danger = _danger(state, seat)
    leading = state.current is None
    ranked = sorted(plays, key=lambda p: (_cost(p[1].cards, counts, danger, leading), p[1].cards))
    kinds: set[tuple[int, int]] = set()
    for rank, (i, play) in enumerate(ranked):
        shape = (len(play.cards), _is_gang(play.cards))
        if rank < width or shape not in kinds or len(play.cards) == len(hand):
            keep.append(i)
        kinds.add(shape)
    return sorted(keep)


def _give_order(move: Move, counts: Counter[int]) -> tuple[bool, GofCard]:
    assert isinstance(move, GiveBack)
    return counts[move.card.value] > 1, move.card


def _danger(state: GangOfFourState, seat: int) -> bool:
    """Whether an opponent still in the hand holds three cards or fewer."""
    return any(
        len(cards) <= 3
        for other, cards in enumerate(state.hands)
        if other != seat and other not in state.out and cards
    )


# --- the playout policy ----------------------------------------------------------------------


def heuristic_move(state: GangOfFourState, seat: int, rng: random.Random) -> Move:
    """The heuristic bot's choice (``referee.bots.gang_of_four.GangOfFourHeuristic``) on an
    engine state: cheapest play that beats the table, low combinations led first, a pass
    rather than a Gang, a Phoenix, the Dragon or a broken set while nobody is close to out."""
    legal = rules.legal_moves(state, seat)
    hand = state.hands[seat]
    counts = Counter(card.value for card in hand)
    gives = [move for move in legal if isinstance(move, GiveBack)]
    if gives:
        return min(gives, key=lambda move: _give_order(move, counts))
    plays = [
        move
        for move in legal
        if isinstance(move, Play) and (move.announce_last_card or len(hand) - len(move.cards) != 1)
    ]
    passes = [move for move in legal if isinstance(move, Pass)]
    if not plays:
        return passes[0] if passes else legal[0]
    for play in plays:
        if len(play.cards) == len(hand):
            return play
    danger = _danger(state, seat)
    leading = state.current is None
    scored = [(_cost(play.cards, counts, danger, leading), play.cards, play) for play in plays]
    cost, cards, choice = min(scored, key=lambda item: (item[0], item[1]))
    if passes and not danger and len(hand) > 5:
        used = Counter(card.value for card in cards)
        breaks = any(n < counts[value] for value, n in used.items())
        expensive = _is_gang(cards) or (len(cards) == 1 and cards[0].value >= 11)
        if expensive or (breaks and cost > 9):
            return passes[0]
    return choice


def _is_gang(cards: Sequence[GofCard]) -> bool:
    return len(cards) >= 4 and cards[0].value == cards[-1].value


def _cost(cards: Sequence[GofCard], counts: Counter[int], danger: bool, leading: bool) -> float:
    """The heuristic bot's cost of a play: its top value, +3 per set it breaks, +12 per
    Gang it breaks, +25 for a Gang, -2 per card it sheds beyond one."""
    used: dict[int, int] = {}
    for card in cards:
        used[card.value] = used.get(card.value, 0) + 1
    gang = len(cards) >= 4 and len(used) == 1
    broken = bombs = 0
    for value, n in used.items():
        held = counts[value]
        broken += n < held
        bombs += held >= 4 and not (gang and n >= 4)
    top = cards[-1].value
    if danger and leading and len(cards) == 1:
        top = 13 - top
    return top + 3.0 * broken + 12.0 * bombs + 25.0 * gang - 2.0 * (len(cards) - 1)


__all__ = [
    "Deal",
    "GangOfFourModel",
    "GangOfFourSearchBot",
    "Seen",
    "candidates",
    "deal_for",
    "first_sight",
    "heuristic_move",
    "win_chances",
]
