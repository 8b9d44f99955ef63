"""The results pages a teacher trusts, in Chromium at phone, laptop and projector
sizes (issue 21): unfinished games marked and left out until the toggle, same-day
games told apart on the chart's axis, joker cells marked, Excel beside every CSV."""

from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.models import GameRecord
from tests.classrooms import factories
from tests.classrooms.login import log_in

pytestmark = [pytest.mark.browser, pytest.mark.live]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "reports"
SIZES = {"phone": (360, 740), "laptop": (1280, 800), "projector": (1920, 1080)}


@pytest.fixture
def lesson(transactional_db):
    teacher = factories.make_teacher("vysledky@skola.sk")
    classroom = factories.make_class(teacher, roster="Adam Kováč\nBára Nová")
    adam = classroom.members.get(roster_name="Adam Kováč")
    adam.player = factories.make_player("Sokol")
    adam.save()
    cells = list(range(1, 26))
    factories.play(classroom, {adam.player: 160}, details={"board": cells, "joker_cells": [7]})
    for minutes, score in ((50, 0), (40, 0), (30, 25)):  # three short rooms today
        record = factories.play(classroom, {adam.player: score})
        started = timezone.now() - timedelta(minutes=minutes)
        GameRecord.objects.filter(pk=record.pk).update(
            started_at=started, finished_at=started + timedelta(minutes=2)
        )
        record.results.update(completed=False)
    return teacher, classroom, adam


def test_reports_at_every_size(lesson, page):
    """One lesson and one login for the three sizes (the pages read, never change,
    the data): every size still goes through all the pages and checks."""
    teacher, classroom, adam = lesson
    log_in(page, teacher)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        try:
            _pages_at(page, classroom, adam, size, width)
        except AssertionError as failure:
            failure.add_note(f"at the {size} size ({width} x {height})")
            raise


def _pages_at(page, classroom, adam, size: str, width: int) -> None:
    page.goto(f"/classes/{classroom.pk}/members/{adam.pk}/")
    expect(page.locator("[data-testid=games-count]")).to_have_text("1")
    expect(page.locator(".stats")).to_contain_text("160")  # not 46.2
    toggle = page.locator("[data-testid=unfinished-toggle]")
    expect(toggle).to_contain_text("3 games did not finish")
    expect(page.locator("[data-testid=member-xlsx]")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    toggle.get_by_role("link").click()
    expect(page.locator("[data-testid=games-count]")).to_have_text("4")
    expect(page.locator(".stats")).to_contain_text("46.2")
    expect(page.locator("[data-testid=unfinished]")).to_have_count(3)
    labels = page.locator("svg.chart text.chart-x").all_text_contents()
    assert len(labels) == 4 and len(set(labels)) == 4, labels  # same day: with the time
    page.screenshot(path=str(SHOTS / f"member-{size}.png"), full_page=True)

    page.goto(f"/classes/{classroom.pk}/results/")
    expect(page.locator("[data-testid=sessions-xlsx]")).to_be_visible()
    expect(page.locator("[data-testid=participation-xlsx]")).to_be_visible()
    expect(page.locator("table.data-table").first.locator("tbody tr")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(SHOTS / f"results-{size}.png"), full_page=True)

    page.locator("table.data-table a").first.click()
    joker = page.locator("[data-testid=joker-cell]")
    expect(joker).to_have_count(1)
    expect(joker).to_contain_text("8")
    expect(page.locator("[data-testid=session-xlsx]")).to_be_visible()
    page.screenshot(path=str(SHOTS / f"session-{size}.png"), full_page=True)
