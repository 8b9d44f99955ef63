"""Homework pages under the class: the teacher's form and class table, the
review of a pupil's game, and the class table a pupil may see after the deadline.

Thin: teachers are checked by ``classrooms.selectors`` (404 for anyone else),
writes go through ``services``.
"""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.requests import PlayerRequest, TeacherRequest
from classrooms import selectors as class_selectors
from core import registry

from . import charts, links, selectors, services
from .errors import HomeworkError
from .forms import SESSION_ZONE, AssignmentForm
from .models import Assignment, Attempt


def _assignment(request: HttpRequest, pk: int, assignment_id: int) -> Assignment:
    assignment = selectors.teacher_assignment(request.user, assignment_id)
    if assignment.classroom_id != pk:
        raise Http404("No such homework.")
    return assignment


def _form_values(form: AssignmentForm) -> dict[str, Any]:
    data = form.cleaned_data
    return {
        "game": data["game"],
        "title": data["title"],
        "settings": form.game_settings(),
        "opens_at": data["opens_at"],
        "due_at": data["due_at"],
        "attempts": data["attempts"],
        "late": data["late"],
        "table_visible": data["table_visible"],
        "practice": data["practice"],
        "reviews_visible": data["reviews_visible"],
        "mail_summary": data["mail_summary"],
        "mark_thresholds": data.get("mark_thresholds"),
        "full_marks": data.get("full_marks"),
        "time_zone": data["time_zone"],
    }


def _remember_zone(request: HttpRequest, form: AssignmentForm) -> None:
    """The zone the teacher's browser reported: the next blank form starts in it."""
    zone = form.cleaned_data.get("time_zone")
    if zone and request.session.get(SESSION_ZONE) != zone:
        request.session[SESSION_ZONE] = zone


@login_required
def create(request: TeacherRequest, pk: int) -> HttpResponse:
    classroom = class_selectors.teacher_classroom(request.user, pk)
    form = AssignmentForm(request.POST or None, zone=request.session.get(SESSION_ZONE))
    if request.method == "POST" and form.is_valid():
        _remember_zone(request, form)
        try:
            assignment = services.create_assignment(
                classroom=classroom,
                user=request.user,
                language=get_language() or "",
                **_form_values(form),
            )
        except HomeworkError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("The homework is ready."))
            return redirect("homework:detail", pk=classroom.pk, assignment_id=assignment.pk)
    return render(
        request,
        "homework/form.html",
        {"classroom": classroom, "form": form, "title": _("New homework")},
    )


@login_required
def edit(request: HttpRequest, pk: int, assignment_id: int) -> HttpResponse:
    assignment = _assignment(request, pk, assignment_id)
    if assignment.opens_at <= timezone.now() or assignment.closed_at is not None:
        messages.error(request, _("The homework has opened: it can only be closed or deleted."))
        return redirect("homework:detail", pk=pk, assignment_id=assignment.pk)
    initial = {
        "title": assignment.title,
        "game": assignment.game,
        "opens_at": assignment.opens_at,
        "due_at": assignment.due_at,
        "attempts": assignment.attempts,
        "late": assignment.late,
        "table_visible": assignment.table_visible,
        "practice": assignment.practice,
        "reviews_visible": assignment.reviews_visible,
        "mail_summary": assignment.mail_summary,
        "full_marks": assignment.full_marks,
        **AssignmentForm.marks_initial(assignment.mark_thresholds),
        **{f"{assignment.game}__{k}": v for k, v in assignment.settings.items()},
    }
    form = AssignmentForm(request.POST or None, initial=initial, zone=assignment.time_zone)
    if request.method == "POST" and form.is_valid():
        _remember_zone(request, form)
        try:
            services.update_assignment(assignment_id=assignment.pk, changes=_form_values(form))
        except HomeworkError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Saved."))
            return redirect("homework:detail", pk=pk, assignment_id=assignment.pk)
    return render(
        request,
        "homework/form.html",
        {
            "classroom": assignment.classroom,
            "form": form,
            "title": _("Edit homework"),
            "assignment": assignment,
        },
    )


@login_required
@require_POST
def close(request: HttpRequest, pk: int, assignment_id: int) -> HttpResponse:
    assignment = _assignment(request, pk, assignment_id)
    services.close_assignment(assignment_id=assignment.pk)
    messages.success(request, _("The homework is closed."))
    return redirect("homework:detail", pk=pk, assignment_id=assignment.pk)


@login_required
@require_POST
def delete(request: HttpRequest, pk: int, assignment_id: int) -> HttpResponse:
    assignment = _assignment(request, pk, assignment_id)
    services.delete_assignment(assignment_id=assignment.pk)
    messages.success(request, _("The homework is deleted."))
    return redirect("classrooms:detail", pk=pk)


def _table_context(assignment: Assignment) -> dict[str, Any]:
    table = selectors.results(assignment)
    spec = registry.get(assignment.game)
    return {
        "has_review": bool(spec and spec.assignable and spec.assignable.review_response),
        "assignment": assignment,
        "table": table,
        "state": selectors.state(assignment),
        "chart": charts.distribution(table["scores"], title=_("Scores of the class")),
    }


def detail(request: PlayerRequest, pk: int, assignment_id: int) -> HttpResponse:
    """The class table: for the class's teachers always; for its pupils once
    the deadline is over and the teacher shows it (names only, no reviews)."""
    classroom = class_selectors.classes_for_teacher(request.user).filter(pk=pk).first()
    if classroom is not None:
        assignment = _assignment(request, pk, assignment_id)
        context = {**_table_context(assignment), "classroom": classroom, "for_teacher": True}
        context["settings_text"] = " · ".join(
            f"{label}: {value}" for label, value in selectors.settings_in_words(assignment)
        )
        context["full_marks"] = selectors.full_marks(assignment)
        context["extra_links"] = links.for_teacher(assignment)
        return render(request, "homework/detail.html", context)
    membership = class_selectors.student_membership(request.player, pk)
    if membership.is_pending:
        raise Http404
    shown = Assignment.objects.filter(pk=assignment_id, classroom_id=pk).first()
    if shown is None or not shown.table_visible or selectors.state(shown) != "closed":
        raise Http404
    context = {**_table_context(shown), "classroom": membership.classroom}
    return render(request, "homework/detail.html", context)


@login_required
def review(request: PlayerRequest, pk: int, assignment_id: int, attempt_id: int) -> HttpResponse:
    """A pupil's game of this homework, reviewed by the coach, for the class's teachers."""
    assignment = _assignment(request, pk, assignment_id)
    attempt = (
        Attempt.objects.filter(pk=attempt_id, assignment=assignment, finished_at__isnull=False)
        .select_related("member")
        .first()
    )
    spec = registry.get(assignment.game)
    if attempt is None or not attempt.ref or spec is None or spec.assignable is None:
        raise Http404
    if spec.assignable.review_response is None:
        raise Http404
    # The game's review page speaks to the teacher about this pupil, with a way back.
    request.homework_review = {
        "pupil": attempt.member.roster_name,
        "back_url": reverse("homework:detail", args=[pk, assignment.pk]),
    }
    return spec.assignable.review_response(request, attempt.ref)
