"""Attach ``request.browser`` and ``request.player`` from the identity cookie.

Health probes (``settings.HEALTH_PATHS``) skip the lookup: liveness must not
depend on PostgreSQL, and readiness reports a database outage as 503 itself.
When the database fails during the lookup, the request continues without an
identity (logged) instead of failing here: the view then decides, so pages that
need no database still answer.

Every answer that read the identity cookie says ``Vary: Cookie``, and
``PrivatePagesMiddleware`` keeps pages out of shared caches and the browser's
disk (``Cache-Control: private, no-store``): on a classroom computer the next
pupil must not get the last one's profile, class or results from a cache.
"""

import logging
from collections.abc import Callable

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

from accounts import identity, limits, services
from accounts.models import Browser

logger = logging.getLogger(__name__)


class PlayerIdentityMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.skipped_paths = frozenset(getattr(settings, "HEALTH_PATHS", ()))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.storage_enabled = identity.storage_enabled(request)
        request.browser = None
        request.player = None
        if request.path_info in self.skipped_paths:
            return self.get_response(request)
        token = identity.read_token(request) if request.storage_enabled else None
        if token:
            try:
                self._identify(request, token)
            except DatabaseError as exc:
                request.browser = None
                request.player = None
                logger.warning("player identity skipped, database error: %s", exc)
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
    def _identify(request: HttpRequest, token: str) -> None:
        browser = (
            Browser.objects.select_related("selected")
            .filter(token_hash=identity.hash_token(token))
            .first()
        )
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
