"""Homework end to end in Chromium (issue 28): the teacher creates homework from
the class page, three pupils play it on phones (one late, one twice), the
teacher reads the class table, opens a pupil's review and downloads the .xlsx
whose numbers are checked against what was played."""

import io
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from games.poker.rules import DEFAULT_TABLE
from homework.models import Assignment, Attempt
from tests.classrooms import factories
from tests.classrooms.login import log_in
from tests.poker_web.helpers import player_cookie

pytestmark = [pytest.mark.browser, pytest.mark.live]

SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "homework"
PHONE = {"width": 360, "height": 740}
DIALOG_JOKER = "#poker-joker-dialog"
DIALOG_END = "#poker-end-dialog"


def _pupil_page(browser, asgi_server, classroom, name):
    profile, cookie = player_cookie(name.split()[0])
    factories.add_member(classroom, profile, roster_name=name)
    context = browser.new_context(base_url=asgi_server, locale="en-GB", viewport=PHONE)
    context.add_cookies(
        [{"name": settings.PLAYER_COOKIE_NAME, "value": cookie, "url": asgi_server}]
    )
    return context.new_page()


def _play_to_end(page):
    """Click the first free cell whatever comes (jokers get the value 7)."""
    for _ in range(80):
        if page.locator(f"{DIALOG_END}[open]").count():
            return
        if page.locator(f"{DIALOG_JOKER}[open]").count():
            page.locator(f"{DIALOG_JOKER} [data-value='7']").click()
            page.wait_for_selector(f"{DIALOG_JOKER}:not([open])", state="attached")
        target = page.locator(".poker-cell:not([disabled])").first
        if target.count():
            before = page.locator(".poker-cell.is-filled").count()
            target.click()
            expect(page.locator(".poker-cell.is-filled, dialog[open]")).not_to_have_count(before)
    raise AssertionError("the game did not end")


def _play_from_class_page(page, classroom):
    page.goto(f"/classes/{classroom.pk}/")
    page.locator("[data-testid=homework-play]").click()
    page.wait_for_url("**/poker/play/?assignment=*")
    page.wait_for_load_state("load")  # the page's module wires the button
    page.locator("[data-testid=start-homework]").click()
    page.wait_for_selector("#poker-game:not([hidden])")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    _play_to_end(page)


def test_teacher_sets_homework_three_pupils_play_and_the_teacher_reads_it(
    transactional_db, page, browser, asgi_server
):
    SHOTS.mkdir(parents=True, exist_ok=True)
    teacher = factories.make_teacher("domaci@skola.cz")
    classroom = factories.make_class(teacher, name="6.C")
    adam = _pupil_page(browser, asgi_server, classroom, "Adam Kovář")
    bara = _pupil_page(browser, asgi_server, classroom, "Bára Nová")
    cyril = _pupil_page(browser, asgi_server, classroom, "Cyril Malý")

    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, teacher)
    page.goto(f"/classes/{classroom.pk}/")
    page.locator("[data-testid=homework-new]").click()
    page.fill("#id_title", "Poker do pátku")
    due = (timezone.now() + timedelta(days=2)).astimezone(ZoneInfo("Europe/Prague"))
    page.fill("#id_due_at", due.strftime("%Y-%m-%dT%H:%M"))
    page.select_option("#id_attempts", "best")
    page.check("#id_late")
    expect(page.locator("#id_poker__seconds_per_card")).to_be_hidden()
    page.locator("[data-testid=homework-form] button[type=submit]").click()
    expect(page.locator("[data-testid=homework-state]")).to_have_text("open")
    assignment = Assignment.objects.get()
    assert assignment.attempts == "best" and assignment.late is True
    assert assignment.settings == {
        "table": DEFAULT_TABLE,
        "difficulty": "easy",
        "seconds_per_card": None,
    }

    _play_from_class_page(adam, classroom)
    adam.screenshot(path=str(SHOTS / "pupil-end-360.png"))
    _play_from_class_page(bara, classroom)
    _play_from_class_page(bara, classroom)  # twice: the best one counts
    Assignment.objects.filter(pk=assignment.pk).update(due_at=timezone.now() - timedelta(minutes=1))
    _play_from_class_page(cyril, classroom)  # after the deadline: late

    adam.goto(f"/classes/{classroom.pk}/")
    score = Attempt.objects.get(member__roster_name="Adam Kovář").score
    expect(adam.locator("[data-testid=homework-score]")).to_have_text(str(score))
    adam.screenshot(path=str(SHOTS / "pupil-class-360.png"), full_page=True)

    attempts = {}
    for attempt in Attempt.objects.select_related("member"):
        attempts.setdefault(attempt.member.roster_name, []).append(attempt.score)
    assert len(attempts["Bára Nová"]) == 2
    expected = {
        "Adam Kovář": ("done", attempts["Adam Kovář"][0], 1),
        "Bára Nová": ("done", max(attempts["Bára Nová"]), 2),
        "Cyril Malý": ("late", attempts["Cyril Malý"][0], 1),
    }
    for width, height in ((1920, 1080), (360, 740)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"/classes/{classroom.pk}/homework/{assignment.pk}/")
        rows = page.locator("[data-testid=homework-table] tbody tr")
        expect(rows).to_have_count(3)
        for name, (status, value, count) in expected.items():
            row = rows.filter(has_text=name)
            expect(row).to_have_attribute("data-status", status)
            expect(row.locator("td").nth(2)).to_have_text(str(value))
            expect(row.locator("td").nth(3)).to_have_text(str(count))
        expect(page.locator("svg.chart rect.chart-bar").first).to_be_attached()
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(SHOTS / f"teacher-table-{width}.png"), full_page=True)

    with page.expect_download() as download:
        page.locator("[data-testid=homework-xlsx]").click()
    from openpyxl import load_workbook

    sheet = load_workbook(io.BytesIO(Path(download.value.path()).read_bytes())).active
    lines = list(sheet.iter_rows(values_only=True))[1:]
    # surname, first name, identifier, status, score, attempts, ... (issue 37 §4)
    assert {f"{line[1]} {line[0]}": (line[4], line[5]) for line in lines} == {
        name: (value, count) for name, (_status, value, count) in expected.items()
    }

    page.locator("[data-testid=homework-table] tbody tr", has_text="Bára Nová").locator(
        "[data-testid=homework-review]"
    ).click()
    expect(page.locator("main")).to_contain_text(str(expected["Bára Nová"][1]))
    page.screenshot(path=str(SHOTS / "teacher-review-360.png"), full_page=True)
    for pupil in (adam, bara, cyril):
        pupil.context.close()
