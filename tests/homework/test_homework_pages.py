"""The teacher's homework pages (issue 28): the form reads dates in Prague time,
edits are possible before the homework opens, close and delete work from the
class table, and the class page offers "New homework"."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from homework.models import Assignment
from tests.homework.conftest import play_to_end, start

pytestmark = pytest.mark.django_db

PRAGUE = ZoneInfo("Europe/Prague")


def _local(moment: datetime) -> str:
    return moment.astimezone(PRAGUE).strftime("%Y-%m-%dT%H:%M")


def _form(**extra):
    due = timezone.now() + timedelta(days=3)
    return {
        "title": "Poker na víkend",
        "game": "poker",
        "poker__table": "contiguous",
        "poker__difficulty": "hard",
        "poker__seconds_per_card": "15",
        "due_at": _local(due),
        "attempts": "last",
        "late": "on",
        **extra,
    }


def test_the_class_page_offers_new_homework_and_the_form_creates_it(teacher_client, classroom):
    page = teacher_client.get(f"/classes/{classroom.pk}/").content.decode()
    assert f"/classes/{classroom.pk}/homework/new/" in page
    assert teacher_client.get(f"/classes/{classroom.pk}/homework/new/").status_code == 200
    due = (timezone.now() + timedelta(days=3)).replace(second=0, microsecond=0)
    response = teacher_client.post(
        f"/classes/{classroom.pk}/homework/new/", _form(due_at=_local(due))
    )
    assignment = Assignment.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/classes/{classroom.pk}/homework/{assignment.pk}/"
    assert assignment.due_at == due  # read in Prague time, stored as the same instant
    assert assignment.settings == {
        "table": "contiguous",
        "difficulty": "hard",
        "seconds_per_card": 15,
    }
    assert assignment.attempts == "last" and assignment.late and not assignment.practice


def test_a_bad_form_shows_the_reason_and_creates_nothing(teacher_client, classroom):
    past = _local(timezone.now() - timedelta(days=1))
    response = teacher_client.post(f"/classes/{classroom.pk}/homework/new/", _form(due_at=past))
    assert response.status_code == 200
    assert "The deadline must" in response.content.decode()
    response = teacher_client.post(
        f"/classes/{classroom.pk}/homework/new/", _form(poker__seconds_per_card="1")
    )
    assert response.status_code == 200 and not Assignment.objects.exists()


def test_edit_before_opening_then_close_and_delete(teacher_client, classroom, make_assignment):
    later = make_assignment(opens_at=(timezone.now() + timedelta(days=1)).isoformat())
    url = f"/classes/{classroom.pk}/homework/{later['id']}/"
    assert teacher_client.get(url + "edit/").status_code == 200
    response = teacher_client.post(
        url + "edit/",
        _form(
            title="Upraveno",
            opens_at=_local(timezone.now() + timedelta(days=1)),
            poker__difficulty="easy",
        ),
    )
    assert response.status_code == 302
    edited = Assignment.objects.get(pk=later["id"])
    assert edited.title == "Upraveno" and edited.settings["difficulty"] == "easy"
    now_open = make_assignment(title="Běží")
    open_url = f"/classes/{classroom.pk}/homework/{now_open['id']}/"
    assert teacher_client.get(open_url + "edit/").status_code == 302  # opened: no editing
    assert teacher_client.post(open_url + "close/").status_code == 302
    assert Assignment.objects.get(pk=now_open["id"]).closed_at is not None
    assert teacher_client.post(open_url + "delete/").status_code == 302
    assert not Assignment.objects.filter(pk=now_open["id"]).exists()


def test_the_class_table_page_lists_every_roster_entry_with_a_chart(
    teacher_client, classroom, make_assignment, pupils
):
    assignment = make_assignment()
    game = play_to_end(pupils[0][0], start(pupils[0][0], assignment["id"]).json()["game"])
    page = teacher_client.get(f"/classes/{classroom.pk}/homework/{assignment['id']}/")
    text = page.content.decode()
    assert page.status_code == 200
    assert text.count('data-status="') == 3
    assert 'data-status="done"' in text and 'data-status="not_started"' in text
    assert "<svg" in text and "chart-bar" in text
    assert f">{game['score']}<" in text
    assert 'data-confirm="' in text  # close and delete ask first (static/js/base.js)
    # no LMS links to this homework: no link to scores sent to one
    assert 'data-testid="homework-extra-link"' not in text
