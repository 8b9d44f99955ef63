"""Homework deadlines, run by Celery beat (schedule: migration 0002) and a worker."""

import logging

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.utils import translation

from accounts.tasks import MAIL_TASK_OPTIONS, MailTask

from . import selectors, services

logger = logging.getLogger(__name__)


@shared_task(name="homework.close_due_assignments")
def close_due_assignments() -> list[int]:
    """Every minute: close what is due, and queue one summary mail per closed
    assignment whose teacher asked for it."""
    closed = services.close_due_assignments()
    for assignment_id in closed:
        send_summary.delay(assignment_id=assignment_id)
    return closed


@shared_task(bind=True, base=MailTask, name="homework.send_summary", **MAIL_TASK_OPTIONS)
def send_summary(self: MailTask, *, assignment_id: int) -> bool:
    """The teacher's one summary mail of a closed assignment (opt-in)."""
    summary = selectors.summary_mail(assignment_id)
    if summary is None:
        return False
    with translation.override(summary["language"] or settings.LANGUAGE_CODE):
        subject = render_to_string("homework/summary_subject.txt", summary).strip()
        body = render_to_string("homework/summary_body.txt", summary)
    EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [summary["email"]]).send()
    return True
