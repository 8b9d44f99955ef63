"""Teacher sessions end after a time without activity (docs/decisions.md).

A small middleware rather than ``SESSION_SAVE_EVERY_REQUEST``: the session
keeps the moment of the teacher's last request, rewritten at most once a
minute, and a session idle for longer than ``TEACHER_SESSION_IDLE_SECONDS`` is
logged out before the view runs (the browser is told to log in again). The
absolute lifetime stays ``SESSION_COOKIE_AGE``. Players have no session: their
identity is the browser cookie (accounts.identity). A room socket that acts by
the session asks :func:`session_alive` before every action (games.rooms.consumers).
"""

import time
from collections.abc import Callable
from typing import cast

from django.conf import settings
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse

LAST_SEEN_KEY = "matika_last_seen"
REFRESH_SECONDS = 60


class TeacherIdleTimeoutMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            now = int(time.time())
            last_seen = request.session.get(LAST_SEEN_KEY)
            idle = settings.TEACHER_SESSION_IDLE_SECONDS
            if last_seen is not None and now - int(last_seen) > idle:
                from accounts import services

                services.end_account_capabilities(
                    browser=getattr(request, "browser", None), user=user
                )
                logout(request)
            elif last_seen is None or now - int(last_seen) >= REFRESH_SECONDS:
                request.session[LAST_SEEN_KEY] = now
        return self.get_response(request)


def session_alive(session_key: str | None, user_id: int, *, refresh: bool = True) -> bool:
    """Whether the teacher session ``session_key`` still logs in ``user_id``:
    not logged out (from any tab), not replaced by another login, not past its
    absolute lifetime, the password not changed since, and not idle for longer
    than ``TEACHER_SESSION_IDLE_SECONDS``.

    For sockets that act by the session (a teacher hosting a room): page
    requests alone would let an open socket outlive its session. ``refresh``
    counts the socket's activity as the teacher's, like a page request: the
    moment of last activity is rewritten at most once a minute, so a teacher
    running a two-hour projector game is not cut off mid-game. A session found
    idle is left for the middleware to end at the next page request.
    """
    if not session_key:
        return False
    from importlib import import_module

    from django.contrib.auth import get_user

    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)

    class _Request:  # what django.contrib.auth.get_user reads
        session = store

    # checks the session's password hash too
    user = get_user(cast(HttpRequest, _Request()))
    if not user.is_authenticated or user.pk != user_id:
        return False
    now = int(time.time())
    last_seen = store.get(LAST_SEEN_KEY)
    if last_seen is not None and now - int(last_seen) > settings.TEACHER_SESSION_IDLE_SECONDS:
        return False
    if refresh and (last_seen is None or now - int(last_seen) >= REFRESH_SECONDS):
        from django.contrib.sessions.backends.base import UpdateError

        store[LAST_SEEN_KEY] = now
        try:
            store.save()
        except UpdateError:  # logged out between the read and the write
            return False
    return True
