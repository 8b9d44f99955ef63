"""Teacher sessions end after a time without activity (docs/decisions.md).

A small middleware rather than ``SESSION_SAVE_EVERY_REQUEST``: the session
keeps the moment of the teacher's last request, rewritten at most once a
minute, and a session idle for longer than ``TEACHER_SESSION_IDLE_SECONDS`` is
logged out before the view runs (the browser is told to log in again). The
absolute lifetime stays ``SESSION_COOKIE_AGE``. Players have no session: their
identity is the browser cookie (accounts.identity).
"""

import time

from django.conf import settings
from django.contrib.auth import logout

LAST_SEEN_KEY = "matika_last_seen"
REFRESH_SECONDS = 60


class TeacherIdleTimeoutMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
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
