"""Attach ``request.browser`` and ``request.player`` from the identity cookie.

Health probes (``settings.HEALTH_PATHS``) skip the lookup: liveness must not
depend on PostgreSQL, and readiness reports a database outage as 503 itself.
When the database fails during the lookup, the request continues without an
identity (logged) instead of failing here: the view then decides, so pages that
need no database still answer.
"""

import logging
from collections.abc import Callable

from django.conf import settings
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse

from accounts import identity, services
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
        response = self.get_response(request)
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
