"""A code box on the home page (issue 31, "where to type a code"), on a 360 px phone.

Seen: the home page had no place to type a code; a pupil told "type the code on
Matika" had to find the class join page or the room page by themselves. Now one
box takes a class code or a game code and lands in the right place; an unknown
code gets a message beside the field.
"""

import pytest
from playwright.sync_api import expect

from classrooms import launch
from tests.classrooms import factories

pytestmark = [pytest.mark.browser, pytest.mark.live]

PHONE = {"width": 360, "height": 740}


def _type_code(page, code: str) -> None:
    page.goto("/")
    box = page.get_by_label("Got a code from your teacher? Type it here.")
    box.fill(code)
    page.get_by_role("button", name="Go").click()
    page.wait_for_load_state()


def test_one_box_on_the_home_page_takes_a_class_or_a_game_code(
    transactional_db, browser, asgi_server
):
    teacher = factories.make_teacher("domov@skola.cz")
    classroom = factories.make_class(teacher)
    room = launch.start_group_game(classroom=classroom, user=teacher, game="poker")
    context = browser.new_context(base_url=asgi_server, viewport=PHONE, locale="en-GB")
    context.set_default_timeout(20_000)
    page = context.new_page()

    page.goto("/")
    form = page.locator("[data-testid=home-code]")
    expect(form).to_be_visible()
    box = form.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    button = form.get_by_role("button", name="Go").bounding_box()
    assert button["x"] + button["width"] <= PHONE["width"], button
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # An unknown code: a message beside the field, the typed code kept, no traceback.
    _type_code(page, "zz-zz-zz")
    error = page.locator("#home-code-error")
    expect(error).to_have_text("No class or game has this code. Check it and try again.")
    expect(page.get_by_label("Got a code from your teacher? Type it here.")).to_have_value(
        "zz-zz-zz"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # An empty box says what to do.
    _type_code(page, "")
    expect(error).to_have_text("Type the code your teacher shows you.")

    # A class code (typed in lower case, with a space) opens the class's join page.
    _type_code(page, f"{classroom.join_code[:3].lower()} {classroom.join_code[3:].lower()}")
    assert page.url.endswith(f"/classes/join/{classroom.join_code}/"), page.url
    expect(page.locator("h1")).to_contain_text(classroom.name)

    # A game code opens the game's room, where the pupil picks a nickname.
    _type_code(page, room.code.lower())
    assert page.url.endswith(f"/rooms/{room.code}/"), page.url
    expect(page.get_by_role("button", name="Join the game")).to_be_visible()
    context.close()
