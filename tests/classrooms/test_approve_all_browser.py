"""Approve all waiting joins in one confirmed step (issue 31, "Approve all").

With 25 pupils without claim codes each needed its own "Approve" click. Now the
teacher approves the whole waiting list, or one wave of it, in one action after
a confirmation in the site's own dialog (static/js/kit/dialog.js). In a real
Chromium against the real ASGI server, at 360 and 1280 px wide.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from classrooms.models import Membership
from tests.classrooms import factories
from tests.classrooms.login import log_in

pytestmark = [pytest.mark.browser, pytest.mark.live]


def _waiting(classroom, names: list[str], start) -> list[Membership]:
    members = []
    for number, name in enumerate(names):
        member = factories.add_member(classroom, roster_name=name, status="pending")
        member.joined_at = start + timedelta(seconds=10 * number)
        member.save(update_fields=["joined_at"])
        members.append(member)
    return members


def test_the_teacher_approves_all_waiting_after_confirming(transactional_db, page):
    """At 1280 and 360 px on one class (one teacher, one login): the button and the
    dialog at both widths, the approval itself (the same request) once, on the phone."""
    teacher = factories.make_teacher("schvaluje@skola.sk")
    classroom = factories.make_class(teacher, name="Schvalovací třída")
    _waiting(classroom, [f"Žák {n}" for n in range(25)], timezone.now() - timedelta(minutes=5))
    log_in(page, teacher)
    for width in (1280, 360):
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(f"/classes/{classroom.pk}/")
        button = page.get_by_test_id("approve-pending")
        assert button.is_visible(), width
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        button.click()
        dialog = page.locator("dialog[open]")
        assert "Approve all 25 waiting joins?" in dialog.inner_text(), width
        dialog.locator("text=Cancel").click()
        assert classroom.members.filter(status="pending").count() == 25
    button.click()
    page.locator("dialog[open] >> text=Yes").click()
    page.wait_for_selector("text=25 students were approved.")
    assert classroom.members.filter(status="pending").count() == 0
    assert classroom.members.filter(status="approved").count() == 25


def test_the_teacher_approves_one_wave_and_removes_the_other(transactional_db, page):
    page.set_viewport_size({"width": 360, "height": 800})
    teacher = factories.make_teacher("vlny@skola.sk")
    classroom = factories.make_class(teacher, name="Vlny")
    start = timezone.now() - timedelta(minutes=30)
    real = _waiting(classroom, [f"Pupil {n}" for n in range(4)], start)
    junk = _waiting(classroom, [f"Junk {n}" for n in range(12)], start + timedelta(minutes=20))
    log_in(page, teacher)
    page.goto(f"/classes/{classroom.pk}/")
    assert page.get_by_test_id("wave").count() == 2
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.get_by_test_id("remove-wave").nth(1).click()
    dialog = page.locator("dialog[open]")
    assert "Remove all 12 joins that arrived" in dialog.inner_text()
    dialog.locator("text=Yes").click()
    page.wait_for_selector("text=12 waiting joins were removed.")
    assert not Membership.objects.filter(pk__in=[m.pk for m in junk]).exists()
    # One wave is left: no wave headings, just the whole list.
    assert page.get_by_test_id("wave").count() == 0
    page.get_by_test_id("approve-pending").click()
    page.locator("dialog[open] >> text=Yes").click()
    page.wait_for_selector("text=4 students were approved.")
    statuses = set(
        Membership.objects.filter(pk__in=[m.pk for m in real]).values_list("status", flat=True)
    )
    assert statuses == {"approved"}
