"""The blocking client is derived from the asyncio one, not written again: every call of
AsyncRefereeClient and AsyncSeat has a blocking twin of the same name and parameters, made
by referee.client.derive from the very same coroutine; and the way it runs them (to their
end, in the caller's thread) refuses a coroutine that would need an event loop."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncGenerator, Callable, Generator
from typing import Any

import pytest

from referee.client import AsyncRefereeClient, AsyncSeat, RefereeClient, Seat
from referee.client.core import Rpc
from referee.client.derive import blocking, blocking_iter, iterate_blocking, run_blocking
from referee.v1 import referee_pb2

ASYNC_ONLY = {"play"}  # a Play session is asyncio's own (one stream, read and written at once)
OWN = {"call", "close"}  # each client's, on its own kind of stub and channel
PAIRS = [(AsyncRefereeClient, RefereeClient), (AsyncSeat, Seat)]


def async_calls(cls: type[Any]) -> set[str]:
    """The public coroutine and async generator methods of ``cls``."""
    return {
        name
        for name, member in inspect.getmembers(cls)
        if not name.startswith("_")
        and (inspect.iscoroutinefunction(member) or inspect.isasyncgenfunction(member))
    }


def parameters(function: Callable[..., Any]) -> list[inspect.Parameter]:
    """``function``'s parameters after ``self``."""
    return list(inspect.signature(function).parameters.values())[1:]


@pytest.mark.parametrize(("aio", "sync"), PAIRS)
def test_every_async_call_has_a_blocking_twin_derived_from_it(
    aio: type[Any], sync: type[Any]
) -> None:
    calls = async_calls(aio) - ASYNC_ONLY
    assert calls, aio
    for name in calls - OWN:
        core = getattr(aio, name)
        twin = inspect.getattr_static(sync, name)
        assert isinstance(twin, blocking | blocking_iter), f"{sync.__name__}.{name} by hand"
        assert twin.method is core  # the very coroutine the asyncio client awaits
        derived = twin.__signature__
        assert list(derived.parameters.values()) == parameters(core), name
        assert twin.__doc__ == core.__doc__
        if isinstance(twin, blocking):
            assert derived.return_annotation == inspect.signature(core).return_annotation
    for name in OWN & calls:
        names = [p.name for p in parameters(getattr(sync, name))]
        assert names == [p.name for p in parameters(getattr(aio, name))], name
    assert async_calls(sync) == set()  # nothing left to await on the blocking side


def test_a_twin_bound_to_a_seat_reads_like_a_method() -> None:
    with RefereeClient("127.0.0.1:1") as client:
        seat = client.seat("a-game", "a-token")
        view, watch = seat.view, seat.watch
    assert view.__qualname__ == "Seat.view"
    assert str(inspect.signature(view)) == "(*, retry: 'Retry | None' = None) -> 'game_pb2.View'"
    returns = inspect.signature(watch).return_annotation
    assert returns == Generator[referee_pb2.WatchGameResponse, None, None]


async def answer(value: int) -> int:
    return value


async def refuse() -> int:
    raise ValueError("no")


def test_run_blocking_runs_a_coroutine_that_never_suspends() -> None:
    assert run_blocking(answer(7)) == 7
    with pytest.raises(ValueError, match="no"):
        run_blocking(refuse())


def test_run_blocking_refuses_a_coroutine_that_needs_an_event_loop() -> None:
    with pytest.raises(RuntimeError, match="needs an event loop"):
        run_blocking(asyncio.sleep(0))  # suspends once: only a loop would resume it


def test_a_blocking_iteration_stopped_early_closes_its_async_generator() -> None:
    closed: list[int] = []

    async def numbers() -> AsyncGenerator[int, None]:
        try:
            for number in range(5):
                yield number
        finally:
            closed.append(number)  # a watch cancels its stream here

    items = iterate_blocking(numbers())
    assert (next(items), next(items)) == (0, 1)
    items.close()
    assert closed == [1]
    assert list(iterate_blocking(numbers())) == [0, 1, 2, 3, 4]


def test_an_rpc_entry_that_matches_no_rpc_fails_at_once() -> None:
    assert (Rpc(referee_pb2.GetViewRequest, referee_pb2.GetViewResponse).name) == "GetView"
    with pytest.raises(ValueError, match="no RPC takes GetViewRequest"):
        Rpc(referee_pb2.GetViewRequest, referee_pb2.ListLegalMovesResponse)
