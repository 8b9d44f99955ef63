"""On a phone (360 px): the login page's "Sign in with Google" button, the
local provider, and back in Matika signed in -- in headless Chromium."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import User
from tests.sso.conftest import SCHOOL_DOMAIN

pytestmark = pytest.mark.django_db(transaction=True)


def test_sign_in_with_the_school_account_on_a_phone(browser, sso_server, op_reset):
    op_reset.sign_in_as(
        email=f"mobil@{SCHOOL_DOMAIN}", email_verified=True, hd=SCHOOL_DOMAIN, name="Marie"
    )
    context = browser.new_context(
        base_url=sso_server, locale="en-GB", viewport={"width": 360, "height": 740}
    )
    page = context.new_page()
    try:
        page.goto("/accounts/login/")
        button = page.get_by_role("link", name="Sign in with Google")
        expect(button).to_be_visible()
        box = button.bounding_box()
        # Full width of the column and thumb-sized on a phone, no sideways scroll.
        assert box["width"] >= 280 and box["height"] >= 40
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        button.click()
        page.wait_for_url("**/classes/**")
        # Signed in: the page offers the teacher's log-out form.
        expect(page.locator('form[action="/accounts/logout/"]')).to_have_count(1)
        assert User.objects.filter(email=f"mobil@{SCHOOL_DOMAIN}").exists()
    finally:
        context.close()
