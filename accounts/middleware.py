"""Attach ``request.browser`` and ``request.player`` from the identity cookie."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from accounts import identity, services
from accounts.models import Browser


class PlayerIdentityMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.storage_enabled = identity.storage_enabled(request)
        request.browser = None
        request.player = None
        token = identity.read_token(request) if request.storage_enabled else None
        if token:
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
        response = self.get_response(request)
        if not request.storage_enabled and identity.read_token(request):
            identity.forget_token(response)
        return response
