"""The sign-in providers a deployment turns on, from its environment.

Read by ``config/settings/base.py`` at start-up, so this imports nothing from
Django. Each provider is an app of django-allauth's ``openid_connect``
provider (``SOCIALACCOUNT_PROVIDERS["openid_connect"]["APPS"]``); a provider
whose client id is unset is off: no button, and its URLs answer 404. The same
``settings`` keys work for an app an admin adds in the Django admin
(``SocialApp``; provider "OpenID Connect"), see docs/sso.md.

Settings of an app that Matika reads (``accounts.sso.policy``):

- ``school_claim`` / ``school_values``: the ID token's claim that names the
  school (Google ``hd``, Microsoft ``tid``) and the values allowed; when values
  are given, a token without the claim or with another value is refused;
- ``email_domains``: the domains an e-mail address may have (empty: any);
- ``email_verified_claims``: claims any one of which, when true, says the
  provider verified the address (``email_verified``; Microsoft ``xms_edov``).
"""

from __future__ import annotations

from collections.abc import Mapping

GOOGLE_ISSUER = "https://accounts.google.com"
MICROSOFT_ISSUER = "https://login.microsoftonline.com/{tenant}/v2.0"


def _list(environ: Mapping[str, str], name: str) -> list[str]:
    return [item.strip() for item in environ.get(name, "").split(",") if item.strip()]


def _value(environ: Mapping[str, str], name: str, default: str = "") -> str:
    return environ.get(name, "").strip() or default


def _app(
    *,
    provider_id: str,
    name: str,
    client_id: str,
    secret: str,
    issuer: str,
    school_claim: str = "",
    school_values: list[str] | None = None,
    email_domains: list[str] | None = None,
    email_verified_claims: list[str] | None = None,
) -> dict:
    return {
        "provider_id": provider_id,
        "name": name,
        "client_id": client_id,
        "secret": secret,
        "settings": {
            "server_url": issuer,
            # Everything Matika uses comes from the signed ID token, never
            # from the userinfo endpoint.
            "fetch_userinfo": False,
            "oauth_pkce_enabled": True,
            "school_claim": school_claim,
            "school_values": school_values or [],
            "email_domains": [domain.lower() for domain in email_domains or []],
            "email_verified_claims": email_verified_claims or ["email_verified"],
        },
    }


def providers_from_environment(environ: Mapping[str, str]) -> list[dict]:
    """allauth app dicts for Google, Microsoft and one generic OpenID provider."""
    apps = []
    if client_id := _value(environ, "SSO_GOOGLE_CLIENT_ID"):
        apps.append(
            _app(
                provider_id="google",
                name="Google",
                client_id=client_id,
                secret=_value(environ, "SSO_GOOGLE_CLIENT_SECRET"),
                issuer=_value(environ, "SSO_GOOGLE_ISSUER", GOOGLE_ISSUER),
                school_claim="hd",
                school_values=[d.lower() for d in _list(environ, "SSO_GOOGLE_DOMAINS")],
                email_domains=_list(environ, "SSO_GOOGLE_EMAIL_DOMAINS"),
            )
        )
    if client_id := _value(environ, "SSO_MICROSOFT_CLIENT_ID"):
        tenant = _value(environ, "SSO_MICROSOFT_TENANT")
        if not tenant:
            raise ValueError("SSO_MICROSOFT_CLIENT_ID needs SSO_MICROSOFT_TENANT (the tenant ID).")
        apps.append(
            _app(
                provider_id="microsoft",
                name="Microsoft",
                client_id=client_id,
                secret=_value(environ, "SSO_MICROSOFT_CLIENT_SECRET"),
                issuer=_value(
                    environ, "SSO_MICROSOFT_ISSUER", MICROSOFT_ISSUER.format(tenant=tenant)
                ),
                school_claim="tid",
                # The tenant the sign-in page belongs to, unless a list is given.
                school_values=_list(environ, "SSO_MICROSOFT_TENANTS") or [tenant],
                email_domains=_list(environ, "SSO_MICROSOFT_EMAIL_DOMAINS"),
                # Microsoft's ID token has no email_verified; xms_edov (an optional
                # claim) says the tenant verified the address's domain.
                email_verified_claims=["email_verified", "xms_edov"],
            )
        )
    if client_id := _value(environ, "SSO_OIDC_CLIENT_ID"):
        issuer = _value(environ, "SSO_OIDC_ISSUER")
        if not issuer:
            raise ValueError("SSO_OIDC_CLIENT_ID needs SSO_OIDC_ISSUER.")
        claim = _value(environ, "SSO_OIDC_SCHOOL_CLAIM")
        apps.append(
            _app(
                provider_id=_value(environ, "SSO_OIDC_ID", "oidc"),
                name=_value(environ, "SSO_OIDC_NAME", "OpenID Connect"),
                client_id=client_id,
                secret=_value(environ, "SSO_OIDC_CLIENT_SECRET"),
                issuer=issuer,
                school_claim=claim,
                school_values=_list(environ, "SSO_OIDC_SCHOOL_VALUES") if claim else [],
                email_domains=_list(environ, "SSO_OIDC_EMAIL_DOMAINS"),
            )
        )
    return apps
