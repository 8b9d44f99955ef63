"""A teacher's login in a browser test, written once (issue 26).

Most browser tests check what a signed-in teacher sees, not the login itself:
``log_in`` gives the browser the session cookie of a session Django's own
``login()`` made (through the test client's ``force_login``), which is what the
login form leaves in the browser, without loading and submitting the form.
``log_in_through_the_form`` types the e-mail and password into the real login
page and waits for the redirect; a flow that tests logging in keeps using it.
"""

from __future__ import annotations

from django.conf import settings
from django.test import Client

from tests.classrooms import factories

# Every test server listens on 127.0.0.1 (tests/conftest.py); a cookie is not
# bound to a port, so one set for the address reaches whichever server the page uses.
SERVERS = "http://127.0.0.1"


def session_cookie(user) -> dict[str, str]:
    """{cookie name: value} of a fresh session in which ``user`` is logged in."""
    client = Client()
    client.force_login(user)
    return {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}


def log_in(page, user, url: str = SERVERS) -> None:
    """Log ``user`` in in ``page``'s browser context (every page of it), without the form."""
    page.context.add_cookies(
        [{"name": name, "value": value, "url": url} for name, value in session_cookie(user).items()]
    )


def log_in_through_the_form(page, user, password: str = factories.PASSWORD) -> None:
    """Open the login page, type the e-mail and password, and wait until it let us in."""
    page.goto("/accounts/login/")
    page.fill("#id_username", user.email)
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert "/accounts/login/" not in page.url, "the login form did not let the teacher in"
