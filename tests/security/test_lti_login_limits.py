"""LTI login initiation stores a row per anonymous request: bounded per address,
and expired rows go (issue 38 §3). A class of 30 behind one school address
(NAT) launching twice each is not touched. Over HTTP (Django's test client)."""

import secrets
from datetime import timedelta

import pytest
from django.utils import timezone

from lti.models import LaunchState, Platform

pytestmark = pytest.mark.django_db

ISSUER = "https://lms.skola.example"


@pytest.fixture
def platform():
    return Platform.objects.create(
        issuer=ISSUER,
        client_id="matika",
        authorization_endpoint=f"{ISSUER}/auth",
        token_endpoint=f"{ISSUER}/token",
        jwks_uri=f"{ISSUER}/jwks",
    )


def _address() -> str:
    """A fresh address per test: the limits' counters outlive a test."""
    parts = [secrets.randbelow(250) + 1 for _ in range(3)]
    return "10.{}.{}.{}".format(*parts)


def _login(client, address: str, hint: str = "pupil-1"):
    return client.post(
        "/lti/login/",
        {"iss": ISSUER, "login_hint": hint, "client_id": "matika"},
        REMOTE_ADDR=address,
    )


def test_logins_from_one_address_are_limited_and_another_address_is_not(client, platform, settings):
    settings.MATIKA_LIMITS = {
        **getattr(settings, "MATIKA_LIMITS", {}),
        "lti_logins_address": "5/10m",
    }
    flood = _address()
    for _ in range(5):
        assert _login(client, flood).status_code == 302
    refused = _login(client, flood)
    assert refused.status_code == 429
    assert refused["X-Error-Code"] == "too_many_logins"
    assert LaunchState.objects.count() == 5  # the refused ones stored nothing
    assert _login(client, _address()).status_code == 302


def test_a_class_of_30_behind_one_address_launches_twice_each(client, platform):
    school = _address()
    for pupil in range(30):
        for _ in range(2):
            answer = _login(client, school, hint=f"pupil-{pupil}")
            assert answer.status_code == 302, answer.content[:200]


def test_expired_login_states_are_deleted(client, platform):
    old = LaunchState.objects.create(
        state_hash="a" * 64,
        nonce="n",
        platform=platform,
        created_at=timezone.now() - timedelta(minutes=11),
    )
    fresh = LaunchState.objects.create(state_hash="b" * 64, nonce="m", platform=platform)
    assert _login(client, _address()).status_code == 302
    assert not LaunchState.objects.filter(pk=old.pk).exists()
    assert LaunchState.objects.filter(pk=fresh.pk).exists()
