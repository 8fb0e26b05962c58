"""The Gang: engine values <-> ``referee.v1`` messages."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from engines.cards import DECK, Card, Suit
from engines.the_gang import events as ev
from engines.the_gang.model import (
    JACK_CARD,
    Announcement,
    AnnouncementKind,
    Challenge,
    Colour,
    Decision,
    GuessHand,
    GuessRank,
    HeistResult,
    Mode,
    Pending,
    PendingKind,
    PileStart,
    Proposal,
    Reveal,
    ScanResult,
    Specialist,
    TheGangConfig,
    UseSpecialist,
)
from engines.the_gang.moves import (
    Accept,
    ConfirmRoundEnd,
    DiscardCard,
    Move,
    PassCard,
    Propose,
    ReturnChip,
    ShowCard,
    TakeChip,
    Withdraw,
)
from engines.the_gang.view import ChipRow, PileView, TheGangView
from referee.v1 import game_pb2, the_gang_pb2
from service.errors import BadRequest

Pb = the_gang_pb2

_SUITS = {
    Suit.CLUBS: Pb.SUIT_CLUBS,
    Suit.DIAMONDS: Pb.SUIT_DIAMONDS,
    Suit.HEARTS: Pb.SUIT_HEARTS,
    Suit.SPADES: Pb.SUIT_SPADES,
}
_SUITS_BACK: dict[int, Suit | None] = {value: suit for suit, value in _SUITS.items()}
_SUITS_BACK[Pb.SUIT_UNSPECIFIED] = None  # the Jack card
_COLOURS = {
    Colour.WHITE: Pb.CHIP_COLOUR_WHITE,
    Colour.YELLOW: Pb.CHIP_COLOUR_YELLOW,
    Colour.ORANGE: Pb.CHIP_COLOUR_ORANGE,
    Colour.RED: Pb.CHIP_COLOUR_RED,
}
_COLOURS_BACK = {value: colour for colour, value in _COLOURS.items()}

# The proto enums spell the engine's names (and the cards keep their printed numbers), so
# the tables are built by name; a renamed value fails here, at import.
_MODES = {mode: Pb.TheGangMode.Value(f"THE_GANG_MODE_{mode.name}") for mode in Mode}
_MODES_BACK = {value: mode for mode, value in _MODES.items()}
_CHALLENGES = {card: Pb.ChallengeCard.Value(f"CHALLENGE_CARD_{card.name}") for card in Challenge}
_SPECIALISTS = {
    card: Pb.SpecialistCard.Value(f"SPECIALIST_CARD_{card.name}") for card in Specialist
}
_ANNOUNCEMENTS = {
    kind: Pb.Announcement.Kind.Value(f"KIND_{kind.name}") for kind in AnnouncementKind
}
_PENDING = {kind: Pb.Pending.Kind.Value(f"KIND_{kind.name}") for kind in PendingKind}
assert all(int(value) == card.value for card, value in _CHALLENGES.items())
assert all(int(value) == card.value for card, value in _SPECIALISTS.items())


def _card_message(card: Card) -> Pb.PlayingCard:
    suit = _SUITS[card.suit] if card.suit is not None else Pb.SUIT_UNSPECIFIED
    return Pb.PlayingCard(rank=card.rank, suit=suit, code=str(card))


_KNOWN_CARDS = frozenset((*DECK, JACK_CARD))
_CARD_MESSAGES = {card: _card_message(card) for card in _KNOWN_CARDS}


def card_to_proto(card: Card) -> Pb.PlayingCard:
    """The card's message; shared instances (protobuf copies them into any parent)."""
    message = _CARD_MESSAGES.get(card)
    return message if message is not None else _card_message(card)


def _cards(cards: Iterable[Card]) -> list[Pb.PlayingCard]:
    return [card_to_proto(card) for card in cards]


def _hidden_card(card: Card | None) -> Pb.PlayingCard | None:
    """A card that is left out (None) for the seats that may not see it."""
    return card_to_proto(card) if card is not None else None


def card_from_proto(message: Pb.PlayingCard, present: bool = True) -> Card:
    """The card a move names by ``code``, by ``rank`` and ``suit``, or by all three."""
    if not present or not (message.code or message.rank or message.suit):
        raise BadRequest("CARD_MISSING", "the move needs a card")
    named: list[Card] = []
    if message.code:
        try:
            named.append(Card.parse(message.code))
        except ValueError:
            raise BadRequest("UNKNOWN_CARD", f"there is no card {message.code!r}") from None
    if message.rank or message.suit:
        if message.suit not in _SUITS_BACK:
            raise BadRequest("UNKNOWN_CARD", f"there is no suit {message.suit}")
        named.append(Card(message.rank, _SUITS_BACK[message.suit]))
    if named[0] != named[-1]:
        raise BadRequest(
            "CARD_MISMATCH", f"code {message.code!r} and rank/suit name different cards"
        )
    if named[0] not in _KNOWN_CARDS:
        what = repr(message.code) if message.code else f"{message.rank} of suit {message.suit}"
        raise BadRequest("UNKNOWN_CARD", f"there is no card {what}")
    return named[0]


def _colour(value: int) -> Colour:
    try:
        return _COLOURS_BACK[value]  # type: ignore[index]
    except KeyError:
        raise BadRequest("CHIP_COLOUR_MISSING", "a chip needs a colour") from None


def _chip_row(colour: Colour, holders: Iterable[int | None]) -> Pb.ChipRow:
    value = _COLOURS[colour]
    chips = [
        Pb.Chip(colour=value, stars=stars, holder=holder)
        for stars, holder in enumerate(holders, start=1)
    ]
    return Pb.ChipRow(colour=value, chips=chips)


def _chip_rows(rows: Iterable[ChipRow]) -> list[Pb.ChipRow]:
    return [_chip_row(row.colour, row.holders) for row in rows]


def _specialist(card: Specialist | None) -> Pb.SpecialistCard.ValueType:
    return _SPECIALISTS[card] if card is not None else Pb.SPECIALIST_CARD_UNSPECIFIED


def _challenges(cards: Iterable[Challenge]) -> list[Pb.ChallengeCard.ValueType]:
    return [_CHALLENGES[card] for card in cards]


# --- decisions and the cards' records --------------------------------------------------


def _use_specialist(use: UseSpecialist) -> Pb.UseSpecialist:
    return Pb.UseSpecialist(seat=use.seat, viewer=use.viewer, rank=use.rank)


def _set_decision(target: Pb.TheGangMove.Propose | Pb.Proposal, decision: Decision) -> None:
    match decision:
        case UseSpecialist():
            target.use_specialist.CopyFrom(_use_specialist(decision))
        case GuessRank(rank=rank):
            target.guess_rank.CopyFrom(Pb.GuessRank(rank=rank))
        case GuessHand(category=category):
            target.guess_hand.CopyFrom(
                Pb.GuessHand(category=category)  # type: ignore[arg-type]
            )
        case _:
            raise TypeError(f"not a decision of The Gang: {decision!r}")


def _decision_from_proto(source: Pb.TheGangMove.Propose | Pb.Proposal) -> Decision:
    which = source.WhichOneof("decision")
    if which == "use_specialist":
        use = source.use_specialist
        return UseSpecialist(
            use.seat,
            viewer=use.viewer if use.HasField("viewer") else None,
            rank=use.rank if use.HasField("rank") else None,
        )
    if which == "guess_rank":
        return GuessRank(source.guess_rank.rank)
    if which == "guess_hand":
        category = source.guess_hand.category
        if category == Pb.POKER_HAND_UNSPECIFIED:
            raise BadRequest("GUESS_HAND_MISSING", "a Fingerprint Scan guess names a poker hand")
        return GuessHand(int(category))
    raise BadRequest(
        "DECISION_MISSING", "a proposal needs a decision: use_specialist, guess_rank or guess_hand"
    )


def proposal_to_proto(proposal: Proposal) -> Pb.Proposal:
    message = Pb.Proposal(id=proposal.id, proposer=proposal.proposer, accepted=proposal.accepted)
    _set_decision(message, proposal.decision)
    return message


def _announcement(item: Announcement) -> Pb.Announcement:
    return Pb.Announcement(
        kind=_ANNOUNCEMENTS[item.kind],
        seat=item.seat,
        number=item.number,
        rank=item.rank,
        to_seat=item.to_seat,
        card=_hidden_card(item.card),
    )


def _pending(item: Pending) -> Pb.Pending:
    return Pb.Pending(seat=item.seat, kind=_PENDING[item.kind], to_seat=item.to_seat)


def _pile_view(pile: PileView) -> Pb.PileView:
    return Pb.PileView(
        size=pile.size, cards=pile.cards, known=pile.known, card_one_turned=pile.card_one_turned
    )


def _pile_start_to_proto(start: PileStart | None) -> Pb.PileStart | None:
    if start is None:
        return None
    return Pb.PileStart(
        cards=start.cards, card_one_turned=start.card_one_turned, shuffled=start.shuffled
    )


def _pile_start_from_proto(message: Pb.PileStart) -> PileStart:
    return PileStart(
        cards=tuple(message.cards),
        card_one_turned=message.card_one_turned,
        shuffled=message.shuffled,
    )


def _reveal(r: Reveal) -> Pb.Reveal:
    return Pb.Reveal(
        seat=r.seat,
        red_stars=r.red_stars,
        pocket=_cards(r.pocket),
        hand=r.category,  # type: ignore[arg-type]
        best_five=_cards(r.best),
        description=r.description,
        in_order=r.in_order,
        muscle=r.muscle,
    )


def _scan(scan: ScanResult) -> Pb.ScanResult:
    return Pb.ScanResult(
        challenge=_CHALLENGES[scan.challenge],
        seat=scan.seat,
        guess=scan.guess,
        actual=scan.actual,
        correct=scan.correct,
    )


@functools.lru_cache(maxsize=2048)
def heist_to_proto(result: HeistResult) -> Pb.HeistResult:
    """A finished heist never changes, and every later view repeats it: built once."""
    # ``colours`` names each row; a result without it had all four rounds, white first.
    colours = result.colours or tuple(Colour(index) for index in range(len(result.chips)))
    return Pb.HeistResult(
        heist=result.heist,
        success=result.success,
        board=_cards(result.board),
        reveals=[_reveal(r) for r in result.reveals],
        chips=[
            _chip_row(colour, holders)
            for colour, holders in zip(colours, result.chips, strict=True)
        ],
        challenges=_challenges(result.challenges),
        specialist=_specialist(result.specialist),
        scans=[_scan(scan) for scan in result.scans],
    )


class TheGangCodec:
    def options_from_proto(self, options: game_pb2.TableOptions) -> dict[str, object]:
        """The engine's table options; only the ones set, so a basic table's options are
        exactly what they were before the modes existed."""
        which = options.WhichOneof("game")
        if which is None:
            return {}
        if which != "the_gang":
            raise BadRequest("OPTIONS_FOR_OTHER_GAME", f"options for {which}, not the_gang")
        given = options.the_gang
        out: dict[str, object] = {"confirm_round_end": given.confirm_round_end}
        if given.mode != Pb.THE_GANG_MODE_UNSPECIFIED:
            mode = _MODES_BACK.get(given.mode)
            if mode is None:
                raise BadRequest("UNKNOWN_MODE", f"there is no mode {given.mode} of The Gang")
            if mode is not Mode.BASIC:  # the default
                out["mode"] = mode.value
        if given.shuffle_piles:
            out["shuffle_piles"] = True
        if given.HasField("challenge_pile"):
            out["challenge_pile"] = _pile_start_from_proto(given.challenge_pile)
        if given.HasField("specialist_pile"):
            out["specialist_pile"] = _pile_start_from_proto(given.specialist_pile)
        return out

    def options_to_proto(self, config: Any) -> game_pb2.TableOptions:
        assert isinstance(config, TheGangConfig)
        return game_pb2.TableOptions(
            the_gang=Pb.TheGangOptions(
                confirm_round_end=config.confirm_round_end,
                mode=_MODES[config.mode],
                shuffle_piles=config.shuffle_piles,
                challenge_pile=_pile_start_to_proto(config.challenge_pile),
                specialist_pile=_pile_start_to_proto(config.specialist_pile),
            )
        )

    def move_from_proto(self, move: game_pb2.Move) -> Move:
        if move.WhichOneof("game") != "the_gang":
            raise BadRequest("MOVE_FOR_OTHER_GAME", "this game takes a `the_gang` move")
        m = move.the_gang
        match m.WhichOneof("action"):
            case "take_chip":
                return TakeChip(_colour(m.take_chip.colour), m.take_chip.stars)
            case "return_chip":
                return ReturnChip(_colour(m.return_chip.colour), m.return_chip.stars)
            case "confirm_round_end":
                return ConfirmRoundEnd()
            case "propose":
                return Propose(_decision_from_proto(m.propose))
            case "accept":
                return Accept(m.accept.proposal)
            case "withdraw":
                return Withdraw(m.withdraw.proposal)
            case "show_card":
                return ShowCard(card_from_proto(m.show_card.card, m.show_card.HasField("card")))
            case "discard_card":
                return DiscardCard(
                    card_from_proto(m.discard_card.card, m.discard_card.HasField("card"))
                )
            case "pass_card":
                return PassCard(card_from_proto(m.pass_card.card, m.pass_card.HasField("card")))
        raise BadRequest("MOVE_EMPTY", "the move names no action")

    def move_to_proto(self, move: Any) -> game_pb2.Move:
        m = Pb.TheGangMove
        match move:
            case TakeChip(colour=colour, stars=stars):
                action = m(take_chip=m.TakeChip(colour=_COLOURS[colour], stars=stars))
            case ReturnChip(colour=colour, stars=stars):
                action = m(return_chip=m.ReturnChip(colour=_COLOURS[colour], stars=stars))
            case ConfirmRoundEnd():
                action = m(confirm_round_end=m.ConfirmRoundEnd())
            case Propose(decision=decision):
                propose = m.Propose()
                _set_decision(propose, decision)
                action = m(propose=propose)
            case Accept(proposal=number):
                action = m(accept=m.Accept(proposal=number))
            case Withdraw(proposal=number):
                action = m(withdraw=m.Withdraw(proposal=number))
            case ShowCard(card=card):
                action = m(show_card=m.ShowCard(card=card_to_proto(card)))
            case DiscardCard(card=card):
                action = m(discard_card=m.DiscardCard(card=card_to_proto(card)))
            case PassCard(card=card):
                action = m(pass_card=m.PassCard(card=card_to_proto(card)))
            case _:
                raise TypeError(f"not a move of The Gang: {move!r}")
        return game_pb2.Move(the_gang=action)

    def fill_view(self, view: Any, target: game_pb2.View) -> None:
        assert isinstance(view, TheGangView)
        target.the_gang.CopyFrom(
            Pb.TheGangView(
                players=view.players,
                confirm_round_end=view.confirm_round_end,
                heist=view.heist,
                round=_COLOURS[view.round],
                vaults=view.vaults,
                alarms=view.alarms,
                vaults_to_win=view.vaults_to_win,
                alarms_to_lose=view.alarms_to_lose,
                board=_cards(view.board),
                pocket=_cards(view.pocket),
                chips=_chip_rows(view.chips),
                confirmed_seats=view.confirmed,
                deck_size=view.deck_size,
                heists=[heist_to_proto(h) for h in view.history],
                mode=_MODES[view.mode],
                challenges=_challenges(view.challenges),
                standing_challenges=_challenges(view.standing),
                specialist=_specialist(view.specialist),
                specialist_use=_use_specialist(view.used) if view.used is not None else None,
                challenge_pile=_pile_view(view.challenge_pile),
                specialist_pile=_pile_view(view.specialist_pile),
                skipped_colours=[_COLOURS[c] for c in view.skipped],
                set_aside_colours=[_COLOURS[c] for c in view.set_aside],
                dark_chips=[
                    Pb.DarkChip(colour=_COLOURS[colour], stars=stars)
                    for colour, stars in view.locked
                ],
                proposals=[proposal_to_proto(p) for p in view.proposals],
                announcements=[_announcement(a) for a in view.announcements],
                pending=[_pending(p) for p in view.pending],
                passed_seats=view.passed,
                my_pass=_hidden_card(view.my_pass),
                awaiting_guesses=view.awaiting_guesses,
                guessed_seat=view.guessed_seat,
                guesses=[
                    Pb.ScanGuess(challenge=_CHALLENGES[challenge], value=value)
                    for challenge, value in view.guesses
                ],
                discard_count=view.discards,
                shown=[_reveal(r) for r in view.shown],
                pocket_sizes=view.pocket_sizes,
            )
        )

    def event_to_proto(self, event: Any) -> game_pb2.Event:
        e = Pb.TheGangEvent
        match event:
            case ev.PocketDealt(heist=heist, seat=seat, cards=cards):
                out = e(pocket_dealt=e.PocketDealt(heist=heist, seat=seat, cards=_cards(cards)))
            case ev.BoardDealt(cards=cards):
                out = e(board_dealt=e.BoardDealt(cards=_cards(cards)))
            case ev.RoundStarted(heist=heist, colour=colour):
                out = e(round_started=e.RoundStarted(heist=heist, colour=_COLOURS[colour]))
            case ev.ChipTaken(seat=seat, colour=colour, stars=stars, from_seat=from_seat):
                out = e(
                    chip_taken=e.ChipTaken(
                        seat=seat, colour=_COLOURS[colour], stars=stars, from_seat=from_seat
                    )
                )
            case ev.ChipReturned(seat=seat, colour=colour, stars=stars):
                out = e(
                    chip_returned=e.ChipReturned(seat=seat, colour=_COLOURS[colour], stars=stars)
                )
            case ev.RoundEndConfirmed(seat=seat):
                out = e(round_end_confirmed=e.RoundEndConfirmed(seat=seat))
            case ev.RoundEnded(heist=heist, colour=colour):
                out = e(round_ended=e.RoundEnded(heist=heist, colour=_COLOURS[colour]))
            case ev.HeistEnded(result=result, vaults=vaults, alarms=alarms):
                out = e(
                    heist_ended=e.HeistEnded(
                        result=heist_to_proto(result), vaults=vaults, alarms=alarms
                    )
                )
            case ev.GameEnded(won=won):
                out = e(game_ended=e.GameEnded(won=won))
            case ev.CardsActive(heist=heist, challenges=challenges, specialist=specialist):
                out = e(
                    cards_active=e.CardsActive(
                        heist=heist,
                        challenges=_challenges(challenges),
                        specialist=_specialist(specialist),
                    )
                )
            case ev.PileShuffled(specialists=specialists):
                out = e(pile_shuffled=e.PileShuffled(specialist_pile=specialists))
            case ev.PocketsGathered(heist=heist):
                out = e(pockets_gathered=e.PocketsGathered(heist=heist))
            case ev.PocketRedrawn(seat=seat, challenge=challenge, cards=cards):
                out = e(
                    pocket_redrawn=e.PocketRedrawn(
                        seat=seat, challenge=_CHALLENGES[challenge], cards=_cards(cards)
                    )
                )
            case ev.ChipsSetAside(colour=colour):
                out = e(chips_set_aside=e.ChipsSetAside(colour=_COLOURS[colour]))
            case ev.ProposalMade(proposal=proposal, replaces=replaces):
                out = e(
                    proposal_made=e.ProposalMade(
                        proposal=proposal_to_proto(proposal), replaces=replaces
                    )
                )
            case ev.ProposalAccepted(proposal=number, seat=seat):
                out = e(proposal_accepted=e.ProposalAccepted(proposal=number, seat=seat))
            case ev.ProposalWithdrawn(proposal=number):
                out = e(proposal_withdrawn=e.ProposalWithdrawn(proposal=number))
            case ev.DecisionTaken(proposal=proposal):
                out = e(decision_taken=e.DecisionTaken(proposal=proposal_to_proto(proposal)))
            case ev.Announced(announcement=item):
                out = e(announced=e.Announced(announcement=_announcement(item)))
            case ev.CardDrawn(seat=seat, card=card):
                out = e(card_drawn=e.CardDrawn(seat=seat, card=_hidden_card(card)))
            case ev.JackTaken(seat=seat):
                out = e(jack_taken=e.JackTaken(seat=seat))
            case ev.CardDiscarded(seat=seat, card=card):
                out = e(card_discarded=e.CardDiscarded(seat=seat, card=_hidden_card(card)))
            case ev.PassChosen(seat=seat, card=card):
                out = e(pass_chosen=e.PassChosen(seat=seat, card=_hidden_card(card)))
            case ev.CardPassed(from_seat=giver, to_seat=taker, card=card):
                out = e(
                    card_passed=e.CardPassed(
                        from_seat=giver, to_seat=taker, card=_hidden_card(card)
                    )
                )
            case ev.GuessesDue(seat=seat, challenges=challenges, shown=shown):
                due = e.GuessesDue(
                    seat=seat,
                    challenges=_challenges(challenges),
                    shown=[_reveal(r) for r in shown],
                )
                out = e(guesses_due=due)
            case _:
                raise TypeError(f"not an event of The Gang: {event!r}")
        return game_pb2.Event(the_gang=out)
