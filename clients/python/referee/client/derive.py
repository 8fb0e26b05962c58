"""The blocking client, derived from the asyncio one: run a coroutine that never suspends.

Every call of the referee is written once, as a coroutine (:mod:`referee.client.core`).
The asyncio client awaits it on its event loop. The blocking client runs the very same
coroutine over its own ``grpc`` channel, whose every wait is a blocking one (a call returns
its answer, a pause is ``time.sleep``): such a coroutine never suspends, so sending it
``None`` once runs it to its end in the caller's thread, with no event loop and no thread
of ours. Its result, or its exception, is the blocking call's.

:class:`blocking` and :class:`blocking_iter` turn a core method into the blocking twin
of it on a facade class (``Seat.view = blocking(...)``): same parameters, same docstring,
the core's result returned instead of a coroutine, and an async iteration (a watch, a
listing) turned into a plain one.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Coroutine, Generator
from typing import Any, Concatenate, Generic, ParamSpec, Protocol, Self, TypeVar, overload

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")
CoreT = TypeVar("CoreT")
CoreT_co = TypeVar("CoreT_co", covariant=True)


class Facade(Protocol[CoreT_co]):
    """A blocking class whose calls are its ``_core``'s coroutines, run to their end."""

    @property
    def _core(self) -> CoreT_co: ...


def run_blocking(awaitable: Awaitable[R]) -> R:
    """The result of ``awaitable``, run in this thread; it must never suspend.

    A coroutine suspends only where it awaits something that is not ready (a future, an
    event loop's sleep). The blocking client's coroutines never do; one that does is a
    bug, or an async callback handed to the blocking client, and is refused.
    """
    steps = awaitable.__await__()
    try:
        steps.send(None)
    except StopIteration as done:
        result: R = done.value
        return result
    steps.close()
    raise RuntimeError(
        "a blocking call awaited something that is not ready: it needs an event loop "
        "(use the asyncio client, and pass the blocking one plain functions only)"
    )


def iterate_blocking(items: AsyncIterator[T]) -> Generator[T, None, None]:
    """``items`` (an async iterator that never suspends) as a plain generator.

    Closing the generator, or dropping it, closes ``items`` too, so an async generator's
    ``finally`` (a watch cancelling its stream) runs at once.
    """
    try:
        while True:
            try:
                item = run_blocking(anext(items))
            except StopAsyncIteration:
                return
            yield item
    finally:
        if isinstance(items, AsyncGenerator):
            run_blocking(items.aclose())


def _signature(method: Callable[..., Any], returns: Any) -> inspect.Signature:
    """``method``'s signature without its first parameter (the core), returning ``returns``."""
    signature = inspect.signature(method)
    parameters = list(signature.parameters.values())[1:]
    return signature.replace(parameters=parameters, return_annotation=returns)


class _Twin:
    """What both descriptors share: the core method's name, docstring and signature, shown
    on the descriptor (``help(Seat)``) and on every bound twin (``help(seat.view)``)."""

    def __init__(self, method: Callable[..., Any], returns: Any) -> None:
        self.__doc__ = method.__doc__
        self.__name__ = method.__name__
        self.__qualname__ = method.__qualname__
        self.__signature__ = _signature(method, returns)
        self.__wrapped__ = method

    def __set_name__(self, owner: type[Any], name: str) -> None:
        self.__module__ = owner.__module__
        self.__qualname__ = f"{owner.__qualname__}.{name}"

    def _named(self, call: Callable[..., Any]) -> None:
        for name in ("__doc__", "__name__", "__qualname__", "__module__", "__signature__"):
            setattr(call, name, getattr(self, name))
        call.__wrapped__ = self.__wrapped__  # type: ignore[attr-defined]  # as functools.wraps


class blocking(_Twin, Generic[CoreT, P, R]):  # noqa: N801  # named like the functions it makes
    """The blocking twin of a core coroutine method: ``view = blocking(SeatCore.view)``."""

    def __init__(self, method: Callable[Concatenate[CoreT, P], Coroutine[Any, Any, R]]) -> None:
        super().__init__(method, inspect.signature(method).return_annotation)
        self.method = method

    @overload
    def __get__(self, facade: None, owner: type[Any]) -> Self: ...
    @overload
    def __get__(self, facade: Facade[CoreT], owner: type[Any]) -> Callable[P, R]: ...
    def __get__(self, facade: Facade[CoreT] | None, owner: type[Any]) -> Self | Callable[P, R]:
        if facade is None:
            return self
        core, method = facade._core, self.method

        def call(*args: P.args, **kwargs: P.kwargs) -> R:
            return run_blocking(method(core, *args, **kwargs))

        self._named(call)
        return call


class blocking_iter(_Twin, Generic[CoreT, P, T]):  # noqa: N801
    """The blocking twin of a core async generator method: a plain generator of its items."""

    def __init__(self, method: Callable[Concatenate[CoreT, P], AsyncIterator[T]]) -> None:
        item = typing.get_args(typing.get_type_hints(method)["return"])[0]
        super().__init__(method, types.GenericAlias(Generator, (item, None, None)))
        self.method = method

    @overload
    def __get__(self, facade: None, owner: type[Any]) -> Self: ...
    @overload
    def __get__(
        self, facade: Facade[CoreT], owner: type[Any]
    ) -> Callable[P, Generator[T, None, None]]: ...
    def __get__(
        self, facade: Facade[CoreT] | None, owner: type[Any]
    ) -> Self | Callable[P, Generator[T, None, None]]:
        if facade is None:
            return self
        core, method = facade._core, self.method

        def call(*args: P.args, **kwargs: P.kwargs) -> Generator[T, None, None]:
            return iterate_blocking(method(core, *args, **kwargs))

        self._named(call)
        return call
