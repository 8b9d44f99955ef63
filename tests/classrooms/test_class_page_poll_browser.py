"""A pupil's class page refreshes itself even when one of its questions gets no
answer (static/js/classrooms/live.js).

The page asks the server every 5 s whether anything changed and reloads when it
did. A request that never answers (a phone changing networks, a stalled
connection) used to stop the asking for good: the page then waited for an
answer forever and the pupil stayed on "Your teacher has not confirmed your name
yet". The first question is held here without an answer; the teacher's approval
must still reach the page.
"""

import time

import pytest
from django.conf import settings
from playwright.sync_api import expect

from classrooms.models import Membership
from tests.classrooms import factories
from tests.poker_web.helpers import player_cookie

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"width": 360, "height": 740}
PENDING_NOTE = "[data-testid=pending-note]"


def test_a_status_question_without_an_answer_does_not_stop_the_page_refreshing(
    transactional_db, browser, asgi_server
):
    classroom = factories.make_class(factories.make_teacher(), name="7.B")
    profile, cookie = player_cookie("Tichý Ježek")
    membership = factories.add_member(
        classroom, profile, roster_name="Cyril Pekný", status=Membership.Status.PENDING
    )
    context = browser.new_context(base_url=asgi_server, locale="en-GB", viewport=PHONE)
    context.add_cookies(
        [{"name": settings.PLAYER_COOKIE_NAME, "value": cookie, "url": asgi_server}]
    )
    held, asked = [], []

    def status(route):
        asked.append(route.request.url)
        if not held:
            held.append(route)  # never answered
        else:
            route.continue_()

    try:
        context.route("**/status.json", status)
        page = context.new_page()
        page.goto(f"/classes/{classroom.pk}/")
        expect(page.locator(PENDING_NOTE)).to_be_visible()
        deadline = time.monotonic() + 60
        while not held:  # the page's first question (5 s after loading) is held
            assert time.monotonic() < deadline, "the class page never asked"
            page.wait_for_timeout(200)  # lets Playwright run the route handler
        membership.status = Membership.Status.APPROVED
        membership.save(update_fields=["status"])
        # A 10 s patience for the held question, the next 5 s tick, the reload.
        page.locator(PENDING_NOTE).wait_for(state="detached", timeout=60_000)
        expect(page.locator("main")).to_contain_text("My results")
        assert len(asked) >= 2
    finally:
        context.close()
