"""The basics in a real headless Chromium against the real ASGI server."""

import re

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.live]


def test_home_language_switch_and_dark_mode(transactional_db, page):
    page.goto("/")
    assert page.locator("h1").inner_text() == "Maths games for the whole class"
    assert page.locator(".game-card").count() == 4
    with page.expect_navigation():
        page.select_option("#language-select", "sk")
    assert page.locator("h1").inner_text() == "Matematické hry pre celú triedu"
    assert page.locator("html").get_attribute("lang") == "sk"
    page.click("[data-theme-toggle]")
    assert page.locator("html").get_attribute("data-theme") in {"dark", "light"}
    first = page.locator("html").get_attribute("data-theme")
    page.reload()
    assert page.locator("html").get_attribute("data-theme") == first


def test_player_creates_a_profile_and_sees_the_profile_code(transactional_db, page):
    from accounts.models import PlayerProfile

    page.goto("/accounts/player/")
    suggested = page.input_value("#id_nickname")
    assert len(suggested) >= 2
    page.fill("#id_nickname", "Bystrý Sokol")
    page.click("text=Create profile")
    page.wait_for_selector("[data-testid=profile-code]")
    code = page.inner_text("[data-testid=profile-code]")
    assert re.fullmatch(r"[2-9A-Z]{5}-[2-9A-Z]{5}", code)
    assert PlayerProfile.objects.get().nickname == "Bystrý Sokol"
    assert "Bystrý Sokol" in page.inner_text("nav")


def test_switching_saving_off_asks_for_confirmation_in_a_dialog(transactional_db, page):
    page.goto("/privacy/")
    page.click("text=Switch saving off")
    dialog = page.locator("dialog[open]")
    assert dialog.is_visible()
    dialog.locator("text=Cancel").click()
    assert page.locator("dialog").count() == 0
    assert page.get_by_text("Saving is on").is_visible()
    page.click("text=Switch saving off")
    page.locator("dialog[open] >> text=Yes").click()
    page.wait_for_selector("text=Switch saving on")
    assert "Saving is off in this browser" in page.inner_text("footer")


def test_mobile_layout_has_a_menu_button(transactional_db, browser, asgi_server):
    context = browser.new_context(
        base_url=asgi_server, viewport={"width": 375, "height": 740}, locale="en-GB"
    )
    page = context.new_page()
    page.goto("/")
    assert not page.locator("#nav-menu").is_visible()
    page.click(".nav-toggle")
    assert page.locator("#nav-menu").is_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375
    context.close()
