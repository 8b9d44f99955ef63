"""A fixed set of threads for the rooms' database work, awaited from the event loop.

Why not ``loop.run_in_executor`` with a ``ThreadPoolExecutor``: every call there
makes a ``concurrent.futures.Future`` (with its own ``Condition``), chains it to
an asyncio future and adjusts the pool; in the group-game benchmark (bench/)
that hop was about a tenth of the server's CPU per placement. Here a call is one
put on a ``SimpleQueue``, one asyncio future and one ``call_soon_threadsafe``
back to the loop. Each call runs in a copy of the caller's context (as asgiref's
``sync_to_async`` does), so context variables set inside do not leak between
calls.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeAlias, TypeVar

T = TypeVar("T")
#: One call for a thread: the loop and future to settle, the caller's context, the call.
_Work: TypeAlias = tuple[
    asyncio.AbstractEventLoop,
    asyncio.Future[Any],
    contextvars.Context,
    Callable[..., Any],
    tuple[Any, ...],
]

logger = logging.getLogger(__name__)


def _settle(future: asyncio.Future[Any], result: object, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class DatabaseThreads:
    def __init__(self, count: int, name: str = "rooms-db") -> None:
        self.count, self.name = count, name
        self._work: queue.SimpleQueue[_Work] = queue.SimpleQueue()
        self._started = False
        self._lock = threading.Lock()

    def _start(self) -> None:
        with self._lock:
            if self._started:
                return
            for index in range(self.count):
                threading.Thread(
                    target=self._serve, name=f"{self.name}_{index}", daemon=True
                ).start()
            self._started = True

    def _serve(self) -> None:
        while True:
            loop, future, context, function, args = self._work.get()
            result, error = None, None
            try:
                result = context.run(function, *args)
            except BaseException as exc:  # handed to the awaiting coroutine
                error = exc
            try:
                loop.call_soon_threadsafe(_settle, future, result, error)
            except RuntimeError:  # the loop closed while this ran (shutdown)
                logger.debug("rooms db thread: loop closed before the result was taken")
            del loop, future, context, function, args, result, error

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in one of the threads; its result or its exception."""
        if not self._started:
            self._start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._work.put((loop, future, contextvars.copy_context(), function, args))
        return await future
