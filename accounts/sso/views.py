"""The provider's two URLs (allauth's ``openid_connect`` views with
``accounts.sso.provider``'s adapter): an unknown or unset provider is a 404."""

from __future__ import annotations

from allauth.account.internal.decorators import login_not_required
from allauth.socialaccount.models import SocialApp
from allauth.socialaccount.providers.oauth2.views import OAuth2CallbackView, OAuth2LoginView
from django.http import Http404, HttpRequest

from accounts.sso.provider import SchoolOAuth2Adapter


class SchoolCallbackView(OAuth2CallbackView):
    def _get_state(self, request, provider):
        state, response = super()._get_state(request, provider)
        # The nonce check needs the state allauth took out of the session.
        self.adapter.state = state
        return state, response


@login_not_required
def login(request: HttpRequest, provider_id: str):
    try:
        return OAuth2LoginView.adapter_view(SchoolOAuth2Adapter(request, provider_id))(request)
    except SocialApp.DoesNotExist:
        raise Http404 from None


@login_not_required
def callback(request: HttpRequest, provider_id: str):
    try:
        return SchoolCallbackView.adapter_view(SchoolOAuth2Adapter(request, provider_id))(request)
    except SocialApp.DoesNotExist:
        raise Http404 from None
