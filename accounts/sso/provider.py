"""allauth's OpenID Connect provider, stricter where a school needs it.

allauth's ``openid_connect`` provider fetches discovery and JWKS and checks the
ID token's issuer, audience and expiry. It skips the signature when the token
came straight from the token endpoint (allowed by the specification over
TLS), sends no nonce and prefers the userinfo answer to the token. Here:

- the signature is always checked against the provider's JWKS, with an
  asymmetric algorithm only (``ALGORITHMS``), and a token without ``exp`` is
  refused;
- every authorization request carries a fresh nonce kept in allauth's
  single-use state (in the session), and the token must carry the same one,
  so neither a replayed callback nor a replayed token signs anybody in;
- PKCE (S256) is on for every app;
- only the ID token's claims are used (``fetch_userinfo`` off): the school's
  domain or tenant and the e-mail come from what the provider signed;
- the discovery document is kept in the cache for ``DISCOVERY_SECONDS``, so
  starting a sign-in is not a request to the provider each time (issue 38 §3).

The class replaces allauth's through ``SOCIALACCOUNT_PROVIDERS
["openid_connect"]["provider_class"]``; its URLs are ``accounts.sso.urls``.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from typing import Any

from allauth.core.internal.deferred import jwt
from allauth.socialaccount.internal import jwtkit
from allauth.socialaccount.providers.oauth2.client import OAuth2Error
from allauth.socialaccount.providers.openid_connect.provider import OpenIDConnectProvider
from allauth.socialaccount.providers.openid_connect.views import OpenIDConnectOAuth2Adapter
from django.core.cache import cache

from accounts.sso import policy

log = logging.getLogger(__name__)

RESERVED = frozenset(
    {
        "client_id",
        "redirect_uri",
        "response_type",
        "response_mode",
        "scope",
        "state",
        "nonce",
        "code_challenge",
        "code_challenge_method",
        "request",
        "request_uri",
    }
)
ALGORITHMS = frozenset({"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384"})
DISCOVERY_SECONDS = 10 * 60


class SchoolOAuth2Adapter(OpenIDConnectOAuth2Adapter):
    #: The state allauth stashed for this flow (set by the callback view).
    state: dict | None = None

    @property
    def openid_config(self) -> dict[str, Any]:
        if not hasattr(self, "_openid_config"):
            app = self.get_provider().app
            source = f"{app.client_id}\n{self.get_provider().server_url}"
            key = "sso-discovery:" + hashlib.sha256(source.encode()).hexdigest()
            try:
                config = cache.get(key)
            except Exception as exc:  # the cache is away: fetch as before
                log.warning("school sign-in: discovery cache unavailable: %s", exc)
                config = None
            if not isinstance(config, dict):
                config = super().openid_config
                try:
                    cache.set(key, config, DISCOVERY_SECONDS)
                except Exception as exc:
                    log.warning("school sign-in: discovery cache unavailable: %s", exc)
            self._openid_config = config
        return self._openid_config

    def complete_login(self, request: Any, app: Any, token: Any, **kwargs: Any) -> Any:
        id_token = kwargs["response"].get("id_token")
        if not id_token:
            raise OAuth2Error("The token response carries no id_token.")
        data = {"id_token": self._decode_id_token(app, id_token)}
        return self.get_provider().sociallogin_from_response(request, data)

    def _decode_id_token(self, app: Any, id_token: str) -> dict[str, Any]:
        try:
            header = jwt.get_unverified_header(id_token)
        except jwt.PyJWTError as exc:
            raise OAuth2Error("The id_token is not a JWT.") from exc
        if header.get("alg") not in ALGORITHMS or not header.get("kid"):
            raise OAuth2Error("The id_token is not signed with a key of the provider.")
        try:
            claims = jwtkit.verify_and_decode(
                credential=id_token,
                keys_url=self.openid_config["jwks_uri"],
                issuer=self.openid_config["issuer"],
                audience=app.client_id,
                lookup_kid=jwtkit.lookup_kid_jwk,
                verify_signature=True,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise OAuth2Error("The provider's keys cannot check the id_token.") from exc
        if "exp" not in claims or not claims.get("sub"):
            raise OAuth2Error("The id_token has no expiry or no subject.")
        expected = (self.state or {}).get("nonce")
        nonce = claims.get("nonce")
        if (
            not isinstance(expected, str)
            or not isinstance(nonce, str)
            or not hmac.compare_digest(nonce.encode(), expected.encode())
        ):
            raise OAuth2Error("The id_token's nonce is not the one this sign-in sent.")
        return claims


class SchoolOIDCProvider(OpenIDConnectProvider):
    package = "accounts.sso"
    oauth2_adapter_class = SchoolOAuth2Adapter

    def redirect(
        self,
        request: Any,
        process: Any,
        next_url: str | None = None,
        data: Any = None,
        **kwargs: Any,
    ) -> Any:
        nonce = secrets.token_urlsafe(32)
        auth_params = kwargs.pop("auth_params", None)
        if auth_params is None:
            auth_params = self.get_auth_params()
        # ``?auth_params=`` of the login URL may add hints (prompt, login_hint),
        # never replace what binds the flow to this browser and this client.
        auth_params = {k: v for k, v in dict(auth_params).items() if k not in RESERVED}
        auth_params["nonce"] = nonce
        settings = self.app.settings
        allowed = settings.get("school_values") or []
        if settings.get("school_claim") == "hd" and len(allowed) == 1:
            # Only a hint for Google's account chooser; the claim is what counts.
            auth_params.setdefault("hd", allowed[0])
        return super().redirect(
            request, process, next_url, data, auth_params=auth_params, nonce=nonce, **kwargs
        )

    def sociallogin_from_response(self, request: Any, response: dict[str, Any]) -> Any:
        login = super().sociallogin_from_response(request, response)
        # Every claim for the decisions (accounts.sso.adapter); only a few are stored.
        login.id_token_claims = dict(response.get("id_token") or {})
        return login

    def extract_extra_data(self, data: dict[str, Any]) -> dict[str, Any]:
        return policy.kept_claims(data.get("id_token") or {}, self.app.settings)

    def extract_email_addresses(self, data: dict[str, Any]) -> list[Any]:
        from allauth.account.models import EmailAddress

        person = policy.identity(data.get("id_token") or {}, self.app.settings)
        if not person.email:
            return []
        return [EmailAddress(email=person.email, verified=person.email_verified, primary=True)]


provider_classes = [SchoolOIDCProvider]
