"""Gang of Four: turns, tricks, the exchange, last-card duties and scoring.

Quotes are from the seed (``shared/seeds/003_*.txt``, German, OCR-damaged) and the notes.
The combination rules (what may be played, what beats what) live in ``combos.py``; this
module decides whose turn it is and what a play does to the table. One check per rule:
``check`` refuses, ``legal_moves`` lists exactly what ``check`` accepts, ``apply`` calls it.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec.structs

from engines.base import Outcome, Seat, places_of, rules_revision, split_rules_revision
from engines.checks import accepted, check_seat, check_table, may_move, unchecked
from engines.errors import IllegalMoveError, InvalidMoveError
from engines.gang_of_four.cards import DECK, HAND_SIZE, GofCard
from engines.gang_of_four.combos import (
    Combination,
    Kind,
    beats,
    classify,
    combinations_in,
    plays_beating,
)
from engines.gang_of_four.events import (
    CardGiven,
    CardReturned,
    Event,
    GameEnded,
    HandDealt,
    HandEnded,
    HandStarted,
    LastCardAnnounced,
    LastCardForgotten,
    Passed,
    Played,
    TrickWon,
)
from engines.gang_of_four.kinds import ranks_of
from engines.gang_of_four.model import (
    GAME_END_SCORE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULES_REVISION,
    Direction,
    Exchange,
    GangOfFourConfig,
    GangOfFourState,
    HandResult,
    Phase,
    points_for,
)
from engines.gang_of_four.moves import GiveBack, Move, Pass, Play
from engines.rng import Rng

MULTICOLOURED_ONE = GofCard.parse("m1")


def make_config(players: int, options: dict[str, object]) -> GangOfFourConfig:
    revision, rest = split_rules_revision("Gang of Four", options, RULES_REVISION)
    flags = check_table(
        "Gang of Four",
        players,
        range(MIN_PLAYERS, MAX_PLAYERS + 1),
        rest,
        ("auto_announce_last_card",),
    )
    return GangOfFourConfig(players=players, rules_revision=revision, **flags)


def new_game(config: GangOfFourConfig, seed: bytes) -> GangOfFourState:
    make_config(config.players, {})
    empty = GangOfFourState(
        config=config,
        rng=Rng(seed),
        hand=0,
        dealer=0,
        direction=Direction.COUNTER_CLOCKWISE,
        phase=Phase.PLAY,
        hands=(),
        set_aside=(),
        turn=0,
        totals=(0,) * config.players,
    )
    state, _ = _start_hand(empty, None)
    return state


def seat_count(state: GangOfFourState) -> int:
    return state.config.players


def to_act(state: GangOfFourState) -> frozenset[Seat]:
    if state.phase is Phase.OVER:
        return frozenset()
    return frozenset({state.turn})


# --- seats around the table -------------------------------------------------------------


def _step(state: GangOfFourState, seat: int) -> int:
    return (seat + state.direction) % state.config.players


def _active(state: GangOfFourState) -> list[int]:
    return [seat for seat in range(state.config.players) if seat not in state.out]


def _next_active(state: GangOfFourState, seat: int) -> int:
    """The next seat in the direction of play that still takes turns this hand."""
    nxt = _step(state, seat)
    while nxt in state.out and nxt != seat:
        nxt = _step(state, nxt)
    return nxt


def _before_last_card(state: GangOfFourState, seat: int) -> bool:
    """Notes 8: "the player directly before him" — the next player to act holds one card."""
    nxt = _next_active(state, seat)
    return nxt != seat and len(state.hands[nxt]) == 1


# --- the checks -------------------------------------------------------------------------


def _check_cards_in_hand(hand: Sequence[GofCard], cards: Sequence[GofCard]) -> None:
    if not cards:
        raise InvalidMoveError("EMPTY_PLAY", "a play needs at least one card")
    ranks_of(cards)  # UNKNOWN_CARD / TOO_MANY_COPIES: no deck holds these cards
    if any(hand.count(card) < cards.count(card) for card in cards):
        raise IllegalMoveError("CARDS_NOT_IN_HAND", "you do not hold all of these cards")


def _must_stop_last_card(state: GangOfFourState, seat: int, current: Combination) -> bool:
    """Whether ``seat`` may not pass on ``current`` (rules revision 2 on).

    Seed: "Werden gerade Einzelkarten gespielt, muss er seine höchste Karte - wenn er sie
    regelkonform spielen kann - oder eine Gang-Kombination legen." While singles are being
    played and the next player holds one card, the player before him passes only when his
    highest card cannot beat the table and he holds no Gang. Revision 1 let him pass.
    """
    if (
        rules_revision(state.config.rules_revision) < 2
        or current.kind is not Kind.SINGLE
        or not _before_last_card(state, seat)
    ):
        return False
    hand = state.hands[seat]
    highest = max(hand)
    return any(
        combo.kind is Kind.GANG or combo.cards == (highest,)
        for combo in plays_beating(hand, current)
    )


def _check_pass(state: GangOfFourState, seat: int) -> None:
    current = state.current
    if current is None:
        raise IllegalMoveError("MUST_LEAD", "you lead: play any combination")
    if _must_stop_last_card(state, seat, current):
        raise IllegalMoveError(
            "MUST_PLAY_HIGHEST_SINGLE",
            "the next player has one card left: play your highest card or a Gang, not a pass",
        )


def _check_play(state: GangOfFourState, seat: int, combo: Combination, announce: object) -> None:
    """Every rule a classified combination from ``seat``'s hand must pass now."""
    hand = state.hands[seat]
    if state.must_include is not None and state.must_include not in combo.cards:
        raise IllegalMoveError(
            "MUST_INCLUDE_MULTICOLOURED_ONE",
            "the first play of the game must include the multicoloured 1",
        )
    current = state.current
    if current is not None and not beats(combo, current):
        if combo.size != current.size and combo.kind is not Kind.GANG:
            raise IllegalMoveError(
                "WRONG_CARD_COUNT", f"play {current.size} cards (or a Gang) to beat this"
            )
        raise IllegalMoveError("WEAKER_PLAY", "that does not beat the play on the table")
    if _before_last_card(state, seat) and combo.kind is Kind.SINGLE:
        if current is None and any(c.size > 1 for c in combinations_in(hand)):
            raise IllegalMoveError(
                "MUST_LEAD_COMBINATION",
                "the next player has one card left: lead a combination of several cards",
            )
        if combo.cards[0] != max(hand):
            raise IllegalMoveError(
                "MUST_PLAY_HIGHEST_SINGLE",
                "the next player has one card left: a single must be your highest card",
            )
    if announce and len(hand) - combo.size != 1:
        raise IllegalMoveError(
            "NOT_LAST_CARD", "announce your last card only when you go down to one card"
        )


def _check_turn(state: GangOfFourState, seat: Seat, move: Move) -> None:
    """Whose move of which shape it is: the give-back during an exchange, else the turn."""
    if state.phase is Phase.EXCHANGE:
        assert state.exchange is not None
        if not isinstance(move, GiveBack):
            raise IllegalMoveError(
                "EXCHANGE_PENDING", "the winner must first give a card back to the loser"
            )
        if seat != state.exchange.winner:
            raise IllegalMoveError("NOT_YOUR_TURN", "only the last hand's winner gives back")
        return
    if isinstance(move, GiveBack):
        raise IllegalMoveError("NO_EXCHANGE", "there is no exchange now")
    if seat != state.turn:
        raise IllegalMoveError("NOT_YOUR_TURN", f"it is seat {state.turn}'s turn")


def check(state: GangOfFourState, seat: object, move: Move) -> None:
    seat = check_seat(seat, state.config.players, over=state.phase is Phase.OVER)
    _check_turn(state, seat, move)
    match move:
        case GiveBack(card=card):
            _check_cards_in_hand(state.hands[seat], (card,))
        case Pass():
            _check_pass(state, seat)
        case Play():
            cards, announce = unchecked(move).cards, unchecked(move).announce_last_card
            _check_cards_in_hand(state.hands[seat], cards)
            _check_play(state, seat, classify(cards), announce)
        case _:
            raise InvalidMoveError("UNKNOWN_MOVE", "not a move of Gang of Four")


_Listed = tuple[Play, Combination]  # a play the listing built from the hand, and its combination


def _check_listed(state: GangOfFourState, seat: Seat, listed: _Listed) -> None:
    """``check`` for a listed play: the same gates, in the same order, without parsing
    again what the listing guarantees (the cards are in the hand and form
    ``combination``). Keeps listing a 16-card hand's thousand plays fast."""
    check_seat(seat, state.config.players, over=state.phase is Phase.OVER)
    move, combination = listed
    _check_turn(state, seat, move)
    _check_play(state, seat, combination, move.announce_last_card)


def legal_moves(state: GangOfFourState, seat: object) -> list[Move]:
    """Every move ``check`` accepts: a pass or a give-back through ``check`` itself, the
    hand's plays through ``_check_listed``."""
    if not may_move(seat, state.config.players, over=state.phase is Phase.OVER):
        return []
    hand = state.hands[seat]
    moves: list[Move] = accepted(check, state, seat, [Pass(), *map(GiveBack, sorted(set(hand)))])
    plays = accepted(_check_listed, state, seat, _listed(state, seat))
    return moves + [move for move, _ in plays]


def _listed(state: GangOfFourState, seat: Seat) -> list[_Listed]:
    """The candidate plays: every combination of the hand that beats the table (so weaker
    plays and non-combinations never reach a check). Both announcing the last card and
    forgetting it are candidates where the play leaves one card (notes 8: forgetting is
    legal, and punished). Only the seat to play gets any: ``_check_turn`` refuses the
    others' plays whatever they are, so listing them would be wasted work."""
    hand = state.hands[seat]
    if state.phase is not Phase.PLAY or seat != state.turn:
        return []
    found: list[_Listed] = []
    for combo in plays_beating(hand, state.current):
        if len(hand) - combo.size == 1:
            found.append((Play(combo.cards, announce_last_card=True), combo))
        found.append((Play(combo.cards, announce_last_card=False), combo))
    return found


# --- applying ---------------------------------------------------------------------------


def _replace(state: GangOfFourState, **changes: object) -> GangOfFourState:
    return msgspec.structs.replace(state, **changes)


def _without(hand: Sequence[GofCard], cards: Sequence[GofCard]) -> tuple[GofCard, ...]:
    rest = list(hand)
    for card in cards:
        rest.remove(card)
    return tuple(rest)


def _with_hand(state: GangOfFourState, seat: int, cards: tuple[GofCard, ...]) -> GangOfFourState:
    hands = list(state.hands)
    hands[seat] = tuple(sorted(cards))
    return _replace(state, hands=tuple(hands))


def apply(state: GangOfFourState, seat: object, move: Move) -> tuple[GangOfFourState, list[Event]]:
    check(state, seat, move)
    seat = check_seat(seat, state.config.players)  # as ``check`` found it: a seat
    if isinstance(move, GiveBack):
        return _give_back(state, seat, move.card)
    if isinstance(move, Pass):
        return _pass(state, seat)
    assert isinstance(move, Play)
    return _play(state, seat, move)


def _give_back(
    state: GangOfFourState, seat: int, card: GofCard
) -> tuple[GangOfFourState, list[Event]]:
    exchange = state.exchange
    assert exchange is not None
    loser = exchange.loser
    state = _with_hand(state, seat, _without(state.hands[seat], (card,)))
    state = _with_hand(state, loser, (*state.hands[loser], card))
    state = _replace(
        state,
        phase=Phase.PLAY,
        turn=seat,
        exchange=msgspec.structs.replace(exchange, returned=card),
    )
    return state, [CardReturned(seat, loser, card)]


def _pass(state: GangOfFourState, seat: int) -> tuple[GangOfFourState, list[Event]]:
    """Seed: "Wer an der Reihe ist, kann ... eine higherwertige Kombination ... legen oder
    passen." When all others have passed in turn, the last player to play leads anything
    (if he is out of the hand, the next player leads)."""
    events: list[Event] = [Passed(seat)]
    passes = state.passes + 1
    state = _replace(state, passes=passes, passed=(*state.passed, seat))
    by = state.current_by
    assert by is not None
    others = len(_active(state)) - (0 if by in state.out else 1)
    if passes < others:
        return _replace(state, turn=_next_active(state, seat)), events
    leader = by if by not in state.out else _next_active(state, by)
    events.append(TrickWon(by, leader))
    return _replace(state, current=None, current_by=None, passes=0, passed=(), turn=leader), events


def _play(state: GangOfFourState, seat: int, move: Play) -> tuple[GangOfFourState, list[Event]]:
    combo = classify(move.cards)
    state = _with_hand(state, seat, _without(state.hands[seat], move.cards))
    left = len(state.hands[seat])
    events: list[Event] = [Played(seat, combo.cards, combo.kind, left)]
    state = _replace(state, current=combo, current_by=seat, passes=0, passed=(), must_include=None)
    if left == 0:
        state, more = _end_hand(state, seat)
        return state, events + more
    if left == 1:
        alone = _active(state) == [seat]
        if move.announce_last_card or state.config.auto_announce_last_card or alone:
            state = _replace(state, announced=(*state.announced, seat))
            events.append(LastCardAnnounced(seat))
        else:
            # Notes 8: forgetting puts him out of the hand with 1 point.
            state = _replace(state, out=(*state.out, seat))
            events.append(LastCardForgotten(seat))
    if _active(state) == [seat]:  # nobody left to answer: he leads again at once
        events.append(TrickWon(seat, seat))
        return _replace(state, current=None, current_by=None, turn=seat), events
    return _replace(state, turn=_next_active(state, seat)), events


# --- hands ------------------------------------------------------------------------------


def _end_hand(state: GangOfFourState, winner: int) -> tuple[GangOfFourState, list[Event]]:
    """Seed: "Sobald ein Spieler keine Karten mehr hat, ist eine Spielrunde beendet." Each
    other player scores the table's points for the cards left in his hand."""
    cards_left = tuple(len(hand) for hand in state.hands)
    points = tuple(points_for(n) for n in cards_left)
    totals = tuple(t + p for t, p in zip(state.totals, points, strict=True))
    result = HandResult(state.hand, winner, cards_left, points)
    state = _replace(state, totals=totals, results=(*state.results, result))
    events: list[Event] = [HandEnded(result, totals)]
    if max(totals) >= GAME_END_SCORE:
        low = min(totals)
        winners = tuple(seat for seat, total in enumerate(totals) if total == low)
        events.append(GameEnded(winners, totals))
        return _replace(state, phase=Phase.OVER, current=None, current_by=None), events
    state, more = _start_hand(state, result)
    return state, events + more


def _loser(state: GangOfFourState, result: HandResult) -> int:
    """Seed: most points in the hand; ties by the highest total, then the one who sits
    nearest the winner counter-clockwise ("entgegen dem Uhrzeigersinn")."""
    players = state.config.players

    def key(seat: int) -> tuple[int, int, int]:
        distance = (result.winner - seat) % players  # counter-clockwise steps from the winner
        return (result.points[seat], state.totals[seat], -distance)

    return max((seat for seat in range(players) if seat != result.winner), key=key)


def _start_hand(
    state: GangOfFourState, previous: HandResult | None
) -> tuple[GangOfFourState, list[Event]]:
    players = state.config.players
    deck, rng = state.rng.shuffled(DECK)
    hands = tuple(
        tuple(sorted(deck[HAND_SIZE * seat : HAND_SIZE * (seat + 1)])) for seat in range(players)
    )
    hand = state.hand + 1
    state = _replace(
        state,
        rng=rng,
        hand=hand,
        hands=hands,
        set_aside=tuple(sorted(deck[HAND_SIZE * players :])),
        current=None,
        current_by=None,
        passes=0,
        passed=(),
        announced=(),
        out=(),
        exchange=None,
        must_include=None,
    )
    events: list[Event] = [HandDealt(hand, seat, hands[seat]) for seat in range(players)]
    if previous is None:
        holders = [seat for seat in range(players) if MULTICOLOURED_ONE in hands[seat]]
        # 3 players and nobody holds it: "der Spieler, der rechts vom Kartenverteiler sitzt"
        leader = holders[0] if holders else (state.dealer + Direction.COUNTER_CLOCKWISE) % players
        state = _replace(
            state,
            phase=Phase.PLAY,
            turn=leader,
            must_include=MULTICOLOURED_ONE if holders else None,
        )
        events.append(HandStarted(hand, state.dealer, state.direction, leader))
        return state, events
    winner = previous.winner
    loser = _loser(state, previous)
    given = max(state.hands[loser])
    state = _with_hand(state, loser, _without(state.hands[loser], (given,)))
    state = _with_hand(state, winner, (*state.hands[winner], given))
    state = _replace(
        state,
        dealer=winner,
        direction=Direction(-state.direction),
        phase=Phase.EXCHANGE,
        turn=winner,
        exchange=Exchange(loser=loser, winner=winner, given=given),
    )
    events += [
        HandStarted(hand, winner, state.direction, winner),
        CardGiven(loser, winner, given),
    ]
    return state, events


def outcome(state: GangOfFourState) -> Outcome | None:
    if state.phase is not Phase.OVER:
        return None
    totals = state.totals
    placings = places_of([(-total,) for total in totals])
    winners = tuple(seat for seat, place in enumerate(placings) if place == 1)
    scores = ", ".join(f"seat {seat}: {total}" for seat, total in enumerate(totals))
    return Outcome(
        winners,
        f"Lowest total wins after {state.hand} hands ({scores}).",
        scores=totals,
        placings=placings,
        tiebreaks=(0,) * len(totals),
    )
