"""Login protection (issue 16, section 3): "Login: 40 wrong passwords in 10 s,
then the right one logs in. Required: lockout/throttle per account and address
(django-axes or equivalent), password reset requests limited, [...] sessions
with an idle timeout for teachers, and optional TOTP two-factor for
staff/admin accounts". Replayed through HTTP."""

import re
import secrets
import time
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.db.models import F
from django.test import Client

from accounts.models import User
from accounts.sessions import LAST_SEEN_KEY

pytestmark = pytest.mark.django_db

PASSWORD = "Tajne-heslo-123"


@pytest.fixture(autouse=True)
def real_rates(settings):
    settings.MATIKA_LIMITS = {}


def _address() -> str:
    # 172.16/12: apart from the 10/8 addresses of tests/security/conftest.py
    return f"172.{16 + secrets.randbelow(16)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"


def _client() -> Client:
    return Client(headers={"accept-language": "en"})


def _login(client, email, password, address):
    return client.post(
        "/accounts/login/", {"username": email, "password": password}, REMOTE_ADDR=address
    )


def _logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_forty_wrong_passwords_then_the_right_one_is_refused():
    User.objects.create_user("ucitel@skola.sk", PASSWORD)
    attacker, address = _client(), _address()
    for attempt in range(40):
        _login(attacker, "ucitel@skola.sk", f"guess-{attempt}", address)
    response = _login(attacker, "ucitel@skola.sk", PASSWORD, address)
    assert response.status_code == 429
    assert not _logged_in(attacker)
    # another spelling of the same address is the same account
    assert _login(attacker, "UCITEL@skola.sk", PASSWORD, address).status_code == 429
    assert not _logged_in(attacker)


def test_the_lockout_ends_after_the_cool_off(settings):
    User.objects.create_user("ucitel@skola.sk", PASSWORD)
    client, address = _client(), _address()
    for attempt in range(settings.AXES_FAILURE_LIMIT):
        _login(client, "ucitel@skola.sk", f"guess-{attempt}", address)
    assert _login(client, "ucitel@skola.sk", PASSWORD, address).status_code == 429
    # The cool-off goes by: the failures move that far into the past (waiting out a
    # one-second cool-off raced a loaded machine, which outlasted it before the 429).
    cool_off = timedelta(hours=settings.AXES_COOLOFF_TIME) + timedelta(seconds=1)
    failures = AccessAttempt.objects.filter(ip_address=address)
    assert failures.update(attempt_time=F("attempt_time") - cool_off) == 1
    assert _login(client, "ucitel@skola.sk", PASSWORD, address).status_code == 302
    assert _logged_in(client)


def test_one_accounts_failures_lock_neither_another_account_nor_the_owner_elsewhere(settings):
    User.objects.create_user("ucitel@skola.sk", PASSWORD)
    User.objects.create_user("kolega@skola.sk", PASSWORD)
    school = _address()
    # as many failures as lock the account at this address (40 before: the same lock)
    for attempt in range(settings.AXES_FAILURE_LIMIT):
        _login(_client(), "ucitel@skola.sk", f"guess-{attempt}", school)
    assert _login(_client(), "ucitel@skola.sk", PASSWORD, school).status_code == 429
    # a colleague behind the same school address (NAT) logs in
    colleague = _client()
    assert _login(colleague, "kolega@skola.sk", PASSWORD, school).status_code == 302
    assert _logged_in(colleague)
    # and the attacked teacher still logs in from another address
    owner = _client()
    assert _login(owner, "ucitel@skola.sk", PASSWORD, _address()).status_code == 302
    assert _logged_in(owner)


def test_one_address_trying_many_accounts_meets_the_per_address_ceiling(settings):
    settings.MATIKA_LIMITS = {"login_failures_address": "30/h"}
    for number in range(4):
        User.objects.create_user(f"u{number}@skola.sk", PASSWORD)
    address = _address()
    for attempt in range(30):  # under every account's own limit (10 each)
        _login(_client(), f"u{attempt % 3}@skola.sk", f"guess-{attempt}", address)
    blocked = _client()
    response = _login(blocked, "u3@skola.sk", PASSWORD, address)
    assert response.status_code == 429
    assert "Too many failed logins from here" in response.content.decode()
    assert not _logged_in(blocked)
    # refused before the password is checked: nothing was counted for the account
    from axes.models import AccessAttempt

    assert not AccessAttempt.objects.filter(username="u3@skola.sk").exists()
    elsewhere = _client()
    assert _login(elsewhere, "u3@skola.sk", PASSWORD, _address()).status_code == 302


def test_password_reset_requests_are_limited_per_email_and_per_address(tasks_inline):
    # counters live in Redis across tests: addresses of this test's own
    email = f"reset-{secrets.token_hex(4)}@skola.sk"
    User.objects.create_user(email, PASSWORD)
    for _ in range(10):
        response = _client().post(
            "/accounts/password/reset/", {"email": email}, REMOTE_ADDR=_address()
        )
        assert response.status_code == 302  # the same answer every time
    assert len(mail.outbox) == 3  # per e-mail, whatever the address
    mail.outbox.clear()
    address = _address()
    for number in range(25):
        _client().post(
            "/accounts/password/reset/",
            {"email": f"x{number}-{secrets.token_hex(4)}@skola.sk"},
            REMOTE_ADDR=address,
        )
    other = f"druhy-{secrets.token_hex(4)}@skola.sk"
    User.objects.create_user(other, PASSWORD)
    _client().post("/accounts/password/reset/", {"email": other}, REMOTE_ADDR=address)
    assert mail.outbox == []  # the address used up its 20 requests an hour
    _client().post("/accounts/password/reset/", {"email": other}, REMOTE_ADDR=_address())
    assert len(mail.outbox) == 1


def test_an_idle_teacher_session_ends(settings):
    settings.TEACHER_SESSION_IDLE_SECONDS = 600
    user = User.objects.create_user("ucitel@skola.sk", PASSWORD)
    client = _client()
    client.force_login(user)
    assert client.get("/classes/").status_code == 200
    assert _logged_in(client)
    session = client.session
    session[LAST_SEEN_KEY] = int(time.time()) - 601
    session.save()
    client.get("/classes/")
    assert not _logged_in(client)
    assert client.get("/classes/new/").status_code == 302  # to the login page


def test_an_active_teacher_session_goes_on(settings):
    settings.TEACHER_SESSION_IDLE_SECONDS = 600
    user = User.objects.create_user("ucitel@skola.sk", PASSWORD)
    client = _client()
    client.force_login(user)
    client.get("/classes/")
    session = client.session
    session[LAST_SEEN_KEY] = int(time.time()) - 500
    session.save()
    client.get("/classes/")  # activity refreshes the moment
    assert int(client.session[LAST_SEEN_KEY]) >= int(time.time()) - 5
    assert _logged_in(client)


def _totp(device) -> str:
    from django_otp.oath import TOTP

    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = time.time()
    return f"{totp.token():0{device.digits}d}"


def _admin_login(client, email, token=None, device=None):
    data = {"username": email, "password": PASSWORD, "next": "/admin/"}
    if token is not None:
        data["otp_token"] = token
        data["otp_device"] = device.persistent_id
    return client.post("/admin/login/", data, REMOTE_ADDR=_address())


def test_staff_enrol_totp_and_then_the_admin_requires_the_code():
    from django_otp.plugins.otp_totp.models import TOTPDevice

    staff = User.objects.create_user("admin@skola.sk", PASSWORD, is_staff=True, is_superuser=True)
    client = _client()
    # without a device the password is enough (two-factor is optional)
    assert _admin_login(client, staff.email).status_code == 302
    assert client.get("/admin/").status_code == 200
    page = client.get("/accounts/two-factor/")
    assert page.status_code == 200
    secret = re.search(r'data-testid="totp-secret">([A-Z2-7]+)<', page.content.decode()).group(1)
    device = TOTPDevice.objects.get(user=staff)
    assert secret
    assert client.post("/accounts/two-factor/", {"token": _totp(device)}).status_code == 302
    assert TOTPDevice.objects.get(pk=device.pk).confirmed
    client.post("/accounts/logout/")

    # the password alone no longer opens the admin...
    again = _client()
    response = _admin_login(again, staff.email)
    assert response.status_code == 200
    assert again.get("/admin/").status_code == 302
    # ...nor does a normal login followed by a visit to the admin
    _login(again, staff.email, PASSWORD, _address())
    assert again.get("/admin/").status_code == 302
    # the code does (a code is good once: pretend the next 30-second step began)
    TOTPDevice.objects.filter(pk=device.pk).update(last_t=-1, throttling_failure_count=0)
    device.refresh_from_db()
    third = _client()
    third_response = _admin_login(third, staff.email, _totp(device), device)
    assert third_response.status_code == 302, third_response.context["form"].errors
    assert third.get("/admin/").status_code == 200


def test_teachers_cannot_open_the_enrolment_page():
    teacher = User.objects.create_user("ucitel@skola.sk", PASSWORD)
    client = _client()
    client.force_login(teacher)
    assert client.get("/accounts/two-factor/").status_code == 404
