"""Attach ``request.browser`` and ``request.player`` from the identity cookie.

Health probes (``settings.HEALTH_PATHS``) skip the lookup: liveness must not
depend on PostgreSQL, and readiness reports a database outage as 503 itself.
When the database fails during the lookup (PostgreSQL down, or the connection
pool exhausted: no connection within ``DB_POOL_TIMEOUT``), the request stops
here with ``503`` and ``Retry-After`` (``identity_unavailable``: JSON for API
paths and JSON clients, a short page otherwise). It never goes on as an
anonymous visitor: a pupil would then be told "choose a nickname first" or "no
such game" about their own game, which is wrong and not retryable (issue 28).

Every answer that read the identity cookie says ``Vary: Cookie``, and
``PrivatePagesMiddleware`` keeps pages out of shared caches and the browser's
disk (``Cache-Control: private, no-store``): on a classroom computer the next
pupil must not get the last one's profile, class or results from a cache.
"""

import logging
from collections.abc import Callable
from functools import cache
from typing import TypeVar

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.cache import patch_vary_headers
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

from accounts import identity, limits, services
from accounts.models import Browser, PlayerProfile
from accounts.requests import PlayerRequest
from core import rawrows

logger = logging.getLogger(__name__)

# Seconds a client is asked to wait before trying again after an identity
# lookup failed for want of the database (about one pool timeout).
IDENTITY_RETRY_AFTER = 5
IDENTITY_UNAVAILABLE = "identity_unavailable"

View = TypeVar("View", bound=Callable[..., HttpResponse])


def lean(view: View) -> View:
    """Mark a JSON action view lean (issue 41): its ``POST`` requests are answered
    on a kept thread through the site's middleware less what cannot matter to
    them (``config.handlers.LEAN_SKIPPED``: static files, ``/metrics``, messages,
    allauth's pages, a locked-out login). Only for views that need none of
    those: no messages, no login, no page. CSRF, this identity (and its 503),
    the teacher session's idle logout and every header stay."""
    view.lean_http = True  # type: ignore[attr-defined]  # read by config.handlers.is_lean
    return view


def wants_json(request: HttpRequest) -> bool:
    """API paths (``/api/...``, ``/<game>/api/...``) and clients that send or
    accept JSON get a JSON answer; browsers asking for a page get a page."""
    if "/api/" in request.path_info:
        return True
    accept = request.headers.get("Accept", "")
    content_type = request.headers.get("Content-Type", "")
    return content_type.startswith("application/json") or (
        "application/json" in accept and "text/html" not in accept
    )


def identity_unavailable(request: HttpRequest) -> HttpResponse:
    """503 + ``Retry-After``; rendered without the database (no context
    processors, no session, no player) so it answers while PostgreSQL does not."""
    message = _(
        "We cannot check who you are right now: the server is very busy. "
        "Nothing was changed. Please try again in a few seconds."
    )
    if wants_json(request):
        response: HttpResponse = JsonResponse(
            {"code": IDENTITY_UNAVAILABLE, "message": message}, status=503
        )
    else:
        response = HttpResponse(
            render_to_string(
                "accounts/identity_unavailable.html",
                {"message": message, "retry_after": IDENTITY_RETRY_AFTER},
            ),
            status=503,
        )
    response["Retry-After"] = str(IDENTITY_RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    # an answer, not a server error: the middleware logged a warning already, so
    # a busy minute does not add an error line (and report) per request
    response._has_been_logged = True  # type: ignore[attr-defined]  # Django's own flag
    patch_vary_headers(response, ("Cookie", "Accept"))
    return response


@cache
def _browser_sql() -> str:
    return (
        f"SELECT {rawrows.select_list(Browser, 'b')}, {rawrows.select_list(PlayerProfile, 'p')}"
        f' FROM "{Browser._meta.db_table}" b LEFT JOIN "{PlayerProfile._meta.db_table}" p'
        " ON p.id = b.selected_id WHERE b.token_hash = %s"
    )


def browser_by_token(token_hash: str) -> Browser | None:
    """The browser of an identity cookie with its selected profile, in one
    statement written once per process: what ``select_related("selected")``
    reads, without compiling the query on every request (issue 41; the
    ORM's compilation cost more CPU than PostgreSQL spent on it).
    ``token_hash`` is unique: at most one row."""
    with connection.cursor() as cursor:
        cursor.execute(_browser_sql(), [token_hash])
        row = cursor.fetchone()
    if row is None:
        return None
    size = rawrows.width(Browser)
    browser = rawrows.instance(Browser, row[:size])
    profile = None if row[size] is None else rawrows.instance(PlayerProfile, row[size:])
    Browser.selected.field.set_cached_value(browser, profile)
    return browser


class PlayerIdentityMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.skipped_paths = frozenset(getattr(settings, "HEALTH_PATHS", ()))

    def __call__(self, request: PlayerRequest) -> HttpResponse:
        request.storage_enabled = identity.storage_enabled(request)
        request.browser = None
        request.player = None
        # Whether the selected profile is a person's own (an LMS identity, a claimed
        # roster entry): the page then offers "I am not <name>" (asked only if shown).
        request.player_bound = SimpleLazyObject(lambda: identity.is_bound(request.player))
        if request.path_info in self.skipped_paths:
            return self.get_response(request)
        token = identity.read_token(request) if request.storage_enabled else None
        if token:
            try:
                self._identify(request, token)
            except DatabaseError as exc:
                request.browser = None
                request.player = None
                logger.warning("player identity unavailable, answered 503: %s", exc)
                return identity_unavailable(request)
        current = limits.CURRENT_REQUEST.set(request)
        try:
            response = self.get_response(request)
        finally:
            limits.CURRENT_REQUEST.reset(current)
        # The identity cookie was read: whatever came out depends on it.
        patch_vary_headers(response, ("Cookie",))
        if not request.storage_enabled and identity.read_token(request):
            identity.forget_token(response)
        return response

    @staticmethod
    def _identify(request: PlayerRequest, token: str) -> None:
        browser = browser_by_token(identity.hash_token(token))
        if browser is not None:
            request.browser = browser
            if browser.selected is not None and browser.selected.is_active:
                request.player = browser.selected
            services.touch(browser=browser)


class PrivatePagesMiddleware:
    """``Cache-Control: private, no-store`` on every answer that does not choose its
    own caching: profile, class pages, results, exports and room pages carry
    children's names and results. Views that are safe to cache say so themselves
    (``cache_control``: catalogues, the manifest, QR codes); static files are
    served before this by WhiteNoise with their own headers."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not response.has_header("Cache-Control"):
            response["Cache-Control"] = "private, no-store"
        return response
