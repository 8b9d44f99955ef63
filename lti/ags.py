"""Grades back (Assignment and Grade Services 2.0): a finished homework game's
counted score goes to the link's line item ``/scores``.

``homework`` announces a finished attempt (``homework.signals.attempt_finished``,
after its transaction commits); this module marks one grade per linked
gradebook column and ``lti.tasks`` queues one Celery task for each. The task
reads the pupil's counted score by the assignment's policy (first, best,
last: ``homework.selectors.pick``) when it runs, so a retried or late send
still posts the score that counts now.

What is sent (docs/lti.md, "Grades"): ``scoreMaximum`` is the same constant for
every send of every line item (``deep_linking.score_maximum``, 100) and
``scoreGiven`` the pupil's share of the homework's full marks on it
(``score_given``): never above the maximum, in the class's order, equal only at or
above full marks. The ``comment`` holds the Matika score and, when the homework
has marks, the mark -- the one the class table and its .xlsx show
(``homework.selectors.pick``).
"""

import logging
from datetime import UTC, datetime
from urllib.parse import urlsplit, urlunsplit

from django.utils import timezone, translation
from django.utils.translation import gettext as _

from homework import selectors as homework_selectors
from homework.models import Assignment, Attempt

from . import net, tokens
from .deep_linking import score_maximum
from .models import GradeSend, Person, ResourceLink
from .registration import SCOPE_SCORE

logger = logging.getLogger(__name__)

SCORE_TYPE = "application/vnd.ims.lis.v1.score+json"


def scores_url(lineitem: str) -> str:
    """The line item's path + ``/scores``, its query kept (Moodle's ``?type_id=1``)."""
    parts = urlsplit(lineitem)
    return urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/scores"))


def _person_of(attempt: Attempt, platform_id: int) -> Person | None:
    if attempt.player_id is not None:
        person = Person.objects.filter(platform_id=platform_id, player_id=attempt.player_id).first()
        if person is not None:
            return person
    member_source = attempt.member.source_id
    if member_source.startswith("lti:"):
        return Person.objects.filter(platform_id=platform_id, sub=member_source[4:]).first()
    return None


def grades_to_send(attempt_id: int) -> list[int]:
    """A finished attempt: its pupil's grade of every linked gradebook column,
    marked pending; the ids to send (``tasks.on_attempt_finished`` queues them)."""
    attempt = Attempt.objects.select_related("member", "assignment").filter(pk=attempt_id).first()
    if attempt is None:
        return []
    grade_ids = []
    links = (
        ResourceLink.objects.filter(
            assignment_id=attempt.assignment_id,
            course__classroom_id=attempt.assignment.classroom_id,
        )
        .exclude(lineitem_url="")
        .select_related("course__deployment")
    )
    for link in links:
        person = _person_of(attempt, link.course.deployment.platform_id)
        if person is None:
            continue
        grade, _created = GradeSend.objects.get_or_create(
            link=link, member=attempt.member, defaults={"person": person}
        )
        GradeSend.objects.filter(pk=grade.pk).update(
            status=GradeSend.Status.PENDING, updated_at=timezone.now(), error=""
        )
        grade_ids.append(grade.pk)
    return grade_ids


def grades_to_resend(assignment_id: int) -> list[int]:
    """Full marks or marks changed: every grade of the homework goes again
    (marked pending; ``tasks.on_grading_changed`` queues them)."""
    pending = GradeSend.objects.filter(link__assignment_id=assignment_id)
    ids = list(pending.values_list("pk", flat=True))
    if ids:
        pending.update(status=GradeSend.Status.PENDING, updated_at=timezone.now(), error="")
    return ids


def counted_row(grade: GradeSend) -> homework_selectors.Row:
    """The pupil's row of the class table (score and mark), as the exports have it."""
    link = grade.link
    attempts = list(Attempt.objects.filter(assignment_id=link.assignment_id, member=grade.member))
    return homework_selectors.pick(link.assignment, attempts)


def counted_score(grade: GradeSend) -> int | None:
    return counted_row(grade).score


#: Decimals of ``scoreGiven`` (Moodle keeps five).
GRADE_DECIMALS = 4


def score_given(score: int, full_marks: int, maximum: int) -> float:
    """``scoreGiven`` on ``maximum`` for a Matika score: the share of full marks,
    0 to ``maximum``; a higher score gives a higher grade up to full marks."""
    share = min(max(score, 0), full_marks) / max(full_marks, 1)
    return round(maximum * share, GRADE_DECIMALS)


def comment(assignment: Assignment, score: int, mark: int | None) -> str:
    """What the gradebook shows beside the grade, in the homework's language."""
    with translation.override(assignment.language or "cs"):
        # (gettext outside the f-strings: xgettext does not read inside them)
        score_word, mark_word = _("Score"), _("Mark")
        parts = [f"{score_word}: {score}"]
        if mark is not None:
            parts.insert(0, f"{mark_word}: {mark}")
        return " · ".join(parts)


def send(grade_id: int) -> str:
    """Post the score once; returns the new status. Raises ``tokens.ServiceError``
    with ``transient`` set when trying again later may help."""
    grade = (
        GradeSend.objects.select_related(
            "link__assignment", "link__course__deployment__platform", "person", "member"
        )
        .filter(pk=grade_id)
        .first()
    )
    if grade is None:
        return "gone"
    row = counted_row(grade)
    score = row.score
    if score is None:
        GradeSend.objects.filter(pk=grade.pk).update(
            status=GradeSend.Status.PENDING, error="no counted score yet", updated_at=timezone.now()
        )
        return "nothing"
    platform = grade.link.course.deployment.platform
    assignment = grade.link.assignment
    maximum = score_maximum(assignment)
    body = {
        "userId": grade.person.sub,
        "scoreGiven": score_given(score, homework_selectors.full_marks(assignment), maximum),
        "scoreMaximum": maximum,
        "comment": comment(assignment, score, row.mark),
        "activityProgress": "Completed",
        "gradingProgress": "FullyGraded",
        "timestamp": datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
    }
    GradeSend.objects.filter(pk=grade.pk).update(tries=grade.tries + 1)
    token = tokens.access_token(platform, [SCOPE_SCORE])
    try:
        response = net.post(
            scores_url(grade.link.lineitem_url),
            json=body,
            headers={"Authorization": f"Bearer {token}", "Content-Type": SCORE_TYPE},
        )
    except net.PlatformError as error:
        raise tokens.ServiceError(error.code, error.detail, transient=True) from None
    if response.status_code == 401:
        tokens.forget(platform, [SCOPE_SCORE])
        raise tokens.ServiceError("unauthorised", "HTTP 401", transient=True)
    if response.status_code == 409:
        # AGS: the platform refuses a score not newer than the one it holds. Only
        # this tool posts this user's score on this line item, so a newer one is our
        # own other post of this grade (an attempt finished while the full marks
        # changed), computed from the same rows; that post records the row.
        return "superseded"
    if response.status_code == 429 or response.status_code >= 500:
        raise tokens.ServiceError("platform_busy", f"HTTP {response.status_code}", transient=True)
    if response.status_code not in (200, 201, 202, 204):
        raise tokens.ServiceError("score_refused", f"HTTP {response.status_code}")
    GradeSend.objects.filter(pk=grade.pk).update(
        status=GradeSend.Status.SENT,
        score=score,
        error="",
        sent_at=timezone.now(),
        updated_at=timezone.now(),
    )
    return "sent"


def mark_failed(grade_id: int, error: str) -> None:
    GradeSend.objects.filter(pk=grade_id).update(
        status=GradeSend.Status.FAILED, error=error[:255], updated_at=timezone.now()
    )
