"""What a turn clock plays for a seat of The Gang whose time ran out (issue 17).

The Gang is played at once by every seat, so its clock is a phase clock, and a phase waits
only for some of the seats that may act (:func:`awaited`): a round for the seats without a
chip of its colour ("Zodra iedereen een fiche van de huidige ronde voor zich heeft, eindigt
de ronde") and, where the round must be confirmed, for those that have not confirmed; the
Coordinator's passes for the seats that have not chosen; a card action (Informant, Hacker,
Jack) for the seat that owes it; a scan's guess for the seats that have not accepted it.
A seat holding its chip may still move it, but nobody waits for that.

The default move of a seat, first rule that applies (each the cheapest choice, and never
one that uses a card the seat cannot see):

1. A Coordinator pass still to choose: pass the lowest pocket card.
2. A card action owed: show, or discard, the lowest pocket card it may (the Jack stays).
3. A scan's guess due: accept the open guess it has not accepted; with none open, propose
   the lowest guess (a 2 for the Retina Scan, a high card for the Fingerprint Scan).
4. No chip of the round: take the lowest chip in the centre (the issue's own example).
5. Every chip held and the round waiting for confirmations: confirm.
6. Otherwise the seat has done its part and is not awaited; if asked anyway it changes as
   little as it can: accept a teammate's open proposal, else swap its chip for the free one
   nearest in stars (the lower on a tie), else its first legal move.

A specialist is never proposed (using one is the gang's optional choice). With every
awaited seat playing these moves a round ends in one pass of the seats, a heist in a few,
and the game within at most five heists.
"""

from __future__ import annotations

from collections.abc import Iterable

from engines.base import Seat
from engines.cards import Card
from engines.checks import check_seat, check_to_act
from engines.errors import MoveError
from engines.the_gang import flow, rules, tables
from engines.the_gang.decisions import matter_of, required_seats
from engines.the_gang.model import (
    JACK_CARD,
    SCANS,
    Challenge,
    Decision,
    GuessHand,
    GuessRank,
    PendingKind,
    Proposal,
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

LOWEST_GUESS: dict[Challenge, Decision] = {
    Challenge.RETINA_SCAN: GuessRank(2),
    Challenge.FINGERPRINT_SCAN: GuessHand(1),
}


def awaited(state: TheGangState) -> frozenset[Seat]:
    """The seats of ``to_act`` the table is waiting for (see the module docstring)."""
    acting = rules.to_act(state)
    if not acting:
        return acting
    if state.passes:
        seats = {seat for seat, card in enumerate(state.passes) if card is None}
    else:
        seats = {owed.seat for owed in state.pending}
        if state.awaiting_guesses:
            seats |= _guessers(state)
        else:
            seats |= _chipless(state)
            if flow.needs_confirmation(state) and flow.all_hold_a_chip(state):
                seats |= set(range(state.config.players)) - set(state.confirmed_seats)
    return (frozenset(seats) & acting) or acting


def default_move(state: TheGangState, seat: object) -> Move:
    """The move the clock plays for ``seat`` (see the module docstring)."""
    seat = check_seat(seat, state.config.players, over=state.finished)
    check_to_act(seat, rules.to_act(state))
    for choose in (_card_action, _guess, _chip):
        move = _first_legal(state, seat, choose(state, seat))
        if move is not None:
            return move
    return _done(state, seat)


def _first_legal(state: TheGangState, seat: Seat, candidates: Iterable[Move]) -> Move | None:
    for move in candidates:
        try:
            rules.check(state, seat, move)
        except MoveError:
            continue
        return move
    return None


def _low_first(pocket: tuple[Card, ...]) -> list[Card]:
    """Lowest rank first, then suit (the suitless Jack card before a suited jack)."""
    return sorted(pocket, key=lambda card: (card.rank, card.suit.value if card.suit else ""))


def _card_action(state: TheGangState, seat: Seat) -> list[Move]:
    pocket = _low_first(state.pockets[seat])
    if state.passes:
        return [PassCard(card) for card in pocket] if state.passes[seat] is None else []
    moves: list[Move] = []
    for owed in state.pending:
        if owed.seat != seat:
            continue
        if owed.kind is PendingKind.SHOW_CARD:
            moves += [ShowCard(card) for card in pocket]
        else:
            moves += [DiscardCard(card) for card in pocket if card != JACK_CARD]
    return moves


def _open_guess(state: TheGangState, scan: Challenge) -> Proposal | None:
    return next((p for p in state.proposals if matter_of(p.decision) == scan), None)


def _due_scans(state: TheGangState) -> list[Challenge]:
    guessed = {guess.challenge for guess in state.guesses}
    return [scan for scan in SCANS if state.active(scan) and scan not in guessed]


def _guessers(state: TheGangState) -> set[Seat]:
    seats: set[Seat] = set()
    for scan in _due_scans(state):
        required = required_seats(state, LOWEST_GUESS[scan])
        proposal = _open_guess(state, scan)
        seats |= required - set(proposal.accepted) if proposal else required
    return seats


def _guess(state: TheGangState, seat: Seat) -> list[Move]:
    if not state.awaiting_guesses or seat == tables.top_red_seat(state):
        return []
    moves: list[Move] = []
    for scan in _due_scans(state):
        proposal = _open_guess(state, scan)
        if proposal is None:
            moves.append(Propose(LOWEST_GUESS[scan]))
        elif seat not in proposal.accepted:
            moves.append(Accept(proposal.id))
    return moves


def _chipless(state: TheGangState) -> set[Seat]:
    return set(range(state.config.players)) - set(state.chips[state.round])


def _chip(state: TheGangState, seat: Seat) -> list[Move]:
    if state.awaiting_guesses or state.passes:
        return []
    row = state.chips[state.round]
    if seat not in row:
        return [TakeChip(state.round, stars) for stars, h in enumerate(row, 1) if h is None]
    if flow.needs_confirmation(state) and seat not in state.confirmed_seats:
        return [ConfirmRoundEnd()]
    return []


def _done(state: TheGangState, seat: Seat) -> Move:
    """A seat nobody waits for: accept, else the nearest free chip, else anything legal."""
    moves: list[Move] = [Accept(p.id) for p in state.proposals if seat not in p.accepted]
    row = state.chips[state.round]
    if seat in row:
        own = row.index(seat) + 1
        free = [stars for stars, holder in enumerate(row, 1) if holder is None]
        free.sort(key=lambda stars: (abs(stars - own), stars))
        moves += [TakeChip(state.round, stars) for stars in free]
    move = _first_legal(state, seat, moves)
    if move is not None:
        return move
    return rules.legal_moves(state, seat)[0]
