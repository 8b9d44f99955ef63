"""The shipped production configuration, started without Docker, behind real nginx with TLS.

Issue 22 §4: "a production smoke test in `make test` that starts the shipped
configuration without Docker — prod settings, `collectstatic`, the ASGI server
with exactly the shipped flags, nginx (Debian package) with a self-signed
certificate in front, TLS — and checks health, a login, a poker game over
WebSocket through nginx". Issue 16 §2: "trust forwarded addresses only from the
deployment's own proxy".

What runs: ``collectstatic`` under ``config.settings.prod`` into a temporary
directory; uvicorn with the Dockerfile's CMD (only ``--host``/``--port``
changed); nginx with ``platform/nginx/matika.conf`` (only listen addresses,
upstream and file locations changed) and a certificate made here with
``openssl``. PostgreSQL and Redis are the test services of ``make test``.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.parse
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from http.client import HTTPConnection, HTTPResponse, HTTPSConnection
from http.cookies import SimpleCookie
from pathlib import Path

import pytest
from websockets.sync.client import connect

from tests.conftest import BASE_DIR, _free_port, _test_database_url
from tests.production import shipped

# Every test of the module runs with transactional_db: pytest-django runs the
# transactional tests of the whole suite before the others, so a module whose
# tests were split between the two groups started its nginx + uvicorn stack
# twice (11 s of setup more in a busy full run).
pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

SECRET_KEY = "smoke-test-only-" + "s3cr3t" * 10
TEACHER_EMAIL = "teacher@smoke.matika.test"
TEACHER_PASSWORD = "Smoke-test-heslo-42"
SPOOFED = "203.0.113.66"  # a documentation address; it only ever appears in a header


def _nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )


@dataclass
class Stack:
    https_port: int
    http_port: int
    app_port: int
    cafile: str
    app_log: Path
    directory: Path

    @property
    def origin(self) -> str:
        return f"https://localhost:{self.https_port}"

    def tls(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=self.cafile)

    def https(self) -> HTTPSConnection:
        return HTTPSConnection("localhost", self.https_port, context=self.tls(), timeout=30)

    def app_log_lines(self) -> list[dict]:
        lines = []
        for raw in self.app_log.read_text(errors="replace").splitlines():
            try:
                lines.append(json.loads(raw))
            except ValueError:
                continue
        return lines


def _stop_group(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=5)


def _self_signed_certificate(directory: Path) -> Path:
    directory.mkdir(parents=True)
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=localhost",
            "-addext",
            "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-keyout",
            str(directory / "privkey.pem"),
            "-out",
            str(directory / "fullchain.pem"),
        ],
        check=True,
        capture_output=True,
    )
    return directory / "fullchain.pem"


def _production_env(static_root: Path, https_port: int) -> dict:
    drop = {"DJANGO_ALLOW_ASYNC_UNSAFE", "FORWARDED_ALLOW_IPS", "SENTRY_DSN", "EMAIL_BACKEND"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.prod",
        SECRET_KEY=SECRET_KEY,
        ALLOWED_HOSTS="localhost",
        # nginx passes $host (no port); the browser's Origin has the test's port.
        CSRF_TRUSTED_ORIGINS=f"https://localhost:{https_port}",
        DATABASE_URL=_test_database_url(),
        STATIC_ROOT=str(static_root),
        LOG_FORMAT="json",
        ACCESS_LOG_LEVEL="INFO",
        # Nothing listens there: a mail that cannot go out must fail, not print.
        EMAIL_URL=f"smtp://127.0.0.1:{_free_port()}",
    )
    return env


class _PortTaken(Exception):
    """Another process on this shared machine took a port between choice and bind."""


def _wait_for(predicate, what: str, processes: list[subprocess.Popen], logs=(), timeout=60):
    deadline = time.monotonic() + timeout
    while True:
        try:
            if predicate():
                return
        except OSError:
            pass
        for process in processes:
            if process.poll() is not None:
                text = " ".join(Path(log).read_text(errors="replace") for log in logs)
                if "Address already in use" in text:
                    raise _PortTaken(what)
                pytest.fail(f"{what}: a process exited with {process.returncode}: {text[-2000:]}")
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not ready after {timeout} s")
        time.sleep(0.2)


def _start(nginx: str, directory: Path, static_root: Path, cafile: Path, django_db_blocker):
    """uvicorn with the shipped CMD and nginx with the shipped site, on fresh ports."""
    https_port, http_port, app_port = _free_port(), _free_port(), _free_port()
    with django_db_blocker.unblock():
        env = _production_env(static_root, https_port)
    argv = shipped.with_host_and_port(shipped.dockerfile_cmd(), "127.0.0.1", app_port)
    assert argv[0] == "uvicorn"
    app_log = directory / f"app-{app_port}.log"
    with app_log.open("wb") as log:
        app = subprocess.Popen(
            [sys.executable, "-m", *argv],
            cwd=BASE_DIR,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    conf = directory / "nginx.conf"
    conf.write_text(
        shipped.nginx_for_test(
            upstream=f"127.0.0.1:{app_port}",
            http_port=http_port,
            https_port=https_port,
            directory=directory,
        )
    )
    error_log = directory / "error.log"
    error_log.write_text("")
    nginx_args = [nginx, "-c", str(conf), "-p", str(directory), "-e", str(error_log)]
    test_conf = subprocess.run([*nginx_args, "-t"], capture_output=True, text=True)
    assert test_conf.returncode == 0, test_conf.stderr
    proxy = subprocess.Popen(
        nginx_args, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True
    )
    result = Stack(https_port, http_port, app_port, str(cafile), app_log, directory)
    try:

        def app_up() -> bool:
            connection = HTTPConnection("127.0.0.1", app_port, timeout=2)
            connection.request("GET", "/livez")
            return connection.getresponse().status == 200

        _wait_for(app_up, "uvicorn (shipped flags)", [app], logs=[app_log])

        def proxy_up() -> bool:
            connection = result.https()
            connection.request("GET", "/livez")
            return connection.getresponse().status == 200

        _wait_for(proxy_up, "nginx with TLS", [app, proxy], logs=[error_log], timeout=20)
    except BaseException:
        _stop_group(proxy)
        _stop_group(app)
        raise
    return result, [proxy, app]


@pytest.fixture(scope="module")
def stack(django_db_setup, django_db_blocker, tmp_path_factory, prod_static) -> Iterator[Stack]:
    nginx = _nginx_binary()
    if nginx is None:
        reason = "NO NGINX: the production smoke test needs it (apt-get install -y nginx)"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    directory = tmp_path_factory.mktemp("prod")
    for sub in ("acme", "tmp"):
        (directory / sub).mkdir()
    cafile = _self_signed_certificate(directory / "certs")
    static_root = prod_static.root  # collected once for the session (conftest.py)

    for attempt in range(3):
        try:
            result, processes = _start(nginx, directory, static_root, cafile, django_db_blocker)
            break
        except _PortTaken:
            if attempt == 2:
                raise
    try:
        yield result
    finally:
        for process in processes:
            _stop_group(process)


class Browser:
    """Just enough of a browser over HTTPS: cookies, no automatic redirects."""

    def __init__(self, stack: Stack) -> None:
        self.stack = stack
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, body: dict | None = None, headers=None):
        connection = self.stack.https()
        all_headers = {"Accept-Language": "en", **(headers or {})}
        if self.cookies:
            all_headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = urllib.parse.urlencode(body)
            all_headers["Content-Type"] = "application/x-www-form-urlencoded"
            all_headers["Origin"] = self.stack.origin
            all_headers["Referer"] = self.stack.origin + path
        connection.request(method, path, body=data, headers=all_headers)
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        for header in response.headers.get_all("Set-Cookie") or []:
            cookie = SimpleCookie()
            cookie.load(header)
            for name, morsel in cookie.items():
                assert morsel["secure"], f"cookie {name} is not Secure in production"
                if morsel.value:
                    self.cookies[name] = morsel.value
                else:
                    self.cookies.pop(name, None)
        return response, text


def _get(stack: Stack, path: str, headers=None) -> tuple[HTTPResponse, str]:
    connection = stack.https()
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    return response, response.read().decode("utf-8", "replace")


def test_health_through_nginx_and_the_containers_own_probe(stack):
    response, body = _get(stack, "/livez")
    assert response.status == 200 and json.loads(body)["status"] == "ok"
    response, body = _get(stack, "/readyz")
    report = json.loads(body)
    assert response.status in (200, 503)  # no Celery worker runs in this test
    checks = report.get("checks", {})
    if "database" in checks:
        assert checks["database"]["ok"] is True, report
    # The compose healthcheck command, as shipped, against this process.
    probe = shipped.compose()["services"]["web"]["healthcheck"]["test"]
    if isinstance(probe, str):  # the shell form (podman-compose mishandles the list form)
        probe = ["CMD", *shlex.split(probe)]
    assert probe[0] == "CMD" and probe[1] == "python" and probe[2] == "-c"
    code = probe[3].replace("127.0.0.1:8000", f"127.0.0.1:{stack.app_port}")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=30)
    assert result.returncode == 0, result.stderr


def test_https_everywhere_hsts_and_the_http_redirect(stack):
    connection = HTTPConnection("127.0.0.1", stack.http_port, timeout=10)
    connection.request("GET", "/poker/?x=1", headers={"Host": "localhost"})
    response = connection.getresponse()
    assert response.status == 301
    assert response.getheader("Location") == "https://localhost/poker/?x=1"

    response, body = _get(stack, "/")
    assert response.status == 200
    hsts = response.getheader("Strict-Transport-Security")
    assert hsts == "max-age=31536000; includeSubDomains; preload"
    assert re.fullmatch(r"[0-9a-f]{32}", response.getheader("X-Request-ID") or "")
    # Hashed static files with far-future caching come through the proxy.
    script = re.search(r'src="(/static/[^"]+\.[0-9a-f]{12}\.js)"', body)
    assert script, "the home page loads a hashed script"
    response, _ = _get(stack, script.group(1))
    assert response.status == 200
    assert "max-age=315360000" in (response.getheader("Cache-Control") or "")

    # Plain HTTP straight to the web process is redirected by Django too, except
    # the health paths (the probe's) which answer as they are.
    direct = HTTPConnection("127.0.0.1", stack.app_port, timeout=10)
    direct.request("GET", "/privacy/", headers={"Host": "localhost"})
    response = direct.getresponse()
    response.read()
    assert response.status == 301
    assert response.getheader("Location") == "https://localhost/privacy/"


def _access_line(stack: Stack, marker: str) -> str:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        for line in stack.app_log_lines():
            if line.get("logger") == "uvicorn.access" and marker in line.get("message", ""):
                return line["message"]
        time.sleep(0.1)
    pytest.fail(f"no access log line for {marker}")


def test_a_spoofed_forwarded_address_does_not_change_the_address_the_app_sees(stack):
    marker = uuid.uuid4().hex
    response, _ = _get(
        stack,
        f"/livez?through-nginx={marker}",
        headers={"X-Forwarded-For": SPOOFED, "X-Real-IP": SPOOFED, "Forwarded": f"for={SPOOFED}"},
    )
    assert response.status == 200
    line = _access_line(stack, marker)
    assert line.startswith("127.0.0.1:"), line
    assert SPOOFED not in line

    # A client that reaches the web process from any address but the proxy's
    # (here 127.0.0.2, another loopback address) is not believed either.
    marker = uuid.uuid4().hex
    raw = socket.create_connection(("127.0.0.1", stack.app_port), source_address=("127.0.0.2", 0))
    raw.sendall(
        f"GET /livez?direct={marker} HTTP/1.1\r\nHost: localhost\r\n"
        f"X-Forwarded-For: {SPOOFED}\r\nX-Forwarded-Proto: https\r\nConnection: close\r\n\r\n".encode()
    )
    assert raw.recv(100).startswith(b"HTTP/1.1 200")
    raw.close()
    line = _access_line(stack, marker)
    assert line.startswith("127.0.0.2:"), line
    assert SPOOFED not in line


def test_a_teacher_logs_in_through_nginx(transactional_db, stack):
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    from accounts.models import User

    teacher = User.objects.create_user(TEACHER_EMAIL, None, name="Smoke Teacher")
    # The production server uses its default hashers; the test settings' MD5 is not one.
    teacher.password = PBKDF2PasswordHasher().encode(TEACHER_PASSWORD, "smoketestsalt")
    teacher.save(update_fields=["password"])

    browser = Browser(stack)
    response, page = browser.request("GET", "/classes/")
    assert response.status == 200 and "/accounts/logout/" not in page
    response, page = browser.request("GET", "/accounts/login/")
    assert response.status == 200
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response, _ = browser.request(
        "POST",
        "/accounts/login/",
        {"csrfmiddlewaretoken": token, "username": TEACHER_EMAIL, "password": TEACHER_PASSWORD},
    )
    assert response.status == 302, "login refused"
    assert "sessionid" in browser.cookies
    response, page = browser.request("GET", "/classes/")
    assert response.status == 200
    assert "/accounts/logout/" in page  # signed in: the page offers to sign out


def test_a_password_reset_is_queued_and_the_page_says_so_honestly(transactional_db, stack):
    """The reset page queues the mail for the Celery worker, which sends it and
    retries SMTP failures for about an hour, logging an error when it gives up
    (accounts/tasks.py; tests/accounts/test_reset_mail.py runs a worker against a
    failing SMTP server). The web process talks to the broker only: the request
    cannot fail on SMTP, and a broker it cannot reach gives 503 instead of "sent"."""
    from accounts.models import User

    User.objects.create_user("reset@smoke.matika.test", "Reset-heslo-42")
    browser = Browser(stack)
    response, page = browser.request("GET", "/accounts/password/reset/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    response, _ = browser.request(
        "POST",
        "/accounts/password/reset/",
        {"csrfmiddlewaretoken": token, "email": "reset@smoke.matika.test"},
    )
    assert response.status == 302, "the reset mail was not queued"
    assert response.headers["Location"].endswith("/accounts/password/reset/sent/")
    response, page = browser.request("GET", "/accounts/password/reset/sent/")
    assert response.status == 200
    assert "it can take a few minutes" in page
    queue_errors = [
        line
        for line in stack.app_log_lines()
        if line.get("level") == "ERROR" and "mail" in line.get("message", "").lower()
    ]
    assert queue_errors == []


def _player_cookie(profile_token: str) -> str:
    from django.conf import settings
    from django.core import signing

    from accounts import identity

    signed = signing.dumps(profile_token, salt=identity.SALT, key=SECRET_KEY)
    return f"{settings.PLAYER_COOKIE_NAME}={signed}; matika_lang=en"


class WebSocket:
    def __init__(self, stack: Stack, code: str, cookie: str) -> None:
        self.ws = connect(
            f"wss://localhost:{stack.https_port}/ws/rooms/{code}/",
            origin=stack.origin,
            additional_headers={"Cookie": cookie},
            ssl=stack.tls(),
            open_timeout=15,
        )
        self.ws.__enter__()  # outlives one `with` block; closed by the test
        self.count = 0

    def send(self, message: dict) -> str:
        self.count += 1
        message = {"id": f"m{self.count}", **message}
        self.ws.send(json.dumps(message))
        return message["id"]

    def recv_until(self, predicate, timeout: float = 15) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            message = json.loads(self.ws.recv(timeout=max(0.01, deadline - time.monotonic())))
            if predicate(message):
                return message

    def request(self, message: dict) -> dict:
        for _attempt in range(50):
            message_id = self.send(message)
            answer = self.recv_until(
                lambda m, sent=message_id: (
                    m.get("id") == sent and m["type"] in ("ack", "error", "sync")
                )
            )
            if answer.get("code") != "rate_limited":
                return answer
            time.sleep(0.2)
        return answer

    def event(self, event_type: str) -> dict:
        return self.recv_until(
            lambda m: (
                m["type"] in ("event", "private")
                and any(e.get("type") == event_type for e in m["events"])
            )
        )


def test_a_poker_group_game_over_websockets_through_nginx(transactional_db, stack):
    from accounts import services as accounts_services
    from games.rooms import services
    from games.rooms.models import Room
    from tests.poker_room.live import rig_deck

    host, host_token = accounts_services.create_profile(browser_token=None, nickname="Smoke Host")
    pupil, pupil_token = accounts_services.create_profile(
        browser_token=None, nickname="Smoke Pupil"
    )
    room = services.create_room(game="poker", mode="group", host=host, settings={})
    services.join_room(room=room, player=pupil)

    host_socket = WebSocket(stack, room.code, _player_cookie(host_token))
    pupil_socket = WebSocket(stack, room.code, _player_cookie(pupil_token))
    try:
        for ws in (host_socket, pupil_socket):
            assert ws.recv_until(lambda m: True)["type"] == "sync"
        assert host_socket.request({"type": "start"})["type"] == "ack"
        pupil_socket.event("poker_started")
        rig_deck(room, list(range(1, 14)) * 2)  # numbers only: 25 placements fill the board
        for turn in range(25):
            assert host_socket.request({"type": "draw"})["type"] == "ack"
            pupil_socket.event("drawn")
            answer = pupil_socket.request({"type": "place", "cell": turn})
            assert answer["type"] == "ack", (turn, answer)
        response, body = _get(
            stack,
            f"/poker/room/{room.code}/standings.json",
            headers={"Cookie": _player_cookie(pupil_token)},
        )
        assert response.status == 200
        final = json.loads(body)
        assert final["status"] == "finished", final
        assert [entry["filled"] for entry in final["ranking"]] == [25]
        pupil_socket.event("finished")
        assert Room.objects.get(pk=room.pk).status == "finished"
    finally:
        host_socket.ws.close()
        pupil_socket.ws.close()


def test_the_service_worker_precaches_hashed_files_and_every_module_they_import(stack):
    """Issue 22 §1: with the production storage every module the offline pages
    load, directly or through imports, is hashed and in the worker's list."""
    response, body = _get(stack, "/poker/sw.js")
    assert response.status == 200
    pages = json.loads(re.search(r"const PAGES = (\[.*?\]);", body).group(1))
    assets = json.loads(re.search(r"const ASSETS = (\[.*?\]);", body).group(1))
    static_assets = [a for a in assets if a.startswith("/static/")]
    assert len(static_assets) > 15
    for asset in static_assets:
        assert re.search(r"\.[0-9a-f]{12}\.\w+$", asset), f"{asset} is not hashed"
    for asset in assets:
        response, text = _get(stack, asset)
        assert response.status == 200, asset
        if asset.endswith(".js"):
            for relative in re.findall(r"""\bfrom\s*["'](\.{1,2}/[^"']+)["']""", text):
                target = os.path.normpath(os.path.join(os.path.dirname(asset), relative))
                assert target in assets, f"{asset} imports {target}, not precached"
    for page in pages:
        response, _ = _get(stack, page)
        assert response.status == 200, page


@pytest.mark.browser
def test_offline_play_with_the_production_static_files(stack, browser):
    """Issue 22 §1: "After 75 s offline, Start does nothing (with dev settings it
    works)." The browser's HTTP cache is emptied instead of waiting for it to
    expire, so only what the service worker precached can answer."""
    from playwright.sync_api import expect

    from tests.poker_web.test_poker_browser import play_to_end

    # Chromium registers no service worker on an origin with a certificate error,
    # and the test's certificate is self-signed: a second Chromium from the same
    # Playwright accepts only that certificate's key (by its SPKI hash).
    spki = _spki_hash(stack.cafile)
    tls_browser = browser.browser_type.launch(
        executable_path=_chromium(),
        headless=True,
        args=["--no-sandbox", "--disable-gpu", f"--ignore-certificate-errors-spki-list={spki}"],
    )
    context = tls_browser.new_context(base_url=stack.origin, locale="en-GB")
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto("/poker/")
        installed = page.evaluate(
            """() => Promise.race([
                navigator.serviceWorker.ready.then(() => true),
                new Promise((resolve) => setTimeout(() => resolve(false), 30000)),
            ])"""
        )
        assert installed, "the service worker did not install (and precache) within 30 s"
        page.reload()
        assert page.evaluate("() => navigator.serviceWorker.controller !== null")
        cdp = context.new_cdp_session(page)
        cdp.send("Network.clearBrowserCache")
        context.set_offline(True)
        page.goto("/poker/play/?mode=easy")
        expect(page.locator("#poker-offline-note")).to_be_visible()
        page.click("#poker-start")
        expect(page.locator("#poker-info")).to_contain_text("not recorded")
        play_to_end(page)
        expect(page.locator("[data-testid=end-record]")).to_contain_text("not recorded")
        assert errors == []
    finally:
        context.close()
        tls_browser.close()


def _chromium() -> str:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _spki_hash(certificate: str) -> str:
    """base64(sha256(SubjectPublicKeyInfo)) of a PEM certificate, as Chromium wants it."""
    public_key = subprocess.run(
        ["openssl", "x509", "-in", certificate, "-pubkey", "-noout"],
        check=True,
        capture_output=True,
    ).stdout
    der = subprocess.run(
        ["openssl", "pkey", "-pubin", "-outform", "der"],
        input=public_key,
        check=True,
        capture_output=True,
    ).stdout
    import base64
    import hashlib

    return base64.b64encode(hashlib.sha256(der).digest()).decode()
