"""Sign-up without an account oracle, and verified e-mail (issue 16, section 3):
"no 'this e-mail already has an account' oracle at sign-up"; "E-mail addresses
are verified before an account gets anything tied to an address"."""

import re

import pytest
from django.core import mail
from django.test import Client

from accounts.models import User

# The sign-up and invitation mails are Celery tasks: run them in the test process.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("tasks_inline")]

PASSWORD = "Tajne-heslo-123"


def _client() -> Client:
    return Client(headers={"accept-language": "en"})


def _signup(client, email, password=PASSWORD, name="Pani Učiteľka"):
    return client.post(
        "/accounts/signup/",
        {"email": email, "name": name, "password1": password, "password2": password},
    )


def _main(response) -> str:
    return re.search(r"<main.*</main>", response.content.decode(), re.S).group(0)


def _verification_path(message) -> str:
    return re.search(r"https?://[^/]+(/accounts/verify/\S+/)", message.body).group(1)


def test_signup_answers_alike_for_a_new_and_a_known_address():
    User.objects.create_user("ucitel@skola.sk", "Stare-heslo-987")
    known = _signup(_client(), "ucitel@skola.sk")
    new = _signup(_client(), "novy@skola.sk")
    assert known.status_code == new.status_code == 302
    assert known["Location"] == new["Location"]
    assert _main(_client().get(known["Location"])) == _main(_client().get(new["Location"]))
    # the known account is unchanged; its owner is told by mail, not the visitor
    assert User.objects.get(email="ucitel@skola.sk").check_password("Stare-heslo-987")
    assert User.objects.filter(email="ucitel@skola.sk").count() == 1
    recipients = sorted(message.to[0] for message in mail.outbox)
    assert recipients == ["novy@skola.sk", "ucitel@skola.sk"]


def test_signup_does_not_log_in_and_the_account_is_unverified_until_the_link():
    client = _client()
    _signup(client, "Novy@Skola.SK")
    assert "_auth_user_id" not in client.session
    user = User.objects.get(email="novy@skola.sk")
    assert not user.email_verified
    # the password works before verification, but the account creates no class yet
    # (tests/security/test_unverified_accounts.py): the page says to open the link
    response = client.post("/accounts/login/", {"username": "novy@skola.sk", "password": PASSWORD})
    assert response.status_code == 302
    new_class = client.get("/classes/new/")
    assert new_class.status_code == 200
    assert 'data-code="email_unverified"' in new_class.content.decode()
    path = _verification_path(mail.outbox[0])
    assert _client().get(path).status_code == 200
    user.refresh_from_db()
    assert user.email_verified


def test_forged_or_foreign_verification_links_are_refused():
    _signup(_client(), "novy@skola.sk")
    path = _verification_path(mail.outbox[0])
    assert _client().get(path[:-3] + "xx/").status_code == 400
    user = User.objects.get(email="novy@skola.sk")
    # the link was for the address the account had; after a change it verifies nothing
    User.objects.filter(pk=user.pk).update(email="jiny@skola.sk")
    assert _client().get(path).status_code == 400
    user.refresh_from_db()
    assert not user.email_verified


def test_verification_links_expire(monkeypatch):
    from accounts import signup

    _signup(_client(), "novy@skola.sk")
    path = _verification_path(mail.outbox[0])
    monkeypatch.setattr(signup, "VERIFY_MAX_AGE", -1)
    assert _client().get(path).status_code == 400
    assert not User.objects.get(email="novy@skola.sk").email_verified


def test_an_unverified_teacher_is_told_and_can_ask_for_the_link_again():
    _signup(_client(), "novy@skola.sk")
    client = _client()
    client.force_login(User.objects.get(email="novy@skola.sk"))
    assert 'data-testid="email-unverified"' in client.get("/accounts/player/").content.decode()
    mail.outbox.clear()
    client.post("/accounts/verify/resend/", {"next": "/accounts/player/"})
    assert _client().get(_verification_path(mail.outbox[0])).status_code == 200
    assert 'data-testid="email-unverified"' not in client.get("/accounts/player/").content.decode()
