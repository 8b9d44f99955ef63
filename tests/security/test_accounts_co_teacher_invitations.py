"""Co-teacher invitations (issue 16, section 3): "Today a co-teacher invitation
is bound to an e-mail and whoever signs up with it first (no mailbox needed)
reads the class roster. Required: an invitation is accepted through a signed
link mailed to the invited address." Replayed through HTTP."""

import re

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from classrooms.models import CoTeacher
from tests.classrooms import factories

# The sign-up and invitation mails are Celery tasks: run them in the test process.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_inline")]

ROSTER = "Adam Kováč\nBára Nová"


def _client(user=None) -> Client:
    client = Client(headers={"accept-language": "en"})
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture(autouse=True)
def invitations_not_limited(settings):
    # The same colleague is invited in every test here; the mail limits have tests
    # of their own (test_mail_limits.py).
    settings.MATIKA_LIMITS = {
        **settings.MATIKA_LIMITS,
        "invitations_recipient": "1000/h",
        "invitations_address": "1000/h",
    }


@pytest.fixture
def invited(django_capture_on_commit_callbacks):
    owner = _verified("ucitel@skola.sk")
    classroom = factories.make_class(owner, roster=ROSTER)
    with django_capture_on_commit_callbacks(execute=True):
        _client(owner).post(f"/classes/{classroom.pk}/co-teachers/", {"email": "kolega@skola.sk"})
    link = re.search(r"https?://[^/]+(/classes/invitations/\S+/)", mail.outbox[-1].body).group(1)
    return classroom, link


def _verified(email):
    return factories.make_teacher(email, email_verified_at=timezone.now())


def _sees_the_class(client, classroom) -> bool:
    return (
        client.get(f"/classes/{classroom.pk}/").status_code == 200
        or client.get(f"/classes/{classroom.pk}/members/").status_code == 200
    )


def test_signing_up_with_the_invited_address_gives_nothing_without_the_link(invited):
    classroom, _link = invited
    # the attacker signs up with the invited address (no mailbox needed) and logs in
    Client().post(
        "/accounts/signup/",
        {
            "email": "kolega@skola.sk",
            "name": "X",
            "password1": factories.PASSWORD,
            "password2": factories.PASSWORD,
        },
    )
    attacker = _client()
    attacker.post(
        "/accounts/login/", {"username": "kolega@skola.sk", "password": factories.PASSWORD}
    )
    assert "_auth_user_id" in attacker.session
    assert not _sees_the_class(attacker, classroom)
    assert "Adam" not in attacker.get(f"/classes/{classroom.pk}/members/").content.decode()
    assert classroom.name not in attacker.get("/classes/").content.decode()
    assert attacker.get(f"/api/classes/{classroom.pk}/").status_code in {403, 404}


def test_the_mailed_link_accepts_for_the_verified_invited_account(invited):
    classroom, link = invited
    colleague = _client(_verified("kolega@skola.sk"))
    page = colleague.get(link)
    assert page.status_code == 200
    assert "Adam" not in page.content.decode()  # nothing of the class before accepting
    assert not _sees_the_class(colleague, classroom)
    assert colleague.post(link).status_code == 302
    assert CoTeacher.objects.get().accepted_at is not None
    assert _sees_the_class(colleague, classroom)


def test_the_link_is_useless_to_another_account_or_an_unverified_one(invited):
    classroom, link = invited
    stranger = _client(_verified("cudzi@skola.sk"))
    assert stranger.post(link).status_code == 400
    assert not _sees_the_class(stranger, classroom)
    unverified = _client(factories.make_teacher("kolega@skola.sk", email_verified_at=None))
    assert unverified.post(link).status_code == 400
    assert not _sees_the_class(unverified, classroom)
    assert CoTeacher.objects.get().accepted_at is None


def test_a_forged_expired_or_withdrawn_link_accepts_nothing(invited, monkeypatch):
    from classrooms import invitation_services

    classroom, link = invited
    colleague = _client(_verified("kolega@skola.sk"))
    assert colleague.post(link[:-4] + "abc/").status_code == 404
    monkeypatch.setattr(invitation_services, "INVITE_MAX_AGE", -1)
    assert colleague.post(link).status_code == 404
    monkeypatch.undo()
    CoTeacher.objects.all().delete()
    assert colleague.post(link).status_code == 404
    assert not _sees_the_class(colleague, classroom)


def test_a_removed_co_teacher_cannot_come_back_with_the_old_link(invited):
    classroom, link = invited
    user = _verified("kolega@skola.sk")
    colleague = _client(user)
    colleague.post(link)
    invite = CoTeacher.objects.get()
    owner = _client(classroom.teacher)
    owner.post(f"/classes/{classroom.pk}/co-teachers/{invite.pk}/remove/")
    assert not _sees_the_class(colleague, classroom)
    assert colleague.post(link).status_code == 404
    assert not _sees_the_class(colleague, classroom)
