"""The Gang: one check per rule, and moves applied only through it.

Chip rules quoted from the seed (``shared/seeds/000_*.txt``, Dutch):

* "Je mag op elk moment een fiche van de huidige ronde pakken. Dat kan een fiche uit het
  midden zijn, maar ook een fiche dat al voor een andere speler ligt."
* "Je mag nooit meer dan één fiche van dezelfde kleur voor je hebben liggen."
* "Je mag een fiche van de huidige ronde terugleggen in het midden. Je legt nooit zelf een
  fiche voor een andere speler neer."
* "Zodra iedereen een fiche van de huidige ronde voor zich heeft, eindigt de ronde."

The rounds and heists are in ``flow``, the cards of the modes in ``piles``, the group
decisions and card actions in ``decisions``.
"""

from __future__ import annotations

import msgspec
import msgspec.structs

from engines.base import Outcome, Seat, split_rules_revision
from engines.checks import accepted, check_seat, check_table, may_move, unchecked
from engines.errors import IllegalMoveError, InvalidConfigError, InvalidMoveError
from engines.rng import Rng
from engines.the_gang import decisions, flow, piles, tables
from engines.the_gang.events import ChipReturned, ChipTaken, Event, RoundEndConfirmed
from engines.the_gang.model import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    RULES_REVISION,
    VAULTS_TO_WIN,
    Colour,
    Mode,
    PileStart,
    TheGangConfig,
    TheGangState,
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

_FLAGS = ("confirm_round_end", "shuffle_piles", "ordered_challenges")
_PILES = ("challenge_pile", "specialist_pile")
_NOT_FLAGS = ("mode", *_PILES)


def make_config(players: int, options: dict[str, object]) -> TheGangConfig:
    """Table options: the flags, ``mode`` (a :class:`Mode` value) and the piles to continue
    (:class:`PileStart`)."""
    revision, options = split_rules_revision("The Gang", options, RULES_REVISION)
    rest = {key: value for key, value in options.items() if key not in _NOT_FLAGS}
    flags = check_table("The Gang", players, range(MIN_PLAYERS, MAX_PLAYERS + 1), rest, _FLAGS)
    try:
        mode = Mode(str(options.get("mode", Mode.BASIC)))
    except ValueError:
        modes = ", ".join(mode.value for mode in Mode)
        raise InvalidConfigError(
            "BAD_OPTION", f"mode must be one of {modes}, not {options['mode']!r}"
        ) from None
    starts: dict[str, PileStart | None] = {}
    for name in _PILES:
        start = options.get(name)
        if start is not None and not isinstance(start, PileStart):
            raise InvalidConfigError("BAD_OPTION", f"{name} must be a pile start")
        starts[name] = start
    config = TheGangConfig(
        players=players,
        confirm_round_end=flags["confirm_round_end"],
        mode=mode,
        shuffle_piles=flags["shuffle_piles"],
        challenge_pile=starts["challenge_pile"],
        specialist_pile=starts["specialist_pile"],
        rules_revision=revision,
        ordered_challenges=True if flags["ordered_challenges"] else msgspec.UNSET,
    )
    _check_piles(config)
    return config


def _check_piles(config: TheGangConfig) -> None:
    uses_piles = config.mode is not Mode.BASIC
    given = [name for name in _PILES if getattr(config, name) is not None]
    if config.shuffle_piles:
        given.append("shuffle_piles")
    if given and not uses_piles:
        raise InvalidConfigError(
            "OPTION_NEEDS_MODE", f"{', '.join(given)} only apply to a mode with cards"
        )
    if config.ordered_challenges is True:
        _check_ordered(config)
    if config.challenge_pile is not None:
        piles.check_pile_start("challenge_pile", config.challenge_pile, without_one=True)
    if config.specialist_pile is not None:
        piles.check_pile_start("specialist_pile", config.specialist_pile, without_one=False)


def _check_ordered(config: TheGangConfig) -> None:
    """``ordered_challenges`` keeps the order that revision 2 shuffles: only in the modes
    whose challenges are random, and not with ``shuffle_piles``, which shuffles it."""
    if config.mode not in (Mode.PROFESSIONAL, Mode.MASTER_THIEF):
        raise InvalidConfigError(
            "OPTION_NEEDS_MODE", "ordered_challenges only applies to Professional and Master Thief"
        )
    if config.revision < 2:
        raise InvalidConfigError(
            "BAD_OPTION",
            "ordered_challenges needs rules revision 2 (revision 1 has no such option)",
        )
    if config.shuffle_piles:
        raise InvalidConfigError(
            "BAD_OPTION",
            "ordered_challenges keeps the challenge pile in order: not with shuffle_piles",
        )


def new_game(config: TheGangConfig, seed: bytes) -> TheGangState:
    check_table("The Gang", config.players, range(MIN_PLAYERS, MAX_PLAYERS + 1), {}, ())
    _check_piles(config)
    rng = Rng(seed)
    challenge_pile, specialist_pile, rng = piles.new_piles(config, rng)
    empty = TheGangState(
        config=config,
        rng=rng,
        heist=0,
        round=Colour.WHITE,
        vaults=0,
        alarms=0,
        deck=(),
        pockets=(),
        board=(),
        chips=(),
        challenge_pile=challenge_pile,
        specialist_pile=specialist_pile,
    )
    state, _ = flow.start_heist(empty, success=None)
    return state


def seat_count(state: TheGangState) -> int:
    return state.config.players


def to_act(state: TheGangState) -> frozenset[Seat]:
    """Play is simultaneous: every seat that has a legal move may act now.

    Without cards that is every seat (each can always take a chip it does not hold); with
    them a seat may have nothing to do (its Coordinator pass made, a dark chip held, the
    scans' subject while the others guess), so the legal moves decide.
    """
    if state.finished:
        return frozenset()
    seats = range(state.config.players)
    if not state.challenges and state.specialist is None:
        return frozenset(seats)
    return frozenset(seat for seat in seats if legal_moves(state, seat))


# --- the chip checks --------------------------------------------------------------------


def _holder(state: TheGangState, colour: Colour, stars: int) -> int | None:
    return state.chips[colour][stars - 1]


def _check_chip_exists(state: TheGangState, colour: object, stars: object) -> None:
    if not isinstance(colour, Colour) or type(stars) is not int:
        raise InvalidMoveError("UNKNOWN_CHIP", "a chip is a colour and a whole number of stars")
    if not 1 <= stars <= state.config.players:
        raise InvalidMoveError(
            "CHIP_OUT_OF_RANGE",
            f"chips have 1 to {state.config.players} stars at this table, not {stars}",
        )


def _check_chips_in_play(state: TheGangState, colour: Colour) -> None:
    if state.awaiting_guesses:
        raise IllegalMoveError("CHIPS_FINAL", "the red chips are final: the guesses are due")
    if state.passes:
        raise IllegalMoveError(
            "CARDS_BEING_PASSED", "chips are taken once every Coordinator pass is made"
        )
    if colour != state.round:
        raise IllegalMoveError(
            "CHIP_NOT_IN_PLAY",
            f"only {state.round.name.lower()} chips are in play this round, "
            f"not {colour.name.lower()}",
        )


def _check_not_locked(state: TheGangState, colour: Colour, stars: int) -> None:
    """Noise Sensors, Ventilation Shaft: a dark chip taken from the centre "kan het niet meer
    van eigenaar wisselen"."""
    if tables.is_locked(state, colour, stars):
        raise IllegalMoveError(
            "CHIP_LOCKED", f"the dark {stars}-star chip can no longer change owner"
        )


def _check_chip(state: TheGangState, seat: Seat, move: TakeChip | ReturnChip) -> None:
    _check_chip_exists(state, unchecked(move).colour, unchecked(move).stars)
    _check_chips_in_play(state, move.colour)
    holder = _holder(state, move.colour, move.stars)
    if isinstance(move, TakeChip):
        if holder == seat:
            raise IllegalMoveError("CHIP_ALREADY_HELD", "you already hold that chip")
        _check_not_locked(state, move.colour, move.stars)
        row = state.chips[move.colour]
        if seat in row:  # your chip of this colour would go back to the centre
            _check_not_locked(state, move.colour, row.index(seat) + 1)
    else:
        if holder != seat:
            raise IllegalMoveError(
                "CHIP_NOT_HELD", "you can only return a chip lying in front of you"
            )
        _check_not_locked(state, move.colour, move.stars)


def _check_confirm(state: TheGangState, seat: Seat) -> None:
    if not flow.needs_confirmation(state):
        raise IllegalMoveError(
            "CONFIRMATION_NOT_USED", "this round ends as soon as everyone holds a chip"
        )
    if state.awaiting_guesses or not flow.all_hold_a_chip(state):
        raise IllegalMoveError(
            "ROUND_INCOMPLETE", "the round can end only once everyone holds a chip"
        )
    if seat in state.confirmed_seats:
        raise IllegalMoveError("ALREADY_CONFIRMED", "you have already confirmed")


def check(state: TheGangState, seat: object, move: Move) -> None:
    """Raise :class:`InvalidMoveError` or :class:`IllegalMoveError` unless ``move`` is legal."""
    seat = check_seat(seat, state.config.players, over=state.finished)
    match move:
        case TakeChip() | ReturnChip():
            _check_chip(state, seat, move)
        case ConfirmRoundEnd():
            _check_confirm(state, seat)
        case Propose(decision=decision):
            decisions.check_propose(state, seat, decision)
        case Accept():
            decisions.check_accept(state, seat, unchecked(move).proposal)
        case Withdraw():
            decisions.check_withdraw(state, seat, unchecked(move).proposal)
        case ShowCard(card=card):
            decisions.check_show(state, seat, card)
        case DiscardCard(card=card):
            decisions.check_discard(state, seat, card)
        case PassCard(card=card):
            decisions.check_pass(state, seat, card)
        case _:
            raise InvalidMoveError("UNKNOWN_MOVE", "not a move of The Gang")


def legal_moves(state: TheGangState, seat: object) -> list[Move]:
    """Every move ``check`` accepts, drawn from the whole move space of this table."""
    if not may_move(seat, state.config.players, over=state.finished):
        return []
    stars = range(1, state.config.players + 1)
    candidates: list[Move] = [TakeChip(state.round, s) for s in stars]
    candidates += [ReturnChip(state.round, s) for s in stars]
    candidates.append(ConfirmRoundEnd())
    candidates += decisions.candidates(state, seat)
    return accepted(check, state, seat, candidates)


# --- applying ---------------------------------------------------------------------------


def apply(state: TheGangState, seat: object, move: Move) -> tuple[TheGangState, list[Event]]:
    """The move's own events, then whatever follows from it (``flow.advance``): each step
    returns its state and its events, in the order they happened."""
    check(state, seat, move)
    seat = check_seat(seat, state.config.players)  # as ``check`` found it: a seat
    match move:
        case ConfirmRoundEnd():
            state = _replace(state, confirmed_seats=tuple(sorted({*state.confirmed_seats, seat})))
            events: list[Event] = [RoundEndConfirmed(seat)]
        case TakeChip() | ReturnChip():
            state, events = _move_chip(state, seat, move)
        case _:
            state, events = decisions.apply(state, seat, move)
    state, more = flow.advance(state)
    return state, events + more


def _move_chip(
    state: TheGangState, seat: Seat, move: TakeChip | ReturnChip
) -> tuple[TheGangState, list[Event]]:
    events: list[Event] = []
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
    return _replace(state, chips=tuple(chips), confirmed_seats=()), events


def outcome(state: TheGangState) -> Outcome | None:
    if not state.finished:
        return None
    players = state.config.players
    if state.vaults >= VAULTS_TO_WIN:
        winners = tuple(range(players))
        summary = f"The gang cracked {state.vaults} vaults in {state.heist} heists."
    else:
        winners = ()
        summary = f"The alarm went off {state.alarms} times in {state.heist} heists."
    return Outcome(
        winners,
        summary,
        scores=(state.vaults,) * players,
        placings=(1,) * players,
        tiebreaks=(-state.alarms,) * players,
        team=True,
    )


def _replace(state: TheGangState, **changes: object) -> TheGangState:
    return msgspec.structs.replace(state, **changes)
