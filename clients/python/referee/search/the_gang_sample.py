"""Determinizations of The Gang: whole states a seat cannot tell from the real table.

What a seat does not see (engines.the_gang.view): "Nobody sees another seat's pocket
before its showdown, a card shown by the Informant to someone else, a face-down discard, a
Coordinator pass before it lands, the deck or the seed", nor a pile's order once shuffled,
nor the chips of a round set aside under Blackout ("leg je allemaal je fiches van ronde 1
weg"). Everything else in the view is copied into the sample; the hidden cards are drawn
from the 52 the seat has not seen, so the sample holds exactly the real deck.

The draw is not uniform: it is weighted by what the table said about the hidden pockets.

* Announcements are the truth, computed by the referee (RULES-NOTES 12): a pocket drawn for
  a seat must give the Investor's count of faces, the Math Whiz's sum, the Mastermind's
  count and the Getaway Driver's hand (drawn again, a bounded number of times, until it
  does). The Informant's card, seen by this seat, is in the shower's pocket.
* Chips are each seat's ranking of its own hand ("Het aantal sterren op een fiche staat
  voor de kracht van je hand"): a deal in which a seat holding more stars than another has
  the weaker hand in that round is less likely, by a factor per such pair that grows from
  round 1 (pocket cards only) to round 4 (the whole board). Many deals are drawn once per
  decision and each sample is one of them, picked in proportion to its weight (importance
  resampling, a particle filter over the hidden pockets).
* While the scans' guesses are due every other hand is shown: the top red chip's holder
  is drawn as a hand at least as strong as all of them (otherwise the heist has failed
  whatever the gang guesses).
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import msgspec

from engines.cards import DECK, Card
from engines.poker import evaluate, showdown_key
from engines.rng import Rng
from engines.the_gang import tables
from engines.the_gang.model import (
    BOARD_AFTER_ROUND,
    JACK_CARD,
    RULES_REVISION,
    Announcement,
    AnnouncementKind,
    Challenge,
    Colour,
    Mode,
    Pile,
    Specialist,
    TheGangConfig,
    TheGangState,
)
from engines.the_gang.seen import PileView, TheGangView
from referee.search.the_gang_policy import made_value, strength

PARTICLES = 1024
"""Deals drawn per decision, among which each sample is picked by weight."""
REDRAWS = 200
"""Draws of one pocket before an announcement's constraint is given up."""
DISCORDANCE = {Colour.WHITE: 0.6, Colour.YELLOW: 0.9, Colour.ORANGE: 1.1, Colour.RED: 1.6}
"""Log-likelihood lost per pair of seats whose chips of that round disagree with their
hands (the later the round, the better a seat knows its rank)."""
MADE_HANDS = True
"""Read an earlier round's chips as the hands made then rather than the strengths."""
SCAN_MISS = 0.02
"""Weight of a deal in which the guessed seat is weaker than a hand shown before his."""


@dataclass(frozen=True)
class Deal:
    """One draw of every pocket (seat order), with its weight."""

    pockets: tuple[tuple[Card, ...], ...]
    weight: float


@dataclass(frozen=True)
class Known:
    """What the view fixes: cards in each pocket, and the cards left to draw from."""

    fixed: tuple[tuple[Card, ...], ...]
    sizes: tuple[int, ...]
    pool: tuple[Card, ...]
    checks: tuple[Callable[[tuple[Card, ...]], bool] | None, ...]


def known(view: TheGangView, seat: int) -> Known:
    players = view.players
    fixed: list[list[Card]] = [[] for _ in range(players)]
    fixed[seat] = list(view.pocket)
    for shown in view.shown:
        fixed[shown.seat] = list(shown.pocket)
    use = view.specialist_use
    jack_user = use.seat if view.specialist is Specialist.JACK and use is not None else seat
    if jack_user != seat and JACK_CARD not in fixed[jack_user]:
        fixed[jack_user].append(JACK_CARD)
    for note in view.announcements:
        if (
            note.card is not None
            and note.seat != seat
            and note.card not in fixed[note.seat]
            and len(fixed[note.seat]) < _size(view, note.seat)
        ):
            fixed[note.seat].append(note.card)
    taken = {card for pocket in fixed for card in pocket} | set(view.board)
    pool = tuple(card for card in DECK if card not in taken)
    checks = tuple(
        None if s == seat else _constraint(view, s, _redrawn(view)) for s in range(players)
    )
    return Known(
        tuple(tuple(p) for p in fixed),
        tuple(_size(view, s) for s in range(players)),
        pool,
        checks,
    )


def _size(view: TheGangView, seat: int) -> int:
    if view.pocket_sizes:
        return view.pocket_sizes[seat]
    return 3 if Challenge.SECURITY_CAMERAS in view.challenges else 2


def _redrawn(view: TheGangView) -> frozenset[int] | None:
    """Seats that may have drawn new pocket cards this heist (Motion Detector, Laser
    Tripwires: at the start of round 2); None: any seat may have."""
    redraws = {Challenge.MOTION_DETECTOR, Challenge.LASER_TRIPWIRES} & set(view.challenges)
    if not redraws or view.round < Colour.YELLOW:
        return frozenset()
    white = next((row for row in view.chips if row.colour is Colour.WHITE), None)
    if white is None:
        return None if Colour.WHITE not in view.skipped_colours else frozenset()
    return frozenset(h for h in white.holders if h is not None)


def _constraint(
    view: TheGangView, seat: int, redrawn: frozenset[int] | None
) -> Callable[[tuple[Card, ...]], bool] | None:
    """What the announcements about ``seat`` require of its pocket (None: nothing)."""
    notes = [n for n in view.announcements if n.seat == seat and n.card is None]
    notes = [n for n in notes if n.kind is not AnnouncementKind.INFORMANT]
    if redrawn is None or seat in redrawn:  # said before a redraw: no longer about it
        notes = [n for n in notes if n.kind is AnnouncementKind.GETAWAY_DRIVER]
    if not notes:
        return None
    board = view.board

    def holds(pocket: tuple[Card, ...]) -> bool:
        return all(_says(note, pocket, board) for note in notes)

    return holds


def _says(note: Announcement, pocket: tuple[Card, ...], board: tuple[Card, ...]) -> bool:
    match note.kind:
        case AnnouncementKind.INVESTOR:
            return tables.faces(pocket) == note.number
        case AnnouncementKind.MATH_WHIZ:
            return tables.pip_sum(pocket) == note.number
        case AnnouncementKind.MASTERMIND:
            return sum(card.rank == note.rank for card in pocket) == note.number
        case AnnouncementKind.GETAWAY_DRIVER:  # said at some earlier board
            lengths = {n for n in (0, 3, 4, 5) if n <= len(board)}
            return any(int(tables.hand_so_far(pocket + board[:n])) == note.number for n in lengths)
    return True


def draw_deal(view: TheGangView, seat: int, info: Known, rng: random.Random) -> Deal:
    """Every hidden pocket drawn from the pool (announcements obeyed), and its weight."""
    pool = list(info.pool)
    pockets: list[tuple[Card, ...]] = list(info.fixed)
    order = [s for s in range(view.players) if len(info.fixed[s]) < info.sizes[s]]
    rng.shuffle(order)
    for other in order:
        need = info.sizes[other] - len(info.fixed[other])
        check = info.checks[other]
        for _ in range(REDRAWS if check is not None else 1):
            drawn = tuple(rng.sample(pool, need))
            pocket = info.fixed[other] + drawn
            if check is None or check(pocket):
                break
        for card in drawn:
            pool.remove(card)
        pockets[other] = pocket
    hidden = frozenset(order)
    return Deal(tuple(pockets), chip_weight(view, pockets, hidden) * _scan_weight(view, pockets))


def chip_weight(
    view: TheGangView, pockets: Sequence[tuple[Card, ...]], hidden: frozenset[int]
) -> float:
    """How well the chips on the table fit these pockets: ``exp(-lambda)`` per pair of
    seats (one of them drawn) whose stars in a round order their hands the wrong way."""
    penalty = 0.0
    for row in view.chips:
        board = view.board[: BOARD_AFTER_ROUND[row.colour]]
        held = [(stars, h) for stars, h in enumerate(row.holders, 1) if h is not None]
        if len(held) < 2 or not hidden & {h for _, h in held}:
            continue
        score = _scores(pockets, [h for _, h in held], board)
        wrong = sum(
            1
            for (_, a), (_, b) in itertools.combinations(held, 2)
            if (a in hidden or b in hidden) and score[a] > score[b]
        )
        penalty += DISCORDANCE[row.colour] * wrong
    return math.exp(-penalty)


def _scores(
    pockets: Sequence[tuple[Card, ...]], seats: list[int], board: tuple[Card, ...]
) -> dict[int, float]:
    """Each seat's hand as the seat itself ranked it for its chip: its strength (the
    playout policy's, so the chances to come count before the river); the hand made so
    far when :data:`MADE_HANDS` (cheaper, blind to draws)."""
    if MADE_HANDS and board and all(len(pockets[s]) + len(board) <= 8 for s in seats):
        return {s: float(made_value(pockets[s], board)) for s in seats}
    return {s: strength(pockets[s], board) for s in seats}


def _scan_weight(view: TheGangView, pockets: Sequence[tuple[Card, ...]]) -> float:
    if not view.awaiting_guesses or view.guessed_seat is None or not view.shown:
        return 1.0
    board = view.board
    strongest = max(showdown_key(evaluate(r.pocket + board), r.muscle) for r in view.shown)
    theirs = showdown_key(evaluate(pockets[view.guessed_seat] + board))
    return 1.0 if theirs >= strongest else SCAN_MISS


class Particles:
    """The weighted deals for one decision, drawn once and picked from per sample."""

    def __init__(self, view: TheGangView, seat: int, rng: random.Random, count: int) -> None:
        info = known(view, seat)
        self.deals = [draw_deal(view, seat, info, rng) for _ in range(count)]
        self.cumulative = list(itertools.accumulate(deal.weight for deal in self.deals))
        self.pool = info.pool

    def pick(self, rng: random.Random) -> Deal:
        total = self.cumulative[-1]
        if total <= 0:
            return rng.choice(self.deals)
        index = bisect.bisect_right(self.cumulative, rng.random() * total)
        return self.deals[min(index, len(self.deals) - 1)]


# --- the state ---------------------------------------------------------------------------


def build_state(
    view: TheGangView, seat: int, deal: Deal, rng: random.Random, passing: bool
) -> TheGangState:
    """The whole state for ``deal``: the rest of the hidden cards drawn with ``rng``."""
    players = view.players
    in_pockets = {card for pocket in deal.pockets for card in pocket}
    rest = [card for card in DECK if card not in in_pockets and card not in view.board]
    rng.shuffle(rest)
    discards, deck = rest[: view.discard_count], rest[view.discard_count :]
    config = TheGangConfig(
        players=players,
        confirm_round_end=view.confirm_round_end,
        mode=view.mode,
        rules_revision=RULES_REVISION,
    )
    return TheGangState(
        config=config,
        rng=Rng(rng.randbytes(16)),
        heist=view.heist,
        round=view.round,
        vaults=view.vaults,
        alarms=view.alarms,
        deck=tuple(deck),
        pockets=deal.pockets,
        board=view.board,
        chips=_chips(view, rng),
        confirmed_seats=view.confirmed_seats,
        heists=view.heists,
        finished=view.finished,
        challenge_pile=_pile(view.challenge_pile, _challenge_universe(view), rng),
        specialist_pile=_pile(view.specialist_pile, _specialist_universe(view), rng),
        challenges=view.challenges,
        standing_challenges=view.standing_challenges,
        specialist=view.specialist,
        discards=tuple(discards),
        specialist_use=view.specialist_use,
        pending=view.pending,
        passes=_passes(view, seat, deal, rng) if passing else (),
        proposals=view.proposals,
        next_proposal=max((p.id for p in view.proposals), default=0) + 1,
        announcements=tuple(_announcement(a, deal, rng) for a in view.announcements),
        guesses=view.guesses,
        awaiting_guesses=view.awaiting_guesses,
        red_round_confirmed=True
        if view.round_needs_confirmation and not view.confirm_round_end
        else msgspec.UNSET,
    )


def _chips(view: TheGangView, rng: random.Random) -> tuple[tuple[int | None, ...], ...]:
    """Rows of the view as they are; a row set aside (Blackout) was complete, so some
    order of the seats; rows to come (or skipped) empty."""
    shown = {row.colour: row.holders for row in view.chips}
    rows: list[tuple[int | None, ...]] = []
    for colour in Colour:
        if colour in shown:
            rows.append(shown[colour])
        elif colour in view.set_aside_colours:
            seats: list[int | None] = list(range(view.players))
            rng.shuffle(seats)
            rows.append(tuple(seats))
        else:
            rows.append((None,) * view.players)
    return tuple(rows)


def _challenge_universe(view: TheGangView) -> tuple[int, ...]:
    drop_one = view.mode in (Mode.PROFESSIONAL, Mode.MASTER_THIEF)
    active = set(view.challenges)
    return tuple(c for c in range(1, 11) if c not in active and not (drop_one and c == 1))


def _specialist_universe(view: TheGangView) -> tuple[int, ...]:
    return tuple(c for c in range(1, 11) if c != view.specialist)


def _pile(pile: PileView, universe: tuple[int, ...], rng: random.Random) -> Pile:
    """A known pile as shown; a shuffled one as its cards (every card not in play, when
    that makes its size) in a fresh order."""
    if pile.known:
        return Pile(pile.cards, known=True, card_one_turned=pile.card_one_turned)
    cards = list(universe) if len(universe) == pile.size else rng.sample(universe, pile.size)
    rng.shuffle(cards)
    return Pile(tuple(cards), known=False, card_one_turned=pile.card_one_turned)


def _passes(
    view: TheGangView, seat: int, deal: Deal, rng: random.Random
) -> tuple[Card | None, ...]:
    out: list[Card | None] = []
    for other in range(view.players):
        if other == seat:
            out.append(view.my_pass)
        elif other in view.passed_seats:
            out.append(rng.choice(deal.pockets[other]))
        else:
            out.append(None)
    return tuple(out)


def _announcement(note: Announcement, deal: Deal, rng: random.Random) -> Announcement:
    """An Informant's card this seat did not see: one of the shower's cards."""
    if note.kind is not AnnouncementKind.INFORMANT or note.card is not None:
        return note
    return msgspec.structs.replace(note, card=rng.choice(deal.pockets[note.seat]))


def passing_in_view(view: TheGangView) -> bool:
    """Whether the Coordinator's passes are being chosen, as far as the view tells: a pass
    chosen, or a Coordinator heist whose first chips nobody has taken yet (the view cannot
    tell that from the moment after the last pass; a bot knows from its legal moves)."""
    if view.specialist is not Specialist.COORDINATOR or view.awaiting_guesses:
        return False
    if view.passed_seats or view.my_pass is not None:
        return True
    first = Colour.YELLOW if Colour.WHITE in view.skipped_colours else Colour.WHITE
    if view.round is not first:
        return False
    return all(h is None for row in view.chips for h in row.holders)
