"""A host socket lives no longer than the teacher session it acts by (issue 16 §1, §3).

"Host rights of class games come from the logged-in teacher (session / User)"
and "sessions with an idle timeout for teachers": teacher sessions end after two
idle hours on page requests, but a host socket opened from the session kept its
host rights after the session ended (idle, or logged out from another tab).
Now every action of a socket acting by the session re-checks the session, and
host activity on the socket counts as the teacher's activity. Through a real
uvicorn (config.asgi, session middleware included) and real HTTP.
"""

from __future__ import annotations

import json
import time
from importlib import import_module

import pytest
from django.conf import settings
from django.test import Client
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from accounts.sessions import LAST_SEEN_KEY, REFRESH_SECONDS
from games.rooms.models import Room
from tests.classrooms import factories

pytestmark = pytest.mark.django_db(transaction=True)

IDLE = settings.TEACHER_SESSION_IDLE_SECONDS


class HostSocket:
    def __init__(self, server: str, code: str, session_key: str) -> None:
        url = server.replace("http://", "ws://") + f"/ws/rooms/{code}/"
        cookie = f"{settings.SESSION_COOKIE_NAME}={session_key}; matika_lang=en"
        self.ws = connect(url, origin=server, additional_headers={"Cookie": cookie})
        self.number = 0
        first = self.recv()
        assert first["type"] == "sync", first
        self.role = first["you"]["role"]

    def recv(self) -> dict:
        return json.loads(self.ws.recv(timeout=10))

    def request(self, message: dict) -> dict:
        self.number += 1
        message_id = f"h{self.number}"
        self.ws.send(json.dumps({"id": message_id, **message}))
        while True:
            answer = self.recv()
            if answer.get("id") == message_id and answer["type"] in ("ack", "error"):
                return answer

    def closed_code(self) -> int:
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                self.recv()
        return closed.value.rcvd.code


def _store(session_key: str):
    return import_module(settings.SESSION_ENGINE).SessionStore(session_key)


def _last_seen(session_key: str, seconds_ago: int) -> None:
    store = _store(session_key)
    store[LAST_SEEN_KEY] = int(time.time()) - seconds_ago
    store.save()


@pytest.fixture
def hosting(asgi_server):
    """A teacher logged in in one browser, hosting a class group game from it."""
    teacher = factories.make_teacher()
    classroom = factories.make_class(teacher)
    browser = Client(headers={"accept-language": "en"})
    browser.force_login(teacher)
    started = browser.post(
        f"/classes/{classroom.pk}/games/start/", {"game": "poker", "mode": "group"}
    )
    assert started.status_code == 302
    room = Room.objects.get(classroom=classroom, game="poker", mode="group")
    session_key = browser.cookies[settings.SESSION_COOKIE_NAME].value
    socket = HostSocket(asgi_server, room.code, session_key)
    assert socket.role == "host"
    assert socket.request({"type": "lock"})["type"] == "ack"
    try:
        yield browser, room, session_key, socket
    finally:
        socket.ws.close()


def _refused(socket: HostSocket, message: dict) -> None:
    """The action is refused with session_ended and the socket closed (4403).

    A session that was deleted (logout, another login) is also pushed to the
    socket (tests/security/test_logout_push.py), which may be closed before the
    action is read: then the pushed notice (id null) is what it received."""
    try:
        socket.ws.send(json.dumps({"id": "refused", **message}))
    except ConnectionClosed:
        pass
    received = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            received.append(socket.recv())
    assert closed.value.rcvd.code == 4403
    ended = [m for m in received if m["type"] == "error" and m["code"] == "session_ended"]
    assert ended and ended[0]["message"] and ended[0]["id"] in ("refused", None), received
    assert not any(m["type"] == "ack" for m in received), received


def test_an_idle_expired_session_loses_host_rights_on_the_open_socket(hosting):
    browser, room, session_key, socket = hosting
    _last_seen(session_key, IDLE + 60)  # two hours and a minute without activity
    _refused(socket, {"type": "end"})
    room.refresh_from_db()
    assert room.status == Room.Status.LOBBY  # not ended
    # And the next page request logs the browser out, as before.
    assert browser.get("/classes/").wsgi_request.user.is_authenticated is False


def test_logout_in_another_tab_ends_host_rights_on_the_open_socket(hosting, asgi_server):
    browser, room, session_key, socket = hosting
    other_tab = Client(headers={"accept-language": "en"})
    other_tab.cookies[settings.SESSION_COOKIE_NAME] = session_key
    assert other_tab.post("/accounts/logout/").status_code == 302
    _refused(socket, {"type": "unlock"})
    room.refresh_from_db()
    assert room.locked is True  # the refused unlock changed nothing
    # A new socket from the ended session is not the host either.
    url = asgi_server.replace("http://", "ws://") + f"/ws/rooms/{room.code}/"
    cookie = f"{settings.SESSION_COOKIE_NAME}={session_key}"
    with connect(url, origin=asgi_server, additional_headers={"Cookie": cookie}) as stale:
        assert json.loads(stale.recv(timeout=10))["code"] == "no_identity"


def test_a_login_elsewhere_in_the_browser_replaces_the_session(hosting):
    browser, _room, _session_key, socket = hosting
    browser.force_login(factories.make_teacher())  # a colleague logs in: a new session
    _refused(socket, {"type": "kick", "player_id": 1})


def test_active_hosting_keeps_the_session_alive(hosting):
    """A teacher running a long projector game from the socket, with no page
    request, is not cut off: host activity refreshes the idle clock (at most once
    a minute), and so the session also survives the next page request."""
    browser, room, session_key, socket = hosting
    _last_seen(session_key, IDLE - 30)  # nearly two hours since the last page
    assert socket.request({"type": "unlock"})["type"] == "ack"
    refreshed = _store(session_key)[LAST_SEEN_KEY]
    assert int(time.time()) - refreshed < REFRESH_SECONDS
    # An hour and three quarters later (still from the socket alone) it goes on.
    _last_seen(session_key, IDLE - 30)
    assert socket.request({"type": "lock"})["type"] == "ack"
    _last_seen(session_key, IDLE - 30)
    assert socket.request({"type": "unlock"})["type"] == "ack"
    page = browser.get(f"/poker/room/{room.code}/projector/")
    assert page.status_code == 200 and page.wsgi_request.user.is_authenticated


def test_a_refresh_is_written_at_most_once_a_minute(hosting):
    _browser, _room, session_key, socket = hosting
    _last_seen(session_key, 5)
    before = _store(session_key)[LAST_SEEN_KEY]
    assert socket.request({"type": "unlock"})["type"] == "ack"
    assert _store(session_key)[LAST_SEEN_KEY] == before


def test_a_new_socket_from_an_idle_session_is_not_admitted_as_host(hosting, asgi_server):
    """The socket's session middleware checks the login only; the idle timeout
    is checked at admission too, before the host's snapshot is sent."""
    _browser, room, session_key, _socket = hosting
    _last_seen(session_key, IDLE + 60)
    url = asgi_server.replace("http://", "ws://") + f"/ws/rooms/{room.code}/"
    cookie = f"{settings.SESSION_COOKIE_NAME}={session_key}"
    with connect(url, origin=asgi_server, additional_headers={"Cookie": cookie}) as late:
        first = json.loads(late.recv(timeout=10))
        assert first["type"] == "error" and first["code"] == "session_ended", first
        with pytest.raises(ConnectionClosed) as closed:
            late.recv(timeout=10)
    assert closed.value.rcvd.code == 4403
