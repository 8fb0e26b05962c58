"""The Gang base game: one check per rule, and moves applied only through it.

Rule text quoted from the seed (``shared/seeds/000_*.txt``, Dutch):

* "Je mag op elk moment een fiche van de huidige ronde pakken. Dat kan een fiche uit het
  midden zijn, maar ook een fiche dat al voor een andere speler ligt."
* "Je mag nooit meer dan één fiche van dezelfde kleur voor je hebben liggen."
* "Je mag een fiche van de huidige ronde terugleggen in het midden. Je legt nooit zelf een
  fiche voor een andere speler neer."
* "Zodra iedereen een fiche van de huidige ronde voor zich heeft, eindigt de ronde."
"""

from __future__ import annotations

import msgspec.structs

from engines.base import Outcome, Seat, check_table
from engines.cards import DECK
from engines.errors import IllegalMoveError, InvalidMoveError
from engines.rng import Rng
from engines.the_gang import showdown
from engines.the_gang.events import (
    BoardDealt,
    ChipReturned,
    ChipTaken,
    Event,
    GameEnded,
    HeistEnded,
    PocketDealt,
    RoundEndConfirmed,
    RoundEnded,
    RoundStarted,
)
from engines.the_gang.model import (
    ALARMS_TO_LOSE,
    BOARD_AFTER_ROUND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    POCKET_SIZE,
    VAULTS_TO_WIN,
    Colour,
    TheGangConfig,
    TheGangState,
)
from engines.the_gang.moves import ConfirmRoundEnd, Move, ReturnChip, TakeChip


def make_config(players: int, options: dict[str, object]) -> TheGangConfig:
    flags = check_table(
        "The Gang", players, range(MIN_PLAYERS, MAX_PLAYERS + 1), options, ("confirm_round_end",)
    )
    return TheGangConfig(players=players, **flags)


def new_game(config: TheGangConfig, seed: bytes) -> TheGangState:
    make_config(config.players, {})
    empty = TheGangState(
        config=config,
        rng=Rng(seed),
        heist=0,
        round=Colour.WHITE,
        vaults=0,
        alarms=0,
        deck=(),
        pockets=(),
        board=(),
        chips=(),
    )
    state, _ = _start_heist(empty)
    return state


def seat_count(state: TheGangState) -> int:
    return state.config.players


def to_act(state: TheGangState) -> frozenset[Seat]:
    """Chip taking is simultaneous: every seat may act at any moment of a round."""
    if state.finished:
        return frozenset()
    return frozenset(range(state.config.players))


# --- the checks -------------------------------------------------------------------------


def _holder(state: TheGangState, colour: Colour, stars: int) -> int | None:
    return state.chips[colour][stars - 1]


def _check_chip_exists(state: TheGangState, colour: Colour, stars: int) -> None:
    if not isinstance(colour, Colour) or type(stars) is not int:
        raise InvalidMoveError("UNKNOWN_CHIP", "a chip is a colour and a whole number of stars")
    if not 1 <= stars <= state.config.players:
        raise InvalidMoveError(
            "CHIP_OUT_OF_RANGE",
            f"chips have 1 to {state.config.players} stars at this table, not {stars}",
        )


def _check_current_colour(state: TheGangState, colour: Colour) -> None:
    if colour != state.round:
        raise IllegalMoveError(
            "CHIP_NOT_IN_PLAY",
            f"only {state.round.name.lower()} chips are in play this round, "
            f"not {colour.name.lower()}",
        )


def _all_hold_a_chip(state: TheGangState) -> bool:
    return all(holder is not None for holder in state.chips[state.round])


def check(state: TheGangState, seat: Seat, move: Move) -> None:
    """Raise :class:`InvalidMoveError` or :class:`IllegalMoveError` unless ``move`` is legal."""
    if not 0 <= seat < state.config.players:
        raise InvalidMoveError("SEAT_OUT_OF_RANGE", f"no seat {seat} at this table")
    if state.finished:
        raise IllegalMoveError("GAME_OVER", "the game is over")
    match move:
        case TakeChip(colour=colour, stars=stars):
            _check_chip_exists(state, colour, stars)
            _check_current_colour(state, colour)
            if _holder(state, colour, stars) == seat:
                raise IllegalMoveError("CHIP_ALREADY_HELD", "you already hold that chip")
        case ReturnChip(colour=colour, stars=stars):
            _check_chip_exists(state, colour, stars)
            _check_current_colour(state, colour)
            if _holder(state, colour, stars) != seat:
                raise IllegalMoveError(
                    "CHIP_NOT_HELD", "you can only return a chip lying in front of you"
                )
        case ConfirmRoundEnd():
            if not state.config.confirm_round_end:
                raise IllegalMoveError(
                    "CONFIRMATION_NOT_USED",
                    "this table ends a round as soon as everyone holds a chip",
                )
            if not _all_hold_a_chip(state):
                raise IllegalMoveError(
                    "ROUND_INCOMPLETE", "the round can end only once everyone holds a chip"
                )
            if seat in state.confirmed:
                raise IllegalMoveError("ALREADY_CONFIRMED", "you have already confirmed")
        case _:
            raise InvalidMoveError("UNKNOWN_MOVE", "not a move of The Gang")


def legal_moves(state: TheGangState, seat: Seat) -> list[Move]:
    """Every move ``check`` accepts, drawn from the whole move space of this table."""
    if state.finished or not 0 <= seat < state.config.players:
        return []
    stars = range(1, state.config.players + 1)
    candidates: list[Move] = [TakeChip(state.round, s) for s in stars]
    candidates += [ReturnChip(state.round, s) for s in stars]
    candidates.append(ConfirmRoundEnd())
    legal: list[Move] = []
    for move in candidates:
        try:
            check(state, seat, move)
        except (InvalidMoveError, IllegalMoveError):
            continue
        legal.append(move)
    return legal


# --- applying ---------------------------------------------------------------------------


def apply(state: TheGangState, seat: Seat, move: Move) -> tuple[TheGangState, list[Event]]:
    check(state, seat, move)
    events: list[Event] = []
    if isinstance(move, ConfirmRoundEnd):
        state = _replace(state, confirmed=tuple(sorted({*state.confirmed, seat})))
        events.append(RoundEndConfirmed(seat))
    else:
        row = list(state.chips[state.round])
        if isinstance(move, TakeChip):
            if seat in row:
                own = row.index(seat)
                row[own] = None
                events.append(ChipReturned(seat, state.round, own + 1))
            events.append(ChipTaken(seat, state.round, move.stars, row[move.stars - 1]))
            row[move.stars - 1] = seat
        else:
            row[move.stars - 1] = None
            events.append(ChipReturned(seat, state.round, move.stars))
        chips = list(state.chips)
        chips[state.round] = tuple(row)
        # "any chip change clears confirmations" (confirm_round_end option)
        state = _replace(state, chips=tuple(chips), confirmed=())
    if _round_over(state):
        state, more = _end_round(state)
        events += more
    return state, events


def _round_over(state: TheGangState) -> bool:
    if not _all_hold_a_chip(state):
        return False
    return not state.config.confirm_round_end or len(state.confirmed) == state.config.players


def _end_round(state: TheGangState) -> tuple[TheGangState, list[Event]]:
    events: list[Event] = [RoundEnded(state.heist, state.round)]
    if state.round == Colour.RED:
        state, more = _finish_heist(state)
        return state, events + more
    colour = Colour(state.round + 1)
    count = BOARD_AFTER_ROUND[colour] - len(state.board)
    dealt, deck = state.deck[:count], state.deck[count:]
    state = _replace(
        state,
        round=colour,
        deck=deck,
        board=state.board + dealt,
        chips=(*state.chips, (None,) * state.config.players),
        confirmed=(),
    )
    events += [BoardDealt(dealt), RoundStarted(state.heist, colour)]
    return state, events


def _finish_heist(state: TheGangState) -> tuple[TheGangState, list[Event]]:
    result = showdown.judge(state)
    vaults = state.vaults + result.success
    alarms = state.alarms + (not result.success)
    state = _replace(state, vaults=vaults, alarms=alarms, history=(*state.history, result))
    events: list[Event] = [HeistEnded(result, vaults, alarms)]
    if vaults >= VAULTS_TO_WIN or alarms >= ALARMS_TO_LOSE:
        events.append(GameEnded(won=vaults >= VAULTS_TO_WIN))
        return _replace(state, finished=True, confirmed=()), events
    state, more = _start_heist(state)
    return state, events + more


def _start_heist(state: TheGangState) -> tuple[TheGangState, list[Event]]:
    """Shuffle all 52 cards and deal two pocket cards to each player, one at a time."""
    players = state.config.players
    deck, rng = state.rng.shuffled(DECK)
    pockets = tuple(
        tuple(deck[seat + players * i] for i in range(POCKET_SIZE)) for seat in range(players)
    )
    heist = state.heist + 1
    state = _replace(
        state,
        rng=rng,
        heist=heist,
        round=Colour.WHITE,
        deck=deck[players * POCKET_SIZE :],
        pockets=pockets,
        board=(),
        chips=((None,) * players,),
        confirmed=(),
    )
    events: list[Event] = [PocketDealt(heist, seat, pockets[seat]) for seat in range(players)]
    events.append(RoundStarted(heist, Colour.WHITE))
    return state, events


def outcome(state: TheGangState) -> Outcome | None:
    if not state.finished:
        return None
    if state.vaults >= VAULTS_TO_WIN:
        return Outcome(
            tuple(range(state.config.players)),
            f"The gang cracked {state.vaults} vaults in {state.heist} heists.",
        )
    return Outcome((), f"The alarm went off {state.alarms} times in {state.heist} heists.")


def _replace(state: TheGangState, **changes: object) -> TheGangState:
    return msgspec.structs.replace(state, **changes)
