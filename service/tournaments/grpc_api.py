"""The gRPC face of TournamentService, built from its RPC table like the referee's: each
call is checked, logged and counted (:func:`service.edge.calls.answering`) and a failure ends
it with its status (:func:`service.errors.to_rpc_status`)."""

from __future__ import annotations

from referee.v1 import tournament_pb2_grpc
from service.edge.grpc_api import Servicer
from service.tournaments.api import RPCS


class TournamentServicer(Servicer, tournament_pb2_grpc.TournamentServiceServicer):
    table = RPCS
