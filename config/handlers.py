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

Nothing else changes: the same middleware in the same order, the same
responses; WebSockets do not pass through here (Channels' router).
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase


class OneThreadASGIHandler(ASGIHandler):
    """``ASGIHandler`` whose middleware chain and view run in one thread hop."""

    def load_middleware(self, is_async: bool = False) -> None:
        # ASGIHandler.__init__ asks for the async chain; build the sync one.
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        # BaseHandler.get_response: the chain, the request's closers and the
        # 4xx/5xx log line, all in the request's thread.
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


def get_asgi_application() -> OneThreadASGIHandler:
    """As ``django.core.asgi.get_asgi_application``, with the one-thread handler."""
    import django

    django.setup(set_prefix=False)
    return OneThreadASGIHandler()
