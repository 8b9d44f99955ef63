"""A host page says that the teacher was signed out (issue 16 §1, "Logout removes
every capability the account gave that browser").

The projector (and the room page) of a class game is open; the teacher logs out
in another tab. The page's socket is told ``session_ended`` and closed at once;
the page shows "You have been signed out. Log in again to continue hosting."
with a login link back to the page, and the pupils' names go. Real uvicorn,
Redis and Chromium, on a phone (360 px) and a projector (1920 px). Here, not
in tests/security/, whose ``browser`` fixture is a test client: the suite's one
Chromium (tests/conftest.py) is used. The socket side is tested in
tests/security/test_logout_push.py.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.conf import settings
from django.test import Client

from games.rooms import services as room_services
from games.rooms.models import Room
from tests.classrooms import factories

pytestmark = pytest.mark.django_db(transaction=True)

SIGNED_OUT = "You have been signed out. Log in again to continue hosting."


@pytest.mark.parametrize("width", [360, 1920])
@pytest.mark.parametrize("where", ["projector", "room page"])
def test_the_host_page_says_signed_out_after_logout_in_another_tab(
    browser, asgi_server, width, where
):
    from playwright.sync_api import expect

    teacher = factories.make_teacher()
    classroom = factories.make_class(teacher)
    client = Client(headers={"accept-language": "en"})
    client.force_login(teacher)
    started = client.post(
        f"/classes/{classroom.pk}/games/start/", {"game": "poker", "mode": "group"}
    )
    assert started.status_code == 302
    room = Room.objects.get(classroom=classroom, game="poker", mode="group")
    pupil = factories.make_player("Ema Signedout")
    factories.add_member(classroom, pupil)
    room_services.join_room(room=room, player=pupil)
    path = f"/poker/room/{room.code}/projector/" if where == "projector" else f"/rooms/{room.code}/"

    context = browser.new_context(
        base_url=asgi_server, locale="en-GB", viewport={"width": width, "height": 800}
    )
    try:
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": asgi_server,
                },
                {"name": "matika_lang", "value": "en", "url": asgi_server},
            ]
        )
        page = context.new_page()
        page.goto(path)
        if where == "projector":
            expect(page.locator("[data-pr-status]")).to_contain_text("Join with the code")
        else:
            expect(page.locator("[data-room-connection]")).to_have_attribute("data-state", "online")
            expect(page.locator("[data-room-seats]")).to_contain_text("Ema Signedout")
        expect(page.get_by_test_id("host-ended")).to_have_count(0)

        other_tab = context.new_page()
        other_tab.goto("/classes/")
        with other_tab.expect_navigation():
            other_tab.locator("form[action$='/accounts/logout/']").evaluate("f => f.submit()")

        notice = page.get_by_test_id("host-ended")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text(SIGNED_OUT)
        login = page.get_by_test_id("host-ended-login")
        expect(login).to_have_attribute("href", f"/accounts/login/?next={quote(path, safe='')}")
        # The pupils' names are gone from the page.
        if where == "projector":
            expect(page.locator("#pr-projector")).to_be_hidden()
        else:
            expect(page.locator("[data-room-seats]")).to_be_hidden()
            expect(page.locator("[data-host-controls]").first).to_be_hidden()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        # The link logs in and comes back to the page.
        login.click()
        page.wait_for_url("**/accounts/login/?next=*")
        page.fill("input[name=username]", teacher.email)
        page.fill("input[name=password]", factories.PASSWORD)
        with page.expect_navigation():
            page.locator("form input[name=password]").press("Enter")
        assert page.url.endswith(path)
    finally:
        context.close()
