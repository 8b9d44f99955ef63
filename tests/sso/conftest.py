"""The local OpenID provider and a Matika server configured for it.

``op``: ``tests.sso.op.LocalOpenIDProvider`` on 127.0.0.1 (in this process, in
a thread). ``sso_server``: a real uvicorn process of Matika started with the
``SSO_*`` variables an admin would set (docs/sso.md), pointing at ``op``: a
Google-like provider allowing the domain ``skola.example``, a Microsoft-like
one allowing ``op.TENANT`` and a generic one named SkolniLogin. The server
fetches discovery, JWKS and tokens from ``op`` over HTTP, as in production.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import requests

from tests.conftest import _server_env, _stop, start_uvicorn, wait_up
from tests.sso.op import CLIENTS, TENANT, LocalOpenIDProvider

SCHOOL_DOMAIN = "skola.example"


@pytest.fixture(scope="session")
def op() -> Iterator[LocalOpenIDProvider]:
    provider = LocalOpenIDProvider()
    provider.start()
    yield provider
    provider.stop()


def sso_environment(op: LocalOpenIDProvider) -> dict[str, str]:
    return {
        "SSO_GOOGLE_CLIENT_ID": CLIENTS["google"][0],
        "SSO_GOOGLE_CLIENT_SECRET": CLIENTS["google"][1],
        "SSO_GOOGLE_ISSUER": op.issuer("google"),
        "SSO_GOOGLE_DOMAINS": SCHOOL_DOMAIN,
        "SSO_MICROSOFT_CLIENT_ID": CLIENTS["microsoft"][0],
        "SSO_MICROSOFT_CLIENT_SECRET": CLIENTS["microsoft"][1],
        "SSO_MICROSOFT_TENANT": TENANT,
        "SSO_MICROSOFT_ISSUER": op.issuer("microsoft"),
        "SSO_OIDC_CLIENT_ID": CLIENTS["oidc"][0],
        "SSO_OIDC_CLIENT_SECRET": CLIENTS["oidc"][1],
        "SSO_OIDC_ISSUER": op.issuer("oidc"),
        "SSO_OIDC_NAME": "SkolniLogin",
    }


@pytest.fixture(scope="session")
def sso_server(op, django_db_setup, django_db_blocker) -> Iterator[str]:
    with django_db_blocker.unblock():
        env = _server_env()
    env.update(sso_environment(op))
    process, url = start_uvicorn(env)
    wait_up(process, url, "the ASGI server with school sign-in")
    yield url
    _stop(process)


@pytest.fixture
def op_reset(op):
    op.state.tamper = {}
    yield op
    op.state.tamper = {}


def browser_session() -> requests.Session:
    session = requests.Session()
    session.headers["Accept-Language"] = "en"
    return session


def csrf_token(html: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert found, "no CSRF token on the page"
    return found.group(1)


def refusal_code(html: str) -> str | None:
    found = re.search(r'data-code="([^"]+)"', html)
    return found.group(1) if found else None
