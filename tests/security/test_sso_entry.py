"""School sign-in as an unauthenticated entry point (issue 38 §3, §4).

"SSO login stores a row and makes an outbound request per anonymous request,
unlimited", and "SSO login while the provider is unreachable" answered 500
with a traceback. Replayed against the local OpenID provider (tests/sso/op.py):
starts from one address are counted and refused past the limit before anything
is stored or fetched, another address is not affected, the provider sees one
discovery request however many starts, a started sign-in's session row expires
within a quarter of an hour while a completed one keeps the normal lifetime,
and an unreachable provider is a readable page.
"""

from __future__ import annotations

import socket
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
import requests
from django.conf import settings as django_settings
from django.contrib.sessions.models import Session
from django.test import Client
from django.utils import timezone

from accounts.sso.environment import providers_from_environment
from tests.sso.conftest import op, sso_environment, sso_server  # noqa: F401  (fixtures)
from tests.sso.test_flow import google_teacher, logged_in, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

LOGIN = "/accounts/sso/google/login/"


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _use_providers(settings, environment: dict[str, str]) -> None:
    settings.SOCIALACCOUNT_PROVIDERS = {
        "openid_connect": {
            **django_settings.SOCIALACCOUNT_PROVIDERS["openid_connect"],
            "APPS": providers_from_environment(environment),
        }
    }


@pytest.fixture
def provider_requests(op, monkeypatch):  # noqa: F811
    """The paths the provider was asked for, in order."""
    seen: list[str] = []
    handle = op.handle

    def counting(handler):
        seen.append(urlsplit(handler.path).path)
        return handle(handler)

    monkeypatch.setattr(op, "handle", counting)
    return seen


def _start(address: str):
    client = Client(REMOTE_ADDR=address, headers={"accept-language": "en"})
    return client.get(LOGIN)


def test_anonymous_starts_are_limited_per_address_and_cost_one_discovery(
    op,  # noqa: F811
    provider_requests,
    address,
    settings,
):
    _use_providers(settings, sso_environment(op))
    rows = Session.objects.count()
    for _ in range(60):  # the limit: 60 starts a quarter of an hour per address
        response = _start(address)
        assert response.status_code == 302
        assert response["Location"].startswith(op.issuer("google") + "/authorize")
    assert Session.objects.count() == rows + 60
    # Every started sign-in's row expires within a quarter of an hour.
    latest = timezone.now() + timedelta(minutes=15, seconds=30)
    assert not Session.objects.filter(expire_date__gt=latest).exists()
    # The provider was asked for its discovery document once, not per start.
    assert provider_requests.count("/google/.well-known/openid-configuration") <= 1

    asked = len(provider_requests)
    refused = _start(address)
    assert refused.status_code == 429
    assert 'data-code="sso_too_many"' in refused.content.decode()
    assert Session.objects.count() == rows + 60  # nothing stored
    assert len(provider_requests) == asked  # nothing fetched

    # Another school's address is not affected.
    elsewhere = address.rsplit(".", 1)[0] + ".254"
    assert _start(elsewhere).status_code == 302


def test_an_unreachable_provider_is_a_readable_page(op, settings, address):  # noqa: F811
    environment = sso_environment(op)
    environment["SSO_OIDC_ISSUER"] = f"http://127.0.0.1:{_closed_port()}/oidc"
    _use_providers(settings, environment)
    client = Client(
        REMOTE_ADDR=address, raise_request_exception=False, headers={"accept-language": "en"}
    )
    response = client.get("/accounts/sso/oidc/login/")
    assert response.status_code == 502
    page = response.content.decode()
    assert 'data-code="sso_provider_unreachable"' in page
    assert "SkolniLogin cannot be reached" in page


def test_a_completed_school_sign_in_keeps_the_normal_session_lifetime(op, sso_server):  # noqa: F811
    google_teacher(op, email="lifetime@skola.example")
    session, response = sign_in(sso_server, "google")
    assert response.status_code == 200
    assert logged_in(session, sso_server)
    row = Session.objects.get(session_key=session.cookies["sessionid"])
    assert row.expire_date > timezone.now() + timedelta(hours=1)

    # An abandoned start leaves a row that expires soon.
    abandoned = requests.Session()
    started = abandoned.get(sso_server + LOGIN, allow_redirects=False, timeout=60)
    assert started.status_code == 302
    row = Session.objects.get(session_key=abandoned.cookies["sessionid"])
    assert row.expire_date < timezone.now() + timedelta(minutes=16)
