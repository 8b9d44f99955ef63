"""Anonymous probes answer 4xx and log no traceback (issue 38 §4).

"Anonymous 500s with tracebacks from four causes: ~6 KB of nested JSON on
three poker and four teacher API endpoints, any unrouted WebSocket path, SSO
login while the provider is unreachable, and a foreign Host logged at ERROR."

A real uvicorn process of its own (its log read back, one JSON object a line)
gets each probe over HTTP or WebSocket: the nested JSON (also in the fuzz
corpus, tests/security/test_fuzz_no_server_errors.py), WebSocket handshakes on
paths no consumer serves, and requests for a foreign ``Host``. The SSO case is
in tests/security/test_sso_entry.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.conftest import BASE_DIR, _free_port, _server_env, _stop, wait_up

pytestmark = pytest.mark.django_db(transaction=True)

CSRF = "c" * 32
NESTED = b'{"a":' * 1000 + b"1" + b"}" * 1000


@pytest.fixture(scope="module")
def logged_server(django_db_setup, django_db_blocker) -> Iterator[tuple[str, Path]]:
    """(base URL, log file) of a uvicorn process writing JSON log lines."""
    with django_db_blocker.unblock():
        env = _server_env()
    env["LOG_FORMAT"] = "json"
    with tempfile.TemporaryDirectory() as directory:
        log = Path(directory) / "server.log"
        with log.open("w") as sink:
            port = _free_port()
            process = subprocess.Popen(
                [sys.executable, "-m", "uvicorn", "config.asgi:application"]
                + ["--host", "127.0.0.1", "--port", str(port), "--ws", "websockets-sansio"]
                + ["--log-level", "warning"],
                cwd=BASE_DIR,
                env=env,
                stdout=sink,
                stderr=sink,
            )
            url = f"http://127.0.0.1:{port}"
            wait_up(process, url)
            yield url, log
            _stop(process)


def _log_after(log: Path, offset: int) -> list[str]:
    return log.read_text(errors="replace")[offset:].splitlines()


def _errors(lines: list[str]) -> list[str]:
    """Lines at ERROR or above, and any traceback."""
    bad = []
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            if "Traceback" in line or "Exception in ASGI application" in line:
                bad.append(line)
            continue
        if record.get("level") in {"ERROR", "CRITICAL"} or "Traceback" in line:
            bad.append(line)
    return bad


def test_nested_json_is_a_400_over_http(logged_server):
    url, log = logged_server
    offset = log.stat().st_size
    for path in ("/poker/api/hint/", "/poker/api/games/"):
        response = requests.post(
            url + path,
            data=NESTED,
            headers={"Content-Type": "application/json", "X-CSRFToken": CSRF},
            cookies={"csrftoken": CSRF},
            timeout=60,
        )
        assert response.status_code == 400, (path, response.status_code)
        assert response.json()["code"] == "too_deep"
    assert not _errors(_log_after(log, offset))


@pytest.mark.parametrize("path", ["/ws/nothing/", "/", "/ws/rooms/", "/ws/echo/a/b/c/"])
def test_an_unrouted_websocket_path_is_refused_without_a_traceback(logged_server, path):
    url, log = logged_server
    offset = log.stat().st_size
    with pytest.raises(InvalidStatus) as refused:
        with connect(url.replace("http", "ws", 1) + path, origin=url, open_timeout=30):
            pass
    assert refused.value.response.status_code == 403
    # The server still serves sockets and pages afterwards.
    assert requests.get(url + "/privacy/", timeout=60).status_code == 200
    assert not _errors(_log_after(log, offset))


def test_a_foreign_host_is_a_400_logged_as_a_warning(logged_server):
    url, log = logged_server
    offset = log.stat().st_size
    response = requests.get(url + "/", headers={"Host": "evil.example"}, timeout=60)
    assert response.status_code == 400
    lines = _log_after(log, offset)
    assert not _errors(lines)
    warned = [json.loads(line) for line in lines if "evil.example" in line]
    assert warned and all(record["level"] == "WARNING" for record in warned)
