"""Co-teachers: inviting a colleague by e-mail, accepting the mailed link,
removing a co-teacher."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import mail_links
from accounts.requests import TeacherRequest
from classrooms import invitation_services, selectors
from classrooms.errors import ClassroomError
from classrooms.forms import (
    InviteForm,
)
from classrooms.views.common import run_action


@login_required
@require_POST
def invite(request: TeacherRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Enter a valid e-mail address."))
    else:
        run_action(
            request,
            lambda: invitation_services.invite_co_teacher(
                classroom=classroom,
                email=form.cleaned_data["email"],
                invited_by=request.user,
                accept_url=lambda token: mail_links.absolute(
                    request, reverse("classrooms:accept_invitation", kwargs={"token": token})
                ),
                address=request.META.get("REMOTE_ADDR", ""),
            ),
            _("The colleague was invited. They see the class after accepting the e-mailed link."),
        )
    return redirect("classrooms:detail", pk=classroom.pk)


@login_required
def accept_invitation(request: TeacherRequest, token: str) -> HttpResponse:
    """The link mailed to an invited colleague: shows whose class it is and, on
    POST, accepts it for this account (the invited, verified address only)."""
    try:
        invite = invitation_services.invitation_for(token)
    except ClassroomError as refused:
        return render(
            request, "classrooms/accept_invitation.html", {"error": refused.message}, status=404
        )
    error: str | None = None
    if request.method == "POST":
        try:
            invitation_services.accept_invitation(token=token, user=request.user)
        except ClassroomError as exc:
            error = exc.message
        else:
            messages.success(
                request, _("You now teach %(name)s.") % {"name": invite.classroom.name}
            )
            return redirect("classrooms:detail", pk=invite.classroom_id)
    # Until accepted, nothing of the class is shown: only its name and who invited.
    return render(
        request,
        "classrooms/accept_invitation.html",
        {
            "invite": invite,
            "class_name": invite.classroom.name,
            "error": error,
            "needs_verification": not request.user.email_verified,
        },
        status=400 if error else 200,
    )


@login_required
@require_POST
def uninvite(request: TeacherRequest, pk: int, co_teacher_id: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    run_action(
        request,
        lambda: invitation_services.remove_co_teacher(
            classroom=classroom, co_teacher_id=co_teacher_id, user=request.user
        ),
        _("The co-teacher was removed."),
    )
    return redirect("classrooms:detail", pk=classroom.pk)
