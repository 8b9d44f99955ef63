"""Grades to the LMS keep the class's order (issue 37 §1), against the suite's own
LTI platform (tests/lti/lms.py): one constant ``scoreMaximum`` per line item,
``scoreGiven`` never above it, the share of the homework's full marks (the
teacher's, else the game's default), and the mark the .xlsx shows in the comment."""

import io
import re

import pytest
import requests
from django.utils import timezone, translation
from openpyxl import load_workbook

from homework import exports, services
from homework.models import Attempt
from lti import ags
from lti.models import GradeSend, Person, ResourceLink
from tests.lti.test_lti_tool import _course_with, _deep_link, link_url

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Adam Kovář", "Bára Nová", "Cyril Malý", "Dana Horká"]
SCORES = [40, 95, 105, 150]


@pytest.fixture
def graded(lms, asgi_server):
    """A poker homework made by deep linking; four learners launched it and
    finished with 40, 95, 105 and 150 (the scores written as the game would);
    their grades sent once through ``ags.send`` (no worker: synchronously)."""
    assert lms.register(link_url(asgi_server)).ok
    course, instructor, pupils = _course_with(lms, learners=NAMES)
    assignment = _deep_link(lms, requests.Session(), instructor, course)
    link = lms.links[course.id][-1]
    for pupil in pupils:
        assert lms.launch(requests.Session(), pupil, course, link=link).status_code == 200
    resource = ResourceLink.objects.get(assignment=assignment)
    grades = {}
    for pupil, score in zip(pupils, SCORES, strict=True):
        member = assignment.classroom.members.get(roster_name=pupil.name)
        Attempt.objects.create(
            assignment=assignment,
            member=member,
            player=member.player,
            ref=f"test-{pupil.sub}",
            finished_at=timezone.now(),
            score=score,
        )
        grades[pupil.name] = GradeSend.objects.create(
            link=resource, member=member, person=Person.objects.get(sub=pupil.sub)
        )
    return lms, course, assignment, link, grades


def _send_all(grades) -> None:
    for grade in grades.values():
        assert ags.send(grade.pk) == "sent"


def test_default_full_marks_keep_forty_ninety_five_105_and_150_apart(graded):
    lms, course, assignment, link, grades = graded
    _send_all(grades)
    book = lms.gradebook_raw(course)
    item = lms.lineitems[link.line_item_ids[0]]
    maxima = {maximum for _given, maximum in book.values()}
    assert maxima == {item.score_maximum}, book  # one constant maximum: the line item's
    assert all(given <= maximum for given, maximum in book.values()), book
    shares = [book[name][0] / book[name][1] for name in NAMES]
    # the old code sent 105/105 and 150/150: both 100 %, the same as a score of 100
    assert shares == sorted(set(shares)), book
    assert shares[-1] < 1.0  # the poker default (the coach's median) is above 150
    # the comment tells the Matika score
    comments = {s["userId"]: s.get("comment", "") for s in lms.scores[item.id]}
    assert any("150" in text for text in comments.values()), comments


def test_changing_full_marks_sends_every_grade_again(graded, monkeypatch):
    from lti import tasks

    lms, course, assignment, link, grades = graded
    _send_all(grades)
    queued = []
    monkeypatch.setattr(tasks.send_grade, "delay", queued.append)
    services.update_assignment(assignment_id=assignment.pk, changes={"full_marks": 120})
    assert sorted(queued) == sorted(grade.pk for grade in grades.values())
    assert set(GradeSend.objects.values_list("status", flat=True)) == {"pending"}
    services.update_assignment(assignment_id=assignment.pk, changes={"title": "Jiný název"})
    assert len(queued) == len(grades)  # a change that is not about grades sends nothing


def test_an_older_post_of_a_grade_refused_with_409_leaves_it_sent(graded, monkeypatch):
    """Two posts of one grade at once (the grade queued again while it was being
    sent): the platform keeps the newer and refuses the older with 409; the grade
    stays sent, not "failed: score_refused" beside a score the LMS holds."""
    from datetime import UTC, datetime

    lms, course, assignment, link, grades = graded
    grade = grades[NAMES[0]]
    assert ags.send(grade.pk) == "sent"

    class Earlier(datetime):
        @classmethod
        def now(cls, tz=None):
            return datetime(2020, 1, 1, tzinfo=UTC)

    monkeypatch.setattr(ags, "datetime", Earlier)
    assert ags.send(grade.pk) == "superseded"
    grade.refresh_from_db()
    assert grade.status == GradeSend.Status.SENT and grade.error == ""
    item = lms.lineitems[link.line_item_ids[0]]
    assert len(lms.scores[item.id]) == 1


def test_the_teachers_full_marks_cap_the_grade_and_the_mark_is_the_xlsx_one(graded, monkeypatch):
    from lti import tasks

    lms, course, assignment, link, grades = graded
    # The change of full marks queues every grade again; the suite's Celery worker,
    # if an earlier test started it, would post them beside _send_all below and the
    # LMS would refuse the older of two posts with 409. Here the grades go synchronously.
    monkeypatch.setattr(tasks.send_grade, "delay", lambda grade_id: None)
    services.update_assignment(
        assignment_id=assignment.pk,
        changes={"full_marks": 100, "mark_thresholds": [140, 100, 90, 50]},
    )
    _send_all(grades)
    book = lms.gradebook_raw(course)
    shares = {name: given / maximum for name, (given, maximum) in book.items()}
    assert shares["Adam Kovář"] == pytest.approx(0.40)
    assert shares["Bára Nová"] == pytest.approx(0.95)
    # at or above the teacher's full marks: both full marks, never above the maximum
    assert shares["Cyril Malý"] == shares["Dana Horká"] == 1.0
    # the marks sent are the ones of the teacher's .xlsx
    item = lms.lineitems[link.line_item_ids[0]]
    by_sub = {u.sub: u.name for u in lms.users.values()}
    sent = {}
    for score in lms.scores[item.id]:
        found = re.search(r"(\d)\s*·", score.get("comment", ""))
        assert found, score
        sent[by_sub[score["userId"]]] = int(found.group(1))
    assignment.refresh_from_db()
    with translation.override("en"):
        response = exports.results_file(assignment, "xlsx")
    sheet = load_workbook(io.BytesIO(response.content)).active
    rows = [[cell for cell in row] for row in sheet.iter_rows(values_only=True)]
    header_at = next(i for i, row in enumerate(rows) if "Mark" in row)
    column = rows[header_at].index("Mark")
    in_file = {}
    for row in rows[header_at + 1 :]:
        text = " ".join(str(cell) for cell in row if cell is not None)
        for name in NAMES:
            if all(part in text for part in name.split()):
                in_file[name] = row[column]
    assert in_file == sent == {"Adam Kovář": 5, "Bára Nová": 3, "Cyril Malý": 2, "Dana Horká": 1}


def test_the_deep_linking_picker_offers_matematici_and_a_learner_lands_on_it(lms, asgi_server):
    from tests.lti.test_lti_tool import _form_index

    assert lms.register(link_url(asgi_server)).ok
    course, instructor, pupils = _course_with(lms, learners=["Adam Kovář"])
    session = requests.Session()
    picker = lms.deep_link(session, instructor, course)
    assert picker.status_code == 200 and 'data-game="theorems"' in picker.text
    back = lms.submit_form(
        session,
        picker,
        data={"game": "theorems"},
        index=_form_index(lms, picker, "/lti/deep-link/"),
    )
    assert back.status_code == 200, back.text[:500]
    done = lms.submit_form(session, back, index=_form_index(lms, back, lms.base_url))
    assert done.status_code == 200, lms.deep_link_errors
    link = lms.links[course.id][-1]
    landing = lms.launch(requests.Session(), pupils[0], course, link=link)
    assert landing.status_code == 200
    assert re.search(r"/theorems/homework/\d+/$", landing.url), landing.url
    assert 'data-testid="theorems-homework"' in landing.text
