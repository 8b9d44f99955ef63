"""Guessing the current password inside a session counts like logins (issue 27
§5): "Password change and teacher account deletion allow unlimited guesses of
the current password inside a session: count them like logins." A stolen or
unattended session must not become an unlimited password oracle. Replayed
through HTTP from one address."""

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import User
from tests.classrooms.factories import PASSWORD, make_teacher

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "Nove-heslo-456-xyz"


@pytest.fixture
def session(address) -> tuple[User, Client]:
    teacher = make_teacher()
    client = Client(REMOTE_ADDR=address, headers={"accept-language": "en"})
    client.force_login(teacher)
    return teacher, client


def _change(client: Client, old: str):
    return client.post(
        "/accounts/password/change/",
        {"old_password": old, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )


def _delete(client: Client, password: str):
    return client.post("/accounts/teacher/delete/", {"confirm": "yes", "password": password})


def test_wrong_current_passwords_lock_the_password_change(session, address):
    teacher, client = session
    for guess in range(settings.AXES_FAILURE_LIMIT):
        assert _change(client, f"guess-{guess}").status_code in (200, 429)
    response = _change(client, PASSWORD)
    assert response.status_code == 429
    teacher.refresh_from_db()
    assert teacher.check_password(PASSWORD)
    assert not teacher.check_password(NEW_PASSWORD)
    # counted like logins: the pair (account, address) is locked for logins too
    login = Client(REMOTE_ADDR=address).post(
        "/accounts/login/", {"username": teacher.email, "password": PASSWORD}
    )
    assert login.status_code == 429


def test_wrong_current_passwords_lock_the_account_deletion(session):
    teacher, client = session
    for guess in range(settings.AXES_FAILURE_LIMIT):
        assert _delete(client, f"guess-{guess}").status_code in (400, 429)
    assert _delete(client, PASSWORD).status_code == 429
    assert User.objects.filter(pk=teacher.pk).exists()


def test_guesses_in_both_forms_add_up(session):
    teacher, client = session
    half = settings.AXES_FAILURE_LIMIT // 2
    for guess in range(half):
        _change(client, f"guess-{guess}")
    for guess in range(settings.AXES_FAILURE_LIMIT - half):
        _delete(client, f"other-{guess}")
    assert _change(client, PASSWORD).status_code == 429


def test_a_few_typos_do_not_stop_the_change(session):
    teacher, client = session
    for guess in range(3):
        assert _change(client, f"typo-{guess}").status_code == 200
    assert _change(client, PASSWORD).status_code == 302
    teacher.refresh_from_db()
    assert teacher.check_password(NEW_PASSWORD)
