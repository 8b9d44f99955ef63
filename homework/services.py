"""Writes of the homework app: one transaction per intent.

Teachers create, edit (before it opens), close and delete assignments; pupils'
games start and end through :mod:`homework.gate`, which calls ``begin_attempt``,
``attach_game`` and ``finish_attempt`` inside the game's own transaction; beat
handles deadlines with ``close_due_assignments``.
"""

from datetime import datetime
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Model, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import trust
from accounts.models import PlayerProfile, User
from classrooms.models import Classroom, Membership
from core import registry

from . import signals
from .errors import HomeworkError
from .models import Assignment, Attempt

TITLE_MAX = 120
#: Marks 1-4 need a lowest score each; 5 is everything below.
MARKS = (1, 2, 3, 4)


def _closed() -> HomeworkError:
    return HomeworkError("assignment_closed", _("This homework is not open now."), 409)


def _clean_game_settings(game: object, settings: object) -> tuple[str, dict[str, Any]]:
    spec = registry.get(str(game)) if isinstance(game, str) else None
    if spec is None or spec.assignable is None:
        raise HomeworkError("bad_game", _("This game cannot be given as homework."))
    try:
        return spec.slug, spec.assignable.clean_settings(settings if settings is not None else {})
    except ValidationError as error:
        raise HomeworkError(
            error.code or "bad_settings", " ".join(str(m) for m in error.messages)
        ) from None


def _clean_title(title: object) -> str:
    text = " ".join(str(title).split()) if isinstance(title, str) else ""
    if not text:
        raise HomeworkError("bad_title", _("Give the homework a title."))
    if len(text) > TITLE_MAX:
        raise HomeworkError(
            "bad_title",
            ngettext(
                "The title may have at most %(max)d character.",
                "The title may have at most %(max)d characters.",
                TITLE_MAX,
            )
            % {"max": TITLE_MAX},
        )
    return text


def _clean_times(
    opens_at: datetime | None, due_at: datetime | None, now: datetime
) -> tuple[datetime, datetime]:
    opens = opens_at or now
    if due_at is None:
        raise HomeworkError("bad_due_at", _("Choose when the homework is due."))
    if due_at <= opens:
        raise HomeworkError("bad_due_at", _("The deadline must come after the homework opens."))
    if due_at <= now:
        raise HomeworkError("bad_due_at", _("The deadline must be in the future."))
    return opens, due_at


DEFAULT_TIME_ZONE = "Europe/Prague"


def clean_time_zone(value: object) -> str:
    """An IANA time zone name (what the browser's ``Intl`` reports); empty: Prague."""
    if value in (None, ""):
        return DEFAULT_TIME_ZONE
    if not isinstance(value, str) or len(value) > 64 or value not in _zones():
        raise HomeworkError("bad_time_zone", _("Unknown time zone."))
    return value


def _zones() -> set[str]:
    global _ZONES
    if _ZONES is None:
        import zoneinfo

        _ZONES = set(zoneinfo.available_timezones())
    return _ZONES


_ZONES: set[str] | None = None


def clean_marks(thresholds: object) -> list[int] | None:
    """``[lowest score for 1, for 2, for 3, for 4]``, falling; None: no marks."""
    if thresholds in (None, [], ""):
        return None
    if (
        not isinstance(thresholds, list)
        or len(thresholds) != len(MARKS)
        or any(type(value) is not int for value in thresholds)
        or any(a <= b for a, b in zip(thresholds, thresholds[1:], strict=False))
    ):
        raise HomeworkError(
            "bad_marks",
            _("Give the lowest score for the marks 1, 2, 3 and 4, each lower than the one before."),
        )
    return thresholds


#: The highest "full marks" point a teacher may set.
FULL_MARKS_MAX = 1_000_000


def clean_full_marks(value: object) -> int | None:
    """The score that counts as full marks (a whole number from 1); None: the game's default."""
    if value in (None, ""):
        return None
    if type(value) is not int or not 1 <= value <= FULL_MARKS_MAX:
        raise HomeworkError(
            "bad_full_marks",
            _("Full marks must be a whole number from 1 to %(max)d, or empty for the default.")
            % {"max": FULL_MARKS_MAX},
        )
    return value


def create_assignment(
    *,
    classroom: Classroom,
    user: User,
    game: object,
    title: object,
    settings: object,
    opens_at: datetime | None,
    due_at: datetime | None,
    attempts: str = str(Assignment.Attempts.FIRST),
    late: bool = False,
    table_visible: bool = False,
    practice: bool = False,
    reviews_visible: bool = False,
    mail_summary: bool = False,
    mark_thresholds: object = None,
    full_marks: object = None,
    time_zone: object = None,
    language: str = "",
    now: datetime | None = None,
) -> Assignment:
    """A new assignment of ``classroom`` (the caller checked that ``user`` teaches it);
    pupils see it, so only an account whose address is proved sets one (``accounts.trust``)."""
    trust.require_verified(user, HomeworkError)
    now = now or timezone.now()
    slug, cleaned = _clean_game_settings(game, settings)
    opens, due = _clean_times(opens_at, due_at, now)
    if attempts not in Assignment.Attempts.values:
        raise HomeworkError("bad_attempts", _("Choose which attempt counts."))
    made: Assignment = Assignment.objects.create(
        classroom=classroom,
        game=slug,
        title=_clean_title(title),
        settings=cleaned,
        opens_at=opens,
        due_at=due,
        attempts=attempts,
        late=bool(late),
        table_visible=bool(table_visible),
        practice=bool(practice),
        reviews_visible=bool(reviews_visible),
        mail_summary=bool(mail_summary),
        mark_thresholds=clean_marks(mark_thresholds),
        full_marks=clean_full_marks(full_marks),
        time_zone=clean_time_zone(time_zone),
        created_by=user,
        language=language[:8],
        created_at=now,
    )
    return made


#: What may change once the assignment has opened (pupils may be playing it):
#: nothing that changes the game or who counts, only what is shown and when it ends.
CHANGEABLE_AFTER_OPENING = {
    "title",
    "due_at",
    "late",
    "table_visible",
    "reviews_visible",
    "mail_summary",
    "mark_thresholds",
    "full_marks",
    "time_zone",
}


def update_assignment(
    *, assignment_id: int, changes: dict[str, Any], now: datetime | None = None
) -> Assignment:
    """Change an assignment. Before it opens everything may change; after, only
    ``CHANGEABLE_AFTER_OPENING`` (the game and its deck are what pupils play)."""
    now = now or timezone.now()
    with transaction.atomic():
        assignment: Assignment = Assignment.objects.select_for_update().get(pk=assignment_id)
        if assignment.closed_at is not None:
            raise HomeworkError("assignment_closed", _("This homework is closed."), 409)
        if assignment.opens_at <= now:
            frozen = sorted(set(changes) - CHANGEABLE_AFTER_OPENING)
            if frozen:
                raise HomeworkError(
                    "already_open",
                    _("The homework has opened: its game, settings and attempts stay as they are."),
                    409,
                )
        if "game" in changes or "settings" in changes:
            assignment.game, assignment.settings = _clean_game_settings(
                changes.get("game", assignment.game),
                changes.get("settings", assignment.settings),
            )
        if "title" in changes:
            assignment.title = _clean_title(changes["title"])
        if "opens_at" in changes or "due_at" in changes:
            opens = changes.get("opens_at", assignment.opens_at)
            due = changes.get("due_at", assignment.due_at)
            if "opens_at" in changes and changes["opens_at"] is None:
                opens = now
            assignment.opens_at, assignment.due_at = _clean_times(opens, due, now)
            assignment.deadline_done_at = None
        if "attempts" in changes:
            if changes["attempts"] not in Assignment.Attempts.values:
                raise HomeworkError("bad_attempts", _("Choose which attempt counts."))
            assignment.attempts = changes["attempts"]
        for flag in ("late", "table_visible", "practice", "reviews_visible", "mail_summary"):
            if flag in changes:
                setattr(assignment, flag, bool(changes[flag]))
        grading = (assignment.mark_thresholds, assignment.full_marks)
        if "mark_thresholds" in changes:
            assignment.mark_thresholds = clean_marks(changes["mark_thresholds"])
        if "full_marks" in changes:
            assignment.full_marks = clean_full_marks(changes["full_marks"])
        if "time_zone" in changes:
            assignment.time_zone = clean_time_zone(changes["time_zone"])
        assignment.save()
        if grading != (assignment.mark_thresholds, assignment.full_marks):
            # what the LMS gradebook shows changes for everyone who played
            pk = assignment.pk
            transaction.on_commit(
                lambda: signals.grading_changed.send(sender=Assignment, assignment_id=pk)
            )
    return assignment


def close_assignment(*, assignment_id: int, now: datetime | None = None) -> Assignment:
    """Close now (idempotent): no more play; an unfinished game stays as it is."""
    now = now or timezone.now()
    with transaction.atomic():
        assignment: Assignment = Assignment.objects.select_for_update().get(pk=assignment_id)
        if assignment.closed_at is None:
            assignment.closed_at = now
            assignment.save(update_fields=["closed_at"])
    return assignment


def mark_lms_linked(*, assignment_id: int) -> None:
    """An LMS links to this homework: its finished attempts' grades are looked for."""
    Assignment.objects.filter(pk=assignment_id, lms_linked=False).update(lms_linked=True)


def delete_assignment(*, assignment_id: int) -> None:
    """The assignment and its attempts go; the games played stay the pupils' own."""
    Assignment.objects.filter(pk=assignment_id).delete()


# --- pupils' attempts (called by the gate inside the game's transaction) -----------


def is_open(assignment: Assignment, now: datetime) -> bool:
    if assignment.closed_at is not None or now < assignment.opens_at:
        return False
    open_now: bool = now < assignment.due_at or assignment.late
    return open_now


M = TypeVar("M", bound=Model)


def unique_or_none(queryset: QuerySet[M]) -> M | None:
    """The row of a lookup on a unique key, or None: what ``first()`` finds,
    without the ordering it compiles and sends (the model's default ordering,
    ``-due_at`` for homework) -- a start's and an end's lookups (issue 41)."""
    return next(iter(queryset.order_by()[:1]), None)


def _member_of(assignment: Assignment, player: PlayerProfile) -> Membership | None:
    from django.db.models import Q

    member: Membership | None = (
        Membership.objects.filter(
            Q(player=player) | Q(other_players=player),
            classroom_id=assignment.classroom_id,
            status=Membership.Status.APPROVED,
        )
        .order_by("pk")
        .first()
    )
    return member


def begin_attempt(
    *, game: str, assignment_id: object, player: PlayerProfile | None, now: datetime
) -> registry.AssignmentTicket:
    """Start (or continue) the player's attempt. Must run inside a transaction:
    the assignment row is locked so two tabs starting at once decide one after
    the other whether their attempt counts."""
    not_found = registry.AssignmentRefused(
        "not_found", _("This homework does not exist or is not for you."), 404
    )
    if player is None or type(assignment_id) is not int:
        raise not_found
    assignment = unique_or_none(
        Assignment.objects.select_for_update().filter(pk=assignment_id, game=game)
    )
    if assignment is None:
        raise not_found
    member = _member_of(assignment, player)
    if member is None:
        raise not_found
    if not is_open(assignment, now):
        raise registry.AssignmentRefused(
            "assignment_closed", _("This homework is not open now."), 409
        )
    unfinished = (
        Attempt.objects.filter(assignment=assignment, player=player, finished_at__isnull=True)
        .exclude(ref="")
        .order_by("-started_at")
        .first()
    )
    if unfinished is not None:
        return _ticket(assignment, unfinished, resume=unfinished.ref)
    earlier = Attempt.objects.filter(assignment=assignment, member=member, counted=True)
    counted = assignment.attempts != Assignment.Attempts.FIRST or not earlier.exists()
    if not counted and not assignment.practice:
        raise registry.AssignmentRefused(
            "attempt_used", _("You have already played this homework."), 409
        )
    attempt = Attempt.objects.create(
        assignment=assignment, member=member, player=player, counted=counted, started_at=now
    )
    return _ticket(assignment, attempt)


def deck_key(assignment: Assignment, number: int) -> str:
    """What the game derives the deck of a pupil's ``number``-th attempt from:
    the class's first deck for everyone's first attempt, its second deck for
    everyone's second, ... -- a retry is never a replay of a deck already seen,
    and attempt *k* is still the same game for the whole class."""
    if number <= 1:
        return assignment.deck_key
    return f"{assignment.deck_key}:attempt:{number}"


def _ticket(
    assignment: Assignment, attempt: Attempt, resume: str | None = None
) -> registry.AssignmentTicket:
    number = Attempt.objects.filter(
        assignment=assignment, member_id=attempt.member_id, pk__lte=attempt.pk
    ).count()
    return registry.AssignmentTicket(
        attempt_id=attempt.pk,
        assignment_id=assignment.pk,
        settings=dict(assignment.settings),
        key=deck_key(assignment, number),
        counted=attempt.counted,
        hints=assignment.practice,
        resume=resume,
    )


def attach_game(*, attempt_id: int, ref: str) -> None:
    Attempt.objects.filter(pk=attempt_id).update(ref=ref)


def finish_attempt(*, game: str, ref: str, result: Any) -> None:
    """The game ``ref`` ended with ``result`` (a ``GameResult``): store what the
    class table shows, in the game's transaction."""
    attempt = unique_or_none(
        Attempt.objects.select_for_update()
        .select_related("assignment")
        .filter(ref=ref, assignment__game=game, finished_at__isnull=True)
    )
    if attempt is None:
        return
    spec = registry.get(game)
    scoring = spec.assignable.score if spec is not None and spec.assignable else None
    attempt.finished_at = result.finished_at
    attempt.score = scoring(result) if scoring is not None else result.score
    attempt.duration_s = (result.details or {}).get("duration_s")
    if attempt.duration_s is None and result.finished_at and attempt.started_at:
        # a game that keeps no clock of its own: from the start of the attempt
        elapsed = (result.finished_at - attempt.started_at).total_seconds()
        attempt.duration_s = round(max(elapsed, 0.0), 1)
    attempt.record_id = result.record_id
    # Late: finished after the deadline, or after the teacher closed the
    # homework (a game started before closing and finished afterwards).
    closed_at = attempt.assignment.closed_at
    attempt.late = result.finished_at > attempt.assignment.due_at or (
        closed_at is not None and result.finished_at > closed_at
    )
    attempt.save(update_fields=["finished_at", "score", "duration_s", "record", "late"])
    attempt_id, lms_linked = attempt.pk, attempt.assignment.lms_linked
    transaction.on_commit(
        lambda: signals.attempt_finished.send(
            sender=Attempt, attempt_id=attempt_id, lms_linked=lms_linked
        )
    )


# --- the deadline (Celery beat) -------------------------------------------------------


def close_due_assignments(*, now: datetime | None = None) -> list[int]:
    """Every assignment whose deadline passed and was not handled yet: closed
    (unless late play is allowed), marked handled; returns their ids, for the
    summary mails. Safe to run from several beats at once (rows are skipped
    when another run holds them)."""
    now = now or timezone.now()
    handled: list[int] = []
    with transaction.atomic():
        due = Assignment.objects.select_for_update(skip_locked=True).filter(
            deadline_done_at__isnull=True, due_at__lte=now
        )
        for assignment in due:
            assignment.deadline_done_at = now
            if assignment.closed_at is None and not assignment.late:
                assignment.closed_at = assignment.due_at
            assignment.save(update_fields=["deadline_done_at", "closed_at"])
            handled.append(assignment.pk)
    return handled
