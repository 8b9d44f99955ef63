"""/accounts/sso/: sign-in with a school account (docs/sso.md).

The callback URL to register with a provider is
``https://<site>/accounts/sso/<provider id>/login/callback/``.
"""

from django.urls import path

from accounts.sso import link, views

urlpatterns = [
    path("link/", link.confirm_link, name="sso_link"),
    path("<slug:provider_id>/login/", views.login, name="openid_connect_login"),
    path("<slug:provider_id>/login/callback/", views.callback, name="openid_connect_callback"),
]
