"""Shared helpers for The Gang's engine tests: rigged tables, strategies, card scanners.

Tests may peek at every pocket; the strategies here do, so a test can play a heist it is
sure to win. Hand strength for the strategies and for the independent showdown check comes
from eval7, not from ``engines.poker``, so the engine's showdown is checked against a
second evaluator.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import eval7
import msgspec
import msgspec.structs

from engines.cards import DECK, Card, cards
from engines.errors import MoveError
from engines.the_gang import GAME, ConfirmRoundEnd, Move, ReturnChip, TakeChip
from engines.the_gang.model import Colour, TheGangState

SEED = bytes.fromhex("d4535c36d91a0b70")

Row = tuple[int | None, ...]
Play = tuple[int, Move]


def new(players: int, confirm: bool = False, seed: bytes = SEED) -> TheGangState:
    """A fresh table through the public factory functions."""
    options: dict[str, Any] = {"confirm_round_end": confirm}
    return GAME.new_game(GAME.make_config(players, options), seed)


def rigged(
    state: TheGangState,
    pockets: Sequence[str],
    board: str = "",
    *,
    round: Colour | None = None,
    chips: Sequence[Row] | None = None,
    vaults: int | None = None,
    alarms: int | None = None,
) -> TheGangState:
    """``state`` with exactly these pockets, board and chips; the deck keeps the other cards.

    The deck's order is the standard order minus the cards in play, so 52 cards stay
    conserved and the next board cards are predictable.
    """
    hands = tuple(cards(text) for text in pockets)
    shown = cards(board)
    used = {card for hand in hands for card in hand} | set(shown)
    assert len(used) == sum(map(len, hands)) + len(shown), "a card is dealt twice"
    changes: dict[str, Any] = {
        "pockets": hands,
        "board": shown,
        "deck": tuple(card for card in DECK if card not in used),
    }
    if round is not None:
        changes["round"] = round
    if chips is not None:
        changes["chips"] = tuple(tuple(row) for row in chips)
    if vaults is not None:
        changes["vaults"] = vaults
    if alarms is not None:
        changes["alarms"] = alarms
    return msgspec.structs.replace(state, **changes)


def at_last_red_chip(
    players: int,
    pockets: Sequence[str],
    board: str,
    red: Sequence[int],
    *,
    confirm: bool = False,
    vaults: int = 0,
    alarms: int = 0,
) -> tuple[TheGangState, Play]:
    """A table in the river round where ``red[seat]`` is the red chip ``seat`` will hold.

    Every seat but the last already holds its red chip; the returned play (the last seat
    taking its chip) completes the round and so triggers the showdown.
    """
    full = tuple(range(players))
    last = players - 1
    row: list[int | None] = [None] * players
    for seat, stars in enumerate(red):
        if seat != last:
            row[stars - 1] = seat
    state = rigged(
        new(players, confirm),
        pockets,
        board,
        round=Colour.RED,
        chips=[full, full, full, tuple(row)],
        vaults=vaults,
        alarms=alarms,
    )
    return state, (last, TakeChip(Colour.RED, red[last]))


def apply_all(state: TheGangState, plays: Iterable[Play]) -> tuple[TheGangState, list[Any]]:
    """Apply ``plays`` in order; the events of all of them, concatenated."""
    events: list[Any] = []
    for seat, move in plays:
        state, more = GAME.apply(state, seat, move)
        events += more
    return state, events


def finish_round(state: TheGangState, stars: Sequence[int]) -> TheGangState:
    """Every seat takes ``stars[seat]`` of the current colour (and confirms if needed)."""
    plays: list[Play] = [(seat, TakeChip(state.round, s)) for seat, s in enumerate(stars)]
    if state.config.confirm_round_end:
        plays += [(seat, ConfirmRoundEnd()) for seat in range(state.config.players)]
    return apply_all(state, plays)[0]


def reason_of(state: TheGangState, seat: int, move: Any) -> tuple[type[MoveError], str] | None:
    """``None`` if ``check`` accepts the move, else the error's class and reason."""
    try:
        GAME.check(state, seat, move)
    except MoveError as error:
        return type(error), error.reason
    return None


def candidate_moves(players: int) -> list[Move]:
    """A move space wider than the table's: every colour, stars from -1 to players + 2."""
    moves: list[Move] = [ConfirmRoundEnd()]
    for colour in Colour:
        for stars in range(-1, players + 3):
            moves += [TakeChip(colour, stars), ReturnChip(colour, stars)]
    return moves


# --- hand strength (independent of engines.poker) ------------------------------------


def strength(hand: Iterable[Card]) -> int:
    """eval7's value of the best five cards: higher is stronger, equal means a tie."""
    return int(eval7.evaluate([eval7.Card(str(card)) for card in hand]))


def true_stars(state: TheGangState) -> list[int]:
    """The chip each seat should hold now: its rank among all hands with today's board.

    Pre-flop (no board) the rank of the two pocket cards alone (pair first, then high
    cards) stands in; ties go to the lower seat first, which the rules allow.
    """

    def key(seat: int) -> tuple[int, ...]:
        pocket = state.pockets[seat]
        if len(state.board) < 3:
            high, low = sorted((card.rank for card in pocket), reverse=True)
            return (int(high == low), high, low, seat)
        return (strength(pocket + state.board), seat)

    order = sorted(range(state.config.players), key=key)
    stars = [0] * state.config.players
    for position, seat in enumerate(order):
        stars[seat] = position + 1
    return stars


def row_after(row: Row, seat: int, move: Move) -> Row:
    """The current colour's row after a legal chip move (confirmations leave it alone)."""
    out = list(row)
    if isinstance(move, TakeChip):
        out = [None if holder == seat else holder for holder in out]
        out[move.stars - 1] = seat
    elif isinstance(move, ReturnChip):
        out[move.stars - 1] = None
    return tuple(out)


def ends_round(state: TheGangState, seat: int, move: Move) -> tuple[bool, Row]:
    """Whether the legal ``move`` ends the round, and the row the round would end with."""
    row = row_after(state.chips[state.round], seat, move)
    if any(holder is None for holder in row):
        return False, row
    if not state.config.confirm_round_end:
        return True, row
    confirmed = set(state.confirmed_seats) | {seat} if isinstance(move, ConfirmRoundEnd) else set()
    return len(confirmed) == state.config.players, row


# --- strategies ------------------------------------------------------------------------


def oracle_play(
    state: TheGangState, rnd: random.Random, hesitate: float = 0.0, reverse: bool = False
) -> Play:
    """A move of a gang that sees every hand and never lets a round end wrongly.

    With probability ``hesitate`` some seat first makes a random legal move, as long as
    that move cannot end the round with a wrong chip anywhere; otherwise a seat that does
    not hold its true chip takes it (from the centre or from whoever holds it), or, with
    ``confirm_round_end``, a seat confirms the correct row. With ``reverse`` the gang
    deliberately holds the chips in the opposite order (to lose a heist on purpose).
    """
    players = state.config.players
    stars = true_stars(state)
    if reverse:
        stars = [players + 1 - s for s in stars]
    right = tuple(stars.index(s) for s in range(1, players + 1))

    def safe(seat: int, move: Move) -> bool:
        ends, row = ends_round(state, seat, move)
        return not ends or row == right

    if rnd.random() < hesitate:
        seat = rnd.randrange(players)
        move = rnd.choice(GAME.legal_moves(state, seat))
        if safe(seat, move):
            return seat, move
    if state.chips[state.round] == right and state.config.confirm_round_end:
        waiting = [seat for seat in range(players) if seat not in state.confirmed_seats]
        return rnd.choice(waiting), ConfirmRoundEnd()
    fixes: list[Play] = [
        (seat, TakeChip(state.round, stars[seat]))
        for seat in range(players)
        if state.chips[state.round][stars[seat] - 1] != seat
    ]
    return rnd.choice([play for play in fixes if safe(*play)])


def random_play(state: TheGangState, rnd: random.Random) -> Play:
    """A random legal move of a random seat, nudged so that rounds do end.

    Once everyone holds a chip a seat that has not confirmed usually confirms, and a seat
    without a chip usually takes one from the centre; otherwise every legal move of the
    chosen seat is equally likely.
    """
    players = state.config.players
    row = state.chips[state.round]
    waiting = [seat for seat in range(players) if seat not in state.confirmed_seats]
    if state.config.confirm_round_end and None not in row and rnd.random() < 0.9:
        return rnd.choice(waiting), ConfirmRoundEnd()
    seat = rnd.randrange(players)
    centre = [stars for stars in range(1, players + 1) if row[stars - 1] is None]
    if seat not in row and centre and rnd.random() < 0.8:
        return seat, TakeChip(state.round, rnd.choice(centre))
    return seat, rnd.choice(GAME.legal_moves(state, seat))


def play_out(
    state: TheGangState, plan: str, rnd: random.Random, hesitate: float = 0.0
) -> list[Play]:
    """The plays of a whole game by the oracle gang from ``state``.

    ``plan`` has a letter per heist, the last one repeating: ``W`` plays the true order
    (the heist succeeds), ``L`` the reversed order (it fails unless hands tie).
    """
    plays: list[Play] = []
    while not state.finished:
        reverse = plan[min(state.heist, len(plan)) - 1] == "L"
        play = oracle_play(state, rnd, hesitate, reverse)
        state, _ = GAME.apply(state, *play)
        plays.append(play)
    return plays


# --- finding cards in what leaves the engine ---------------------------------------------


# Values that hold no card, skipped by their exact type before any isinstance test: the
# scan runs over every view, event and move of every playout, mostly through these.
_LEAVES: frozenset[type] = frozenset({int, str, bool, float, bytes, type(None)})


def cards_in(value: object) -> Iterator[Card]:
    """Every :class:`Card` inside a struct, tuple, list or dict, however deep, in order."""
    found: list[Card] = []
    _collect(value, found)
    return iter(found)


def _collect(value: object, found: list[Card]) -> None:
    """``cards_in`` as plain recursion: nested generators cost a frame per level for every
    card they pass up."""
    if type(value) in _LEAVES:
        return
    if isinstance(value, Card):
        found.append(value)
    elif isinstance(value, msgspec.Struct):
        for name in value.__struct_fields__:
            _collect(getattr(value, name), found)
    elif isinstance(value, dict):
        for item in value.values():
            _collect(item, found)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            _collect(item, found)


def encoded_cards(value: object, among: Iterable[Card] = DECK) -> set[Card]:
    """Which of ``among`` are on the wire in ``value``'s JSON: ``[rank, "s"]`` or ``"As"``."""
    wanted = set(among)
    found: set[Card] = set()
    text = msgspec.json.encode(value).decode()

    def walk(item: object) -> None:
        if isinstance(item, list):
            if (
                len(item) == 2
                and type(item[0]) is int
                and 2 <= item[0] <= 14
                and item[1] in ("c", "d", "h", "s")
            ):
                found.add(msgspec.convert(item, Card))
            for part in item:
                walk(part)
        elif isinstance(item, dict):
            for part in item.values():
                walk(part)

    walk(msgspec.json.decode(text))
    found.update(card for card in wanted if str(card) in text)
    return found & wanted


def shows(value: object, secret: set[Card]) -> set[Card]:
    """Which of the ``secret`` cards appear in ``value``, as objects or in its JSON."""
    if not secret:
        return set()
    return (set(cards_in(value)) | encoded_cards(value, secret)) & secret
