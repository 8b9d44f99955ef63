"""The "Sign in with …" buttons: one per configured provider, none when unset."""

from __future__ import annotations

from django.http import HttpRequest


def sign_in_buttons(request: HttpRequest, next_url: str = "") -> list[dict[str, str]]:
    from allauth.socialaccount.adapter import get_adapter

    buttons = []
    for provider in get_adapter(request).list_providers(request):
        if provider.id != "openid_connect" or provider.app.settings.get("hidden"):
            continue
        kwargs = {"next": next_url} if next_url else {}
        buttons.append(
            {
                "id": provider.app.provider_id,
                "name": provider.app.name,
                "url": provider.get_login_url(request, **kwargs),
            }
        )
    return buttons
