"""Celery tasks of the LTI tool: grades to the LMS (retried) and the roster from it.

The homework signals' receivers live here too: ``ags`` marks the grades to
send and this module queues them after the commit (``ags`` never imports the
tasks, so the two modules import one way).
"""

import logging
from functools import partial

from celery import Task, shared_task
from django.db import transaction

from homework import services as homework_services

from . import ags, net, nrps
from .models import ResourceLink

logger = logging.getLogger(__name__)

#: Tries of a grade over about a day: 30 s, 1 min, 2 min ... capped at an hour.
GRADE_RETRIES = 12


@shared_task(name="lti.send_grade", bind=True, max_retries=GRADE_RETRIES, acks_late=True)
def send_grade(self: Task, grade_id: int) -> str:
    try:
        return ags.send(grade_id)
    except net.PlatformError as error:
        if getattr(error, "transient", False) and self.request.retries < GRADE_RETRIES:
            logger.warning("LTI grade %s not sent yet (%s), retrying", grade_id, error)
            countdown = min(3600, 30 * 2**self.request.retries)
            raise self.retry(countdown=countdown) from None
        logger.warning("LTI grade %s not sent: %s", grade_id, error)
        ags.mark_failed(grade_id, str(error))
        return "failed"


@shared_task(name="lti.refresh_roster", bind=True, max_retries=3)
def refresh_roster(self: Task, course_id: int) -> int:
    try:
        return nrps.refresh(course_id)
    except net.PlatformError as error:
        if getattr(error, "transient", False):
            raise self.retry(countdown=60) from None
        logger.warning("LTI roster of course %s not read: %s", course_id, error)
        return 0


def _queue(grade_ids: list[int]) -> None:
    for grade_id in grade_ids:
        transaction.on_commit(partial(send_grade.delay, grade_id))


def on_attempt_finished(
    sender: object, attempt_id: int, lms_linked: bool = True, **kwargs: object
) -> None:
    # Homework no LMS links to (the usual case): nothing to read or send, no query.
    if lms_linked:
        _queue(ags.grades_to_send(attempt_id))


def on_link_saved(sender: object, instance: ResourceLink, **kwargs: object) -> None:
    """A resource link leading to homework marks it linked, so its finished
    attempts' grades are looked for (``on_attempt_finished``)."""
    if instance.assignment_id is not None:
        homework_services.mark_lms_linked(assignment_id=instance.assignment_id)


def on_grading_changed(sender: object, assignment_id: int, **kwargs: object) -> None:
    _queue(ags.grades_to_resend(assignment_id))
