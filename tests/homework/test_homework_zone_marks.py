"""Issue 28, what was left: dates in the teacher's time zone (not always
Prague) and the score -> Czech marks mapping on the teacher's form (it was
API-only). The browser reports its zone (``Intl.DateTimeFormat``) in a hidden
field; the dates are stored in UTC; the pages and files show them in that zone."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from homework.models import Assignment, Attempt
from tests.classrooms import factories
from tests.classrooms.login import log_in

from .conftest import post

NEW_YORK = ZoneInfo("America/New_York")
PRAGUE = ZoneInfo("Europe/Prague")


def due_local(days: int = 5) -> datetime:
    day = (timezone.now() + timedelta(days=days)).date()
    return datetime(day.year, day.month, day.day, 18, 0)


def form(**extra):
    due = due_local()
    return {
        "title": "Poker přes oceán",
        "game": "poker",
        "poker__table": "matematico",
        "poker__difficulty": "easy",
        "due_at": due.strftime("%Y-%m-%dT%H:%M"),
        "attempts": "best",
        **extra,
    }


@pytest.mark.django_db
def test_dates_typed_in_the_teachers_zone_are_stored_in_utc_and_shown_in_that_zone(
    teacher_client, classroom
):
    url = f"/classes/{classroom.pk}/homework/new/"
    response = teacher_client.post(url, form(time_zone="America/New_York"))
    assert response.status_code == 302
    assignment = Assignment.objects.get()
    wanted = due_local().replace(tzinfo=NEW_YORK)
    assert assignment.due_at == wanted and assignment.due_at.utcoffset() is not None
    assert assignment.time_zone == "America/New_York"
    # 18:00 in New York is not 18:00 in Prague: stored as the same instant in UTC
    assert assignment.due_at.astimezone(UTC) == wanted.astimezone(UTC)
    assert wanted.astimezone(PRAGUE).hour != 18
    detail = teacher_client.get(response["Location"]).content.decode()
    assert f"{wanted.day}. {wanted.month}. {wanted.year} 18:00" in detail
    assert "(America/New_York)" in detail
    card = teacher_client.get(f"/classes/{classroom.pk}/").content.decode()
    assert f"{wanted.day}. {wanted.month}. {wanted.year} 18:00" in card
    # the next blank form starts in the zone the browser reported
    blank = teacher_client.get(url).content.decode()
    assert 'name="time_zone" value="America/New_York"' in blank
    # the edit form shows the stored moment in the homework's zone, and its UTC
    Assignment.objects.filter(pk=assignment.pk).update(opens_at=timezone.now() + timedelta(days=1))
    edit = teacher_client.get(f"/classes/{classroom.pk}/homework/{assignment.pk}/edit/")
    text = edit.content.decode()
    assert f'value="{due_local().strftime("%Y-%m-%dT%H:%M")}"' in text
    assert f'data-utc="{wanted.astimezone(UTC).isoformat()}"' in text


@pytest.mark.django_db
def test_without_a_reported_zone_the_form_reads_prague_time(teacher_client, classroom):
    teacher_client.post(f"/classes/{classroom.pk}/homework/new/", form())
    assignment = Assignment.objects.get()
    assert assignment.time_zone == "Europe/Prague"
    assert assignment.due_at == due_local().replace(tzinfo=PRAGUE)


@pytest.mark.django_db
def test_an_unknown_zone_is_refused_and_nothing_is_created(teacher_client, classroom):
    response = teacher_client.post(
        f"/classes/{classroom.pk}/homework/new/", form(time_zone="Mars/Olympus_Mons")
    )
    assert response.status_code == 200
    assert not Assignment.objects.exists()
    api = post(
        teacher_client,
        f"/api/classes/{classroom.pk}/assignments/",
        {
            "game": "poker",
            "title": "x",
            "due_at": (timezone.now() + timedelta(days=1)).isoformat(),
            "time_zone": "Mars/Olympus_Mons",
        },
    )
    assert api.status_code == 400 and api.json()["code"] == "bad_time_zone"
    assert not Assignment.objects.exists()
    good = post(
        teacher_client,
        f"/api/classes/{classroom.pk}/assignments/",
        {
            "game": "poker",
            "title": "x",
            "due_at": (timezone.now() + timedelta(days=1)).isoformat(),
            "time_zone": "Asia/Tokyo",
        },
    )
    assert good.status_code == 201 and good.json()["time_zone"] == "Asia/Tokyo"


@pytest.mark.django_db
def test_the_form_sets_marks_and_the_table_shows_them(teacher_client, classroom, pupils):
    marks = {"mark_1": "300", "mark_2": "200", "mark_3": "100", "mark_4": "50"}
    response = teacher_client.post(f"/classes/{classroom.pk}/homework/new/", form(**marks))
    assert response.status_code == 302
    assignment = Assignment.objects.get()
    assert assignment.mark_thresholds == [300, 200, 100, 50]
    _client, profile, member = pupils[0]
    now = timezone.now()
    Attempt.objects.create(
        assignment=assignment,
        member=member,
        player=profile,
        ref="m-1",
        started_at=now - timedelta(minutes=5),
        finished_at=now,
        score=150,
    )
    detail = teacher_client.get(response["Location"]).content.decode()
    assert 'data-testid="homework-marks-mapping"' in detail
    assert '<td class="num" data-testid="homework-mark">3</td>' in detail  # 150: a 3
    csv = teacher_client.get(f"/api/assignments/{assignment.pk}/results.csv").content.decode()
    assert "Mark" in csv.splitlines()[0]
    # the edit form shows them back
    Assignment.objects.filter(pk=assignment.pk).update(opens_at=now + timedelta(days=1))
    edit = teacher_client.get(f"/classes/{classroom.pk}/homework/{assignment.pk}/edit/")
    assert 'name="mark_2" value="200"' in edit.content.decode()
    # and can take them away again
    teacher_client.post(
        f"/classes/{classroom.pk}/homework/{assignment.pk}/edit/",
        form(mark_1="", mark_2="", mark_3="", mark_4=""),
    )
    assignment.refresh_from_db()
    assert assignment.mark_thresholds is None


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("marks", "field_error"),
    [
        ({"mark_1": "300", "mark_2": "200", "mark_3": "100"}, "Fill in the lowest score"),
        ({"mark_1": "300", "mark_2": "200", "mark_3": "250", "mark_4": "50"}, "Must be lower"),
        ({"mark_1": "300", "mark_2": "tři", "mark_3": "100", "mark_4": "50"}, "whole number"),
    ],
)
def test_bad_marks_show_where_and_why_and_nothing_is_created(
    teacher_client, classroom, marks, field_error
):
    response = teacher_client.post(f"/classes/{classroom.pk}/homework/new/", form(**marks))
    assert response.status_code == 200
    page = response.content.decode()
    assert field_error in page
    assert 'class="field has-error"' in page
    assert not Assignment.objects.exists()


@pytest.mark.live
def test_the_browser_reports_its_zone_and_the_teacher_sets_marks(
    transactional_db, browser, asgi_server
):
    teacher = factories.make_teacher("newyork@skola.cz")
    classroom = factories.make_class(teacher, name="9.A")
    context = browser.new_context(
        base_url=asgi_server, locale="en-GB", timezone_id="America/New_York"
    )
    page = context.new_page()
    try:
        page.set_viewport_size({"width": 360, "height": 800})
        log_in(page, teacher)
        page.goto(f"/classes/{classroom.pk}/homework/new/")
        page.wait_for_load_state("load")
        expect(page.locator("[data-zone-label]")).to_have_text("America/New_York")
        assert page.input_value("input[name=time_zone]") == "America/New_York"
        page.fill("#id_title", "Poker z New Yorku")
        page.fill("#id_due_at", due_local().strftime("%Y-%m-%dT%H:%M"))
        for number, score in ((1, "300"), (2, "200"), (3, "100")):
            page.fill(f"#id_mark_{number}", score)
        page.locator("[data-testid=homework-form] button[type=submit]").click()
        expect(page.locator("[data-testid=homework-form-error]")).to_be_visible()
        expect(page.locator("#id_mark_4 ~ p.error")).to_be_visible()
        assert not Assignment.objects.exists()
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.fill("#id_mark_4", "50")
        page.locator("[data-testid=homework-form] button[type=submit]").click()
        expect(page.locator("[data-testid=homework-time-zone]")).to_have_text("(America/New_York)")
        assignment = Assignment.objects.get()
        assert assignment.time_zone == "America/New_York"
        assert assignment.due_at == due_local().replace(tzinfo=NEW_YORK)
        assert assignment.mark_thresholds == [300, 200, 100, 50]
        expect(page.locator("[data-testid=homework-when]")).to_contain_text("18:00")
        expect(page.locator("[data-testid=homework-marks-mapping]")).to_be_visible()
    finally:
        context.close()
