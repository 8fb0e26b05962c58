"""Bots and helpers for The Gang's modes (challenge and specialist cards).

* :func:`gang_play` — an all-seeing gang that also makes every group decision and card
  action: it proposes the active specialist's use (sometimes a decoy first, which it then
  supersedes or withdraws), accepts, agrees on the scan guesses (right in a heist it plays to
  win, wrong in one it plays to lose), shows, discards and passes cards, and holds the red
  chips in the true order (or reversed). Deterministic given its ``random.Random``, so the
  golden transcripts and the mode-flow tests can steer heists to success or failure.
* :func:`random_play` — a blind random player for the property tests: any legal move, biased
  so games end (owed card actions and acceptances come often, chips are taken from the
  centre by seats without one).

The gang ranks hands with the engine's own evaluator (it must handle the Jack card, eight
cards and the Muscle); the independent check against eval7 lives in the playout tests.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from engines.cards import Card
from engines.poker import ShowdownKey, evaluate, showdown_key
from engines.the_gang import GAME, ConfirmRoundEnd, Move, ReturnChip, TakeChip
from engines.the_gang.flow import needs_confirmation
from engines.the_gang.model import (
    AUTOMATIC_SPECIALISTS,
    JACK_CARD,
    SCANS,
    Challenge,
    Colour,
    Decision,
    GuessHand,
    GuessRank,
    Mode,
    PendingKind,
    PileStart,
    Specialist,
    TheGangState,
    UseSpecialist,
)
from engines.the_gang.moves import (
    Accept,
    DiscardCard,
    PassCard,
    Propose,
    ShowCard,
    Withdraw,
)
from engines.the_gang.view import PileView
from tests.the_gang.support import SEED, ends_round

Play = tuple[int, Move]
MODES = tuple(Mode)
CARD_MODES = (Mode.ADVANCED, Mode.PROFESSIONAL, Mode.MASTER_THIEF)


def mode_game(players: int, mode: Mode | str, seed: bytes = SEED, **options: Any) -> TheGangState:
    """A fresh table in ``mode`` through the public factory functions."""
    config = GAME.make_config(players, {"mode": str(mode), **options})
    return GAME.new_game(config, seed)


def continued(pile: PileView) -> PileStart:
    """How a finished game's pile (from its view) starts the next game."""
    return PileStart(
        cards=pile.cards, card_one_turned=pile.card_one_turned, shuffled=not pile.known
    )


def top_red_seat(state: TheGangState) -> int | None:
    return state.chips[Colour.RED][state.config.players - 1]


def rank_of(card: Card) -> int:
    return card.rank


# --- hand strength as the gang sees it (the engine's evaluator) ------------------------


def _muscle_seat(state: TheGangState) -> int | None:
    if state.specialist is Specialist.MUSCLE and state.specialist_use is not None:
        return state.specialist_use.seat
    return None


def hand_key(state: TheGangState, seat: int) -> tuple[Any, ...]:
    """How strong ``seat``'s hand is now; pre-flop, the pocket alone (sets first)."""
    pocket = state.pockets[seat]
    if len(state.board) < 3:
        counts = Counter(card.rank for card in pocket)
        shape = sorted(counts.values(), reverse=True)
        ranks = sorted((card.rank for card in pocket), key=lambda r: (-counts[r], -r))
        return (0, tuple(shape), tuple(ranks))
    key: ShowdownKey = showdown_key(
        evaluate(pocket + state.board), muscle=seat == _muscle_seat(state)
    )
    return (1, key)


def gang_stars(state: TheGangState, reverse: bool = False) -> list[int]:
    """The chip each seat should hold now (ties to the lower seat first)."""
    players = state.config.players
    order = sorted(range(players), key=lambda seat: (hand_key(state, seat), seat))
    stars = [0] * players
    for position, seat in enumerate(order):
        stars[seat] = position + 1
    if reverse:
        stars = [players + 1 - s for s in stars]
    return stars


# --- the decisions the gang means to take ---------------------------------------------


def intended_use(state: TheGangState) -> UseSpecialist | None:
    """The specialist use the gang settles on this heist (None: nothing to decide)."""
    specialist = state.specialist
    if (
        specialist is None
        or specialist in AUTOMATIC_SPECIALISTS
        or state.specialist_use is not None
    ):
        return None
    players = state.config.players
    seat = (state.heist * 7 + len(state.heists)) % players
    if specialist is Specialist.INFORMANT:
        return UseSpecialist(seat, viewer=(seat + 1 + state.heist % (players - 1)) % players)
    if specialist is Specialist.MASTERMIND:
        return UseSpecialist(seat, rank=2 + (state.heist * 5) % 13)
    return UseSpecialist(seat)


def decoy_use(state: TheGangState, use: UseSpecialist) -> UseSpecialist:
    """Another valid use the gang may propose first and then replace."""
    players = state.config.players
    seat = (use.seat + 1) % players
    if use.viewer is not None:
        viewer = use.seat if use.seat != seat else (seat + 1) % players
        return UseSpecialist(seat, viewer=viewer)
    return UseSpecialist(seat, rank=use.rank)


def intended_guess(state: TheGangState, scan: Challenge, right: bool) -> Decision:
    """The scan guess about the top red chip's holder: right or (on purpose) wrong."""
    seat = top_red_seat(state)
    assert seat is not None
    pocket = state.pockets[seat]
    if scan is Challenge.RETINA_SCAN:
        ranks = sorted({card.rank for card in pocket})
        if right:
            return GuessRank(ranks[len(ranks) // 2])
        return GuessRank(next(r for r in range(2, 15) if r not in ranks))
    category = int(evaluate(pocket + state.board).category)
    if right:
        return GuessHand(category)
    return GuessHand(category + 1 if category < 10 else 1)


def _matter(decision: Decision) -> Challenge | None:
    if isinstance(decision, GuessRank):
        return Challenge.RETINA_SCAN
    if isinstance(decision, GuessHand):
        return Challenge.FINGERPRINT_SCAN
    return None


def _required(state: TheGangState, decision: Decision) -> list[int]:
    seats = list(range(state.config.players))
    if _matter(decision) is None:
        return seats
    return [seat for seat in seats if seat != top_red_seat(state)]


def _decision_play(state: TheGangState, rnd: random.Random, want: Decision, dither: float) -> Play:
    """Drive one matter toward ``want``: accept it, replace or withdraw a decoy, propose."""
    matter = _matter(want)
    open_ = [p for p in state.proposals if _matter(p.decision) == matter]
    required = _required(state, want)
    if open_:
        proposal = open_[0]
        if proposal.decision == want:
            waiting = [seat for seat in required if seat not in proposal.accepted]
            return rnd.choice(waiting), Accept(proposal.id)
        if rnd.random() < 0.5:
            return proposal.proposer, Withdraw(proposal.id)
        return rnd.choice([s for s in required if s != proposal.proposer]), Propose(want)
    proposer = rnd.choice(required)
    if rnd.random() < dither:
        decoy: Decision
        if isinstance(want, UseSpecialist):
            decoy = decoy_use(state, want)
        elif isinstance(want, GuessRank):
            decoy = GuessRank(2 + (want.rank - 1) % 13)
        else:
            decoy = GuessHand(1 + want.category % 10)
        if decoy != want:
            return proposer, Propose(decoy)
    return proposer, Propose(want)


def _card_action(state: TheGangState, rnd: random.Random) -> Play | None:
    """A card the rules ask a seat to pass, show or discard."""
    for seat, chosen in enumerate(state.passes):
        if chosen is None:
            return seat, PassCard(rnd.choice(state.pockets[seat]))
    for owed in state.pending:
        pocket = state.pockets[owed.seat]
        if owed.kind is PendingKind.SHOW_CARD:
            return owed.seat, ShowCard(rnd.choice(pocket))
        # Hacker, Jack: keep the strongest cards, never the Jack card itself.
        choices = sorted((card for card in pocket if card != JACK_CARD), key=rank_of)
        return owed.seat, DiscardCard(choices[0])
    return None


def _chip_play(state: TheGangState, rnd: random.Random, reverse: bool, hesitate: float) -> Play:
    players = state.config.players
    row = state.chips[state.round]
    stars = gang_stars(state, reverse)
    right = tuple(stars.index(s) for s in range(1, players + 1))
    red = state.round == Colour.RED

    def legal(seat: int, move: Move) -> bool:
        return GAME.is_legal(state, seat, move)

    def safe(seat: int, move: Move) -> bool:
        ends, final = ends_round(state, seat, move)
        return not red or not ends or final == right

    if rnd.random() < hesitate:
        seat = rnd.randrange(players)
        chips = [
            move
            for move in GAME.legal_moves(state, seat)
            if isinstance(move, TakeChip | ReturnChip)
        ]
        if chips:
            move = rnd.choice(chips)
            if safe(seat, move):
                return seat, move
    if None not in row and needs_confirmation(state) and (not red or row == right):
        waiting = [seat for seat in range(players) if seat not in state.confirmed_seats]
        return rnd.choice(waiting), ConfirmRoundEnd()
    fixes: list[Play] = [
        (seat, TakeChip(state.round, stars[seat]))
        for seat in range(players)
        if row[stars[seat] - 1] != seat
    ]
    fixes = [play for play in fixes if legal(*play) and safe(*play)]
    if fixes:
        return rnd.choice(fixes)
    # Dark chips (Noise Sensors, Ventilation Shaft) can block the true order before the
    # river; only the red chips count, so any chip from the centre will do.
    free = [s for s in range(1, players + 1) if row[s - 1] is None]
    seat = rnd.choice([seat for seat in range(players) if seat not in row])
    return seat, TakeChip(state.round, rnd.choice(free))


def gang_play(
    state: TheGangState,
    rnd: random.Random,
    reverse: bool = False,
    hesitate: float = 0.0,
    dither: float = 0.25,
) -> Play:
    """The all-seeing gang's next move (see the module's docstring).

    ``reverse``: play this heist to lose (reversed red chips, wrong scan guesses).
    ``dither``: the chance of proposing a decoy before the decision the gang means.
    """
    action = _card_action(state, rnd)
    if action is not None:
        return action
    if state.awaiting_guesses:
        guessed = {guess.challenge for guess in state.guesses}
        for scan in SCANS:
            if state.active(scan) and scan not in guessed:
                want = intended_guess(state, scan, right=not reverse)
                return _decision_play(state, rnd, want, dither)
    use = intended_use(state)
    when = Colour((state.heist + state.config.players) % 3)  # decide in round 1, 2 or 3
    if use is not None and (when <= state.round < Colour.RED or state.proposals):
        return _decision_play(state, rnd, use, dither)
    return _chip_play(state, rnd, reverse, hesitate)


def play_heist(
    state: TheGangState, rnd: random.Random, win: bool, hesitate: float = 0.0
) -> tuple[TheGangState, list[Play], list[Any]]:
    """Play the current heist to its end with the gang, playing to ``win`` or to lose."""
    heist = state.heist
    plays: list[Play] = []
    events: list[Any] = []
    while state.heist == heist and not state.finished:
        play = gang_play(state, rnd, reverse=not win, hesitate=hesitate)
        state, more = GAME.apply(state, *play)
        plays.append(play)
        events += more
    return state, plays, events


def play_game(
    state: TheGangState, plan: str, rnd: random.Random, hesitate: float = 0.0
) -> list[Play]:
    """The plays of a whole game by the gang; ``plan`` has a W or L per heist (the last
    letter repeats)."""
    plays: list[Play] = []
    while not state.finished:
        win = plan[min(state.heist, len(plan)) - 1] == "W"
        state, more, _ = play_heist(state, rnd, win, hesitate)
        plays += more
    return plays


# --- the blind random player -------------------------------------------------------------


def _kind(move: Move) -> str:
    return type(move).__name__


def random_play(state: TheGangState, rnd: random.Random) -> Play:
    """A random legal move, biased so the game ends (see the module's docstring)."""
    players = state.config.players
    owed = [p.seat for p in state.pending] + [s for s, c in enumerate(state.passes) if c is None]
    if owed and rnd.random() < 0.7:
        seat = rnd.choice(owed)
        cards = [
            move
            for move in GAME.legal_moves(state, seat)
            if isinstance(move, ShowCard | DiscardCard | PassCard)
        ]
        return seat, rnd.choice(cards)
    if state.proposals and rnd.random() < 0.6:
        proposal = rnd.choice(state.proposals)
        waiting = [s for s in _required(state, proposal.decision) if s not in proposal.accepted]
        return rnd.choice(waiting), Accept(proposal.id)
    row = state.chips[state.round]
    if (
        needs_confirmation(state)
        and None not in row
        and not state.awaiting_guesses
        and rnd.random() < 0.8
    ):
        waiting = [seat for seat in range(players) if seat not in state.confirmed_seats]
        if waiting:
            return rnd.choice(waiting), ConfirmRoundEnd()
    seats = list(range(players))
    rnd.shuffle(seats)
    seat, legal = seats[0], GAME.legal_moves(state, seats[0])
    for other in seats[1:]:  # a seat may have nothing to do (passed, or the guessed one)
        if legal:
            break
        seat, legal = other, GAME.legal_moves(state, other)
    centre = [
        move
        for move in legal
        if isinstance(move, TakeChip) and row[move.stars - 1] is None and seat not in row
    ]
    if centre and rnd.random() < 0.8:
        return seat, rnd.choice(centre)
    kinds = sorted({_kind(move) for move in legal})
    kind = rnd.choice(kinds)
    return seat, rnd.choice([move for move in legal if _kind(move) == kind])
