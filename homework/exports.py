"""The class table of an assignment as CSV and .xlsx: the same numbers as the
results API, in the conventions of the class reports (``classrooms.reports``:
``;`` and a decimal comma in Czech and Slovak, formulas never executed)."""

from zoneinfo import ZoneInfo

from django.http import HttpResponse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from classrooms import collation
from classrooms.models import Membership
from classrooms.reports import XLSX_TYPE, export, name_columns

from . import selectors
from .models import Assignment

__all__ = ["XLSX_TYPE", "results_file", "status_label"]


def status_label(status: str) -> str:
    labels: dict[str, str] = {
        "not_started": _("not started"),
        "in_progress": _("in progress"),
        "done": _("done"),
        "late": _("late"),
    }
    return labels[status]


def results_file(assignment: Assignment, fmt: str) -> HttpResponse:
    """One row per pupil in the order of a school's class list (surname, then
    first name, Czech alphabetical order), surname and first name apart and the
    pupil's identifier in the school's system or LMS, so marks paste next to a
    Bakaláři or EduPage list."""
    table = selectors.results(assignment)
    marks = bool(assignment.mark_thresholds)
    header = [
        *name_columns(),
        _("Status"),
        _("Score"),
        _("Attempts"),
        _("Time spent (s)"),
        _("Finished"),
    ]
    if marks:
        header.append(_("Mark"))
    ids = dict(
        Membership.objects.filter(
            pk__in=[row.member_id for row in table["rows"] if row.member_id]
        ).values_list("pk", "source_id")
    )
    rows = []
    for row in collation.sort_by_surname(table["rows"], lambda row: row.roster_name):
        surname, first = collation.split_name(row.roster_name)
        line = [
            surname,
            first,
            collation.external_id(ids.get(row.member_id, "")),
            status_label(row.status),
            row.score,
            row.attempts,
            row.time_spent_s,
            row.finished_at,
        ]
        if marks:
            line.append(row.mark)
        rows.append(line)
    base = slugify(f"{assignment.classroom.name}-{assignment.title}") or "homework"
    # times in the zone the teacher set the homework in, like its pages
    with timezone.override(ZoneInfo(assignment.time_zone)):
        return export(fmt, base, header, rows)
