"""The provider's two URLs (allauth's ``openid_connect`` views with
``accounts.sso.provider``'s adapter): an unknown or unset provider is a 404.

Starting a sign-in costs the server a session row (allauth's single-use state)
and, without a cached discovery document, a request to the provider; anybody
can start one without limit (issue 38 §3). So an anonymous start is counted per
address (``login_limits.sso_logins``: far above what the teachers of one school
behind one address start in a quarter of an hour) and refused past it with a
readable 429 page before anything is stored or fetched; the session row it
makes lives ``STATE_SECONDS`` (the retention task deletes expired rows) unless
the sign-in completes, when the login gets the normal session lifetime back.
A provider that cannot be reached is a readable 502 page, not a 500.
"""

from __future__ import annotations

import logging
from typing import Any

import requests
from allauth.account.internal.decorators import login_not_required
from allauth.socialaccount.models import SocialApp
from allauth.socialaccount.providers.oauth2.views import OAuth2CallbackView, OAuth2LoginView
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import Http404, HttpRequest, HttpResponse

from accounts import login_limits
from accounts.sso import adapter
from accounts.sso.provider import SchoolOAuth2Adapter

log = logging.getLogger(__name__)

#: How long the session row of a sign-in started by an anonymous browser lives.
STATE_SECONDS = 15 * 60
#: Marks a session whose lifetime this module shortened.
SHORT_LIVED = "sso_short_lived"


class SchoolCallbackView(OAuth2CallbackView):
    def _get_state(self, request: HttpRequest, provider: Any) -> tuple[Any, Any]:
        state, response = super()._get_state(request, provider)
        # The nonce check needs the state allauth took out of the session.
        self.adapter.state = state
        return state, response


@login_not_required
def login(request: HttpRequest, provider_id: str) -> HttpResponse:
    anonymous = not request.user.is_authenticated
    fresh = request.session.is_empty()
    if anonymous:
        if login_limits.sso_login_blocked(request):
            return adapter.refusal(request, adapter.TOO_MANY, status=429)
        login_limits.count_sso_login(request)
    try:
        response = OAuth2LoginView.adapter_view(SchoolOAuth2Adapter(request, provider_id))(request)
    except SocialApp.DoesNotExist:
        raise Http404 from None
    except requests.RequestException as exc:
        # Discovery failed: the provider is down, or answered something unusable.
        log.warning("school sign-in: provider %s unreachable: %s", provider_id, exc)
        name = _provider_name_safe(request, provider_id)
        return adapter.refusal(request, adapter.UNREACHABLE, name, status=502)
    if anonymous and fresh and not request.session.is_empty():
        request.session.set_expiry(STATE_SECONDS)
        request.session[SHORT_LIVED] = True
    return response


def _provider_name_safe(request: HttpRequest, provider_id: str) -> str:
    try:
        return SchoolOAuth2Adapter(request, provider_id).get_provider().app.name
    except Exception:  # the name is only for the page
        return ""


@login_not_required
def callback(request: HttpRequest, provider_id: str) -> HttpResponse:
    try:
        return SchoolCallbackView.adapter_view(SchoolOAuth2Adapter(request, provider_id))(request)
    except SocialApp.DoesNotExist:
        raise Http404 from None


@receiver(user_logged_in, dispatch_uid="accounts.sso.views.normal_lifetime")
def _normal_lifetime(sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    """A login in a session this module shortened gets the normal lifetime back
    (the school sign-in itself, the confirm-link page, or a password login in a
    browser that once started a school sign-in)."""
    session = getattr(request, "session", None)
    if session is not None and session.pop(SHORT_LIVED, None):
        session.set_expiry(None)
