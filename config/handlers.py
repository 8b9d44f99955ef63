"""Django's ASGI handler with the middleware chain and the view in one thread.

Django's own ``ASGIHandler`` builds the middleware chain in async mode. Our
stack mixes sync-only middleware (WhiteNoise, ours) above async-capable ones
(Django's ``MiddlewareMixin`` classes, django-prometheus, allauth, axes), and
every async-capable ``MiddlewareMixin`` in async mode runs its
``process_request`` and ``process_response`` through ``sync_to_async``; a sync
view under an async chain is one more hop. A homework placement crossed
between the event loop and its request's thread about eleven times; each
crossing is a queue, a lock and a wake-up of the other thread, and on a busy
2-CPU machine that was ~20 % of the placement's CPU (bench/RESULTS-homework.md,
fourth pass).

Here the chain is built as under WSGI (``is_async=False``: every middleware
and the view are called synchronously, an async view through
``async_to_sync`` on the server's event loop) and the whole chain runs in one
``sync_to_async`` call, in the request's own thread (``thread_sensitive``
inside the handler's per-request ``ThreadSensitiveContext``, as before), so
the database connection, the identity lookup and the view share that thread
exactly as they did. What stays async is Django's own request plumbing around
it (reading the body, ``request_started``, sending the response, closing it).

**Lean routes** (issue 41: a homework placement cost 7.4-11 ms of web CPU).
A ``POST`` whose view is marked lean (``accounts.middleware.lean``: a game's
placement and start API) skips the rest of that plumbing: the request is read on the
event loop, then ``request_started``, the chain with its view and the
response's close (``request_finished``: the database connection back to the
pool) run in **one call on a kept thread** (``lean_threads()`` of them, made as
needed and kept: no new thread per request, no disconnect watcher), and the
answer is sent from the loop. The chain is the site's own, in the same order,
less the middleware that can do nothing for such a request (``LEAN_SKIPPED``:
static files, ``/metrics``, messages, allauth's pages, a locked-out login);
CSRF, the identity (and its 503 when the database is not there), the teacher
session's idle logout, the locale, the security and caching headers and the
metrics stay. Every other request goes the way above; health probes never
wait behind a busy lean thread.

Nothing else changes: the same middleware in the same order, the same
responses; WebSockets do not pass through here (Channels' router).
"""

from __future__ import annotations

import asyncio
import contextvars
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core import signals
from django.core.exceptions import ImproperlyConfigured, MiddlewareNotUsed, RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.core.handlers.base import BaseHandler
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpRequest, HttpResponseBase
from django.urls import Resolver404, ResolverMatch, get_resolver, set_script_prefix
from django.utils.module_loading import import_string

#: Middleware a lean route's request passes by, and why nothing is lost.
LEAN_SKIPPED = (
    # serves STATIC_URL paths only; a lean route is a view's
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # answers /metrics only
    "config.metrics.MetricsMiddleware",
    # a JSON action neither adds nor shows messages
    "django.contrib.messages.middleware.MessageMiddleware",
    # allauth's own views' context, a redirect of 404s under /accounts/
    "allauth.account.middleware.AccountMiddleware",
    # turns a locked-out login into its answer; a lean view never logs in
    "axes.middleware.AxesMiddleware",
)
#: Kept threads for lean requests: a few per pooled connection, so requests
#: beyond the pool wait for a connection (and its timeout: 503), not for a thread.
LEAN_THREADS_PER_CONNECTION = 4


def lean_middleware() -> list[str]:
    """The site's middleware, in order, less ``LEAN_SKIPPED``."""
    return [path for path in settings.MIDDLEWARE if path not in LEAN_SKIPPED]


#: Where ``is_lean`` leaves the URL match in the scope, so it is resolved once.
LEAN_MATCH = "matika.lean_match"


class LeanChain(BaseHandler):
    """The synchronous chain of ``lean_middleware()`` around the views."""

    def __init__(self) -> None:
        self.load_middleware(is_async=False)

    def load_middleware(self, is_async: bool = False) -> None:
        """``BaseHandler.load_middleware`` for a synchronous chain of the given
        list (Django's reads ``settings.MIDDLEWARE`` and takes no list): the
        same factories, hooks and order; an async-only middleware is refused."""
        if is_async:
            raise ImproperlyConfigured("The lean chain is synchronous.")
        self._view_middleware: list[Any] = []
        self._template_response_middleware: list[Any] = []
        self._exception_middleware: list[Any] = []
        handler = convert_exception_to_response(self._get_response)  # type: ignore[attr-defined]
        for path in reversed(lean_middleware()):
            factory = import_string(path)
            if not getattr(factory, "sync_capable", True):
                raise ImproperlyConfigured(f"Middleware {path} cannot run synchronously.")
            try:
                instance = factory(handler)
            except MiddlewareNotUsed:
                continue
            if instance is None:
                raise ImproperlyConfigured(f"Middleware factory {path} returned None.")
            if hasattr(instance, "process_view"):
                self._view_middleware.insert(
                    0, self.adapt_method_mode(False, instance.process_view)
                )
            if hasattr(instance, "process_template_response"):
                self._template_response_middleware.append(
                    self.adapt_method_mode(False, instance.process_template_response)
                )
            if hasattr(instance, "process_exception"):
                self._exception_middleware.append(
                    self.adapt_method_mode(False, instance.process_exception)
                )
            handler = convert_exception_to_response(instance)
        self._middleware_chain = handler

    def resolve_request(self, request: HttpRequest) -> ResolverMatch:
        # is_lean resolved this path with the site's URLconf on the loop; a
        # middleware that set its own URLconf gets Django's own resolution
        match = getattr(request, "scope", {}).get(LEAN_MATCH)
        if match is None or hasattr(request, "urlconf"):
            return super().resolve_request(request)
        request.resolver_match = match
        return match


def lean_threads() -> int:
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool") or {}
    size = pool.get("max_size", 16) if isinstance(pool, dict) else 16
    return max(8, int(size) * LEAN_THREADS_PER_CONNECTION)


class OneThreadASGIHandler(ASGIHandler):
    """``ASGIHandler`` whose middleware chain and view run in one thread hop."""

    def __init__(self) -> None:
        super().__init__()
        self.lean_chain = LeanChain()
        self.lean_executor = ThreadPoolExecutor(lean_threads(), thread_name_prefix="lean-http")

    def load_middleware(self, is_async: bool = False) -> None:
        # ASGIHandler.__init__ asks for the async chain; build the sync one.
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        # BaseHandler.get_response: the chain, the request's closers and the
        # 4xx/5xx log line, all in the request's thread.
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope.get("method") == "POST" and is_lean(scope):
            await self.handle_lean(scope, receive, send)
        else:
            await super().__call__(scope, receive, send)

    async def handle_lean(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """The request read here, answered in one call on a kept thread, sent from here."""
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            loop = asyncio.get_running_loop()
            context = contextvars.copy_context()  # as sync_to_async: the thread runs in a copy
            response = await loop.run_in_executor(
                self.lean_executor, context.run, self.lean_response, scope, body_file
            )
            try:
                await self.send_response(response, send)
            finally:
                if response.streaming:  # closed after its content was sent
                    await loop.run_in_executor(self.lean_executor, response.close)
        finally:
            body_file.close()

    def lean_response(self, scope: dict[str, Any], body_file: Any) -> HttpResponseBase:
        """In the kept thread: ``request_started``, the lean chain, and the answer's
        close (``request_finished``) before it is sent, unless it streams."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.lean_chain.get_response(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]
        assert response is not None
        if not response.streaming:
            response.close()
        return response


def is_lean(scope: dict[str, Any]) -> bool:
    """Whether the request's view is marked lean (``accounts.middleware.lean``);
    the path as ``ASGIRequest`` makes its ``path_info``."""
    path, prefix = scope["path"], get_script_prefix(scope)
    try:
        match = get_resolver().resolve(path.removeprefix(prefix) if prefix else path)
    except Resolver404:
        return False
    if not getattr(match.func, "lean_http", False):
        return False
    scope[LEAN_MATCH] = match
    return True


def get_asgi_application() -> OneThreadASGIHandler:
    """As ``django.core.asgi.get_asgi_application``, with the one-thread handler."""
    import django

    django.setup(set_prefix=False)
    from config import dbpool

    dbpool.install()  # no round trip to check a quiet pooled connection (issue 41)
    return OneThreadASGIHandler()
