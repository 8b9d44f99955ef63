"""Links in mails name the site, never the request's Host (issue 27 §5):
"production should not accept `Host: localhost` for mail links". Production
allows ``localhost`` for its health probes; a sign-up, password reset or
invitation sent with that Host mailed a link to the reader's own machine. With
``SITE_URL`` set (as config.settings.prod always does), every mailed link
starts with it, whatever Host the request named."""

import re

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.models import User
from tests.classrooms import factories

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_inline")]

SITE = "https://matika.example.org"


@pytest.fixture(autouse=True)
def site_url(settings):
    settings.SITE_URL = SITE
    settings.ALLOWED_HOSTS = ["matika.example.org", "localhost", "testserver"]


def _links(message) -> list[str]:
    return re.findall(r"https?://\S+", message.body)


def _from_localhost(address: str) -> Client:
    return Client(REMOTE_ADDR=address, headers={"host": "localhost", "accept-language": "en"})


def _assert_every_link_names_the_site():
    assert mail.outbox
    for message in mail.outbox:
        links = _links(message)
        assert links, message.body
        for link in links:
            assert link.startswith(SITE + "/"), link


def test_sign_up_from_localhost_mails_a_link_to_the_site(address):
    _from_localhost(address).post(
        "/accounts/signup/",
        {
            "email": "novy-odkaz@skola.sk",
            "name": "Pani Učiteľka",
            "password1": factories.PASSWORD,
            "password2": factories.PASSWORD,
        },
    )
    _assert_every_link_names_the_site()


def test_password_reset_from_localhost_mails_a_link_to_the_site(address):
    User.objects.create_user("reset-odkaz@skola.sk", factories.PASSWORD)
    _from_localhost(address).post("/accounts/password/reset/", {"email": "reset-odkaz@skola.sk"})
    _assert_every_link_names_the_site()


def test_invitation_from_localhost_mails_a_link_to_the_site(
    address, django_capture_on_commit_callbacks
):
    teacher = factories.make_teacher(email_verified_at=timezone.now())
    classroom = factories.make_class(teacher)
    client = _from_localhost(address)
    client.force_login(teacher)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/classes/{classroom.pk}/co-teachers/", {"email": "kolega-odkaz@skola.sk"})
    _assert_every_link_names_the_site()


def test_the_resent_verification_link_names_the_site(address):
    teacher = factories.make_teacher(email_verified_at=None)  # the link goes to the unverified
    client = _from_localhost(address)
    client.force_login(teacher)
    client.post("/accounts/verify/resend/")
    _assert_every_link_names_the_site()
