"""WebSockets only to the site itself (issue 27 §5): "CSP `connect-src` only the
site's own host". The policy allowed ``ws: wss:`` (any host), so an injected or
compromised script could talk to any WebSocket server on the internet."""

import pytest

pytestmark = pytest.mark.django_db


def _connect_src(response) -> list[str]:
    directives = [part.strip() for part in response["Content-Security-Policy"].split(";")]
    (connect,) = [part for part in directives if part.startswith("connect-src ")]
    return connect.split()[1:]


def test_connect_src_names_only_the_sites_own_host_over_tls(client):
    response = client.get("/", secure=True, headers={"host": "localhost"})
    assert _connect_src(response) == ["'self'", "wss://localhost"]


def test_connect_src_over_plain_http_names_the_host_with_ws(client):
    response = client.get("/", headers={"host": "127.0.0.1:8000"})
    assert _connect_src(response) == ["'self'", "ws://127.0.0.1:8000"]


@pytest.mark.parametrize("path", ["/", "/poker/", "/accounts/login/", "/no-such-page/"])
def test_no_page_allows_websockets_to_any_host(client, path):
    sources = _connect_src(client.get(path, secure=True))
    assert "ws:" not in sources
    assert "wss:" not in sources
    assert all(source == "'self'" or source.startswith("wss://") for source in sources)


def test_a_disallowed_host_gets_the_policy_without_a_websocket_host(client):
    response = client.get("/", headers={"host": "evil.example"})
    assert response.status_code == 400
    assert _connect_src(response) == ["'self'"]
