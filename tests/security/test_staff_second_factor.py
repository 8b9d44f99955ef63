"""The staff dashboard asks for the second factor (issue 27 §5): "`/staff/` opens
without the second factor for staff who enrolled TOTP". Replayed through HTTP."""

import pytest
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.models import User
from tests.security.test_accounts_login import (
    PASSWORD,
    _address,
    _admin_login,
    _client,
    _login,
    _totp,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def enrolled_staff() -> tuple[User, TOTPDevice]:
    staff = User.objects.create_user("spravce@skola.sk", PASSWORD, is_staff=True)
    device = TOTPDevice.objects.create(user=staff, name="Matika", confirmed=True)
    return staff, device


def test_password_alone_does_not_open_the_dashboard_of_staff_with_totp(enrolled_staff):
    staff, _ = enrolled_staff
    client = _client()
    _login(client, staff.email, PASSWORD, _address())
    assert "_auth_user_id" in client.session
    response = client.get("/staff/")
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/?next=/staff/")
    # the admin login that follows asks for the code
    assert b'name="otp_token"' in client.get("/staff/", follow=True).content


def test_the_code_opens_the_dashboard(enrolled_staff):
    staff, device = enrolled_staff
    client = _client()
    response = _admin_login(client, staff.email, _totp(device), device)
    assert response.status_code == 302, response.context["form"].errors
    assert client.get("/staff/").status_code == 200


def test_staff_without_a_device_open_the_dashboard_with_the_password():
    staff = User.objects.create_user("reditel@skola.sk", PASSWORD, is_staff=True)
    client = _client()
    _login(client, staff.email, PASSWORD, _address())
    assert client.get("/staff/").status_code == 200


def test_teachers_do_not_open_the_dashboard():
    teacher = User.objects.create_user("ucitel2@skola.sk", PASSWORD)
    client = _client()
    _login(client, teacher.email, PASSWORD, _address())
    assert client.get("/staff/").status_code == 302
