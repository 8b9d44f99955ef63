"""A local OpenID provider for the school sign-in tests, on 127.0.0.1.

The protocol is oauthlib's OpenID Connect server (``oauthlib.openid.Server``,
a maintained implementation the suite already has through the LTI work):
authorization requests (redirect URI, response type, scopes, PKCE S256,
nonce), single-use codes, client authentication and the token response with
its ``id_token`` are oauthlib's. What is ours is only the storage a provider
keeps (``_Validator``), the discovery document and the JWKS, served with
``http.server``. ID tokens are signed RS256 with jwcrypto -- not the PyJWT that
django-allauth verifies with -- so signer and checker share no code.

One server speaks for several issuers by path: ``/google`` (Google-like, with
``hd``), ``/ms/<tenant>/v2.0`` (Microsoft-like, with ``tid``) and ``/oidc``.
Authorization is automatic: the identity signed in is ``op.identity`` (set
by each test), and ``op.tamper`` changes the next ID token (a forged key, a
wrong audience, an old expiry, another nonce) to show that it is refused.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from jwcrypto import jwk
from jwcrypto import jwt as jwcrypto_jwt
from oauthlib.openid import RequestValidator, Server

# oauthlib refuses plain http unless told that this is a local test.
os.environ.setdefault("OAUTHLIB_INSECURE_TRANSPORT", "1")

TENANT = "5f3e1c9a-0b7d-4d2e-9a61-2c4b8e7f1a30"
OTHER_TENANT = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d"
ISSUER_PATHS = {"google": "/google", "microsoft": f"/ms/{TENANT}/v2.0", "oidc": "/oidc"}
CLIENTS = {name: (f"{name}-client-id", f"{name}-secret-{name}") for name in ISSUER_PATHS}


@dataclass
class Grant:
    client_id: str
    redirect_uri: str
    scopes: list[str]
    nonce: str | None
    challenge: str | None
    challenge_method: str | None
    claims: dict[str, Any]
    issuer: str


@dataclass
class ProviderState:
    base_url: str = ""
    identity: dict[str, Any] = field(default_factory=dict)
    tamper: dict[str, Any] = field(default_factory=dict)
    codes: dict[str, Grant] = field(default_factory=dict)
    nonces: list[str] = field(default_factory=list)
    issued: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class _Validator(RequestValidator):
    """What a provider keeps (clients, codes); oauthlib does the checking."""

    def __init__(self, op: LocalOpenIDProvider, name: str) -> None:
        self.op = op
        self.name = name
        self.client_id, self.secret = CLIENTS[name]

    # --- clients
    def validate_client_id(self, client_id, request, *args, **kwargs):
        return client_id == self.client_id

    def client_authentication_required(self, request, *args, **kwargs):
        return True

    def authenticate_client(self, request, *args, **kwargs):
        client_id, secret = request.client_id, request.client_secret
        header = request.headers.get("Authorization", "")
        if header.startswith("Basic "):
            from urllib.parse import unquote

            raw = base64.b64decode(header[6:]).decode()
            client_id, _, secret = raw.partition(":")
            client_id, secret = unquote(client_id), unquote(secret)
        if client_id != self.client_id or not secrets.compare_digest(secret or "", self.secret):
            return False
        request.client = type("Client", (), {"client_id": client_id})()
        request.client_id = client_id
        return True

    def validate_redirect_uri(self, client_id, redirect_uri, request, *args, **kwargs):
        # Registered: the Matika callback for this provider, on 127.0.0.1.
        parts = urlsplit(redirect_uri)
        return parts.hostname == "127.0.0.1" and parts.path == (
            f"/accounts/sso/{self.name}/login/callback/"
        )

    def get_default_redirect_uri(self, client_id, request, *args, **kwargs):
        return None

    def validate_response_type(self, client_id, response_type, client, request, *args, **kwargs):
        return response_type == "code"

    def validate_scopes(self, client_id, scopes, client, request, *args, **kwargs):
        return set(scopes) <= {"openid", "email", "profile"}

    def get_default_scopes(self, client_id, request, *args, **kwargs):
        return ["openid"]

    def validate_grant_type(self, client_id, grant_type, client, request, *args, **kwargs):
        return grant_type == "authorization_code"

    # --- PKCE
    def is_pkce_required(self, client_id, request):
        return True

    def get_code_challenge(self, code, request):
        grant = self.op.state.codes.get(code)
        return grant.challenge if grant else None

    def get_code_challenge_method(self, code, request):
        grant = self.op.state.codes.get(code)
        return grant.challenge_method if grant else None

    # --- codes
    def save_authorization_code(self, client_id, code, request, *args, **kwargs):
        state = self.op.state
        with state.lock:
            if request.nonce:
                state.nonces.append(request.nonce)
            state.codes[code["code"]] = Grant(
                client_id=client_id,
                redirect_uri=request.redirect_uri,
                scopes=list(request.scopes),
                nonce=request.nonce,
                challenge=request.code_challenge,
                challenge_method=request.code_challenge_method,
                claims=dict(state.identity),
                issuer=self.op.issuer(self.name),
            )

    def validate_code(self, client_id, code, client, request, *args, **kwargs):
        grant = self.op.state.codes.get(code)
        if grant is None or grant.client_id != client_id:
            return False
        request.scopes = grant.scopes
        request.user = grant.claims.get("sub")
        request.claims = {}
        return True

    def confirm_redirect_uri(self, client_id, code, redirect_uri, client, request, *args, **kw):
        grant = self.op.state.codes.get(code)
        return grant is not None and grant.redirect_uri == redirect_uri

    def invalidate_authorization_code(self, client_id, code, request, *args, **kwargs):
        with self.op.state.lock:
            self.op.state.codes.pop(code, None)

    def save_bearer_token(self, token, request, *args, **kwargs):
        return None

    # --- OpenID Connect
    def get_authorization_code_scopes(self, client_id, code, redirect_uri, request):
        grant = self.op.state.codes.get(code)
        return grant.scopes if grant else []

    def get_authorization_code_nonce(self, client_id, code, redirect_uri, request):
        grant = self.op.state.codes.get(code)
        request._matika_grant = grant
        return grant.nonce if grant else None

    def finalize_id_token(self, id_token, token, token_handler, request):
        grant: Grant = request._matika_grant
        now = int(time.time())
        claims = {
            **id_token,
            "iss": grant.issuer,
            "exp": now + 600,
            "jti": uuid.uuid4().hex,
            **grant.claims,
        }
        tamper = dict(self.op.state.tamper)
        self.op.state.tamper.clear()
        key = self.op.key
        for name, value in tamper.items():
            if name == "key":
                key = self.op.forged_key
            elif name == "drop":
                for claim in value:
                    claims.pop(claim, None)
            else:
                claims[name] = value
        self.op.state.issued.append(claims)
        signed = jwcrypto_jwt.JWT(header={"alg": "RS256", "kid": key.kid}, claims=claims)
        signed.make_signed_token(key)
        return signed.serialize()

    def validate_silent_authorization(self, request):
        return True

    def validate_silent_login(self, request):
        return True

    def validate_user_match(self, id_token_hint, scopes, claims, request):
        return True


class LocalOpenIDProvider:
    def __init__(self) -> None:
        self.key = jwk.JWK.generate(kty="RSA", size=2048, kid="op-key-1", alg="RS256", use="sig")
        # Same kid, another key: what a forger without the provider's key can sign with.
        self.forged_key = jwk.JWK.generate(kty="RSA", size=2048, kid="op-key-1")
        self.state = ProviderState()
        self.servers = {name: Server(_Validator(self, name)) for name in ISSUER_PATHS}
        self.httpd: ThreadingHTTPServer | None = None

    # --- what tests use
    def issuer(self, name: str) -> str:
        return self.state.base_url + ISSUER_PATHS[name]

    def sign_in_as(self, **claims: Any) -> None:
        self.state.identity = {"sub": uuid.uuid4().hex, **claims}
        self.state.tamper = {}

    def start(self) -> str:
        op = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                return

            def do_GET(self):
                op.handle(self)

            def do_POST(self):
                op.handle(self)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.state.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self.state.base_url

    def stop(self) -> None:
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()

    # --- HTTP
    def discovery(self, name: str) -> dict[str, Any]:
        issuer = self.issuer(name)
        return {
            "issuer": issuer,
            "authorization_endpoint": f"{issuer}/authorize",
            "token_endpoint": f"{issuer}/token",
            "userinfo_endpoint": f"{issuer}/userinfo",
            "jwks_uri": f"{issuer}/jwks",
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "scopes_supported": ["openid", "email", "profile"],
            "token_endpoint_auth_methods_supported": ["client_secret_post", "client_secret_basic"],
            "code_challenge_methods_supported": ["S256"],
            "claims_supported": ["sub", "email", "email_verified", "name", "hd", "tid"],
        }

    def handle(self, handler: BaseHTTPRequestHandler) -> None:
        path = urlsplit(handler.path).path
        routes = [
            (name, path[len(prefix) :])
            for name, prefix in ISSUER_PATHS.items()
            if path.startswith(prefix + "/")
        ]
        if not routes:
            return self._send(handler, 404, {}, b"not found")
        name, endpoint = routes[0]
        uri = self.state.base_url + handler.path
        if endpoint == "/.well-known/openid-configuration":
            return self._json(handler, 200, self.discovery(name))
        if endpoint == "/jwks":
            return self._json(handler, 200, {"keys": [json.loads(self.key.export_public())]})
        server = self.servers[name]
        if endpoint == "/authorize" and handler.command == "GET":
            try:
                scopes, credentials = server.validate_authorization_request(uri, "GET")
            except Exception as exc:  # an invalid request: the provider's own error page
                return self._send(handler, 400, {}, repr(exc).encode())
            credentials.pop("request", None)
            headers, body, status = server.create_authorization_response(
                uri, "GET", None, {}, scopes, credentials
            )
            return self._send(handler, status, headers, (body or "").encode())
        if endpoint == "/token" and handler.command == "POST":
            length = int(handler.headers.get("Content-Length") or 0)
            body = handler.rfile.read(length).decode()
            headers = {key: value for key, value in handler.headers.items()}
            headers, body, status = server.create_token_response(uri, "POST", body, headers, None)
            return self._send(handler, status, headers, (body or "").encode())
        return self._send(handler, 404, {}, b"not found")

    def _json(self, handler, status: int, data: dict) -> None:
        self._send(handler, status, {"Content-Type": "application/json"}, json.dumps(data).encode())

    @staticmethod
    def _send(handler, status: int, headers: dict, body: bytes) -> None:
        handler.send_response(status)
        for key, value in headers.items():
            handler.send_header(key, value)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)
