"""Importing a class list in a real Chromium against the real ASGI server (issue 29 §3):
the class page's link -> upload a Bakaláři export -> map the columns -> preview ->
import, at 360 px wide, the preview without a horizontal scroll of the page at 360 and
1280 px (one import: the laptop width is the same page resized, not a second run)."""

from __future__ import annotations

import pytest

from tests.classrooms import factories
from tests.classrooms.login import log_in

pytestmark = [pytest.mark.browser, pytest.mark.live]

BAKALARI = (
    "Příjmení;Jméno;Třída\r\nNováková;Bára;6.A\r\nKováč;Adam;6.A\r\nŠťastný;Čeněk;6.B\r\n"
).encode("cp1250")


def test_the_teacher_imports_a_class_list(transactional_db, page):
    page.set_viewport_size({"width": 360, "height": 800})
    teacher = factories.make_teacher("import@skola.cz")
    classroom = factories.make_class(teacher, name="6.A", roster="Adam Kováč")
    log_in(page, teacher)
    page.goto(f"/classes/{classroom.pk}/")
    page.get_by_test_id("import-roster").click()
    page.wait_for_url(f"**/classes/{classroom.pk}/members/import/")
    page.set_input_files(
        "#import-files",
        files=[{"name": "zaci.csv", "mimeType": "text/csv", "buffer": BAKALARI}],
    )
    page.get_by_test_id("import-upload").click()
    page.wait_for_url("**/members/import/map/")
    # the export's columns were recognised; keep only the class 6.A
    assert page.locator("#map-first option:checked").inner_text() == "Jméno"
    assert page.locator("#map-last option:checked").inner_text() == "Příjmení"
    page.select_option("#map-class-value", "6.A")
    page.get_by_test_id("import-show-preview").click()
    preview = page.get_by_test_id("import-preview")
    preview.wait_for()
    assert "1 new student will be added." in preview.inner_text()
    assert "1 student is already in the roster" in preview.inner_text()
    assert "Čeněk" not in preview.inner_text()
    for width in (1280, 360):
        page.set_viewport_size({"width": width, "height": 800})
        assert page.evaluate("document.documentElement.scrollWidth") <= width, width
    page.get_by_test_id("import-confirm").click()
    page.wait_for_url(f"**/classes/{classroom.pk}/members/")
    page.wait_for_selector("text=1 student was added to the roster.")
    assert sorted(classroom.members.values_list("roster_name", flat=True)) == [
        "Adam Kováč",
        "Bára Nováková",
    ]
