"""TournamentService in protobuf terms: request in, use case, response out (both faces).

:data:`RPCS` routes each RPC to its method; the gRPC and HTTP faces are built from it as
the referee's are (:mod:`service.edge.rpcs`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import AsyncIterator, Callable

from referee.codecs import CODECS
from referee.v1 import game_pb2, referee_pb2, table_pb2, tournament_pb2
from service.app.limits import Limits
from service.app.lobby import Hosted, Lobby
from service.domain import hosting
from service.edge import clock_proto, translate
from service.edge.calls import bind
from service.edge.observability import Metrics
from service.edge.rpcs import RpcTable, server_stream, unary
from service.errors import BadRequest, TournamentNotFound, echo
from service.tournaments.host import ADMIN, ParticipantSpec, TournamentHost, TournamentSpec
from service.tournaments.model import (
    Format,
    Participant,
    Rating,
    Standing,
    Status,
    Table,
    Tournament,
)
from service.tournaments.store import Stored
from service.tournaments.tables import TableHand

SeatTokens = Callable[[str, int], str]
"""Issues the token of a seat of a game (``Referee.seat_token``)."""

_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

FORMATS = {
    tournament_pb2.TOURNAMENT_FORMAT_ROUND_ROBIN: Format.ROUND_ROBIN,
    tournament_pb2.TOURNAMENT_FORMAT_SWISS: Format.SWISS,
}
FORMAT_TO_PROTO = {value: key for key, value in FORMATS.items()}
# BotStrategy numbers to the participants' strategy names ("": an external participant).
BOTS: dict[tournament_pb2.BotStrategy.ValueType, str] = {
    tournament_pb2.BOT_STRATEGY_UNSPECIFIED: "",
    **{
        tournament_pb2.BotStrategy.Value(f"BOT_STRATEGY_{name.upper()}"): name
        for name in hosting.BOT_STRATEGIES.values()
    },
}
BOT_TO_PROTO = {value: key for key, value in BOTS.items()}
STATUS_TO_PROTO = {
    Status.CREATED: tournament_pb2.TOURNAMENT_STATUS_CREATED,
    Status.RUNNING: tournament_pb2.TOURNAMENT_STATUS_RUNNING,
    Status.FINISHED: tournament_pb2.TOURNAMENT_STATUS_FINISHED,
}
STATUSES: dict[int, Status | None] = {tournament_pb2.TOURNAMENT_STATUS_UNSPECIFIED: None} | {
    value: key for key, value in STATUS_TO_PROTO.items()
}


def _check_id(tournament_id: str) -> None:
    if not _ID.fullmatch(tournament_id):
        raise BadRequest(
            "TOURNAMENT_ID_INVALID", "tournament_id must be 1 to 64 letters, digits, '-' or '_'"
        )


def rating_to_proto(participant: int, rating: Rating) -> tournament_pb2.Rating:
    return tournament_pb2.Rating(
        participant=participant, mu=rating.mu, sigma=rating.sigma, ordinal=rating.ordinal
    )


def standing_to_proto(tournament: Tournament, standing: Standing) -> tournament_pb2.Standing:
    return tournament_pb2.Standing(
        rank=standing.rank,
        participant=standing.participant,
        name=tournament.participants[standing.participant].name,
        points=standing.points,
        rating=rating_to_proto(standing.participant, standing.rating),
        tables_played=standing.tables_played,
        byes=standing.byes,
        alarms=standing.alarms,
    )


def table_to_proto(
    tournament: Tournament, table: Table, caller: int | None, seat_token: SeatTokens
) -> tournament_pb2.TournamentTable:
    message = tournament_pb2.TournamentTable(
        number=table.number,
        participants=table.participants,
        game_id=table.game_id,
        finished=table.finished,
        summary=table.summary,
        results=[
            tournament_pb2.TableResult(
                participant=r.participant,
                seat=r.seat,
                place=r.place,
                points=r.points,
                score=r.score,
                alarms=r.alarms,
            )
            for r in table.results
        ],
    )
    if table.game_id and caller is not None and caller >= 0:  # a participant, not the admin
        for seat, who in enumerate(table.participants):
            if who == caller and tournament.participants[who].external:
                message.seat_tokens.append(
                    referee_pb2.SeatToken(seat=seat, token=seat_token(table.game_id, seat))
                )
    return message


def participant_to_proto(
    index: int, participant: Participant, caller: int | None
) -> tournament_pb2.TournamentParticipant:
    """A participant (its player id, as created, public like its name); whether (and when)
    it claimed its seat only for the admin and itself."""
    message = tournament_pb2.TournamentParticipant(
        index=index,
        name=participant.name,
        bot=BOT_TO_PROTO[participant.bot],
        player_id=participant.player_id,
    )
    if participant.external and caller in (ADMIN, index):
        message.claimed = participant.claimed
        message.claimed_at_unix_ms = round(participant.claimed_at * 1000)
    return message


def tournament_to_proto(
    stored: Stored, caller: int | None, seat_token: SeatTokens
) -> tournament_pb2.Tournament:
    """The tournament as ``caller`` (None, ADMIN or a participant index) may see it."""
    t = stored.tournament
    current = t.current
    options = game_pb2.TableOptions.FromString(t.options)
    return tournament_pb2.Tournament(
        tournament_id=t.tournament_id,
        version=stored.version,
        game=t.game,
        seats_per_table=t.seats_per_table,
        options=options,
        format=FORMAT_TO_PROTO[t.format],
        rounds=t.rounds,
        status=STATUS_TO_PROTO[t.status],
        current_round=current.number if current else 0,
        participants=[participant_to_proto(i, p, caller) for i, p in enumerate(t.participants)],
        round_results=[
            tournament_pb2.TournamentRound(
                number=played.number,
                tables=[table_to_proto(t, table, caller, seat_token) for table in played.tables],
                byes=played.byes,
                complete=played.complete,
                standings=[standing_to_proto(t, s) for s in played.standings],
            )
            for played in t.played
        ],
        ratings=[rating_to_proto(i, r) for i, r in enumerate(t.ratings)],
        final_ranking=[standing_to_proto(t, s) for s in t.final_ranking],
        seed_sha256=t.seed_sha256,
        bot_move_delay_ms=t.bot_move_delay_ms,
        clock=options.clock if options.HasField("clock") else None,
    )


def table_options(request: tournament_pb2.CreateTournamentRequest) -> game_pb2.TableOptions:
    """The options of every table of the tournament: the request's, with its clock (checked
    here: INVALID_ARGUMENT CLOCK_INVALID), which the director's tables then run by."""
    options = game_pb2.TableOptions()
    options.CopyFrom(request.options)
    if request.HasField("clock"):
        clock_proto.spec_from_proto(request.clock)
        options.clock.CopyFrom(request.clock)
    return options


def _table(hosted: Hosted) -> table_pb2.Table:
    return translate.host_to_proto(hosted.meta, hosted.host, finished=hosted.finished)


class TournamentApi:
    """Every RPC of ``referee.v1.TournamentService``; ``token`` as the face read it. The
    admin's table actions go through ``lobby`` (service.tournaments.tables)."""

    def __init__(
        self,
        host: TournamentHost,
        metrics: Metrics | None = None,
        limits: Limits | None = None,
        *,
        lobby: Lobby,
    ) -> None:
        self.host = host
        self.metrics = metrics
        self.limits = limits or Limits.unlimited()
        self.tables = TableHand(host, lobby)

    @property
    def seat_token(self) -> SeatTokens:
        """Seat tokens come from the referee's use case, like every other game access."""
        return self.host.referee.seat_token

    async def create_tournament(
        self, request: tournament_pb2.CreateTournamentRequest, _token: str | None
    ) -> tournament_pb2.CreateTournamentResponse:
        """No token is asked for; an operator key where this referee asks for one, and the
        caller's quotas (service.app.limits): creates, live tournaments, their bots.

        The tournament is rated only when its creator presented an operator key: the key
        vouches for the participants' player ids, as CreateGame's ``rated`` does. A
        participant's player_id without one would rate nothing, and is refused."""
        caller = self.limits.require_operator()
        if any(p.player_id for p in request.participants):
            caller = self.limits.require_key("a participant's player_id (a rated tournament)")
        codec = CODECS.get(request.game)
        if codec is None:
            raise BadRequest("GAME_UNKNOWN", f"unknown game {echo(request.game)}")
        if request.format not in FORMATS:
            raise BadRequest("FORMAT_MISSING", "format: ROUND_ROBIN or SWISS")
        if any(p.bot not in BOTS for p in request.participants):
            raise BadRequest("BOT_UNKNOWN", "unknown bot strategy")
        options = table_options(request)
        with translate.decoding():
            engine_options = codec.options_from_proto(options)
        created = await self.host.create(
            TournamentSpec(
                game=request.game,
                seats_per_table=request.seats_per_table,
                options=engine_options,
                options_proto=options.SerializeToString(deterministic=True),
                participants=[
                    ParticipantSpec(p.name, BOTS[p.bot], p.player_id) for p in request.participants
                ],
                format=FORMATS[request.format],
                rounds=request.rounds,
                seed=request.seed or None,
                bot_move_delay_ms=request.bot_move_delay_ms,
                rated=caller.key is not None,
            ),
            admit=functools.partial(
                self.limits.create_tournament,
                bots=sum(1 for p in request.participants if p.bot),
                still_live=self._still_live,
            ),
        )
        return tournament_pb2.CreateTournamentResponse(
            tournament_id=created.stored.tournament.tournament_id,
            version=created.stored.version,
            admin_token=created.admin_token,
            seat_codes=[
                tournament_pb2.SeatCode(
                    participant=index,
                    code=issued.code,
                    expires_at_unix_ms=round(issued.expires_at * 1000),
                )
                for index, issued in sorted(created.seat_codes.items())
            ],
            tournament=tournament_to_proto(created.stored, ADMIN, self.seat_token),
        )

    async def claim_seat(
        self, request: tournament_pb2.ClaimSeatRequest, _token: str | None
    ) -> tournament_pb2.ClaimSeatResponse:
        """No token: the code is the credential, and it works once."""
        claimed = await self.host.claim_seat(request.code, request.display_name)
        return tournament_pb2.ClaimSeatResponse(
            tournament_id=claimed.stored.tournament.tournament_id,
            participant=claimed.participant,
            participant_token=claimed.token,
            tournament=tournament_to_proto(claimed.stored, claimed.participant, self.seat_token),
        )

    async def _still_live(self, tournament_id: str) -> bool:
        """Whether a tournament still counts for its creator's quotas (not finished)."""
        try:
            stored = await self.host.store.load(tournament_id)
        except TournamentNotFound:
            return False
        return stored.tournament.status is not Status.FINISHED

    async def start_tournament(
        self, request: tournament_pb2.StartTournamentRequest, token: str | None
    ) -> tournament_pb2.StartTournamentResponse:
        """The admin token, and an operator key where this referee asks for one (its bots
        start playing here)."""
        self.limits.require_operator()
        _check_id(request.tournament_id)
        stored = await self.host.start(request.tournament_id, token)
        return tournament_pb2.StartTournamentResponse(
            tournament=tournament_to_proto(stored, ADMIN, self.seat_token)
        )

    async def get_tournament(
        self, request: tournament_pb2.GetTournamentRequest, token: str | None
    ) -> tournament_pb2.GetTournamentResponse:
        _check_id(request.tournament_id)
        stored, caller = await self.host.get(request.tournament_id, token)
        return tournament_pb2.GetTournamentResponse(
            tournament=tournament_to_proto(stored, caller, self.seat_token)
        )

    async def list_tournaments(
        self, request: tournament_pb2.ListTournamentsRequest, _token: str | None
    ) -> tournament_pb2.ListTournamentsResponse:
        if request.status not in STATUSES:
            raise BadRequest("STATUS_UNKNOWN", "unknown tournament status")
        found = await self.host.list(request.limit, STATUSES[request.status])
        return tournament_pb2.ListTournamentsResponse(
            tournaments=[tournament_to_proto(stored, None, self.seat_token) for stored in found]
        )

    async def watch_tournament(
        self, request: tournament_pb2.WatchTournamentRequest, token: str | None
    ) -> AsyncIterator[tournament_pb2.WatchTournamentResponse]:
        _check_id(request.tournament_id)
        after = request.after_version if request.HasField("after_version") else None
        await self.host.get(request.tournament_id, token)  # unknown: refused before any quota
        async with self.limits.watching():
            async for stored, caller in self.host.watch(request.tournament_id, token, after):
                yield tournament_pb2.WatchTournamentResponse(
                    tournament=tournament_to_proto(stored, caller, self.seat_token)
                )

    async def forfeit_table_seat(
        self, request: tournament_pb2.ForfeitTableSeatRequest, token: str | None
    ) -> tournament_pb2.ForfeitTableSeatResponse:
        """The admin token; bounded like any table action (the table's action cap)."""
        _check_id(request.tournament_id)
        bind(request.game_id, request.seat)
        hosted = await self.tables.forfeit(
            request.tournament_id, token, request.game_id, request.seat
        )
        return tournament_pb2.ForfeitTableSeatResponse(table=_table(hosted))

    async def replace_table_seat_by_bot(
        self, request: tournament_pb2.ReplaceTableSeatByBotRequest, token: str | None
    ) -> tournament_pb2.ReplaceTableSeatByBotResponse:
        """The admin token; bounded like any table action (the table's action cap)."""
        _check_id(request.tournament_id)
        if request.bot not in BOTS:
            raise BadRequest("BOT_UNKNOWN", "unknown bot strategy")
        bind(request.game_id, request.seat)
        hosted = await self.tables.replace_by_bot(
            request.tournament_id, token, request.game_id, request.seat, request.bot
        )
        return tournament_pb2.ReplaceTableSeatByBotResponse(table=_table(hosted))


RPCS = RpcTable(
    tournament_pb2.DESCRIPTOR.services_by_name["TournamentService"],
    (
        unary("CreateTournament", TournamentApi.create_tournament),
        unary("StartTournament", TournamentApi.start_tournament),
        unary("GetTournament", TournamentApi.get_tournament),
        unary("ListTournaments", TournamentApi.list_tournaments),
        server_stream("WatchTournament", TournamentApi.watch_tournament),
        unary("ClaimSeat", TournamentApi.claim_seat),
        unary("ForfeitTableSeat", TournamentApi.forfeit_table_seat),
        unary("ReplaceTableSeatByBot", TournamentApi.replace_table_seat_by_bot),
    ),
)
"""Every RPC of ``referee.v1.TournamentService``: both faces serve exactly these."""
