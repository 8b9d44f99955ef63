"""Joining a class with "My name is not in the list" and no name (issue 31).

Seen on a 360 px phone: the join failed and the error stayed hidden, because the
page came back with the typed-name field folded away. The error now stands next
to the field, in view, and nobody joined.
"""

import pytest
from playwright.sync_api import expect

from classrooms.models import Membership
from tests.classrooms import factories

pytestmark = [pytest.mark.browser, pytest.mark.live]


def test_an_empty_typed_name_shows_its_error_next_to_the_field(transactional_db, page, asgi_server):
    classroom = factories.make_class(roster="Adam Kováč\nBára Nová")
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{asgi_server}/classes/join/{classroom.join_code}/")
    page.get_by_text("My name is not in the list").click()
    page.fill("#id_nickname", "Rychlý Sokol")
    page.click("text=Join the class")
    page.wait_for_load_state()
    field = page.locator("[data-typed-name]")
    expect(field).to_be_visible()
    error = field.locator(".error")
    expect(error).to_be_visible()
    expect(error).not_to_be_empty()
    name_box = page.locator("#id_typed_name").bounding_box()
    error_box = error.bounding_box()
    assert 0 <= error_box["y"] - (name_box["y"] + name_box["height"]) < 120  # right below it
    assert not Membership.objects.filter(classroom=classroom, player__isnull=False).exists()
