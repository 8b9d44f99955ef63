"""``/lti/staff/`` (registration links, new platforms) asks for the same second
factor as ``/staff/`` of staff who enrolled TOTP (issue 38 §4). Over HTTP."""

import pytest

from accounts.models import User
from lti.models import RegistrationLink
from tests.security.test_accounts_login import (
    PASSWORD,
    _address,
    _admin_login,
    _client,
    _login,
    _totp,
)
from tests.security.test_staff_second_factor import enrolled_staff  # noqa: F401 -- fixture

pytestmark = pytest.mark.django_db


def test_the_password_alone_neither_opens_nor_posts_the_lti_staff_page(enrolled_staff):  # noqa: F811
    staff, _device = enrolled_staff
    client = _client()
    _login(client, staff.email, PASSWORD, _address())
    assert "_auth_user_id" in client.session
    page = client.get("/lti/staff/")
    assert page.status_code == 302
    assert page["Location"].startswith("/admin/login/?next=/lti/staff/")
    made = client.post("/lti/staff/")
    assert made.status_code == 302
    assert not RegistrationLink.objects.exists()


def test_the_code_opens_the_lti_staff_page(enrolled_staff):  # noqa: F811
    staff, device = enrolled_staff
    client = _client()
    assert _admin_login(client, staff.email, _totp(device), device).status_code == 302
    assert client.get("/lti/staff/").status_code == 200
    assert client.post("/lti/staff/").status_code == 200
    assert RegistrationLink.objects.count() == 1


def test_staff_without_a_device_and_teachers_as_before():
    staff = User.objects.create_user("reditel@skola.sk", PASSWORD, is_staff=True)
    client = _client()
    _login(client, staff.email, PASSWORD, _address())
    assert client.get("/lti/staff/").status_code == 200
    teacher = User.objects.create_user("ucitel3@skola.sk", PASSWORD)
    other = _client()
    _login(other, teacher.email, PASSWORD, _address())
    assert other.get("/lti/staff/").status_code == 403
