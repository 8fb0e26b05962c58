"""Group decisions and the card actions the specialists ask of one seat.

Seed: "Bij andere specialisten bepaal je samen wie de kaart gebruikt en wanneer. Iedere
speler mag op elk moment voor de onthulling voorstellen om de specialist in te zetten.
Gaan de anderen akkoord, dan gebruik je hem." Scans: "overleggen de andere spelers. Samen
kiezen ze [...] De speler zelf doet niet mee".

So: any seat proposes (and so accepts its own proposal); a decision takes effect once every
required seat has accepted — every seat for a specialist, every seat but the top red chip's
holder for a scan guess. A new proposal on the same matter replaces the open one, and a
proposer may withdraw his. What a specialist makes someone say is computed here from the
true cards, so nobody can lie.

Specialists quoted:

* Informant: "Kies samen een speler die in het geheim precies één van zijn handkaarten aan
  één andere speler laat zien." The gang chooses both seats; the shower picks the card.
* Vluchtautochauffeur: "vertelt aan iedereen welke pokerhand hij op dit moment heeft".
* Brein: "Kies samen een speler en een kaartwaarde. Die speler vertelt aan iedereen hoeveel
  kaarten van die waarde hij in zijn hand heeft."
* Hacker: "neemt de bovenste kaart van de stapel bij zijn handkaarten. Daarna legt hij een
  van zijn handkaarten dicht op de aflegstapel. Dat mag ook de kaart zijn die hij net heeft
  getrokken."
* Jack: "neemt deze specialistkaart bij zijn handkaarten. Daarna legt hij een van zijn
  andere handkaarten dicht op de aflegstapel."
* Spierbundel: "Kies samen een speler die deze specialistkaart voor zich legt." (see
  ``showdown``)
"""

from __future__ import annotations

import msgspec.structs

from engines.base import Seat
from engines.cards import Card, Suit
from engines.checks import unchecked
from engines.errors import IllegalMoveError, InvalidMoveError
from engines.poker import Category
from engines.the_gang import tables
from engines.the_gang.events import (
    Announced,
    CardDiscarded,
    CardDrawn,
    CardPassed,
    DecisionTaken,
    Event,
    JackTaken,
    PassChosen,
    ProposalAccepted,
    ProposalMade,
    ProposalWithdrawn,
)
from engines.the_gang.model import (
    AUTOMATIC_SPECIALISTS,
    JACK_CARD,
    Announcement,
    AnnouncementKind,
    Challenge,
    Decision,
    GuessHand,
    GuessRank,
    Pending,
    PendingKind,
    Proposal,
    ScanGuess,
    Specialist,
    TheGangState,
    UseSpecialist,
)
from engines.the_gang.moves import (
    Accept,
    DiscardCard,
    Move,
    PassCard,
    Propose,
    ShowCard,
    Withdraw,
)

RANKS = range(2, 15)
CATEGORIES = range(int(Category.HIGH_CARD), int(Category.ROYAL_FLUSH) + 1)
Matter = Challenge | None
"""What a proposal decides: the specialist's use (None) or a scan's guess."""


def matter_of(decision: Decision) -> Matter:
    if isinstance(decision, GuessRank):
        return Challenge.RETINA_SCAN
    if isinstance(decision, GuessHand):
        return Challenge.FINGERPRINT_SCAN
    return None


def required_seats(state: TheGangState, decision: Decision) -> frozenset[int]:
    seats = frozenset(range(state.config.players))
    if matter_of(decision) is None:
        return seats
    return seats - {tables.top_red_seat(state)}


def _seat(value: object, what: str, players: int) -> int:
    if type(value) is not int or not 0 <= value < players:
        raise InvalidMoveError("SEAT_OUT_OF_RANGE", f"{what} must be a seat of this table")
    return value


def _check_shape(state: TheGangState, decision: Decision) -> None:
    """What a decision must carry (the card it is about is checked with the state)."""
    sent = unchecked(decision)
    match decision:
        case UseSpecialist():
            _seat(sent.seat, "the seat using the specialist", state.config.players)
            if sent.viewer is not None:
                _seat(sent.viewer, "the viewer", state.config.players)
            if sent.rank is not None and (type(sent.rank) is not int or sent.rank not in RANKS):
                raise InvalidMoveError("RANK_OUT_OF_RANGE", "a card value is 2..14 (ace 14)")
        case GuessRank():
            if type(sent.rank) is not int or sent.rank not in RANKS:
                raise InvalidMoveError("GUESS_OUT_OF_RANGE", "guess a card value 2..14 (ace 14)")
        case GuessHand():
            if type(sent.category) is not int or sent.category not in CATEGORIES:
                raise InvalidMoveError(
                    "GUESS_OUT_OF_RANGE", "guess a poker hand 1 (high card) .. 10 (royal flush)"
                )
        case _:
            raise InvalidMoveError("UNKNOWN_DECISION", "not a decision of The Gang")


def _check_specialist_use(state: TheGangState, use: UseSpecialist) -> None:
    specialist = state.specialist
    if specialist is None:
        raise IllegalMoveError("NO_SPECIALIST", "no specialist is active this heist")
    if specialist in AUTOMATIC_SPECIALISTS:
        raise IllegalMoveError(
            "SPECIALIST_AUTOMATIC", f"the {specialist.name.lower()} works for everyone"
        )
    if state.specialist_use is not None:
        raise IllegalMoveError("SPECIALIST_USED", "the specialist has been used this heist")
    if state.awaiting_guesses:
        raise IllegalMoveError(
            "SHOWDOWN_BEGUN", "a specialist is used before the showdown, not during it"
        )
    if specialist is Specialist.INFORMANT:
        if use.viewer is None or use.viewer == use.seat:
            raise InvalidMoveError(
                "VIEWER_REQUIRED", "the Informant shows a card to one other seat: name it"
            )
    elif use.viewer is not None:
        raise InvalidMoveError("UNEXPECTED_VIEWER", "only the Informant shows a card to a seat")
    if specialist is Specialist.MASTERMIND:
        if use.rank is None:
            raise InvalidMoveError("RANK_REQUIRED", "the Mastermind asks about a card value")
    elif use.rank is not None:
        raise InvalidMoveError("UNEXPECTED_RANK", "only the Mastermind asks about a card value")


def _check_guess(state: TheGangState, seat: Seat, decision: Decision) -> None:
    matter = matter_of(decision)
    assert matter is not None
    if not state.active(matter):
        raise IllegalMoveError("NO_SUCH_SCAN", f"{matter.name.lower()} is not active")
    if not state.awaiting_guesses:
        raise IllegalMoveError("GUESS_NOT_DUE", "the guesses are made once the red chips are final")
    if any(guess.challenge == matter for guess in state.guesses):
        raise IllegalMoveError("ALREADY_GUESSED", "the gang has already agreed on this guess")
    if seat == tables.top_red_seat(state):
        raise IllegalMoveError(
            "SEAT_EXCLUDED", "the holder of the top red chip takes no part in the guess"
        )


def _open(state: TheGangState, number: object) -> Proposal:
    if type(number) is not int or number < 1:
        raise InvalidMoveError("BAD_PROPOSAL_ID", "a proposal is named by its positive number")
    for proposal in state.proposals:
        if proposal.id == number:
            return proposal
    raise IllegalMoveError("NO_SUCH_PROPOSAL", f"no open proposal number {number}")


def check_propose(state: TheGangState, seat: Seat, decision: Decision) -> None:
    _check_shape(state, decision)
    if isinstance(decision, UseSpecialist):
        _check_specialist_use(state, decision)
    else:
        _check_guess(state, seat, decision)
    if any(p.decision == decision for p in state.proposals):
        raise IllegalMoveError("ALREADY_PROPOSED", "this is already proposed: accept it")


def check_accept(state: TheGangState, seat: Seat, number: object) -> None:
    proposal = _open(state, number)
    if seat not in required_seats(state, proposal.decision):
        raise IllegalMoveError("SEAT_EXCLUDED", "you take no part in this decision")
    if seat in proposal.accepted:
        raise IllegalMoveError("ALREADY_ACCEPTED", "you have already accepted it")


def check_withdraw(state: TheGangState, seat: Seat, number: object) -> None:
    if _open(state, number).proposer != seat:
        raise IllegalMoveError("NOT_YOUR_PROPOSAL", "only the proposer can withdraw it")


def _check_card(state: TheGangState, seat: Seat, card: object) -> Card:
    sent = unchecked(card)
    if not (
        isinstance(card, Card)
        and type(sent.rank) is int
        and sent.rank in RANKS
        and (sent.suit is None or isinstance(sent.suit, Suit))
    ):
        raise InvalidMoveError("UNKNOWN_CARD", "not a playing card")
    if card not in state.pockets[seat]:
        raise IllegalMoveError("CARD_NOT_IN_POCKET", f"{card} is not among your pocket cards")
    return card


def _owed(state: TheGangState, seat: Seat, kind: PendingKind) -> Pending | None:
    return next((p for p in state.pending if p.seat == seat and p.kind is kind), None)


def check_show(state: TheGangState, seat: Seat, card: Card) -> None:
    _check_card(state, seat, card)
    if _owed(state, seat, PendingKind.SHOW_CARD) is None:
        raise IllegalMoveError("NOTHING_TO_SHOW", "you have not been asked to show a card")


def check_discard(state: TheGangState, seat: Seat, card: Card) -> None:
    _check_card(state, seat, card)
    if _owed(state, seat, PendingKind.DISCARD) is None:
        raise IllegalMoveError("NOTHING_TO_DISCARD", "you have not been asked to discard")
    if card == JACK_CARD and state.specialist is Specialist.JACK:
        raise IllegalMoveError(
            "JACK_STAYS", "you keep the Jack and discard one of your other pocket cards"
        )


def check_pass(state: TheGangState, seat: Seat, card: Card) -> None:
    _check_card(state, seat, card)
    if not state.passes:
        raise IllegalMoveError("NO_PASS_DUE", "no Coordinator pass is being made")
    if state.passes[seat] is not None:
        raise IllegalMoveError("ALREADY_PASSED", "you have chosen the card you pass")


def candidates(state: TheGangState, seat: Seat) -> list[Move]:
    """The decision and card moves worth checking for ``seat``: every move ``check`` could
    accept (it decides); a card action only when one is owed, as nothing else can pass."""
    seats = range(state.config.players)
    moves: list[Move] = []
    if state.specialist is Specialist.INFORMANT:
        moves += [Propose(UseSpecialist(s, viewer=v)) for s in seats for v in seats if v != s]
    elif state.specialist is Specialist.MASTERMIND:
        moves += [Propose(UseSpecialist(s, rank=r)) for s in seats for r in RANKS]
    elif state.specialist is not None:
        moves += [Propose(UseSpecialist(s)) for s in seats]
    if state.awaiting_guesses:
        moves += [Propose(GuessRank(r)) for r in RANKS]
        moves += [Propose(GuessHand(c)) for c in CATEGORIES]
    for proposal in state.proposals:
        moves += [Accept(proposal.id), Withdraw(proposal.id)]
    pocket = state.pockets[seat]
    if _owed(state, seat, PendingKind.SHOW_CARD):
        moves += [ShowCard(card) for card in pocket]
    if _owed(state, seat, PendingKind.DISCARD):
        moves += [DiscardCard(card) for card in pocket]
    if state.passes:
        moves += [PassCard(card) for card in pocket]
    return moves


# --- applying (after ``check``) ----------------------------------------------------------


def apply(state: TheGangState, seat: Seat, move: Move) -> tuple[TheGangState, list[Event]]:
    """Apply a checked decision move; its events in order. (The helpers below append to
    one list: a decision settles through several steps that may each tell something.)"""
    events: list[Event] = []
    return _apply(state, seat, move, events), events


def _apply(state: TheGangState, seat: Seat, move: Move, events: list[Event]) -> TheGangState:
    match move:
        case Propose(decision=decision):
            return _propose(state, seat, decision, events)
        case Accept(proposal=number):
            proposal = _open(state, number)
            events.append(ProposalAccepted(number, seat))
            accepted = msgspec.structs.replace(
                proposal, accepted=tuple(sorted((*proposal.accepted, seat)))
            )
            return _settle(state, accepted, events)
        case Withdraw(proposal=number):
            events.append(ProposalWithdrawn(number))
            return _replace(state, proposals=tuple(p for p in state.proposals if p.id != number))
        case ShowCard(card=card):
            return _show(state, seat, card, events)
        case DiscardCard(card=card):
            return _discard(state, seat, card, events)
        case PassCard(card=card):
            return _pass(state, seat, card, events)
    raise AssertionError(f"not a decision move: {move!r}")


def _propose(
    state: TheGangState, seat: Seat, decision: Decision, events: list[Event]
) -> TheGangState:
    matter = matter_of(decision)
    replaced = next((p for p in state.proposals if matter_of(p.decision) == matter), None)
    proposal = Proposal(state.next_proposal, seat, decision, accepted=(seat,))
    events.append(ProposalMade(proposal, replaced.id if replaced else None))
    state = _replace(
        state,
        next_proposal=state.next_proposal + 1,
        proposals=tuple(p for p in state.proposals if p is not replaced),
    )
    return _settle(state, proposal, events)


def _settle(state: TheGangState, proposal: Proposal, events: list[Event]) -> TheGangState:
    """Keep ``proposal`` open, or put it in force once every required seat accepted."""
    others = tuple(p for p in state.proposals if p.id != proposal.id)
    if not required_seats(state, proposal.decision) <= set(proposal.accepted):
        return _replace(state, proposals=tuple(sorted((*others, proposal), key=_id)))
    events.append(DecisionTaken(proposal))
    state = _replace(state, proposals=others)
    decision = proposal.decision
    if isinstance(decision, UseSpecialist):
        return _use(state, decision, events)
    matter = matter_of(decision)
    assert matter is not None
    value = decision.rank if isinstance(decision, GuessRank) else decision.category
    return _replace(state, guesses=(*state.guesses, ScanGuess(matter, value)))


def _id(proposal: Proposal) -> int:
    return proposal.id


def _use(state: TheGangState, use: UseSpecialist, events: list[Event]) -> TheGangState:
    state = _replace(state, specialist_use=use)
    seat, pocket = use.seat, state.pockets[use.seat]
    match state.specialist:
        case Specialist.INFORMANT:
            owed = Pending(seat, PendingKind.SHOW_CARD, to_seat=use.viewer)
            return _replace(state, pending=(*state.pending, owed))
        case Specialist.GETAWAY_DRIVER:
            hand = tables.hand_so_far(pocket + state.board)
            said = Announcement(AnnouncementKind.GETAWAY_DRIVER, seat, int(hand))
            return _announce(state, said, events)
        case Specialist.MASTERMIND:
            assert use.rank is not None
            count = sum(card.rank == use.rank for card in pocket)
            said = Announcement(AnnouncementKind.MASTERMIND, seat, count, rank=use.rank)
            return _announce(state, said, events)
        case Specialist.HACKER:
            card, deck = state.deck[0], state.deck[1:]
            events.append(CardDrawn(seat, card))
            state = _with_pocket(state, seat, (*pocket, card))
            owed = Pending(seat, PendingKind.DISCARD)
            return _replace(state, deck=deck, pending=(*state.pending, owed))
        case Specialist.JACK:
            events.append(JackTaken(seat))
            state = _with_pocket(state, seat, (*pocket, JACK_CARD))
            return _replace(state, pending=(*state.pending, Pending(seat, PendingKind.DISCARD)))
    return state  # Muscle: in force at the showdown


def _announce(state: TheGangState, said: Announcement, events: list[Event]) -> TheGangState:
    events.append(Announced(said))
    return _replace(state, announcements=(*state.announcements, said))


def _show(state: TheGangState, seat: Seat, card: Card, events: list[Event]) -> TheGangState:
    owed = _owed(state, seat, PendingKind.SHOW_CARD)
    assert owed is not None
    said = Announcement(AnnouncementKind.INFORMANT, seat, to_seat=owed.to_seat, card=card)
    state = _replace(state, pending=tuple(p for p in state.pending if p is not owed))
    return _announce(state, said, events)


def _discard(state: TheGangState, seat: Seat, card: Card, events: list[Event]) -> TheGangState:
    owed = _owed(state, seat, PendingKind.DISCARD)
    events.append(CardDiscarded(seat, card))
    state = _with_pocket(state, seat, tuple(c for c in state.pockets[seat] if c != card))
    return _replace(
        state,
        discards=(*state.discards, card),
        pending=tuple(p for p in state.pending if p is not owed),
    )


def _pass(state: TheGangState, seat: Seat, card: Card, events: list[Event]) -> TheGangState:
    """The passes are sealed until every seat has chosen, then made at once."""
    events.append(PassChosen(seat, card))
    chosen = list(state.passes)
    chosen[seat] = card
    passes = [choice for choice in chosen if choice is not None]
    if len(passes) < len(chosen):
        return _replace(state, passes=tuple(chosen))
    players = state.config.players
    pockets = list(state.pockets)
    for giver, given in enumerate(passes):
        taker = tables.left_of(state, giver)
        events.append(CardPassed(giver, taker, given))
    for taker in range(players):
        giver = (taker - 1) % players
        own, received = passes[taker], passes[giver]
        pockets[taker] = (*(c for c in state.pockets[taker] if c != own), received)
    return _replace(state, pockets=tuple(pockets), passes=())


def _with_pocket(state: TheGangState, seat: Seat, pocket: tuple[Card, ...]) -> TheGangState:
    pockets = list(state.pockets)
    pockets[seat] = pocket
    return _replace(state, pockets=tuple(pockets))


def _replace(state: TheGangState, **changes: object) -> TheGangState:
    return msgspec.structs.replace(state, **changes)
