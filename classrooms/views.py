"""Class pages: the teacher's classes and roster, the student's join flow and class page.

Thin adapters: parse the request, find the class through a selector (a
teacher only ever reaches their own classes), call one service, redirect with
a message. Refusals come back as :class:`ClassroomError` and change nothing.
"""

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import identity, limits, mail_links, nicknames
from classrooms import launch, reports, selectors, services, waiting
from classrooms.errors import ClassroomError
from classrooms.forms import (
    EditClassroomForm,
    InviteForm,
    JoinCodeForm,
    JoinForm,
    NewClassroomForm,
    RosterForm,
    game_settings_form,
)
from classrooms.models import Classroom, Membership
from games.errors import DomainError

NICKNAME_ERRORS = {"too_short", "too_long", "bad_characters", "no_letters", "not_allowed", "taken"}


def join_url(request: HttpRequest, classroom: Classroom) -> str:
    """The teacher's class link (also in the QR code): keyed, so following it is
    never counted or refused by the code limits (``services.check_code_attempt``)."""
    path = reverse("classrooms:join_class", kwargs={"code": classroom.join_code})
    key = services.class_link_key(classroom)
    return request.build_absolute_uri(f"{path}?{limits.LINK_KEY_PARAM}={key}")


def _qr_svg(url: str) -> str:
    # segno writes presentation attributes only (no style=), so the strict CSP holds.
    qr = segno.make(url, error="m")
    return mark_safe(qr.svg_inline(scale=1, border=2, omitsize=True, dark="#000", light="#fff"))


def _back(request: HttpRequest, classroom: Classroom, default: str = "classrooms:detail"):
    target = request.POST.get("back")
    if target in {"members", "detail", "results"}:
        default = f"classrooms:{target}"
    return redirect(default, pk=classroom.pk)


# --- lists -------------------------------------------------------------------------


def index(request: HttpRequest) -> HttpResponse:
    """Teachers: their classes. Students: the classes they joined, and a code box."""
    context = {
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
def create(request: HttpRequest) -> HttpResponse:
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
def edit(request: HttpRequest, pk: int) -> HttpResponse:
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


def detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The teacher's page for the class's teachers, the student page for its members."""
    classroom = selectors.classes_for_teacher(request.user).filter(pk=pk).first()
    if classroom is not None:
        return _teacher_page(request, classroom)
    membership = selectors.student_membership(request.player, pk)
    return _student_page(request, membership)


def back(request: HttpRequest, pk: int) -> HttpResponse:
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


def status(request: HttpRequest, pk: int) -> JsonResponse:
    """A small fingerprint of the class page, polled so it refreshes on its own."""
    classroom = selectors.classes_for_teacher(request.user).filter(pk=pk).first()
    if classroom is not None:
        return JsonResponse({"signature": _teacher_signature(classroom)})
    membership = selectors.student_membership(request.player, pk)
    return JsonResponse({"signature": _student_signature(membership)})


def _teacher_page(request: HttpRequest, classroom: Classroom) -> HttpResponse:
    members = list(selectors.roster(classroom))
    url = join_url(request, classroom)
    games = launch.class_games()
    return render(
        request,
        "classrooms/teacher_class.html",
        {
            "classroom": classroom,
            "is_owner": classroom.teacher_id == request.user.pk,
            "join_url": url,
            "qr_svg": _qr_svg(url),
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
                roster_names={
                    player_id: member.roster_name
                    for player_id, member in selectors.player_names(classroom).items()
                },
            ),
            # every recent game, an unfinished one marked (the reports leave it out)
            "sessions": selectors.class_sessions(classroom, include_unfinished=True)[:5],
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
            "qr_svg": _qr_svg(url),
            "approved_count": members.count(),
            "claimed_count": members.filter(player__isnull=False).count(),
            "pending_count": classroom.members.filter(status=Membership.Status.PENDING).count(),
            "signature": _teacher_signature(classroom),
        },
    )


# --- class settings ------------------------------------------------------------------


def _run(request: HttpRequest, action, success: str) -> bool:
    try:
        action()
    except ClassroomError as error:
        messages.error(request, error.message)
        return False
    messages.success(request, success)
    return True


@login_required
@require_POST
def archive(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    archived = request.POST.get("archived") == "1"
    _run(
        request,
        lambda: services.set_archived(classroom=classroom, archived=archived),
        _("The class was archived.") if archived else _("The class is active again."),
    )
    return redirect("classrooms:detail", pk=classroom.pk)


@login_required
@require_POST
def delete(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    if _run(
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
    _run(
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
    _run(
        request,
        lambda: services.set_joining(classroom=classroom, enabled=enabled),
        _("Joining with the code is on.") if enabled else _("Joining with the code is off."),
    )
    return redirect("classrooms:detail", pk=classroom.pk)


@login_required
@require_POST
def invite(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Enter a valid e-mail address."))
    else:
        _run(
            request,
            lambda: services.invite_co_teacher(
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
def accept_invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The link mailed to an invited colleague: shows whose class it is and, on
    POST, accepts it for this account (the invited, verified address only)."""
    try:
        invite = services.invitation_for(token)
    except ClassroomError as error:
        return render(
            request, "classrooms/accept_invitation.html", {"error": error.message}, status=404
        )
    error = None
    if request.method == "POST":
        try:
            services.accept_invitation(token=token, user=request.user)
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
def uninvite(request: HttpRequest, pk: int, co_teacher_id: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    _run(
        request,
        lambda: services.remove_co_teacher(
            classroom=classroom, co_teacher_id=co_teacher_id, user=request.user
        ),
        _("The co-teacher was removed."),
    )
    return redirect("classrooms:detail", pk=classroom.pk)


@login_required
@require_POST
def start_game(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
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


# --- roster --------------------------------------------------------------------------


@login_required
def members(request: HttpRequest, pk: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    roster = list(selectors.roster(classroom))
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
            "members": selectors.unclaimed_roster(classroom),
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
    _run(
        request,
        lambda: services.approve_member(classroom=classroom, member_id=member_id),
        _("The student was approved."),
    )
    return _back(request, classroom, "classrooms:members")


@login_required
@require_POST
def remove_member(request: HttpRequest, pk: int, member_id: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    _run(
        request,
        lambda: services.remove_member(classroom=classroom, member_id=member_id),
        _("The student was removed from the class."),
    )
    return _back(request, classroom, "classrooms:members")


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
    return _back(request, classroom)


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
    return _back(request, classroom)


@login_required
@require_POST
def rename_member(request: HttpRequest, pk: int, member_id: int) -> HttpResponse:
    classroom = selectors.teacher_classroom(request.user, pk)
    name = request.POST.get("roster_name", "")
    _run(
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
    _run(
        request,
        lambda: services.merge_members(
            classroom=classroom, source_id=member_id, target_id=target_id
        ),
        _("The students were merged into one."),
    )
    return redirect("classrooms:members", pk=classroom.pk)


# --- joining -------------------------------------------------------------------------


def join(request: HttpRequest) -> HttpResponse:
    form = JoinCodeForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            classroom = services.check_code_attempt(
                code=form.cleaned_data["code"],
                client=limits.client_of(request),
                player=request.player,
            )
        except ClassroomError as error:
            form.add_error("code", error.message)
            status = 429 if error.code == "rate_limited" else 400
        else:
            return redirect("classrooms:join_class", code=classroom.join_code)
    return render(request, "classrooms/join_code.html", {"form": form}, status=status)


def join_class(request: HttpRequest, code: str) -> HttpResponse:
    """The class link: typed (a code in the path) or keyed (``?k=``, the teacher's
    link and QR). The join form posts back to the same URL, key included."""
    try:
        classroom = services.check_code_attempt(
            code=code,
            client=limits.client_of(request),
            player=request.player,
            link_key=limits.link_key_of(request),
        )
    except ClassroomError as error:
        form = JoinCodeForm(data={"code": code})
        form.is_valid()
        form.add_error("code", error.message)
        status = 429 if error.code == "rate_limited" else 404
        return render(request, "classrooms/join_code.html", {"form": form}, status=status)
    if request.player is not None:
        existing = services.membership_of(classroom=classroom, player=request.player)
        if existing is not None:
            return redirect("classrooms:detail", pk=classroom.pk)
    form = JoinForm(
        request.POST or None,
        initial={"nickname": nicknames.generate(language=get_language())},
    )
    status = 200
    if request.method == "POST":
        response = _do_join(request, classroom, form) if form.is_valid() else None
        if response is not None:
            return response
        status = 400
    closed = classroom.archived_at is not None or not classroom.join_enabled
    return render(
        request,
        "classrooms/join_class.html",
        {
            "classroom": classroom,
            "form": form,
            "closed": closed,
            # Only the short form of each roster name ("Adam K."): pupils see
            # enough to find their own entry, not their classmates' full names.
            "roster": _join_choices(selectors.unclaimed_roster(classroom)),
            "picked": form.data.get("member", ""),
        },
        status=status,
    )


def _join_choices(members) -> list[dict]:
    """Roster names as pupils see them: first name and surname initial, with
    more letters of the surname only where two entries would look the same."""
    members = list(members)
    labels = {member.pk: member.short_name for member in members}
    for letters in (2, 3):
        counts: dict[str, int] = {}
        for label in labels.values():
            counts[label] = counts.get(label, 0) + 1
        for member in members:
            words = member.roster_name.split()
            if counts[labels[member.pk]] > 1 and len(words) > 1:
                labels[member.pk] = f"{words[0]} {words[-1][:letters]}."
    return [{"pk": member.pk, "name": labels[member.pk]} for member in members]


def _do_join(request: HttpRequest, classroom: Classroom, form: JoinForm) -> HttpResponse | None:
    if not request.storage_enabled:
        form.add_error(
            None,
            _(
                "Saving is switched off in this browser, so you cannot join a class. Switch it on first."
            ),
        )
        return None
    data = form.cleaned_data
    key = limits.link_key_of(request)
    keyed = bool(key) and services.class_link_key_valid(classroom, key)
    # Through the teacher's keyed link, joins and new profiles count in the
    # class's own budget: a school address used up by others does not stop it.
    client = limits.client_of(request)
    if keyed:
        client = limits.for_link(client, "class", classroom.pk)
    refusal = None
    if limits.blocked(limits.class_joins(), client):
        refusal = _("Too many class joins from here. Wait a while and try again.")
    elif request.player is None and limits.blocked(limits.profile_creations(), client):
        refusal = _("Too many new nicknames from here. Wait a while and try again.")
    if refusal is not None:
        form.add_error(None, refusal)
        return None
    try:
        membership, token = services.join_classroom(
            classroom=classroom,
            player=request.player,
            member_id=data["member"],
            typed_name=data["typed_name"],
            browser_token=identity.read_token(request),
            nickname=data["nickname"],
            claim_code=request.POST.get("claim_code", "").strip()[:16],
            client=limits.client_of(request),
            keyed=keyed,
        )
    except DomainError as error:  # the class's refusals and the new profile's
        field = None
        if error.code in {"name_empty", "name_too_long"}:
            field = "typed_name"
        elif error.code in NICKNAME_ERRORS:
            field = "nickname"
        form.add_error(field, error.message)
        return None
    limits.count(limits.class_joins(), client)
    if token:
        limits.count(limits.profile_creations(), client)
    if membership.is_pending:
        messages.success(request, _("Your teacher will confirm your name soon."))
    else:
        messages.success(request, _("Welcome to %(name)s!") % {"name": classroom.name})
    response = redirect("classrooms:detail", pk=classroom.pk)
    if token:
        identity.write_token(response, token)
    return response
