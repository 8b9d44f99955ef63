"""The class's roster: the list and the printable claim codes, adding names,
approving or removing joins (one or a wave at a time), renaming and merging."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from classrooms import selectors, services
from classrooms.errors import ClassroomError
from classrooms.forms import (
    RosterForm,
)
from classrooms.views.common import join_url, redirect_back, run_action


@login_required
def members(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    roster = selectors.in_roster_order(selectors.roster(classroom))
    return render(
        request,
        "classrooms/members.html",
        {
            "classroom": classroom,
            "members": roster,
            "roster_form": RosterForm(),
        },
    )


@login_required
def claim_codes(request: HttpRequest, pk: int) -> HttpResponse:
    """A printable sheet: each roster name nobody claimed yet with its claim code,
    cut into slips and handed to the pupils."""
    classroom = selectors.teacher_classroom(request.user, pk)
    return render(
        request,
        "classrooms/claim_codes.html",
        {
            "classroom": classroom,
            "members": selectors.in_roster_order(selectors.unclaimed_roster(classroom)),
            "join_url": join_url(request, classroom),
        },
    )


@login_required
@require_POST
def add_members(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    text = request.POST.get("names", "")
    try:
        added = services.add_roster(classroom=classroom, text=text)
    except ClassroomError as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request, _("Students added to the roster: %(count)s.") % {"count": len(added)}
        )
    return redirect("classrooms:members", pk=classroom.pk)


def _member_id(request: HttpRequest, name: str = "member") -> int:
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        return 0


@login_required
@require_POST
def approve_member(request: HttpRequest, pk: int, member_id: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    run_action(
        request,
        lambda: services.approve_member(classroom=classroom, member_id=member_id),
        _("The student was approved."),
    )
    return redirect_back(request, classroom, "classrooms:members")


@login_required
@require_POST
def remove_member(request: HttpRequest, pk: int, member_id: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    run_action(
        request,
        lambda: services.remove_member(classroom=classroom, member_id=member_id),
        _("The student was removed from the class."),
    )
    return redirect_back(request, classroom, "classrooms:members")


def _posted_member_ids(request: HttpRequest) -> list[int] | None:
    """The waiting joins a bulk action names (``member``, repeated): a wave, or the
    list the teacher saw; None when the form names none (the whole list)."""
    raw = request.POST.getlist("member")
    if not raw:
        return None
    return [int(value) for value in raw if value.isdigit() and len(value) < 12]


@login_required
@require_POST
def approve_pending(request: HttpRequest, pk: int) -> HttpResponse:
    """Approve the waiting joins the teacher confirmed (all of them, or one wave)."""
    classroom = selectors.teacher_classroom(request.user, pk)
    approved = services.approve_pending(classroom=classroom, member_ids=_posted_member_ids(request))
    messages.success(
        request,
        ngettext(
            "%(count)s student was approved.",
            "%(count)s students were approved.",
            approved,
        )
        % {"count": approved},
    )
    return redirect_back(request, classroom)


@login_required
@require_POST
def remove_pending(request: HttpRequest, pk: int) -> HttpResponse:
    """Remove the joins still waiting for approval at once (after a flood of junk
    joins): all of them, or one wave of them."""
    classroom = selectors.teacher_classroom(request.user, pk)
    removed = services.remove_pending(classroom=classroom, member_ids=_posted_member_ids(request))
    messages.success(
        request,
        ngettext(
            "%(count)s waiting join was removed.",
            "%(count)s waiting joins were removed.",
            removed,
        )
        % {"count": removed},
    )
    return redirect_back(request, classroom)


@login_required
@require_POST
def rename_member(request: HttpRequest, pk: int, member_id: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    name = request.POST.get("roster_name", "")
    run_action(
        request,
        lambda: services.rename_member(classroom=classroom, member_id=member_id, roster_name=name),
        _("The name was changed."),
    )
    return redirect("classrooms:members", pk=classroom.pk)


@login_required
@require_POST
def merge_member(request: HttpRequest, pk: int, member_id: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    target_id = _member_id(request, "target")
    run_action(
        request,
        lambda: services.merge_members(
            classroom=classroom, source_id=member_id, target_id=target_id
        ),
        _("The students were merged into one."),
    )
    return redirect("classrooms:members", pk=classroom.pk)
