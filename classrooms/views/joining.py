"""The student's join flow: the code box, the class link (typed or keyed) and
joining with a roster name and a nickname."""

from collections.abc import Iterable

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from accounts import identity, limits, nicknames
from accounts.player_views import end_pupil_identity
from accounts.requests import PlayerRequest
from classrooms import selectors, services
from classrooms.errors import ClassroomError
from classrooms.forms import JoinCodeForm, JoinForm
from classrooms.models import Classroom, Membership
from core import registry as game_registry
from core.errors import DomainError
from games.rooms import lookups as room_lookups
from games.rooms import selectors as room_selectors

NICKNAME_ERRORS = {"too_short", "too_long", "bad_characters", "no_letters", "not_allowed", "taken"}


def join(request: PlayerRequest) -> HttpResponse:
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


def by_code(request: PlayerRequest) -> HttpResponse:
    """The home page's code box: a class code or a room code in one field.

    No lookup of its own: an open room with this code goes through the rooms'
    code path (``games.rooms.lookups``), anything else through the class code
    path (:func:`services.check_code_attempt`), so a wrong code is one miss
    against this browser and the address's ceiling, and a client past the limit
    is refused whatever it typed, exactly as on the two join pages.
    """
    raw = request.GET.get("code", "")
    code = services.normalise_code(raw)
    status, error = 400, _("Type the code your teacher shows you.")
    if code:
        room = room_selectors.room_by_code(code)
        in_room = room is not None and (
            room_lookups.is_open(room)
            or room_lookups.is_member(room, room_selectors.request_player(request, room))
        )
        if in_room:
            found = room_lookups.find_for_request(request, code)
            if found.room is not None:
                return redirect("rooms:room", code=found.room.code)
            status = 429 if found.limited else 404
        else:
            try:
                classroom = services.check_code_attempt(
                    code=code, client=limits.client_of(request), player=request.player
                )
            except ClassroomError as refusal:
                status = 429 if refusal.code == "rate_limited" else 404
            else:
                return redirect("classrooms:join_class", code=classroom.join_code)
        if status == 429:
            error = _("Too many wrong codes. Wait a few minutes and try again.")
        else:
            error = _("No class or game has this code. Check it and try again.")
    context = {"games": game_registry.games(), "code_error": error, "code_value": raw[:16]}
    return render(request, "home.html", context, status=status)


def join_class(request: PlayerRequest, code: str) -> HttpResponse:
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
        code_form = JoinCodeForm(data={"code": code})
        code_form.is_valid()
        code_form.add_error("code", error.message)
        status = 429 if error.code == "rate_limited" else 404
        return render(request, "classrooms/join_code.html", {"form": code_form}, status=status)
    answer = request.POST.get("whoami") if request.method == "POST" else None
    if answer == "someone_else" and request.player is not None and request.player_bound:
        return _not_me(request)
    confirmed = _confirmed(request)
    if request.player is not None and request.player_bound and not confirmed:
        return render(request, "classrooms/join_confirm.html", {"classroom": classroom})
    if request.player is not None:
        existing = services.membership_of(classroom=classroom, player=request.player)
        if existing is not None:
            return redirect("classrooms:detail", pk=classroom.pk)
    joining = request.method == "POST" and answer is None
    form = JoinForm(
        request.POST if joining else None,
        initial={"nickname": nicknames.generate(language=get_language())},
    )
    status = 200
    if joining:
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
            "roster": _join_choices(
                selectors.in_roster_order(selectors.unclaimed_roster(classroom))
            ),
            "picked": form.data.get("member", ""),
            "confirmed": confirmed,
        },
        status=status,
    )


def _confirmed(request: PlayerRequest) -> bool:
    """The shared classroom computer (issue 38 §1): a person's bound profile (a
    claimed roster entry, an LMS identity) selected in this browser may be the
    pupil before. The join page first asks "Are you <name>?"; only a POST that
    names the selected profile (the "Yes" button, then the join form carrying the
    answer on) goes on as that profile. Opening the page (GET) changes nothing."""
    if request.method != "POST" or request.player is None:
        return False
    return request.POST.get("as_player", "") == str(request.player.pk)


def _not_me(request: PlayerRequest) -> HttpResponse:
    """ "No, I am someone else": exactly the "I am not <name>" action (the
    pupil's identity leaves this browser), then back to this class's join page
    (key included), now without a profile."""
    response = redirect(request.get_full_path())
    end_pupil_identity(request, response)
    return response


def _join_choices(members: Iterable[Membership]) -> list[dict[str, object]]:
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


def _do_join(request: PlayerRequest, classroom: Classroom, form: JoinForm) -> HttpResponse | None:
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
    keyed = bool(key and services.class_link_key_valid(classroom, key))
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
            form.nickname_suggestions = error.extra.get("suggestions", []) if error.extra else []
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
