"""What a verified ID token must say before Matika acts on it (pure functions).

The claims passed in are those of the ID token whose signature, issuer,
audience, expiry and nonce ``accounts.sso.provider`` has already checked;
nothing here reads a URL parameter (``hd=`` in the authorization URL is only
a hint to the provider's account chooser and anybody can remove it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# Stable codes of refusals (shown on the refusal page and in data-code).
WRONG_SCHOOL = "sso_wrong_school"
EMAIL_MISSING = "sso_email_missing"
EMAIL_UNVERIFIED = "sso_email_unverified"
EMAIL_DOMAIN = "sso_email_domain"


@dataclass(frozen=True)
class Identity:
    """Who the token says signed in, with the facts Matika decides on."""

    uid: str
    email: str
    email_verified: bool
    name: str


def _true(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    return isinstance(value, str) and value.strip().lower() == "true"


def school_refusal(claims: Mapping[str, Any], settings: Mapping[str, Any]) -> str | None:
    """``WRONG_SCHOOL`` unless the token's school claim is one the deployment allows.

    Without an allowlist any school passes (the password sign-up is open to any
    address too); with one, a token lacking the claim (a private Google
    account has no ``hd``) is refused like a wrong value.
    """
    claim = settings.get("school_claim") or ""
    allowed = [str(value).strip().lower() for value in settings.get("school_values") or []]
    if not claim or not allowed:
        return None
    value = claims.get(claim)
    if not isinstance(value, str) or value.strip().lower() not in allowed:
        return WRONG_SCHOOL
    return None


def identity(claims: Mapping[str, Any], settings: Mapping[str, Any]) -> Identity:
    email = claims.get("email")
    email = email.strip().lower() if isinstance(email, str) else ""
    verified_by = settings.get("email_verified_claims") or ["email_verified"]
    name = claims.get("name")
    return Identity(
        uid=str(claims.get("sub", "")),
        email=email,
        email_verified=bool(email) and any(_true(claims.get(claim)) for claim in verified_by),
        name=name.strip()[:100] if isinstance(name, str) else "",
    )


def email_refusal(person: Identity, settings: Mapping[str, Any]) -> str | None:
    """Why this address cannot create or link an account (None: it can)."""
    if not person.email or "@" not in person.email:
        return EMAIL_MISSING
    if not person.email_verified:
        return EMAIL_UNVERIFIED
    domains = [domain.lower() for domain in settings.get("email_domains") or []]
    if domains and person.email.rpartition("@")[2] not in domains:
        return EMAIL_DOMAIN
    return None


#: The claims kept with a linked account (``SocialAccount.extra_data``): enough
#: to tell the teacher which school account it is, nothing more.
#: to tell the teacher which school account it is, nothing more (plus the
#: deployment's own school claim).
KEPT_CLAIMS = ("iss", "sub", "email", "email_verified", "hd", "tid", "name")


def kept_claims(claims: Mapping[str, Any], settings: Mapping[str, Any]) -> dict[str, Any]:
    keys = {*KEPT_CLAIMS, settings.get("school_claim") or "sub"}
    return {"id_token": {key: claims[key] for key in sorted(keys) if key in claims}}
