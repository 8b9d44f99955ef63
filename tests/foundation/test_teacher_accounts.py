import re

import pytest
from django.core import mail

from accounts.models import User

pytestmark = pytest.mark.django_db


def _signup(client, email="ucitel@skola.sk", password="Tajne-heslo-123"):
    return client.post(
        "/accounts/signup/",
        {"email": email, "name": "Pani Učiteľka", "password1": password, "password2": password},
    )


def test_teacher_signs_up_with_email_and_gets_a_verification_link(client, tasks_inline):
    # Sign-up does not log in (that would tell a known address from a new one):
    # the teacher confirms the address by the mailed link and logs in.
    response = _signup(client, email="Ucitel@Skola.SK")
    assert response.status_code == 302
    user = User.objects.get()
    assert user.email == "ucitel@skola.sk"
    assert user.check_password("Tajne-heslo-123")
    assert not client.get("/").context["user"].is_authenticated
    assert "/accounts/verify/" in mail.outbox[0].body


def test_signup_with_an_existing_email_changes_nothing_and_tells_the_owner(client, tasks_inline):
    User.objects.create_user("ucitel@skola.sk", "x-Password-1")
    response = _signup(client)
    assert response.status_code == 302
    assert User.objects.count() == 1
    assert User.objects.get().check_password("x-Password-1")
    assert mail.outbox[0].to == ["ucitel@skola.sk"]


def test_signup_rejects_weak_passwords(client):
    response = _signup(client, password="123")
    assert response.status_code == 200
    assert "password2" in response.context["form"].errors
    assert not User.objects.exists()


def test_login_with_email_and_logout(client):
    User.objects.create_user("ucitel@skola.sk", "Tajne-heslo-123")
    response = client.post(
        "/accounts/login/", {"username": "ucitel@skola.sk", "password": "Tajne-heslo-123"}
    )
    assert response.status_code == 302
    assert client.get("/").context["user"].is_authenticated
    client.post("/accounts/logout/")
    assert not client.get("/").context["user"].is_authenticated


def test_login_with_a_wrong_password_shows_an_error(client):
    User.objects.create_user("ucitel@skola.sk", "Tajne-heslo-123")
    response = client.post("/accounts/login/", {"username": "ucitel@skola.sk", "password": "no"})
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()


def test_password_change(client):
    user = User.objects.create_user("ucitel@skola.sk", "Tajne-heslo-123")
    client.force_login(user)
    response = client.post(
        "/accounts/password/change/",
        {
            "old_password": "Tajne-heslo-123",
            "new_password1": "Nove-heslo-456",
            "new_password2": "Nove-heslo-456",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("Nove-heslo-456")


def test_password_reset_by_email_link(client, tasks_inline):
    user = User.objects.create_user("ucitel@skola.sk", "Tajne-heslo-123")
    response = client.post("/accounts/password/reset/", {"email": "ucitel@skola.sk"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/password/reset/\S+/)", mail.outbox[0].body)
    assert link
    form_page = client.get(link.group(1), follow=True)
    assert form_page.status_code == 200
    response = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "Nove-heslo-456", "new_password2": "Nove-heslo-456"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("Nove-heslo-456")


def test_password_reset_for_unknown_email_sends_nothing_and_reveals_nothing(client, tasks_inline):
    response = client.post("/accounts/password/reset/", {"email": "nikto@skola.sk"})
    assert response.status_code == 302
    assert mail.outbox == []
