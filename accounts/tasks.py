"""Celery tasks of the accounts app: players' data retention (run by beat,
``CELERY_BEAT_SCHEDULE``) and the mail the site sends (password reset, and
through ``queue_mail`` the sign-up and co-teacher invitation mails).

The reset mail leaves the request: the page queues one task for any valid
address typed (whether or not an account has it, so neither the answer nor a
failure tells which addresses have accounts), and the task sends through
Django's own reset form and tokens. SMTP and connection errors are retried
with exponential backoff and jitter for about an hour (``MAIL_RETRY_*``
settings); when the task gives up it logs an error, which Sentry reports when
it is configured (its logging and Celery integrations). A task that cannot even
be queued (the broker is away) raises ``MailQueueUnavailable`` to the page,
which then says so instead of "sent". Sign-up and invitation mails go the same
way (``queue_mail``, the same retries); their pages keep their answer when the
broker is away, and the error is logged.
"""

import logging
import smtplib
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.core.mail import EmailMessage
from django.utils import translation
from kombu.exceptions import OperationalError as BrokerError

from accounts import retention
from accounts.forms import PasswordResetMailForm

logger = logging.getLogger(__name__)

# Waited out: the mail server or the network is away for a while. A refused
# recipient is not (the same mail would be refused again).
TRANSIENT_MAIL_ERRORS = (smtplib.SMTPException, OSError)
PERMANENT_MAIL_ERRORS = (smtplib.SMTPRecipientsRefused,)

# The n-th retry waits a random time up to min(BACKOFF_MAX, BACKOFF * 2**n)
# (Celery's full jitter): with 60 s, 20 min and 9 retries the waits add up to
# about 55 minutes on average and at most 1 h 51 min.
MAIL_RETRY_BACKOFF = getattr(settings, "MAIL_RETRY_BACKOFF_SECONDS", 60)
MAIL_RETRY_BACKOFF_MAX = getattr(settings, "MAIL_RETRY_BACKOFF_MAX_SECONDS", 1200)
MAIL_MAX_RETRIES = getattr(settings, "MAIL_MAX_RETRIES", 9)

# Publishing to the broker: a few quick tries, then the page answers honestly.
PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2}

RESET_SUBJECT_TEMPLATE = "accounts/password_reset_subject.txt"
RESET_EMAIL_TEMPLATE = "accounts/password_reset_email.txt"


class MailQueueUnavailable(Exception):
    """The mail task could not be queued; nothing will be sent."""

    code = "mail_unavailable"


class MailTask(Task):
    """Logs each failed attempt as a warning and an error when the mail is given
    up (after its retries, or at once for a permanent refusal). The address is
    named by its domain only."""

    def _where(self, args: Any, kwargs: dict[str, Any] | None) -> str:
        kwargs = kwargs or {}
        email = str(kwargs.get("email") or (kwargs.get("to") or [""])[0])
        return email.rpartition("@")[2] or "?"

    def on_retry(
        self, exc: BaseException, task_id: str, args: Any, kwargs: Any, einfo: Any
    ) -> None:
        logger.warning(
            "%s: mail to an address at %s failed (attempt %d), will retry: %s",
            self.name,
            self._where(args, kwargs),
            self.request.retries + 1,
            f"{type(exc).__name__}: {exc}",
        )

    def on_failure(
        self, exc: BaseException, task_id: str, args: Any, kwargs: Any, einfo: Any
    ) -> None:
        logger.error(
            "%s: mail to an address at %s not sent after %d attempts, given up: %s",
            self.name,
            self._where(args, kwargs),
            self.request.retries + 1,
            f"{type(exc).__name__}: {exc}",
        )


# Every mail task: retried with backoff on transient SMTP errors for about an hour,
# not on a refused recipient; acknowledged only once sent.
MAIL_TASK_OPTIONS: dict[str, Any] = {
    "autoretry_for": TRANSIENT_MAIL_ERRORS,
    "dont_autoretry_for": PERMANENT_MAIL_ERRORS,
    "retry_backoff": MAIL_RETRY_BACKOFF,
    "retry_backoff_max": MAIL_RETRY_BACKOFF_MAX,
    "retry_jitter": True,
    "max_retries": MAIL_MAX_RETRIES,
    "acks_late": True,
    "ignore_result": True,
}


@shared_task(name="privacy.apply_retention")
def apply_retention() -> dict | None:
    """Delete what ``settings.RETENTION`` keeps no longer (see accounts/retention.py)."""
    return retention.apply_retention()


@shared_task(
    bind=True,
    base=MailTask,
    name="accounts.send_password_reset",
    **MAIL_TASK_OPTIONS,
)
def send_password_reset(
    self: Task, *, email: str, domain: str, use_https: bool, language: str
) -> int:
    """Mail a reset link to every active account of ``email``; the number sent
    (0 for an address without an account)."""
    form = PasswordResetMailForm({"email": email})
    if not form.is_valid():
        return 0
    with translation.override(language):
        form.save(
            domain_override=domain,
            use_https=use_https,
            subject_template_name=RESET_SUBJECT_TEMPLATE,
            email_template_name=RESET_EMAIL_TEMPLATE,
        )
    if self.request.retries:
        logger.info("password reset mail sent after %d retries", self.request.retries)
    return form.sent


def queue_password_reset(*, email: str, domain: str, use_https: bool, language: str) -> None:
    """Queue the reset mail; ``MailQueueUnavailable`` when the broker cannot take it."""
    try:
        send_password_reset.apply_async(
            kwargs={"email": email, "domain": domain, "use_https": use_https, "language": language},
            retry=True,
            retry_policy=PUBLISH_RETRY_POLICY,
        )
    except (BrokerError, OSError) as exc:
        logger.error("password reset mail not queued, the broker is away: %s", exc)
        raise MailQueueUnavailable from exc


@shared_task(
    bind=True,
    base=MailTask,
    name="accounts.send_mail",
    **MAIL_TASK_OPTIONS,
)
def send_mail(self: Task, *, subject: str, body: str, to: list[str]) -> None:
    """One plain-text mail, written (and translated) by the request that queued it."""
    EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, to).send()


def queue_mail(*, subject: str, body: str, to: list[str]) -> bool:
    """Queue a mail with the retries above; False (an error logged) when the
    broker cannot take it."""
    try:
        send_mail.apply_async(
            kwargs={"subject": subject, "body": body, "to": to},
            retry=True,
            retry_policy=PUBLISH_RETRY_POLICY,
        )
    except (BrokerError, OSError) as exc:
        logger.error("mail %r not queued, the broker is away: %s", subject, exc)
        return False
    return True
