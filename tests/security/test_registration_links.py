"""LTI registration links as an unauthenticated entry point (issue 38 §3).

"A registration link survives every failed attempt (unlimited fetches from the
server to any origin for 72 h): a few failures end it; fetch only http(s) on
allowed ports, never the server's own private ranges in production."

Replayed over HTTP against the real server and the suite's local LMS
(tests/lti/lms.py): three failed registrations end the link, and the real LMS
is then refused. Under production rules (no loopback LMS), a configuration URL
on a private, loopback or link-local address or on another port is refused
without any request leaving the server.
"""

from __future__ import annotations

import socket

import pytest
import requests
from django.test import Client

from lti import net, registration
from lti.models import Platform, RegistrationLink
from tests.lti.conftest import lms  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_three_failed_registrations_end_the_link(lms, asgi_server):  # noqa: F811
    url = asgi_server + registration.link_path(registration.new_link())
    nowhere = f"http://127.0.0.1:{_closed_port()}/.well-known/openid-configuration"
    answers = [
        requests.get(url, params={"openid_configuration": nowhere}, timeout=60)
        for _ in range(registration.MAX_FAILURES)
    ]
    assert [a.status_code for a in answers[:-1]] == [502] * (registration.MAX_FAILURES - 1)
    assert answers[-1].status_code == 403  # the last failure ended it
    assert answers[-1].headers["X-Error-Code"] == "bad_registration_link"

    # The real LMS is refused too: the link is over, nothing registered.
    late = lms.register(url)
    assert late.response.status_code == 403
    assert not Platform.objects.exists()

    # A new link works at once (the limit is per link, not per address).
    fresh = asgi_server + registration.link_path(registration.new_link())
    assert lms.register(fresh).ok


@pytest.fixture
def fetches(monkeypatch, settings):
    """Production rules (no local LMS), and every outgoing request recorded, none made."""
    settings.LTI_ALLOW_HTTP_LOOPBACK = False
    made: list[str] = []

    def refuse(url, *args, **kwargs):
        made.append(url)
        raise requests.ConnectionError("no request leaves the server in this test")

    monkeypatch.setattr(net.requests, "get", refuse)
    monkeypatch.setattr(net.requests, "post", refuse)
    return made


@pytest.mark.parametrize(
    "target, code",
    [
        ("https://127.0.0.1/.well-known/openid-configuration", "forbidden_address"),
        ("https://localhost/.well-known/openid-configuration", "forbidden_address"),
        ("https://10.20.30.40/.well-known/openid-configuration", "forbidden_address"),
        ("https://192.168.1.1/x", "forbidden_address"),
        ("https://169.254.169.254/latest/meta-data/", "forbidden_address"),
        ("https://[::1]/x", "forbidden_address"),
        ("https://[fd00::1]/x", "forbidden_address"),
        ("https://93.184.215.14:22/x", "forbidden_port"),
        ("https://93.184.215.14:6379/x", "forbidden_port"),
    ],
)
def test_the_server_never_fetches_its_own_ranges_or_other_ports(fetches, target, code):
    token = registration.new_link()
    response = Client(raise_request_exception=False).get(
        registration.link_path(token), {"openid_configuration": target}
    )
    assert response.status_code == 502
    assert response["X-Error-Code"] == f"registration_{code}"
    assert fetches == []
    assert registration.link_is_valid(token)  # one failure of three


def test_a_registration_endpoint_in_private_ranges_is_refused(fetches, monkeypatch):
    """The platform's configuration (fetched from a public host) names a private
    registration endpoint: it is not posted to."""
    real_check = getattr(registration, "check_target", lambda url: None)
    monkeypatch.setattr(registration, "check_target", _public_only(real_check), raising=False)
    token = registration.new_link()
    config = {
        "issuer": "https://lms.example",
        "authorization_endpoint": "https://lms.example/auth",
        "registration_endpoint": "https://10.0.0.5/register",
        "jwks_uri": "https://lms.example/jwks",
        "token_endpoint": "https://lms.example/token",
    }
    monkeypatch.setattr(net, "get", lambda url, **kw: _Answer(config))
    response = Client(raise_request_exception=False).get(
        registration.link_path(token),
        {"openid_configuration": "https://lms.example/.well-known/openid-configuration"},
    )
    assert response.status_code == 502
    assert response["X-Error-Code"] == "registration_forbidden_address"
    assert fetches == []
    assert RegistrationLink.objects.get().platform is None


class _Answer:
    status_code = 200

    def __init__(self, body: dict) -> None:
        self.body = body

    def json(self) -> dict:
        return self.body


def _public_only(check):
    """``lms.example`` has no address in the test; the real check for the rest."""

    def checked(url: str) -> None:
        if url.startswith("https://lms.example/"):
            return None
        return check(url)

    return checked
