"""Where to type a code (issue 31), in Chromium at 1280×800.

Seen: the big QR page did not say where to type the code and cut the code off
at 1280×800; the class page showed a class code and room codes without saying
which is which.
"""

import pytest
from playwright.sync_api import expect

from classrooms import launch
from tests.classrooms import factories
from tests.classrooms.login import log_in

pytestmark = [pytest.mark.browser, pytest.mark.live]

LAPTOP = {"width": 1280, "height": 800}


def _inside(box) -> bool:
    return box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["height"]


def test_the_codes_say_where_to_type_them_and_fit_a_laptop(transactional_db, browser, asgi_server):
    teacher = factories.make_teacher("kody@skola.sk")
    classroom = factories.make_class(teacher)
    room = launch.start_group_game(classroom=classroom, user=teacher, game="poker")
    context = browser.new_context(base_url=asgi_server, viewport=LAPTOP, locale="en-GB")
    context.set_default_timeout(20_000)
    page = context.new_page()
    log_in(page, teacher)

    page.goto(f"/classes/{classroom.pk}/qr/")
    code = page.locator("[data-testid=class-code]")
    expect(code).to_have_text(classroom.join_code)
    assert _inside(code.bounding_box()), code.bounding_box()
    assert _inside(page.locator("[data-testid=qr] svg").bounding_box())
    where = page.locator("[data-testid=where-to-type]")
    expect(where).to_contain_text("/classes/join/")
    assert _inside(where.bounding_box())

    page.goto(f"/classes/{classroom.pk}/")
    expect(page.locator("[data-testid=class-code-help]")).to_contain_text("/classes/join/")
    expect(page.locator("[data-testid=class-code-help]")).to_contain_text("room code")
    live = page.locator(".room").filter(has=page.locator(f"text={room.code}"))
    expect(live).to_contain_text(f"room code {room.code}")
    context.close()
