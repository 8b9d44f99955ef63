"""The deadline needs no request (issue 28): beat's schedule holds the task, a
real Celery worker closes what is due, and one summary mail per closed
assignment goes to the teacher who asked for it."""

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from homework import services, tasks
from homework.models import Assignment
from tests.homework.conftest import play_to_end, start


def _due(make_assignment, **extra):
    made = make_assignment(**extra)
    Assignment.objects.filter(pk=made["id"]).update(due_at=timezone.now() - timedelta(minutes=1))
    return made


@pytest.mark.django_db
def test_beat_runs_the_deadline_task_every_minute():
    from django_celery_beat.models import PeriodicTask

    task = PeriodicTask.objects.get(task="homework.close_due_assignments")
    assert task.enabled and task.interval.every == 60 and task.interval.period == "seconds"


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_closes_what_is_due(celery_worker_process, make_assignment, pupils):
    due = _due(make_assignment)
    late = _due(make_assignment, late=True, title="Pozdě povoleno")
    running = make_assignment(title="Ještě běží")
    closed = tasks.close_due_assignments.delay().get(timeout=60)
    assert sorted(closed) == sorted([due["id"], late["id"]])
    states = {a.pk: a for a in Assignment.objects.all()}
    assert states[due["id"]].closed_at is not None
    assert states[late["id"]].closed_at is None  # late play goes on until the teacher closes it
    assert (
        states[running["id"]].closed_at is None and states[running["id"]].deadline_done_at is None
    )
    assert tasks.close_due_assignments.delay().get(timeout=60) == []  # handled once
    refused = start(pupils[0][0], due["id"])
    assert refused.status_code == 409 and refused.json()["code"] == "assignment_closed"
    assert start(pupils[0][0], late["id"]).status_code == 201


@pytest.mark.django_db
def test_one_summary_mail_per_closed_assignment_for_those_who_asked(
    tasks_inline, make_assignment, pupils, teacher
):
    wanted = make_assignment(mail_summary=True, title="Se shrnutím")
    play_to_end(pupils[0][0], start(pupils[0][0], wanted["id"]).json()["game"])
    Assignment.objects.filter(pk=wanted["id"]).update(due_at=timezone.now() - timedelta(minutes=1))
    _due(make_assignment, title="Bez shrnutí")
    tasks.close_due_assignments()
    tasks.close_due_assignments()
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [teacher.email] and "Se shrnutí" in message.subject
    assert "1 of 3" in message.body


@pytest.mark.django_db
def test_moving_the_deadline_later_lets_beat_handle_it_again(make_assignment):
    made = _due(make_assignment, late=True)
    assert services.close_due_assignments() == [made["id"]]
    services.update_assignment(
        assignment_id=made["id"], changes={"due_at": timezone.now() + timedelta(days=1)}
    )
    assert services.close_due_assignments() == []
    assert services.close_due_assignments(now=timezone.now() + timedelta(days=2)) == [made["id"]]
