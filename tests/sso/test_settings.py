"""Providers off when unset; the environment an admin sets; the claim rules."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts.sso import policy
from accounts.sso.environment import providers_from_environment


def test_no_variables_no_providers():
    assert providers_from_environment({}) == []


@pytest.mark.django_db
def test_provider_off_when_unset_no_button_and_404(client):
    page = client.get("/accounts/login/")
    assert page.status_code == 200
    assert b"data-sso-buttons" not in page.content
    assert b"Sign in with" not in page.content
    for provider in ("google", "microsoft", "oidc"):
        assert client.get(f"/accounts/sso/{provider}/login/").status_code == 404
        callback = f"/accounts/sso/{provider}/login/callback/?code=x&state=y"
        assert client.get(callback).status_code == 404


def test_environment_builds_the_three_providers():
    apps = providers_from_environment(
        {
            "SSO_GOOGLE_CLIENT_ID": "g",
            "SSO_GOOGLE_CLIENT_SECRET": "gs",
            "SSO_GOOGLE_DOMAINS": "ZS-Example.cz, gym.example.cz",
            "SSO_MICROSOFT_CLIENT_ID": "m",
            "SSO_MICROSOFT_TENANT": "tenant-1",
            "SSO_OIDC_CLIENT_ID": "o",
            "SSO_OIDC_ISSUER": "https://idp.example",
            "SSO_OIDC_NAME": "SkolniLogin.cz",
            "SSO_OIDC_EMAIL_DOMAINS": "skola.example",
        }
    )
    google, microsoft, generic = apps
    assert google["provider_id"] == "google"
    assert google["settings"]["server_url"] == "https://accounts.google.com"
    assert google["settings"]["school_claim"] == "hd"
    assert google["settings"]["school_values"] == ["zs-example.cz", "gym.example.cz"]
    assert google["settings"]["fetch_userinfo"] is False
    assert google["settings"]["oauth_pkce_enabled"] is True
    assert microsoft["settings"]["server_url"] == (
        "https://login.microsoftonline.com/tenant-1/v2.0"
    )
    assert microsoft["settings"]["school_claim"] == "tid"
    assert microsoft["settings"]["school_values"] == ["tenant-1"]
    assert "xms_edov" in microsoft["settings"]["email_verified_claims"]
    assert generic["provider_id"] == "oidc"
    assert generic["name"] == "SkolniLogin.cz"
    assert generic["settings"]["email_domains"] == ["skola.example"]


def test_microsoft_without_a_tenant_is_a_configuration_error():
    with pytest.raises(ValueError, match="SSO_MICROSOFT_TENANT"):
        providers_from_environment({"SSO_MICROSOFT_CLIENT_ID": "m"})


GOOGLE = {"school_claim": "hd", "school_values": ["skola.example"]}


@given(hd=st.one_of(st.none(), st.text(max_size=30), st.integers(), st.booleans()))
def test_only_the_allowed_school_passes(hd):
    claims = {"sub": "1"} if hd is None else {"sub": "1", "hd": hd}
    allowed = isinstance(hd, str) and hd.strip().lower() == "skola.example"
    assert (policy.school_refusal(claims, GOOGLE) is None) == allowed


@given(verified=st.one_of(st.none(), st.booleans(), st.text(max_size=8), st.integers()))
def test_an_address_is_verified_only_by_a_true_claim(verified):
    claims = {"sub": "1", "email": "a@skola.example"}
    if verified is not None:
        claims["email_verified"] = verified
    person = policy.identity(claims, GOOGLE)
    expected = verified is True or (
        isinstance(verified, str) and verified.strip().lower() == "true"
    )
    assert person.email_verified == expected
    assert (policy.email_refusal(person, GOOGLE) is None) == expected


def test_email_domain_allowlist():
    settings = {"email_domains": ["skola.example"]}
    inside = policy.identity({"sub": "1", "email": "A@Skola.example", "email_verified": True}, {})
    outside = policy.identity({"sub": "1", "email": "a@evil.example", "email_verified": True}, {})
    assert policy.email_refusal(inside, settings) is None
    assert policy.email_refusal(outside, settings) == policy.EMAIL_DOMAIN
    assert policy.email_refusal(policy.identity({"sub": "1"}, {}), {}) == policy.EMAIL_MISSING
