"""Issue 28: the class page with its homework card took 0.7-1.1 s for 30 pupils
x 20 homework. Its database work must not grow with pupils x homework: the
number of queries of the teacher's class page, of one homework's class table
and of the results download is the same for a small and a bigger class
(times are measured in bench/homework_bench.py, not here)."""

import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from homework import services
from homework.models import Attempt
from tests.classrooms import factories

from .conftest import SETTINGS, pupil_client


def build(teacher, pupils: int, homework: int, tag: str):
    classroom = factories.make_class(teacher, name=f"Třída {tag}")
    members = []
    for n in range(pupils):
        _client, profile = pupil_client(f"{tag}{n}")
        members.append(factories.add_member(classroom, profile, roster_name=f"Žák {tag} {n}"))
    now = timezone.now()
    made = []
    for n in range(homework):
        assignment = services.create_assignment(
            classroom=classroom,
            user=teacher,
            game="poker",
            title=f"Úkol {n}",
            settings=SETTINGS,
            opens_at=None,
            due_at=now + timedelta(days=2),
            attempts="best",
            mark_thresholds=[300, 200, 100, 50],
        )
        made.append(assignment)
        rng = random.Random(n)
        Attempt.objects.bulk_create(
            Attempt(
                assignment=assignment,
                member=member,
                player=member.player,
                ref=f"q-{tag}-{n}-{member.pk}",
                started_at=now - timedelta(minutes=30),
                finished_at=now - timedelta(minutes=10) if rng.random() < 0.8 else None,
                score=rng.randint(0, 400),
                duration_s=120.0,
            )
            for member in members
            for _attempt in range(rng.randint(1, 2))
        )
    return classroom, made


def queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(captured)


@pytest.mark.django_db
def test_the_class_pages_queries_do_not_grow_with_pupils_and_homework(teacher, teacher_client):
    small, small_homework = build(teacher, pupils=2, homework=1, tag="S")
    big, big_homework = build(teacher, pupils=9, homework=6, tag="B")
    for page in (
        lambda c, _a: f"/classes/{c.pk}/",
        lambda c, a: f"/classes/{c.pk}/homework/{a[0].pk}/",
        lambda c, a: f"/api/assignments/{a[0].pk}/results/",
        lambda c, a: f"/api/assignments/{a[0].pk}/results.xlsx",
    ):
        small_url, big_url = page(small, small_homework), page(big, big_homework)
        queries(teacher_client, small_url)  # warm the per-process caches
        assert queries(teacher_client, big_url) == queries(teacher_client, small_url), big_url


@pytest.mark.django_db
def test_the_homework_card_shows_the_same_numbers_with_fewer_queries(teacher, teacher_client):
    classroom, homework = build(teacher, pupils=5, homework=3, tag="C")
    page = teacher_client.get(f"/classes/{classroom.pk}/").content.decode()
    from homework import selectors

    for assignment in homework:
        table = selectors.results(assignment)
        done = sum(1 for row in table["rows"] if row.score is not None)
        assert f"{done} of 5 pupils done" in page


@pytest.mark.django_db
def test_the_class_page_reads_its_roster_once(teacher, teacher_client):
    """The roster's player map served the live rooms and, built again, the
    sessions' aggregate (issue 28: 453 ms for 30 x 20): now it is read once."""
    classroom, _homework = build(teacher, pupils=4, homework=1, tag="R")
    url = f"/classes/{classroom.pk}/"
    teacher_client.get(url)  # warm the per-process caches
    with CaptureQueriesContext(connection) as captured:
        response = teacher_client.get(url)
    assert response.status_code == 200
    roster_reads = [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].startswith('SELECT "classrooms_membership"."id"')
        and 'LEFT OUTER JOIN "accounts_playerprofile"' in q["sql"]  # selectors.roster
        and f'"classrooms_membership"."classroom_id" = {classroom.pk}' in q["sql"]
    ]
    assert len(roster_reads) == 1
    # the sessions shown are the ones the selector finds on its own
    from classrooms import selectors

    shown = [(s.pk, s.player_count, s.guest_count) for s in response.context["sessions"]]
    alone = selectors.class_sessions(classroom, include_unfinished=True)[:5]
    assert shown == [(s.pk, s.player_count, s.guest_count) for s in alone]
