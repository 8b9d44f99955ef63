"""The class table of an assignment as CSV and .xlsx: the same numbers as the
results API, in the conventions of the class reports (``classrooms.reports``:
``;`` and a decimal comma in Czech and Slovak, formulas never executed)."""

from zoneinfo import ZoneInfo

from django.http import HttpResponse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from classrooms.reports import XLSX_TYPE, export

from . import selectors
from .models import Assignment

__all__ = ["XLSX_TYPE", "results_file", "status_label"]


def status_label(status: str) -> str:
    return {
        "not_started": _("not started"),
        "in_progress": _("in progress"),
        "done": _("done"),
        "late": _("late"),
    }[status]


def results_file(assignment: Assignment, fmt: str) -> HttpResponse:
    table = selectors.results(assignment)
    marks = bool(assignment.mark_thresholds)
    header = [
        _("Name in the roster"),
        _("Status"),
        _("Score"),
        _("Attempts"),
        _("Time spent (s)"),
        _("Finished"),
    ]
    if marks:
        header.append(_("Mark"))
    rows = []
    for row in table["rows"]:
        line = [
            row.roster_name,
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
