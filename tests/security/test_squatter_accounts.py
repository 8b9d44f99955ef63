"""Someone signed up with a colleague's address and never verified it (issue 38 §4).

"A squatter who signed up with a colleague's address and never verified it can
still sign in and use the account; the real owner's school sign-in then asks
for a password they never set. ... the verified owner (by mail link or by
school sign-in) takes the address over, and deleting the squatter never
deletes an invitation meant for the owner."

Replayed over HTTP: the owner's school sign-in (the local OpenID provider and
a real server) and the owner's mailed password-reset link each take the
address over -- the squatter's password and session stop working -- and a
squatter deleting the account leaves the colleague's invitation in place.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
import requests
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.models import User
from classrooms import invitation_services
from classrooms.models import CoTeacher
from tests.classrooms import factories
from tests.sso.conftest import SCHOOL_DOMAIN, csrf_token, op, op_reset, sso_server  # noqa: F401
from tests.sso.test_flow import google_teacher, logged_in, sign_in

SQUATTER_PASSWORD = "squatter-Password-1"
OWNER = f"jana.novakova@{SCHOOL_DOMAIN}"


def _squatter(email: str = OWNER) -> User:
    return User.objects.create_user(email=email, password=SQUATTER_PASSWORD, name="Not Jana")


def _log_in_over_http(server: str, email: str, password: str) -> requests.Session:
    session = requests.Session()
    form = session.get(f"{server}/accounts/login/", timeout=60)
    session.post(
        f"{server}/accounts/login/",
        data={
            "csrfmiddlewaretoken": csrf_token(form.text),
            "username": email,
            "password": password,
        },
        headers={"Referer": f"{server}/accounts/login/"},
        timeout=60,
    )
    return session


@pytest.mark.django_db(transaction=True)
def test_the_owners_school_sign_in_takes_over_an_unverified_address(sso_server, op_reset):  # noqa: F811
    squatter = _squatter()
    squatters_browser = _log_in_over_http(sso_server, OWNER, SQUATTER_PASSWORD)
    assert logged_in(squatters_browser, sso_server)

    google_teacher(op_reset, email=OWNER)
    owner_browser, response = sign_in(sso_server, "google")
    # Signed in at once: no page asking for a password the owner never set.
    assert "/accounts/sso/link/" not in response.url
    assert logged_in(owner_browser, sso_server)
    account = User.objects.get(email=OWNER)
    assert account.pk == squatter.pk and account.email_verified
    assert account.name == "Jana Nováková"
    # The squatter is out: the session ended, the password no longer works.
    assert not logged_in(squatters_browser, sso_server)
    again = _log_in_over_http(sso_server, OWNER, SQUATTER_PASSWORD)
    assert not logged_in(again, sso_server)


@pytest.mark.django_db
@pytest.mark.usefixtures("tasks_inline")
def test_the_owners_mailed_reset_link_takes_over_an_unverified_address(address):
    _squatter()
    squatter = Client(REMOTE_ADDR=address)
    squatter.force_login(User.objects.get(email=OWNER))
    assert squatter.get("/accounts/teacher/export.json").status_code == 200

    owner = Client(REMOTE_ADDR=address, headers={"accept-language": "en"})
    owner.post("/accounts/password/reset/", {"email": OWNER})
    link = re.search(r"https?://\S+/accounts/password/reset/\S+/", mail.outbox[-1].body).group(0)
    form = owner.get(urlsplit(link).path, follow=True)
    assert form.status_code == 200 and form.redirect_chain
    done = owner.post(
        form.redirect_chain[-1][0],
        {"new_password1": "Owners-new-Password-9", "new_password2": "Owners-new-Password-9"},
    )
    assert done.status_code == 302
    account = User.objects.get(email=OWNER)
    assert account.email_verified
    assert account.check_password("Owners-new-Password-9")
    # The squatter's session is over.
    assert squatter.get("/accounts/teacher/export.json").status_code != 200


@pytest.mark.django_db
def test_deleting_the_squatter_keeps_the_invitation_meant_for_the_owner(address):
    colleague = factories.make_teacher(email_verified_at=timezone.now())
    classroom = factories.make_class(colleague)
    invitation_services.invite_co_teacher(
        classroom=classroom, email=OWNER, invited_by=colleague, accept_url=lambda token: "/x/"
    )
    _squatter()
    squatter = Client(REMOTE_ADDR=address, headers={"accept-language": "en"})
    squatter.force_login(User.objects.get(email=OWNER))
    # The squatter's export does not show the colleague's invitation either.
    export = squatter.get("/accounts/teacher/export.json").content.decode()
    assert classroom.name not in export
    deleted = squatter.post(
        "/accounts/teacher/delete/", {"password": SQUATTER_PASSWORD, "confirm": "yes"}
    )
    assert deleted.status_code == 302
    assert not User.objects.filter(email=OWNER).exists()
    invitation = CoTeacher.objects.get(classroom=classroom)
    assert invitation.email == OWNER and invitation.user is None
