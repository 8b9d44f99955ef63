"""The teacher's classes: the list, creating and editing a class, the class page
(the teacher's or the student's) and its QR page, the class's settings and
starting a game for it."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import trust
from accounts.requests import PlayerRequest, TeacherRequest
from classrooms import launch, reports, selectors, services, waiting
from classrooms.errors import ClassroomError
from classrooms.forms import (
    EditClassroomForm,
    InviteForm,
    JoinCodeForm,
    NewClassroomForm,
    game_settings_form,
)
from classrooms.models import Classroom, Membership
from classrooms.views.common import join_url, qr_svg, run_action
from core.errors import DomainError

# --- lists -------------------------------------------------------------------------


def index(request: PlayerRequest) -> HttpResponse:
    """Teachers: their classes. Students: the classes they joined, and a code box."""
    context: dict[str, Any] = {
        "teacher_classes": None,
        "memberships": selectors.memberships_for_player(request.player),
        "code_form": JoinCodeForm(),
    }
    if request.user.is_authenticated:
        classes = selectors.classes_for_teacher(request.user)
        context["teacher_classes"] = classes.filter(archived_at__isnull=True)
        context["archived_classes"] = classes.filter(archived_at__isnull=False)
    return render(request, "classrooms/index.html", context)


@login_required
def start(request: HttpRequest) -> HttpResponse:
    """Where a teacher lands after logging in: a newcomer without a class goes to
    "Create your first class", everyone else to the home page."""
    if selectors.classes_for_teacher(request.user).exists():
        return redirect("home")
    return redirect("classrooms:create")


@login_required
def create(request: TeacherRequest) -> HttpResponse:
    if not trust.may_act_for_others(request.user):
        # Where a newcomer lands after logging in: what to do first, and the link again.
        return trust.verify_first(request, status=403 if request.method == "POST" else 200)
    first = not selectors.classes_for_teacher(request.user).exists()
    form = NewClassroomForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            classroom = services.create_classroom(teacher=request.user, **form.cleaned_data)
        except ClassroomError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("The class %(name)s is ready.") % {"name": classroom.name})
            return redirect("classrooms:detail", pk=classroom.pk)
    title = _("Create your first class") if first else _("New class")
    return render(request, "classrooms/form.html", {"form": form, "title": title, "first": first})


@login_required
def edit(request: TeacherRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    form = EditClassroomForm(
        request.POST or None,
        initial={
            "name": classroom.name,
            "school_year": classroom.school_year,
            "subject": classroom.subject,
            "public_publication": classroom.public_publication,
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.update_classroom(classroom=classroom, user=request.user, **form.cleaned_data)
        except ClassroomError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("The class was saved."))
            return redirect("classrooms:detail", pk=classroom.pk)
    return render(
        request,
        "classrooms/form.html",
        {"form": form, "title": _("Edit class"), "classroom": classroom},
    )


# --- the class page -----------------------------------------------------------------


def detail(request: PlayerRequest, pk: int) -> HttpResponse:
    """The teacher's page for the class's teachers, the student page for its members."""
    classroom = selectors.classes_for_teacher(request.user).filter(pk=pk).first()
    if classroom is not None:
        return _teacher_page(request, classroom)
    membership = selectors.student_membership(request.player, pk)
    return _student_page(request, membership)


def back(request: PlayerRequest, pk: int) -> HttpResponse:
    """The class page for its teachers and members, else ``next`` (a path of this
    site): where a room of the class sends a player who left it."""
    is_teacher = selectors.classes_for_teacher(request.user).filter(pk=pk).exists()
    is_member = (
        request.player is not None
        and selectors.memberships_for_player(request.player).filter(classroom_id=pk).exists()
    )
    if is_teacher or is_member:
        return redirect("classrooms:detail", pk=pk)
    target = request.GET.get("next", "")
    # A path only: ``next=NaN`` would be reversed as a view name (a 500).
    if not target.startswith("/") or not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}
    ):
        target = reverse("home")
    return redirect(target)


def _teacher_signature(classroom: Classroom) -> str:
    """Changes whenever the teacher's page would show something new (a student
    waiting or joining, a room opening or closing): the page polls it."""
    members = classroom.members
    pending = members.filter(status=Membership.Status.PENDING).count()
    joined = members.filter(player__isnull=False).count()
    return f"t:{pending}:{joined}:{launch.live_room_ids(classroom)}"


def _student_signature(membership: Membership) -> str:
    return f"s:{membership.status}:{launch.live_room_ids(membership.classroom)}"


def status(request: PlayerRequest, pk: int) -> JsonResponse:
    """A small fingerprint of the class page, polled so it refreshes on its own."""
    classroom = selectors.classes_for_teacher(request.user).filter(pk=pk).first()
    if classroom is not None:
        return JsonResponse({"signature": _teacher_signature(classroom)})
    membership = selectors.student_membership(request.player, pk)
    return JsonResponse({"signature": _student_signature(membership)})


def _teacher_page(request: HttpRequest, classroom: Classroom) -> HttpResponse:
    members = selectors.in_roster_order(selectors.roster(classroom))
    # the roster read once: the live rooms and the sessions need its player map
    names = selectors.names_of(members)
    url = join_url(request, classroom)
    games = launch.class_games()
    return render(
        request,
        "classrooms/teacher_class.html",
        {
            "classroom": classroom,
            "is_owner": classroom.teacher_id == request.user.pk,
            "join_url": url,
            "qr_svg": qr_svg(url),
            "pending": [m for m in members if m.is_pending],
            "waves": waiting.waves(m for m in members if m.is_pending),
            "approved_count": sum(1 for m in members if not m.is_pending),
            "claimed_count": sum(1 for m in members if not m.is_pending and m.player_id),
            "games": games,
            "game_cards": [(game, game_settings_form(game.info.slug)) for game in games],
            "game_scripts": list(
                dict.fromkeys(script for game in games for script in game.launch.scripts)
            ),
            "live_rooms": launch.live_rooms(
                classroom,
                roster_names={player_id: member.roster_name for player_id, member in names.items()},
            ),
            # every recent game, an unfinished one marked (the reports leave it out)
            "sessions": selectors.class_sessions(classroom, include_unfinished=True, names=names)[
                :5
            ],
            "co_teachers": classroom.co_teachers.all(),
            "invite_form": InviteForm(),
            "signature": _teacher_signature(classroom),
        },
    )


def _student_page(request: HttpRequest, membership: Membership) -> HttpResponse:
    classroom = membership.classroom
    history = selectors.member_history(membership)
    return render(
        request,
        "classrooms/student_class.html",
        {
            "classroom": classroom,
            "membership": membership,
            "live_rooms": []
            if membership.is_pending
            else launch.live_rooms(classroom, selectors.member_player_ids(membership)),
            "history": history,
            "chart": reports.history_chart(history),
            "signature": _student_signature(membership),
        },
    )


@login_required
def qr_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Big code and QR for the projector."""
    classroom = selectors.teacher_classroom(request.user, pk)
    url = join_url(request, classroom)
    members = classroom.members.exclude(status=Membership.Status.PENDING)
    return render(
        request,
        "classrooms/qr.html",
        {
            "classroom": classroom,
            "join_url": url,
            "qr_svg": qr_svg(url),
            "approved_count": members.count(),
            "claimed_count": members.filter(player__isnull=False).count(),
            "pending_count": classroom.members.filter(status=Membership.Status.PENDING).count(),
            "signature": _teacher_signature(classroom),
        },
    )


# --- class settings ------------------------------------------------------------------


@login_required
@require_POST
def archive(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    archived = request.POST.get("archived") == "1"
    run_action(
        request,
        lambda: services.set_archived(classroom=classroom, archived=archived),
        _("The class was archived.") if archived else _("The class is active again."),
    )
    return redirect("classrooms:detail", pk=classroom.pk)


@login_required
@require_POST
def delete(request: TeacherRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    if run_action(
        request,
        lambda: services.delete_classroom(classroom=classroom, user=request.user),
        _("The class and all its results were deleted."),
    ):
        return redirect("classrooms:index")
    return redirect("classrooms:detail", pk=classroom.pk)


@login_required
@require_POST
def regenerate_code(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    run_action(
        request,
        lambda: services.regenerate_code(classroom=classroom),
        _("The class has a new code. The old code and link no longer work."),
    )
    return redirect("classrooms:detail", pk=classroom.pk)


@login_required
@require_POST
def set_joining(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    enabled = request.POST.get("enabled") == "1"
    run_action(
        request,
        lambda: services.set_joining(classroom=classroom, enabled=enabled),
        _("Joining with the code is on.") if enabled else _("Joining with the code is off."),
    )
    return redirect("classrooms:detail", pk=classroom.pk)


@login_required
@require_POST
def start_game(request: TeacherRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    if not trust.may_act_for_others(request.user):  # the tables as much as the group game
        return trust.verify_first(request)
    game = request.POST.get("game", "")
    form = game_settings_form(game, request.POST)
    try:
        settings = form.settings() if form is not None else {}
        if request.POST.get("mode") == "group":
            room = launch.start_group_game(
                classroom=classroom, user=request.user, game=game, settings=settings
            )
            return redirect("rooms:room", code=room.code)
        try:
            size = int(request.POST.get("table_size", ""))
        except ValueError:
            size = 0
        rooms = launch.start_tables(classroom=classroom, game=game, size=size, settings=settings)
    except DomainError as error:  # the class's refusals and the game's settings form's
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("Tables started: %(count)s. Students see their table on the class page.")
            % {"count": len(rooms)},
        )
    return redirect("classrooms:detail", pk=classroom.pk)
