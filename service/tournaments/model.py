"""A tournament as stored: frozen msgspec Structs, MessagePack in Redis.

Participants, tables and standings refer to a participant by its index in
:attr:`Tournament.participants`. Everything derived (standings, ratings) is stored with the
round that produced it, so a reader never recomputes and every process sees the same.
"""

from __future__ import annotations

import enum

import msgspec

MU = 25.0
SIGMA = MU / 3


class Format(enum.StrEnum):
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"


class Status(enum.StrEnum):
    CREATED = "created"
    RUNNING = "running"
    FINISHED = "finished"


class Participant(msgspec.Struct, frozen=True):
    name: str
    bot: str = ""  # "random" | "heuristic"; "" = external
    token_sha256: str = ""  # external participants, once they claimed their seat
    claimed_at: float = 0.0  # Unix seconds of the claim (ClaimSeat); 0: not claimed
    # The operator's id for this person (ParticipantSpec.player_id), which its tables rate
    # it under; "" for a bot (rated as its strategy) or a person not rated.
    player_id: str = ""

    @property
    def external(self) -> bool:
        return not self.bot

    @property
    def claimed(self) -> bool:
        """An external participant who holds a participant token (has claimed its seat)."""
        return bool(self.token_sha256)


class Rating(msgspec.Struct, frozen=True):
    mu: float = MU
    sigma: float = SIGMA

    @property
    def ordinal(self) -> float:
        """openskill's conservative estimate, mu - 3 sigma."""
        return self.mu - 3 * self.sigma


class SeatResult(msgspec.Struct, frozen=True):
    """How one seat did at a finished table (see tournament.proto TableResult)."""

    participant: int
    seat: int
    place: int
    points: float
    score: int
    alarms: int = 0
    team: bool = False  # the seat played in a team (cooperative) game: see scoring


class Table(msgspec.Struct, frozen=True):
    number: int
    participants: tuple[int, ...]
    game_id: str = ""
    finished: bool = False
    results: tuple[SeatResult, ...] = ()
    summary: str = ""


class Standing(msgspec.Struct, frozen=True):
    rank: int
    participant: int
    points: float
    rating: Rating
    tables_played: int
    byes: int
    alarms: int = 0


class Round(msgspec.Struct, frozen=True):
    number: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()
    complete: bool = False
    standings: tuple[Standing, ...] = ()


class Tournament(msgspec.Struct, frozen=True):
    tournament_id: str
    game: str
    seats_per_table: int
    options: bytes  # the TableOptions protobuf, as given
    format: Format
    rounds: int
    seed: bytes  # secret: game seeds and bots' choices follow from it
    seed_sha256: str
    admin_sha256: str
    participants: tuple[Participant, ...]
    created_at: float
    seat_counts: tuple[int, ...]  # table sizes the game accepts with these options
    client_seeded: bool = False  # games get seeds derived from `seed` (tests, replays)
    bot_move_delay_ms: int = 0  # bots pause this long before each move
    status: Status = Status.CREATED
    played: tuple[Round, ...] = ()
    ratings: tuple[Rating, ...] = ()
    # Its tables are rated (RatingService): set at creation from whether the creator
    # presented an operator key. False for anyone else's, whose player ids nobody vouches
    # for (TournamentSpec.rated).
    rated: bool = False

    @property
    def current(self) -> Round | None:
        return self.played[-1] if self.played else None

    @property
    def final_ranking(self) -> tuple[Standing, ...]:
        if self.status is not Status.FINISHED or not self.played:
            return ()
        return self.played[-1].standings


encode = msgspec.msgpack.Encoder().encode
decode = msgspec.msgpack.Decoder(Tournament).decode
