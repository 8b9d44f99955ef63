"""Results pages and their exports: per class, per game session, per student.

Each table on a page has a CSV and an Excel (.xlsx) twin built from the same
rows, so an export never disagrees with what the teacher sees. CSV follows the
page language's spreadsheet conventions (Czech and Slovak Excel expect ``;``
between cells and a decimal comma; English a comma and a decimal point), so a
double-click opens columns, not one long line.

Sessions the host stopped early are left out of averages and trends by
default (``?all=1`` counts them); a game that ran to its end counts for every
class member who played in it, an incomplete board marked with how far it got;
guests who are not class members are listed apart and counted nowhere (see
classrooms/selectors.py).
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.safestring import SafeString
from django.utils.text import slugify
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from accounts.requests import PlayerRequest
from classrooms import collation, selectors
from classrooms.charts import Series, line_chart
from classrooms.models import Classroom, Membership
from core import registry as game_registry
from games.models import GameRecord

if TYPE_CHECKING:
    from classrooms.selectors import Session

# Cells starting like a formula are run by spreadsheets; a leading apostrophe
# keeps a student's typed name from becoming one (CSV injection). In .xlsx the
# cell is written as a plain string instead, which no spreadsheet evaluates.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

# Languages whose spreadsheets use a decimal comma, hence ";" between cells.
DECIMAL_COMMA = ("cs", "sk")

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _show_all(request: HttpRequest) -> bool:
    return request.GET.get("all") == "1"


def _cell(value: object, decimal_comma: bool = False) -> str | int | float:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return _stamp(value)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return str(value).replace(".", ",") if decimal_comma else value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_conventions(language: str | None = None) -> tuple[str, bool]:
    """(separator, decimal comma?) for CSV in the given (default: active) language."""
    code = (language or get_language() or "en").split("-")[0]
    return (";", True) if code in DECIMAL_COMMA else (",", False)


def csv_response(filename: str, header: list[str], rows: Iterable[list]) -> HttpResponse:
    # UTF-8 with a byte-order mark: spreadsheet programs then read č, ř, ľ correctly.
    separator, decimal_comma = csv_conventions()
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")
    writer = csv.writer(response, delimiter=separator)
    writer.writerow(header)
    for row in rows:
        writer.writerow([_cell(value, decimal_comma) for value in row])
    return response


def xlsx_response(filename: str, header: list[str], rows: Iterable[list]) -> HttpResponse:
    """The same table as an Excel workbook: numbers as numbers, times as dates."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = filename.rsplit(".", 1)[0][:31] or "results"
    sheet.append(header)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    widths = [len(str(title)) for title in header]
    for row_number, row in enumerate(rows, start=2):
        for column, value in enumerate(row, start=1):
            cell = sheet.cell(row=row_number, column=column)
            if isinstance(value, datetime):
                cell.value = timezone.localtime(value).replace(tzinfo=None, microsecond=0)
                cell.number_format = "yyyy-mm-dd hh:mm"
                width = 16
            elif isinstance(value, int | float) and not isinstance(value, bool):
                cell.value = value
                width = len(str(value))
            else:
                text = "" if value is None else str(value)
                cell.value = text
                cell.data_type = "s"  # never a formula, whatever the text starts with
                width = len(text)
            if column <= len(widths):
                widths[column - 1] = max(widths[column - 1], width)
    for index, width in enumerate(widths):
        sheet.column_dimensions[sheet.cell(row=1, column=index + 1).column_letter].width = min(
            60, width + 2
        )
    sheet.freeze_panes = "A2"
    buffer = io.BytesIO()
    workbook.save(buffer)
    response = HttpResponse(buffer.getvalue(), content_type=XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def export(
    fmt: str, base: str, header: list[str], rows: Iterable[list], *, noted: bool = False
) -> HttpResponse:
    """CSV or .xlsx of one table. With ``noted`` the last column is a note (left,
    removed, not finished), kept only when some row has one."""
    rows = list(rows)
    if noted and not any(row[-1] for row in rows):
        header, rows = header[:-1], [row[:-1] for row in rows]
    if fmt == "xlsx":
        return xlsx_response(f"{base}.xlsx", header, rows)
    return csv_response(f"{base}.csv", header, rows)


def _stamp(moment: datetime | None) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M") if moment else ""


def _short(moment: datetime | None) -> str:
    return date_format(timezone.localtime(moment), "j. n.") if moment else ""


def x_labels(moments: list) -> list[str]:
    """Chart labels: the date, and for a day with several games also the time
    ("1. 12. 10:05"); games in the same minute get an index ("1. 12. 10:05 (2)")."""
    days = Counter(_short(moment) for moment in moments)
    labels = []
    for moment in moments:
        day = _short(moment)
        if days[day] > 1:
            day = f"{day} {timezone.localtime(moment):%H:%M}"
        labels.append(day)
    seen: Counter = Counter()
    repeated = Counter(labels)
    numbered = []
    for label in labels:
        seen[label] += 1
        numbered.append(f"{label} ({seen[label]})" if repeated[label] > 1 else label)
    return numbered


def name_columns() -> list[str]:
    """The columns that name a pupil in every list export: surname and first name
    apart (a school system's list pastes beside them) and the pupil's identifier
    there (OneRoster sourcedId or the LMS's user id, ``collation.external_id``)."""
    return [_("Surname"), _("First name"), _("ID in the school system")]


def name_cells(member: Membership | None) -> list[str]:
    if member is None:
        return ["", "", ""]
    surname, first = collation.split_name(member.roster_name)
    return [surname, first, collation.external_id(member.source_id)]


def _base_name(classroom: Classroom) -> str:
    return slugify(classroom.name) or f"class-{classroom.pk}"


def history_chart(history: selectors.History) -> SafeString:
    rows = history.shown
    return line_chart(
        title=_("Score in each game"),
        x_labels=x_labels([row.record.started_at for row in rows]),
        series=[Series(_("Score"), [row.result.score for row in rows])],
        empty_text=_("No games played yet."),
    )


def sessions_chart(sessions: list[Session]) -> SafeString:
    ordered = list(reversed(sessions))
    return line_chart(
        title=_("Scores per game session"),
        x_labels=x_labels([record.started_at for record in ordered]),
        series=[
            Series(
                _("Average"),
                [
                    round(r.average_score, 1) if r.average_score is not None else None
                    for r in ordered
                ],
            ),
            Series(_("Best"), [r.best_score for r in ordered]),
        ],
        empty_text=_("No games played yet."),
    )


def departure_text(departure: str) -> str:
    if departure == "kicked":
        return pgettext("result note", "removed by the host")
    if departure == "left":
        return pgettext("result note", "left the game")
    return ""


def mode_name(record: GameRecord) -> str:
    """The mode as the game names it in the page's language ("skupinová hra", not "group")."""
    spec = game_registry.get(record.game)
    return spec.mode_name(record.mode) if spec else record.mode


def progress_text(progress: selectors.Progress | None) -> str:
    """How far an incomplete board got: "12 cells filled, 13 numbers missed"
    (the numbers only when some were missed)."""
    if progress is None:
        return ""
    filled = ngettext("%(count)s cell filled", "%(count)s cells filled", progress.filled) % {
        "count": progress.filled
    }
    if not progress.missed:
        return filled
    missed = ngettext("%(count)s number missed", "%(count)s numbers missed", progress.missed) % {
        "count": progress.missed
    }
    return f"{filled}, {missed}"


def _note(
    *,
    finished: bool,
    completed: bool,
    departure: str = "",
    progress: selectors.Progress | None = None,
    guest: bool = False,
) -> str:
    notes = []
    if guest:
        notes.append(pgettext("result note", "guest, not in the class"))
    if departure:
        notes.append(departure_text(departure))
    elif not finished:
        notes.append(_("not finished"))
    elif not completed:
        board = pgettext("result note", "board not completed")
        shown = progress_text(progress)
        notes.append(f"{board}: {shown}" if shown else board)
    return "; ".join(notes)


# --- class overview ----------------------------------------------------------------


@login_required
def class_results(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    show_all = _show_all(request)
    sessions = list(selectors.class_sessions(classroom, include_unfinished=show_all))
    rows = selectors.participation(classroom, include_unfinished=show_all)
    return render(
        request,
        "classrooms/results.html",
        {
            "classroom": classroom,
            "sessions": sessions,
            "show_all": show_all,
            "query": "?all=1" if show_all else "",
            "unfinished": selectors.unfinished_count(classroom),
            "participation": [(row, row.share(len(sessions))) for row in rows],
            "chart": sessions_chart(sessions),
        },
    )


def _session_rows(sessions: list[Session]) -> list[list]:
    return [
        [
            record.started_at,
            record.game_name,
            mode_name(record),
            record.player_count,
            record.guest_count,
            round(record.average_score, 1) if record.average_score is not None else None,
            record.best_score,
            _note(finished=not record.unfinished, completed=True),
        ]
        for record in sessions
    ]


@login_required
def sessions_csv(request: HttpRequest, pk: int, fmt: str = "csv") -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    sessions = list(selectors.class_sessions(classroom, include_unfinished=_show_all(request)))
    header = [
        _("Started"),
        _("Game"),
        _("Mode"),
        _("Players"),
        _("Guests"),
        _("Average"),
        _("Best"),
        _("Note"),
    ]
    rows = _session_rows(sessions)
    if not any(record.guest_count for record in sessions):  # the column only when needed
        guests = header.index(_("Guests"))
        header = header[:guests] + header[guests + 1 :]
        rows = [row[:guests] + row[guests + 1 :] for row in rows]
    return export(fmt, f"{_base_name(classroom)}-sessions", header, rows, noted=True)


@login_required
def participation_csv(request: HttpRequest, pk: int, fmt: str = "csv") -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    show_all = _show_all(request)
    total = selectors.class_sessions(classroom, include_unfinished=show_all).count()
    return export(
        fmt,
        f"{_base_name(classroom)}-participation",
        [
            *name_columns(),
            _("Nickname"),
            _("Games"),
            _("Share of games (%)"),
            _("Average"),
            _("Best"),
            _("Last played"),
        ],
        [
            [
                *name_cells(row.member),
                row.member.player.nickname if row.member.player else "",
                row.games,
                row.share(total),
                row.average,
                row.best,
                row.last_played,
            ]
            for row in collation.sort_by_surname(
                selectors.participation(classroom, include_unfinished=show_all),
                lambda row: row.member.roster_name,
            )
        ],
    )


# --- one game session ------------------------------------------------------------


@login_required
def session_results(request: HttpRequest, pk: int, record_id: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    record = selectors.class_session(classroom, record_id)
    ranking = selectors.session_ranking(classroom, record)
    return render(
        request,
        "classrooms/session.html",
        {
            "classroom": classroom,
            "record": record,
            "mode_name": mode_name(record),
            "ranking": selectors.class_ranking(ranking),  # no gap where a guest placed
            "guests": [row for row in ranking if not row.member],
            "has_boards": any(row.board for row in ranking),
            "has_jokers": any(row.board and row.jokers for row in ranking),
        },
    )


@login_required
def session_csv(request: HttpRequest, pk: int, record_id: int, fmt: str = "csv") -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    record = selectors.class_session(classroom, record_id)
    ranking = selectors.session_ranking(classroom, record)
    return export(
        fmt,
        f"{_base_name(classroom)}-{record.game}-{record.pk}",
        [
            _("Rank"),
            *name_columns(),
            _("Nickname"),
            _("Score"),
            _("Board completed"),
            _("Ended at"),
            _("Note"),
        ],
        [
            [
                row.rank,
                *name_cells(row.member),
                row.nickname,
                row.result.score,
                _("yes") if row.result.completed else _("no"),
                row.result.finished_at,
                _note(
                    finished=not record.unfinished,
                    completed=row.result.completed,
                    departure=row.departure,
                    progress=row.progress,
                    guest=row.member is None,
                ),
            ]
            # Class members first, ranked among themselves; guests (not in the
            # class) after them, with their place in the game.
            for row in [*selectors.class_ranking(ranking), *(r for r in ranking if not r.member)]
        ],
        noted=True,
    )


# --- one student over time ---------------------------------------------------------


def _member(classroom: Classroom, member_id: int) -> Membership:
    return get_object_or_404(
        Membership.objects.select_related("player", "classroom").prefetch_related("other_players"),
        classroom=classroom,
        pk=member_id,
    )


def _history_rows(history: selectors.History) -> list[list]:
    return [
        [
            row.record.started_at,
            row.record.game_name,
            mode_name(row.record),
            row.result.rank,
            row.player_count,
            row.result.score,
            _note(
                finished=row.session_finished,
                completed=row.result.completed,
                departure=row.departure,
                progress=row.progress,
            ),
        ]
        for row in history.shown
    ]


def _history_header() -> list[str]:
    return [_("Started"), _("Game"), _("Mode"), _("Rank"), _("Players"), _("Score"), _("Note")]


@login_required
def member_results(request: HttpRequest, pk: int, member_id: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    member = _member(classroom, member_id)
    show_all = _show_all(request)
    history = selectors.member_history(member, include_unfinished=show_all)
    return render(
        request,
        "classrooms/member_results.html",
        {
            "classroom": classroom,
            "member": member,
            "history": history,
            "show_all": show_all,
            "query": "?all=1" if show_all else "",
            "chart": history_chart(history),
        },
    )


@login_required
def member_csv(request: HttpRequest, pk: int, member_id: int, fmt: str = "csv") -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    member = _member(classroom, member_id)
    history = selectors.member_history(member, include_unfinished=_show_all(request))
    name = slugify(member.roster_name) or f"student-{member.pk}"
    return export(
        fmt,
        f"{_base_name(classroom)}-{name}",
        _history_header(),
        _history_rows(history),
        noted=True,
    )


def my_results_csv(request: PlayerRequest, pk: int, fmt: str = "csv") -> HttpResponse:
    """A student's own results in the class (nothing about classmates)."""
    membership = selectors.student_membership(request.player, pk)
    history = selectors.member_history(membership)
    return export(
        fmt,
        f"{_base_name(membership.classroom)}-my-results",
        _history_header(),
        _history_rows(history),
        noted=True,
    )
