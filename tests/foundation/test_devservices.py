"""Development rough edges (issue 22, section 6): "`make run`: the port check happens
before PostgreSQL binds (two starts at once collide); the demo login scrolls away
under the worker banner (print it with the URL at the end); a mistyped URL shows
Django's debug 404."
"""

import shutil
import socket
import tempfile
import threading
from pathlib import Path

import psycopg
import pytest
import redis
from django.http import Http404
from django.test import override_settings
from django.urls import include, path

from config.settings import dev as dev_settings
from tools import devservices, services


def boom(request):
    raise RuntimeError("a bug in a view")


def missing(request):
    raise Http404("no such thing")


urlpatterns = [
    path("boom/", boom),
    path("missing/", missing),
    path("", include("config.urls")),
]

dev_like = override_settings(DEBUG=True, MIDDLEWARE=dev_settings.MIDDLEWARE, ROOT_URLCONF=__name__)


@pytest.fixture
def workdir():
    """A folder the PostgreSQL user can reach (as root it runs as ``matika-pg``)."""
    folder = Path(tempfile.mkdtemp(prefix="matika-devservices-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def listening_socket() -> socket.socket:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    return sock


# --- the project's 404 page in development -------------------------------------------


@pytest.mark.django_db
@dev_like
@pytest.mark.parametrize("url", ["/no-such-page/", "/missing/"])
def test_a_mistyped_url_shows_the_projects_404_page_in_dev(client, url):
    response = client.get(url)
    assert response.status_code == 404
    text = response.content.decode()
    assert "Back to the home page" in text  # templates/404.html
    assert "Using the URLconf" not in text  # Django's technical 404
    assert "DEBUG = True" not in text


@pytest.mark.django_db
@dev_like
def test_a_missing_slash_still_redirects_in_dev(client):
    response = client.get("/privacy")
    assert response.status_code == 301
    assert response["Location"] == "/privacy/"


@pytest.mark.django_db
@dev_like
def test_server_errors_keep_the_debug_traceback_in_dev(client):
    client.raise_request_exception = False
    response = client.get("/boom/")
    assert response.status_code == 500
    text = response.content.decode()
    assert "Traceback" in text
    assert "a bug in a view" in text


def test_the_404_middleware_is_development_only():
    from config.settings import base

    name = "config.devpages.ProjectNotFoundPageMiddleware"
    assert dev_settings.MIDDLEWARE[-1] == name
    assert name not in base.MIDDLEWARE


# --- ports: binding is the check --------------------------------------------------------


def test_the_web_port_is_bound_at_once_and_a_busy_one_is_replaced():
    taken = listening_socket()
    try:
        busy = taken.getsockname()[1]
        sock = services.bind_socket(busy, "the web server")
        try:
            assert sock.getsockname()[1] != busy
            # a second start at the same moment cannot get the same port either
            again = services.bind_socket(sock.getsockname()[1], "the web server")
            assert again.getsockname()[1] not in {busy, sock.getsockname()[1]}
            again.close()
        finally:
            sock.close()
    finally:
        taken.close()
    free = services.free_port()
    sock = services.bind_socket(free, "the web server")
    assert sock.getsockname()[1] == free
    sock.close()


def answers_sql(postgres: services.Postgres) -> bool:
    with psycopg.connect(postgres.url("postgres"), connect_timeout=5) as conn:
        return conn.execute("SELECT 1").fetchone() == (1,)


def test_postgresql_moves_to_another_port_when_its_port_is_taken_meanwhile(workdir):
    taken = listening_socket()
    busy = taken.getsockname()[1]
    postgres = services.Postgres(workdir / "pg", busy, durable=False)
    try:
        postgres.start()
        assert postgres.port != busy
        assert answers_sql(postgres)
    finally:
        postgres.stop()
        taken.close()


def test_two_postgresql_starts_at_once_on_one_port_both_come_up(workdir):
    preferred = services.free_port()
    servers = [services.Postgres(workdir / f"pg{i}", preferred, durable=False) for i in (1, 2)]
    errors: list[BaseException] = []

    def start(server):
        try:
            server.start()
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=start, args=(server,)) for server in servers]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=180)
        assert errors == []
        assert servers[0].port != servers[1].port
        assert all(answers_sql(server) for server in servers)
    finally:
        for server in servers:
            server.stop()


def test_redis_moves_when_another_redis_already_answers_on_its_port(workdir):
    first = services.Redis(workdir / "r1", services.free_port(), durable=False)
    first.start()
    second = services.Redis(workdir / "r2", first.port, durable=False)
    try:
        second.start()
        assert second.port != first.port
        client = redis.Redis(port=second.port)
        assert client.info("server")["process_id"] == second.process.pid
        client.close()
    finally:
        second.stop()
        first.stop()


def test_one_make_run_per_checkout(tmp_path: Path):
    first = services.RunLock(tmp_path / "run.lock")
    second = services.RunLock(tmp_path / "run.lock")
    try:
        assert first.acquire()
        assert not second.acquire()
        assert second.holder().isdigit()
    finally:
        first.release()
        second.release()
    third = services.RunLock(tmp_path / "run.lock")
    assert third.acquire()
    third.release()


# --- the last lines say where and how to log in -------------------------------------


def test_the_demo_login_is_printed_with_the_url_at_the_end():
    output = (
        "Loaded.\nDemo login: teacher@demo.matika / matika-demo  "
        "(class 5.A, code ABC123, 6 students)\n"
    )
    demo = devservices.demo_login(output)
    assert demo == (
        "Demo login: teacher@demo.matika / matika-demo  (class 5.A, code ABC123, 6 students)"
    )
    lines = devservices.summary("http://127.0.0.1:8000/", demo)
    assert lines[1] == "Matika is running at http://127.0.0.1:8000/"
    assert lines[2] == demo
    assert "http://127.0.0.1:8000/readyz" in lines[3]
    assert devservices.demo_login("nothing here") is None
