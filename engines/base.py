"""The contract every game engine fulfils, as data (after boardgame.io's game objects).

A game is a :class:`GameDefinition`: its config, state, move, event and view types plus
pure functions. The service only ever talks to a game through this record, so adding a
game means writing an engine package and registering its definition; nothing in the
service is game-specific except the protobuf translation.

Rules of the contract:

* ``new_game(config, seed)`` is deterministic; all chance flows from the seed through the
  :class:`~engines.rng.Rng` kept inside the state.
* ``check`` is the single source of legality: ``legal_moves`` lists exactly the moves
  ``check`` accepts, and ``apply`` calls ``check`` before it changes anything.
* ``view(state, seat)`` is the only way state leaves the engine; ``seat=None`` is a
  spectator. ``view_event`` and ``view_move`` redact events and logged moves by the same
  rule (``None`` means the viewer must not learn that anything happened).
* ``revealed_view(state)`` is the post-game reveal: the spectator's view of ``state`` with
  everything the game hides shown in its ``revealed_*`` fields (every hand, the deck,
  set-aside cards, sealed choices). Pure, like ``view``, and derived from the same single
  statement of what is hidden; the service hands it out only for a finished game's states
  (every version of its history), never while the game runs.
* ``default_move(state, seat)`` is what a turn clock plays for a seat whose time ran out
  (issue 17): defined for every seat in ``to_act`` of a game that is not over (else the
  engine's :class:`~engines.errors.MoveError`: ``SEAT_OUT_OF_RANGE``, ``GAME_OVER`` or
  ``NOT_TO_ACT``), always one of ``legal_moves(state, seat)``, pure and deterministic (a
  choice left to chance is drawn from a child stream of the state's RNG, which it never
  advances: :meth:`~engines.rng.Rng.child`), and the least-surprising move for a player who
  walked away: nothing that costs where the rules allow it (pass, keep, decline), else the
  cheapest forced choice. Progress: a game in which the awaited seats play nothing but
  default moves ends well within its default move limit.
* ``awaited(state)`` (optional; read it with :meth:`GameDefinition.waiting_for`, which
  gives ``to_act`` when a game has none) are the seats of ``to_act`` the game is waiting
  for. They differ only where a seat may act without having to: in The Gang every seat
  may always move a chip, but a round waits only for the seats without one (and, with
  confirmation, for those that have not confirmed). A phase clock that runs out plays
  ``default_move`` for these seats, not for a seat that has done its part.
* The game's traits (``forfeitable``, ``cooperative``, ``default_move_limit``) are what the
  service asks of a game beyond its rules: it reads them from the definition, never from
  the game's name (tests/test_architecture.py checks both, for every registered game).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import msgspec

from engines.errors import InvalidConfigError, MoveError

C = TypeVar("C")
S = TypeVar("S")
M = TypeVar("M")
E = TypeVar("E")
V = TypeVar("V")

Seat = int
Viewer = int | None


class Outcome(msgspec.Struct, frozen=True):
    """How a finished game ended: everything a tournament needs to score a table.

    * ``winners``: the seats that won; empty when everybody lost together.
    * ``summary``: one readable sentence.
    * ``scores``: per seat, seat 0 first, the game's own final score as its rules count it
      (Gang of Four: penalty totals, lower is better; Pinched!: points; The Gang: the
      vaults the gang cracked, the same for every seat).
    * ``placings``: per seat, 1 = best; seats the rules cannot separate share a place and
      the next place skips (1, 1, 3). A team game places every seat 1.
    * ``tiebreaks``: per seat, what separates equal ``scores``, higher is better
      (Pinched!: gold bars among the sold cards; The Gang: minus the alarms, which also
      ranks tables of a tournament against each other; Gang of Four: none, zeros).
    * ``team``: the table wins or loses together (The Gang is cooperative), so the seats
      are one team rather than opponents.
    """

    winners: tuple[Seat, ...]
    summary: str
    scores: tuple[int, ...]
    placings: tuple[int, ...]
    tiebreaks: tuple[int, ...]
    team: bool = False


def places_of(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Placings from per-seat keys where higher is better: 1 + the seats strictly better,
    so equal keys share a place.

    >>> places_of([(3,), (5,), (3,), (1,)])
    (2, 1, 2, 4)
    """
    return tuple(1 + sum(other > key for other in keys) for key in keys)


@dataclass(frozen=True)
class GameDefinition(Generic[C, S, M, E, V]):
    """One game as data. The types are what the service decodes stored games with and
    what a codec derived from them walks: ``move_type`` and ``event_type`` are Unions of
    tagged msgspec Structs, ``view_type`` the Struct ``view`` returns.

    The traits have no defaults, so a new game cannot leave one out by forgetting it: none
    has a value that is safe for every game (a forfeit in a cooperative game would place a
    seat last in a game nobody loses alone; a limit too low cuts ordinary games short, one
    too high lets a seat inflate a game's history).

    * ``forfeitable``: a seat may forfeit (placed last, never a winner: the lobby's
      ForfeitSeat and a clock's no-show policy); otherwise FAILED_PRECONDITION
      ``FORFEIT_NOT_IN_GAME`` and a no-show is handed to a bot.
    * ``cooperative``: the seats play as one team that wins or loses together (OpenSpiel's
      "identical utility"); every :class:`Outcome` of the game has ``team`` set, which is
      what tournament scoring reads. A cooperative game is never ``forfeitable``.
    * ``default_move_limit``: the most moves (versions) a table of the game accepts unless
      its creator asks otherwise (service.domain.move_limits), 1 to that module's
      ``MAX_MOVE_LIMIT``. Measured, not guessed: 4x the longest game that
      ``python -m bench.move_limits --games 12`` plays (every seat count and variant, 12
      games by the ``random`` bots and 12 by the ``heuristic`` ones), rounded up to the
      next thousand; each game's own figures stand beside its value.
    """

    name: str
    config_type: type[C]
    state_type: type[S]
    move_type: Any  # a Union of move Structs (msgspec tagged union)
    event_type: Any  # a Union of event Structs
    view_type: type[V]
    make_config: Callable[[int, dict[str, Any]], C]
    new_game: Callable[[C, bytes], S]
    seat_count: Callable[[S], int]
    to_act: Callable[[S], frozenset[Seat]]
    legal_moves: Callable[[S, Seat], list[M]]
    check: Callable[[S, Seat, M], None]
    apply: Callable[[S, Seat, M], tuple[S, list[E]]]
    view: Callable[[S, Viewer], V]
    view_event: Callable[[E, Viewer], E | None]
    view_move: Callable[[M, Seat, Viewer], M | None]
    outcome: Callable[[S], Outcome | None]
    default_move: Callable[[S, Seat], M]
    revealed_view: Callable[[S], V]
    forfeitable: bool
    cooperative: bool
    default_move_limit: int
    awaited: Callable[[S], frozenset[Seat]] | None = None

    def waiting_for(self, state: S) -> frozenset[Seat]:
        """The seats the game waits for now (``awaited``, else ``to_act``): never empty
        while the game runs, always within ``to_act``."""
        if self.awaited is None:
            return self.to_act(state)
        return self.awaited(state)

    def is_legal(self, state: S, seat: Seat, move: M) -> bool:
        try:
            self.check(state, seat, move)
        except MoveError:
            return False
        return True


@dataclass(frozen=True)
class Step(Generic[S, M, E]):
    """One applied move of a replay: who moved, what, what happened, and the state after."""

    version: int
    seat: Seat
    move: M
    events: list[E]
    state: S


def replay(
    game: GameDefinition[C, S, M, E, V], config: C, seed: bytes, moves: Sequence[tuple[Seat, M]]
) -> tuple[S, list[Step[S, M, E]]]:
    """Re-run a game from its seed; raises the engine's error at the first bad move."""
    state = game.new_game(config, seed)
    initial = state
    steps: list[Step[S, M, E]] = []
    for version, (seat, move) in enumerate(moves, start=1):
        state, events = game.apply(state, seat, move)
        steps.append(Step(version, seat, move, events, state))
    return initial, steps


RULES_REVISION_OPTION = "rules_revision"
"""The option that replays a table under an earlier revision of a game's rules."""

RulesRevision = int | msgspec.UnsetType
"""A config's ``rules_revision`` field. UNSET is revision 1, the rules of the first
release: such a config is not encoded with the field at all, so it decodes from, and
encodes to, the same bytes as a config stored before revisions existed."""


def rules_revision(stored: RulesRevision) -> int:
    """The revision a config's ``rules_revision`` field stands for."""
    return 1 if isinstance(stored, msgspec.UnsetType) else stored


def split_rules_revision(
    game: str, options: dict[str, object], current: int
) -> tuple[RulesRevision, dict[str, object]]:
    """The rules revision a table plays by (as its config stores it), and the other options.

    A game's rules are revised when a reading of its rule text is corrected; a revision
    never changes how an earlier one plays, so a game recorded under it still replays
    move for move. New tables play by ``current``; an earlier revision (1 = the first
    release) is given only to replay a recorded game.
    """
    rest = {key: value for key, value in options.items() if key != RULES_REVISION_OPTION}
    revision = options.get(RULES_REVISION_OPTION, current)
    if type(revision) is not int or not 1 <= revision <= current:
        raise InvalidConfigError(
            "BAD_OPTION", f"{game} has rules revisions 1 to {current}, not {revision!r}"
        )
    return (msgspec.UNSET if revision == 1 else revision), rest
