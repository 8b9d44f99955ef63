"""Results pages and their CSV exports: per class, per game session, per student.

Each table on a page has a CSV twin built from the same rows, so the export
never disagrees with what the teacher sees.
"""

import csv
from collections.abc import Iterable

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _

from classrooms import selectors
from classrooms.charts import Series, line_chart
from classrooms.models import Classroom, Membership
from games.models import GameRecord

# Cells starting like a formula are run by spreadsheets; a leading apostrophe
# keeps a student's typed name from becoming one (CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value) -> str | int | float:
    if value is None:
        return ""
    if isinstance(value, int | float):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_response(filename: str, header: list[str], rows: Iterable[list]) -> HttpResponse:
    # UTF-8 with a byte-order mark: spreadsheet programs then read č, ř, ľ correctly.
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.write("\ufeff")
    writer = csv.writer(response)
    writer.writerow(header)
    for row in rows:
        writer.writerow([_cell(value) for value in row])
    return response


def _stamp(moment) -> str:
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M") if moment else ""


def _short(moment) -> str:
    return date_format(timezone.localtime(moment), "j. n.") if moment else ""


def _base_name(classroom: Classroom) -> str:
    return slugify(classroom.name) or f"class-{classroom.pk}"


def history_chart(history: selectors.History):
    return line_chart(
        title=_("Score in each game"),
        x_labels=[_short(row.record.started_at) for row in history.rows],
        series=[Series(_("Score"), [row.result.score for row in history.rows])],
        empty_text=_("No games played yet."),
    )


def sessions_chart(sessions: list[GameRecord]):
    ordered = list(reversed(sessions))
    return line_chart(
        title=_("Scores per game session"),
        x_labels=[_short(record.started_at) for record in ordered],
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


# --- class overview ----------------------------------------------------------------


@login_required
def class_results(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    sessions = list(selectors.class_sessions(classroom))
    rows = selectors.participation(classroom)
    return render(
        request,
        "classrooms/results.html",
        {
            "classroom": classroom,
            "sessions": sessions,
            "participation": [(row, row.share(len(sessions))) for row in rows],
            "chart": sessions_chart(sessions),
        },
    )


def _session_rows(sessions: list[GameRecord]) -> list[list]:
    return [
        [
            _stamp(record.started_at),
            record.game_name,
            record.mode,
            record.player_count,
            round(record.average_score, 1) if record.average_score is not None else None,
            record.best_score,
        ]
        for record in sessions
    ]


@login_required
def sessions_csv(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    return csv_response(
        f"{_base_name(classroom)}-sessions.csv",
        [_("Started"), _("Game"), _("Mode"), _("Players"), _("Average"), _("Best")],
        _session_rows(list(selectors.class_sessions(classroom))),
    )


@login_required
def participation_csv(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    total = selectors.class_sessions(classroom).count()
    return csv_response(
        f"{_base_name(classroom)}-participation.csv",
        [
            _("Student"),
            _("Nickname"),
            _("Games"),
            _("Share of games (%)"),
            _("Average"),
            _("Best"),
            _("Last played"),
        ],
        [
            [
                row.member.roster_name,
                row.member.player.nickname if row.member.player else "",
                row.games,
                row.share(total),
                row.average,
                row.best,
                _stamp(row.last_played),
            ]
            for row in selectors.participation(classroom)
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
            "ranking": ranking,
            "has_boards": any(row.board for row in ranking),
        },
    )


@login_required
def session_csv(request: HttpRequest, pk: int, record_id: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    record = selectors.class_session(classroom, record_id)
    return csv_response(
        f"{_base_name(classroom)}-{record.game}-{record.pk}.csv",
        [_("Rank"), _("Student"), _("Nickname"), _("Score"), _("Completed"), _("Finished")],
        [
            [
                row.rank,
                row.roster_name,
                row.nickname,
                row.result.score,
                _("yes") if row.result.completed else _("no"),
                _stamp(row.result.finished_at),
            ]
            for row in selectors.session_ranking(classroom, record)
        ],
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
            _stamp(row.record.started_at),
            row.record.game_name,
            row.record.mode,
            row.result.rank,
            row.player_count,
            row.result.score,
        ]
        for row in history.rows
    ]


def _history_header() -> list[str]:
    return [_("Started"), _("Game"), _("Mode"), _("Rank"), _("Players"), _("Score")]


@login_required
def member_results(request: HttpRequest, pk: int, member_id: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    member = _member(classroom, member_id)
    history = selectors.member_history(member)
    return render(
        request,
        "classrooms/member_results.html",
        {
            "classroom": classroom,
            "member": member,
            "history": history,
            "chart": history_chart(history),
        },
    )


@login_required
def member_csv(request: HttpRequest, pk: int, member_id: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    member = _member(classroom, member_id)
    history = selectors.member_history(member)
    name = slugify(member.roster_name) or f"student-{member.pk}"
    return csv_response(
        f"{_base_name(classroom)}-{name}.csv", _history_header(), _history_rows(history)
    )


def my_results_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """A student's own results in the class (nothing about classmates)."""
    membership = selectors.student_membership(request.player, pk)
    history = selectors.member_history(membership)
    return csv_response(
        f"{_base_name(membership.classroom)}-my-results.csv",
        _history_header(),
        _history_rows(history),
    )
