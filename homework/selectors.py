"""Reads of the homework app: who may see what, the class table of an assignment."""

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils import timezone

from accounts.models import PlayerProfile, User
from classrooms import selectors as class_selectors
from classrooms.models import Classroom, Membership
from core import registry

from .models import Assignment, Attempt

STATUSES = ("not_started", "in_progress", "done", "late")


def teacher_assignment(user: User | AnonymousUser, pk: object) -> Assignment:
    """The assignment if ``user`` teaches its class (owner or accepted
    co-teacher), else 404 -- never 403, ids must not leak."""
    try:
        key = int(str(pk))
    except ValueError:
        raise Http404("No such homework.") from None
    assignment = (
        Assignment.objects.filter(
            pk=key, classroom__in=class_selectors.classes_for_teacher(user).values("pk")
        )
        .select_related("classroom")
        .first()
    )
    if assignment is None:
        raise Http404("No such homework.")
    found: Assignment = assignment
    return found


def class_assignments(classroom: Classroom) -> QuerySet[Assignment]:
    return classroom.assignments.order_by("-due_at", "-pk")


def open_for_pupil(
    player: PlayerProfile | None, classroom: Classroom, now: datetime
) -> list[dict[str, Any]]:
    """The class's assignments a pupil sees on the class page: opened, not
    closed, with their own state (score, review allowed)."""
    if player is None:
        return []
    assignments = list(classroom.assignments.filter(opens_at__lte=now).order_by("due_at", "pk"))
    if not assignments:
        return []
    member = (
        Membership.objects.filter(
            Q(player=player) | Q(other_players=player),
            classroom=classroom,
            status=Membership.Status.APPROVED,
        )
        .order_by("pk")
        .first()
    )
    attempts: dict[int, list[Attempt]] = defaultdict(list)
    if member is not None:
        for attempt in Attempt.objects.filter(assignment__in=assignments, member=member):
            attempts[attempt.assignment_id].append(attempt)
    items = []
    for assignment in assignments:
        row = pick(assignment, attempts[assignment.pk])
        playable = assignment.closed_at is None and (now < assignment.due_at or assignment.late)
        if not playable and row.status == "not_started" and assignment.due_at < now:
            if (now - assignment.due_at).days > 14:
                continue
        over = assignment.closed_at is not None or (
            assignment.due_at <= now and not assignment.late
        )
        items.append(
            {
                "assignment": assignment,
                "row": row,
                "playable": playable,
                "late_now": playable and now >= assignment.due_at,
                "review_ref": row.ref if assignment.reviews_visible and over else None,
                "table_visible": assignment.table_visible and over,
            }
        )
    return items


@dataclass
class Row:
    """One roster entry's line of the class table."""

    member_id: int | None = None
    roster_name: str = ""
    status: str = "not_started"
    score: int | None = None
    attempts: int = 0
    time_spent_s: float | None = None
    finished_at: datetime | None = None
    attempt_id: int | None = None
    ref: str = ""
    mark: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def pick(assignment: Assignment, attempts: list[Any]) -> Row:
    """The member's row from their attempts, by the assignment's policy:
    practice attempts never count; "first" takes the first counted game, "best"
    the highest finished score (earlier wins a tie), "last" the latest finish."""
    row = Row(attempts=len(attempts))
    spent = [a.duration_s for a in attempts if a.finished_at is not None and a.duration_s]
    row.time_spent_s = round(sum(spent), 1) if spent else None
    counted = [a for a in attempts if a.counted]
    if not counted:
        return row
    finished = [a for a in counted if a.finished_at is not None]
    if not finished:
        row.status = "in_progress"
        return row
    if assignment.attempts == Assignment.Attempts.BEST:
        chosen = max(finished, key=lambda a: (a.score or 0, -a.finished_at.timestamp()))
    elif assignment.attempts == Assignment.Attempts.LAST:
        chosen = max(finished, key=lambda a: (a.finished_at, a.pk))
    else:
        chosen = min(counted, key=lambda a: (a.started_at, a.pk))
        if chosen.finished_at is None:
            row.status = "in_progress"
            return row
    row.status = "late" if chosen.late else "done"
    row.score = chosen.score
    row.finished_at = chosen.finished_at
    row.attempt_id = chosen.pk
    row.ref = chosen.ref
    row.mark = mark_for(assignment, chosen.score)
    return row


def mark_for(assignment: Assignment, score: int | None) -> int | None:
    thresholds = assignment.mark_thresholds
    if not thresholds or score is None:
        return None
    for mark, lowest in enumerate(thresholds, start=1):
        if score >= lowest:
            return mark
    return 5


#: Full marks of a game that states no default (a percentage score).
DEFAULT_FULL_MARKS = 100


def full_marks(assignment: Assignment) -> int:
    """The score that counts as full marks: the teacher's, else the game's
    default for the homework's settings (``Assignable.full_marks``), else 100."""
    if assignment.full_marks:
        return int(assignment.full_marks)
    spec = registry.get(assignment.game)
    default = spec.assignable.full_marks if spec is not None and spec.assignable else None
    if default is not None:
        return max(1, int(default(assignment.settings or {})))
    return DEFAULT_FULL_MARKS


def settings_in_words(assignment: Assignment) -> list[tuple[str, str]]:
    """The game's settings as (label, value) in the page's language, from the
    game's own form fields (``Assignable.setting_fields``): never a raw key."""
    spec = registry.get(assignment.game)
    if spec is None or spec.assignable is None:
        return []
    words = []
    settings = assignment.settings or {}
    for name, label, choices, _default in spec.assignable.setting_fields():
        value = settings.get(name)
        if value in (None, ""):
            continue
        if choices is not None:
            value = next((text for key, text in choices if key == value), value)
        words.append((str(label), str(value)))
    return words


def roster_for(classroom: Classroom) -> list[Membership]:
    """Every roster entry (pending claims are not entries yet)."""
    return list(
        classroom.members.filter(status=Membership.Status.APPROVED, claim_of__isnull=True).order_by(
            "roster_name", "pk"
        )
    )


#: What ``pick`` reads of an attempt: fetched as plain named tuples (no model
#: instances), which is most of what the class page's homework card cost.
PICK_FIELDS = (
    "pk",
    "assignment_id",
    "member_id",
    "counted",
    "started_at",
    "finished_at",
    "late",
    "score",
    "duration_s",
    "ref",
)


def _attempt_rows(**filters: object) -> QuerySet[Any]:
    return (
        Attempt.objects.filter(**filters)
        .order_by("started_at", "pk")
        .values_list(*PICK_FIELDS, named=True)
    )


def results(assignment: Assignment, *, roster: list[Membership] | None = None) -> dict[str, Any]:
    """The class table: one row per roster entry, the class average and the
    finished scores (for the distribution chart)."""
    roster = roster if roster is not None else roster_for(assignment.classroom)
    by_member: dict[int, list[Any]] = defaultdict(list)
    for attempt in _attempt_rows(assignment=assignment):
        by_member[attempt.member_id].append(attempt)
    rows = []
    for member in roster:
        row = pick(assignment, by_member.get(member.pk, []))
        row.member_id = member.pk
        row.roster_name = member.roster_name
        rows.append(row)
    scores = [row.score for row in rows if row.score is not None]
    return {
        "rows": rows,
        "scores": scores,
        "average": round(sum(scores) / len(scores), 1) if scores else None,
        "counts": {status: sum(1 for row in rows if row.status == status) for status in STATUSES},
    }


def class_table(classroom: Classroom) -> list[dict[str, Any]]:
    """Every assignment of the class with its results (the class page's overview)."""
    roster = roster_for(classroom)
    assignments = list(class_assignments(classroom))
    by_assignment: dict[int, dict[int, list[Any]]] = defaultdict(lambda: defaultdict(list))
    if assignments:
        for attempt in _attempt_rows(assignment_id__in=[a.pk for a in assignments]):
            by_assignment[attempt.assignment_id][attempt.member_id].append(attempt)
    table = []
    for assignment in assignments:
        attempts = by_assignment[assignment.pk]
        rows = [pick(assignment, attempts.get(member.pk, [])) for member in roster]
        scores = [row.score for row in rows if row.score is not None]
        table.append(
            {
                "assignment": assignment,
                "done": len(scores),
                "members": len(roster),
                "average": round(sum(scores) / len(scores), 1) if scores else None,
            }
        )
    return table


def summary_mail(assignment_id: int) -> dict[str, Any] | None:
    """What the teacher's summary mail says, or None when no mail is wanted."""
    assignment = (
        Assignment.objects.filter(pk=assignment_id, mail_summary=True)
        .select_related("classroom", "created_by")
        .first()
    )
    if assignment is None or assignment.created_by is None or not assignment.created_by.email:
        return None
    table = results(assignment)
    return {
        "assignment": assignment,
        "email": assignment.created_by.email,
        "language": assignment.language,
        "average": table["average"],
        "counts": table["counts"],
        "members": len(table["rows"]),
        "now": timezone.now(),
    }


def state(assignment: Assignment, now: datetime | None = None) -> str:
    """scheduled, open, late (past the deadline, late play allowed) or closed."""
    now = now or timezone.now()
    if assignment.closed_at is not None:
        return "closed"
    if now < assignment.opens_at:
        return "scheduled"
    if now < assignment.due_at:
        return "open"
    return "late" if assignment.late else "closed"
