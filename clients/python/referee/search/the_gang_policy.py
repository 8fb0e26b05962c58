"""The Gang's playout policy: what a gang member does from its own cards and the table.

The seed: "Het aantal sterren op een fiche staat voor de kracht van je hand [...] Pak je
het fiche met de meeste sterren, dan geef je aan dat je denkt dat jij op dit moment de
sterkste hand hebt." So a simulated seat ranks its own hand (its chance to beat one random
pocket once the board is complete, :func:`strength`), reads the others' chips as their
own rankings, and takes the free chip nearest its expected place among the seats. It never
takes a chip from a teammate (so every simulated round ends), never proposes a specialist
(it accepts what is proposed), and makes the card actions the cheap way: show the highest
card, pass the lowest, discard the one whose loss hurts least. A scan's guess is the value
most often right in pockets drawn from the cards it cannot see, strong enough for the top
red chip.

Everything here reads only what the acting seat may know: its own pocket, the board, the
chips, the hands already shown. Strengths are deterministic (a draw seeded by the cards)
and cached, so the same seat in the same position always makes the same move.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import random
from collections import Counter
from collections.abc import Sequence

from engines.cards import DECK, Card
from engines.poker import card_mask, evaluate, rank_mask, rank_masks, rank_value, showdown_key
from engines.the_gang import flow, tables
from engines.the_gang.decisions import matter_of, required_seats
from engines.the_gang.model import (
    JACK_CARD,
    SCANS,
    Challenge,
    Decision,
    GuessHand,
    GuessRank,
    PendingKind,
    TheGangState,
)
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

SAMPLES = 48
"""Random completions per strength estimate (after the flop, and for three-card pockets;
two-card pockets preflop use more: there are few of them, each estimated once)."""
PREFLOP_SAMPLES = 160
GUESS_SAMPLES = 60
_BITS: dict[Card, int] = {card: card_mask(card) for card in DECK}
_JACKS = tuple(card for card in DECK if card.rank == 11)
_SOFTNESS = 6.0
"""How sharply a chip read from an earlier round separates hands (logistic slope)."""


def plain(pocket: Sequence[Card], board: Sequence[Card]) -> tuple[Card, ...]:
    """``pocket`` with the suitless Jack card as a jack nobody holds here (an estimate:
    it may count a flush the Jack cannot make), and at most three cards (a Hacker's seat
    briefly holds one more)."""
    taken = set(pocket) | set(board)
    out: list[Card] = []
    for card in pocket:
        if card == JACK_CARD:
            card = next((jack for jack in _JACKS if jack not in taken), _JACKS[0])
            taken.add(card)
        out.append(card)
    return tuple(out[-3:]) if len(out) > 3 else tuple(out)


def strength(pocket: Sequence[Card], board: Sequence[Card]) -> float:
    """The chance that ``pocket`` beats one random other pocket of as many cards once the
    board is complete (a tie counts half): the seat's own ranking of its hand."""
    cards = plain(pocket, board)
    return _strength(tuple(sorted(cards)), tuple(sorted(board)))


@functools.lru_cache(maxsize=1 << 17)
def _strength(pocket: tuple[Card, ...], board: tuple[Card, ...]) -> float:
    used = 0
    for card in (*pocket, *board):
        used |= _BITS[card]
    if len(board) == 5 and len(pocket) == 2:
        return _river_strength(used, board)
    rest = [bit for bit in _BITS.values() if not used & bit]
    need, size = 5 - len(board), len(pocket)
    base = sum(_BITS[card] for card in board)
    mine_bits = sum(_BITS[card] for card in pocket)
    mine: list[int] = []
    theirs: list[int] = []
    samples = PREFLOP_SAMPLES if not board and size == 2 else SAMPLES
    for window in _windows(len(rest), need + size, samples):
        full = base + sum(rest[i] for i in window[:need])
        mine.append(full + mine_bits)
        theirs.append(full + sum(rest[i] for i in window[need:]))
    score = 0.0
    for a, b in zip(rank_masks(mine), rank_masks(theirs), strict=True):
        score += 1.0 if a > b else 0.5 if a == b else 0.0
    return score / len(mine)


@functools.lru_cache(maxsize=256)
def _windows(cards: int, drawn: int, samples: int) -> tuple[tuple[int, ...], ...]:
    """Fixed random draws of ``drawn`` distinct indices among ``cards``: every estimate
    with the same shape uses the same draws (common random numbers, so two hands are
    compared on the same boards, and no RNG is seeded per estimate)."""
    rng = random.Random(f"{cards}/{drawn}/{samples}")
    return tuple(tuple(rng.sample(range(cards), drawn)) for _ in range(samples))


def _river_strength(used: int, board: tuple[Card, ...]) -> float:
    """On a complete board, the exact share of two-card pockets the hand beats (a tie
    counts half; pockets that share a card with it are counted too, a small bias)."""
    values = _river_values(board)
    mine = rank_mask(used)
    below = bisect.bisect_left(values, mine)
    above = bisect.bisect_right(values, mine)
    return (below + above) / (2 * len(values))


@functools.lru_cache(maxsize=512)
def _river_values(board: tuple[Card, ...]) -> list[int]:
    """Every two-card pocket's hand on ``board``, sorted."""
    base = sum(_BITS[card] for card in board)
    rest = [bit for bit in _BITS.values() if not base & bit]
    return sorted(rank_masks(base + a + b for a, b in itertools.combinations(rest, 2)))


def made_value(pocket: Sequence[Card], board: Sequence[Card]) -> int:
    """The hand made so far (5 to 8 cards), comparable across seats on one board."""
    return rank_value(plain(pocket, board) + tuple(board))


# --- chips ---------------------------------------------------------------------------


def expected_place(state: TheGangState, seat: int, mine: float) -> float:
    """``seat``'s expected place among the seats (1 = weakest) for a hand of strength
    ``mine``: each other seat's latest visible chip is its own ranking of its hand."""
    players = state.config.players
    rows = [(c, state.chips[c]) for c in reversed(tables.visible_rounds(state))]
    place = 1.0
    for other in range(players):
        if other == seat:
            continue
        read = next(((c, row.index(other)) for c, row in rows if other in row), None)
        if read is None:
            place += mine
            continue
        colour, index = read
        theirs = index / max(1, players - 1)
        slope = _SOFTNESS * (3.0 if colour == state.round else 1.0)
        place += 1.0 / (1.0 + pow(2.718281828, -slope * (mine - theirs)))
    return place


def chip_choice(state: TheGangState, seat: int) -> TakeChip | None:
    """The free chip nearest the seat's expected place (the lower on a tie)."""
    row = state.chips[state.round]
    free = [stars for stars, holder in enumerate(row, 1) if holder is None]
    if not free or seat in row:
        return None
    mine = strength(state.pockets[seat], state.board)
    place = expected_place(state, seat, mine)
    stars = min(free, key=lambda s: (abs(s - place), s))
    return TakeChip(state.round, stars)


# --- card actions and guesses ----------------------------------------------------------


def card_action(state: TheGangState, seat: int) -> Move | None:
    pocket = state.pockets[seat]
    if state.passes:
        if state.passes[seat] is not None:
            return None
        return PassCard(min(pocket, key=lambda c: strength((c,), state.board)))
    for owed in state.pending:
        if owed.seat != seat:
            continue
        if owed.kind is PendingKind.SHOW_CARD:
            return ShowCard(max(pocket))
        options = [card for card in pocket if card != JACK_CARD]
        return DiscardCard(max(options, key=lambda c: _kept(pocket, c, state.board)))
    return None


def _kept(pocket: Sequence[Card], card: Card, board: Sequence[Card]) -> float:
    rest = list(pocket)
    rest.remove(card)
    return strength(rest, board)


def due_scans(state: TheGangState) -> list[Challenge]:
    guessed = {guess.challenge for guess in state.guesses}
    return [scan for scan in SCANS if state.active(scan) and scan not in guessed]


def guess_counts(
    state: TheGangState, seat: int, scan: Challenge, rng: random.Random, samples: int
) -> Counter[int]:
    """How often each guess is right about the top red chip's holder, over pockets drawn
    from what ``seat`` cannot see and at least as strong as every hand shown before."""
    target = tables.top_red_seat(state)
    assert target is not None
    shown = [s for s in range(state.config.players) if s != target]
    seen = set(state.board) | {card for s in shown for card in state.pockets[s]}
    unseen = [card for card in DECK if card not in seen]
    strongest = max(showdown_key(evaluate(state.pockets[s] + state.board)) for s in shown)
    size = len(state.pockets[target])
    counts: Counter[int] = Counter()
    fallback: Counter[int] = Counter()
    for _ in range(samples):
        pocket = tuple(rng.sample(unseen, size))
        value = evaluate(pocket + state.board)
        right = (
            {card.rank for card in pocket}
            if scan is Challenge.RETINA_SCAN
            else {int(value.category)}
        )
        target_counts = counts if showdown_key(value) >= strongest else fallback
        target_counts.update(right)
    return counts or fallback


def guess_decision(scan: Challenge, value: int) -> Decision:
    return GuessRank(value) if scan is Challenge.RETINA_SCAN else GuessHand(value)


def guess_move(state: TheGangState, seat: int, rng: random.Random) -> Move | None:
    """Accept the open guess, else propose the most likely one for a due scan."""
    if not state.awaiting_guesses or seat == tables.top_red_seat(state):
        return None
    for scan in due_scans(state):
        open_ = next((p for p in state.proposals if matter_of(p.decision) == scan), None)
        if open_ is not None:
            if seat not in open_.accepted:
                return Accept(open_.id)
            continue
        counts = guess_counts(state, seat, scan, rng, GUESS_SAMPLES)
        value = max(counts, key=lambda v: (counts[v], -v))
        return Propose(guess_decision(scan, value))
    return None


def policy_move(state: TheGangState, seat: int, rng: random.Random) -> Move | None:
    """The policy's move for ``seat``, or None when it would rather wait (then the caller
    falls back on the engine's default move)."""
    move = card_action(state, seat)
    if move is not None:
        return move
    move = guess_move(state, seat, rng)
    if move is not None:
        return move
    for proposal in state.proposals:
        if seat in required_seats(state, proposal.decision) and seat not in proposal.accepted:
            return Accept(proposal.id)
    if state.awaiting_guesses or state.passes:
        return None
    move = chip_choice(state, seat)
    if move is not None:
        return move
    row = state.chips[state.round]
    if (
        seat in row
        and seat not in state.confirmed_seats
        and flow.needs_confirmation(state)
        and flow.all_hold_a_chip(state)
    ):
        return ConfirmRoundEnd()
    return None
