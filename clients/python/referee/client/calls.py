"""The pieces the calls of :mod:`referee.client.core` are made of: what a call sends (auth
metadata, requests), when a failed call is sent again (:class:`Tries`), how a retried
submit carries on (:class:`Attempt`), where a resumed watch picks up (:class:`WatchCursor`)
and how history pages gather (:class:`HistoryPages`, :func:`gathered_history`, also for
code that holds a bare stub)."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass

import grpc

from referee.client.errors import RefereeError, Unavailable
from referee.client.policy import Resume, Retry, is_transport_failure
from referee.v1 import game_pb2, referee_pb2, table_pb2

Metadata = tuple[tuple[str, str], ...]


def auth_metadata(token: str | None, operator_key: str | None = None) -> Metadata:
    """``authorization: Bearer <token>`` (nothing for a spectator), and the operator's
    ``x-referee-key`` when the client has one (a referee asks for it to create)."""
    seat = (("authorization", f"Bearer {token}"),) if token is not None else ()
    return seat + ((("x-referee-key", operator_key),) if operator_key else ())


def new_move_id() -> str:
    return uuid.uuid4().hex


def create_request(
    game: str,
    seats: int,
    options: game_pb2.TableOptions | None,
    allow_spectators: bool,
    seed: bytes | None,
    open_seats: int = 0,
    names: Sequence[str] = (),
    listed: bool = False,
) -> referee_pb2.CreateGameRequest:
    return referee_pb2.CreateGameRequest(
        game=game,
        seats=seats,
        options=options,
        allow_spectators=allow_spectators,
        seed=seed or b"",
        open_seats=open_seats,
        names=list(names),
        listed=listed,
    )


class Tries:
    """The tries of one unary call under a :class:`Retry` policy.

    The caller sends the very same request every time (a move keeps its
    ``client_move_id``), and asks :meth:`pause` after each failure how long to wait before
    the next try, or whether to raise.
    """

    def __init__(self, policy: Retry) -> None:
        self.policy = policy
        self.made = 0
        self._delays: Iterator[float] = policy.backoff.delays()

    def pause(self, failure: RefereeError) -> float | None:
        """Seconds to wait before trying again after ``failure``; None: raise it now."""
        self.made += 1
        if not self.policy.retries(failure):
            return None
        if self.made > self.policy.attempts:
            failure.add_note(f"gave up after {self.made} tries")
            return None
        return next(self._delays)


@dataclass(frozen=True)
class Attempt:
    """One submission of a move: what, under which id, pinned to which version (or not)."""

    move: game_pb2.Move
    client_move_id: str
    expected_version: int | None

    def request(self, game_id: str) -> referee_pb2.SubmitMoveRequest:
        request = referee_pb2.SubmitMoveRequest(
            game_id=game_id, move=self.move, client_move_id=self.client_move_id
        )
        if self.expected_version is not None:
            request.expected_version = self.expected_version
        return request

    def again(self, move: game_pb2.Move, version: int) -> Attempt:
        """The next attempt after a conflict, at ``version``.

        The same move keeps its id (the refused attempt applied nothing, and a repeat of an
        id that did land is answered with its first result); a changed move needs a fresh
        one, since the referee refuses an id reused for a different move. An attempt that
        was not pinned to a version stays unpinned.
        """
        move_id = self.client_move_id if move == self.move else new_move_id()
        pinned = version if self.expected_version is not None else None
        return dataclasses.replace(self, move=move, client_move_id=move_id, expected_version=pinned)


def note_recheck(conflict: RefereeError, check: referee_pb2.ValidateMoveResponse) -> None:
    conflict.add_note(
        f"re-checked at version {check.version}: no longer legal ({check.reason}: {check.message})"
    )


class WatchCursor:
    """Where a watch stands: the last version delivered, and the reconnects in a row.

    Every message at or below the last delivered version is dropped, so a resumed stream
    never repeats one; the referee's replay after ``after_version`` leaves no gap.
    """

    def __init__(self, game_id: str, after_version: int | None, policy: Resume) -> None:
        self.game_id = game_id
        self.last_version = after_version
        self.policy = policy
        self.finished = False
        self.failures = 0
        self._delays: Iterator[float] = policy.backoff.delays()

    def request(self) -> referee_pb2.WatchGameRequest:
        request = referee_pb2.WatchGameRequest(game_id=self.game_id)
        if self.last_version is not None:
            request.after_version = self.last_version
        return request

    def fresh(self, message: referee_pb2.WatchGameResponse) -> bool:
        """Record ``message``; False when it was delivered before.

        A snapshot at the version last delivered is news, not a repeat: the referee sends
        one when the table changes without a move (a seat handed over, presence, the admin
        aborting the game). A resumed stream never repeats the version it resumed after."""
        last = self.last_version
        if last is not None and (
            message.version < last or (message.version == last and not message.snapshot)
        ):
            return False
        self.last_version = message.version
        # The referee ends a stream after the view that ends the game: finished (an
        # outcome) or aborted by the table admin (no outcome, no more moves).
        self.finished = message.view.HasField("outcome") or (
            message.view.table.status == table_pb2.TABLE_STATUS_ABORTED
        )
        if self.failures:
            self.failures = 0
            self._delays = self.policy.backoff.delays()
        return True

    def resumable(self, error: RefereeError) -> bool:
        """Whether to reconnect after ``error``: a transport failure, with attempts left."""
        if not is_transport_failure(error):
            return False
        self.failures += 1
        return self.failures <= self.policy.attempts

    def ended(self, received: bool) -> bool:
        """The stream closed cleanly: True when the watch is over.

        The referee closes a stream after the message that ends the game, and at once when
        asked to resume a finished game at its last version. A clean close at any other
        point means the connection went away (a proxy, say) and is resumed like a drop.
        """
        return self.finished or not received

    def ended_early(self) -> Unavailable:
        return Unavailable(
            grpc.StatusCode.UNAVAILABLE,
            "STREAM_ENDED",
            f"the watch stream kept closing before the game ended (last version "
            f"{self.last_version})",
        )

    def next_delay(self) -> float:
        return next(self._delays)


class HistoryPages:
    """GetHistory page by page, gathered into one response (what VerifyHistory takes).

    :meth:`next` gives the request for the next page (None once the last page is in) and
    :meth:`whole` the history: every entry, with the last page's other fields (seed,
    outcome and version as of the last call). A game that ended while its pages were read
    would mix redacted entries with public ones, so the pages are read again once, from
    the first: a game ends only once.
    """

    def __init__(self, game_id: str, page_size: int = 0) -> None:
        self._first = referee_pb2.GetHistoryRequest(game_id=game_id, page_size=page_size)
        self._entries: list[game_pb2.HistoryEntry] = []
        self._last: referee_pb2.GetHistoryResponse | None = None
        self._began_over: bool | None = None
        self._restarted = False

    def first(self) -> referee_pb2.GetHistoryRequest:
        return self._first

    def next(self, page: referee_pb2.GetHistoryResponse) -> referee_pb2.GetHistoryRequest | None:
        """Take in ``page``; the request for the next one, or None when it was the last."""
        over = page.HasField("outcome")
        if self._began_over is None:
            self._began_over = over
        elif over and not self._began_over and not self._restarted:
            self._restarted, self._began_over = True, True
            self._entries, self._last = [], None
            return self._first
        self._entries.extend(page.entries)
        self._last = page
        if not page.next_page_token:
            return None
        request = referee_pb2.GetHistoryRequest()
        request.CopyFrom(self._first)
        request.page_token = page.next_page_token
        return request

    def whole(self) -> referee_pb2.GetHistoryResponse:
        assert self._last is not None, "no page read yet"
        history = referee_pb2.GetHistoryResponse()
        history.CopyFrom(self._last)
        del history.entries[:]
        history.entries.extend(self._entries)
        history.next_page_token = ""
        return history


async def gathered_history(
    get: Callable[[referee_pb2.GetHistoryRequest], Awaitable[referee_pb2.GetHistoryResponse]],
    game_id: str,
    page_size: int = 0,
) -> referee_pb2.GetHistoryResponse:
    """Every page of ``game_id``'s history through ``get`` (a stub's GetHistory with the
    caller's metadata bound), gathered by :class:`HistoryPages` into one response."""
    pages = HistoryPages(game_id, page_size)
    request: referee_pb2.GetHistoryRequest | None = pages.first()
    while request is not None:
        request = pages.next(await get(request))
    return pages.whole()
