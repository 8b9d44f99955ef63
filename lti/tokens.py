"""Access tokens for the platform's services (AGS, NRPS): OAuth 2 client
credentials with a client assertion signed by the tool's key (RFC 7523)."""

import hashlib

from django.core.cache import cache

from . import keys, net
from .models import Platform

ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"


class ServiceError(net.PlatformError):
    """``transient``: worth trying again later (network, 429, 5xx)."""

    def __init__(self, code: str, detail: str = "", *, transient: bool = False) -> None:
        super().__init__(code, detail)
        self.transient = transient


def _cache_key(platform: Platform, scopes: list[str]) -> str:
    digest = hashlib.sha256(" ".join(sorted(scopes)).encode()).hexdigest()[:16]
    return f"lti:token:{platform.pk}:{digest}"


def forget(platform: Platform, scopes: list[str]) -> None:
    cache.delete(_cache_key(platform, scopes))


def access_token(platform: Platform, scopes: list[str]) -> str:
    key = _cache_key(platform, scopes)
    token: str | None = cache.get(key)
    if token:
        return token
    assertion = keys.sign(
        {
            "iss": platform.client_id,
            "sub": platform.client_id,
            "aud": platform.token_audience or platform.token_endpoint,
        },
        lifetime=300,
    )
    try:
        response = net.post(
            platform.token_endpoint,
            data={
                "grant_type": "client_credentials",
                "client_assertion_type": ASSERTION_TYPE,
                "client_assertion": assertion,
                "scope": " ".join(scopes),
            },
            headers={"Accept": "application/json"},
        )
    except net.PlatformError as error:
        raise ServiceError(error.code, error.detail, transient=True) from None
    if response.status_code != 200:
        transient = response.status_code == 429 or response.status_code >= 500
        raise ServiceError("token_refused", f"HTTP {response.status_code}", transient=transient)
    body = net.json_of(response)
    token = body.get("access_token")
    if not isinstance(token, str) or not token:
        raise ServiceError("token_refused", "no access_token")
    try:
        lifetime = int(body.get("expires_in") or 3600)
    except (TypeError, ValueError):
        lifetime = 3600
    if lifetime > 60:
        cache.set(key, token, lifetime - 30)
    return token
