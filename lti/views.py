"""Thin views of the LTI tool; the work is in registration, launch, services."""

import logging
from typing import TYPE_CHECKING

from django.contrib import admin
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.clickjacking import xframe_options_exempt
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import identity
from accounts.models import PlayerProfile, User
from core import registry
from core.security import policy_for
from homework import selectors as homework_selectors
from homework.models import Assignment

from . import deep_linking, framing, keys, launch, net, registration, services
from .models import GradeSend, Platform, ResourceLink

if TYPE_CHECKING:
    from django.utils.functional import _StrPromise

logger = logging.getLogger(__name__)


def _policy(request: HttpRequest, *, form_origin: str = "", frame_origin: str = "") -> str:
    """The site's policy, widened on this one page: forms may post to the
    platform, and the platform (only) may frame it."""
    directives = policy_for(request).split("; ")
    out = []
    for directive in directives:
        if form_origin and directive == "form-action 'self'":
            directive = f"form-action 'self' {form_origin}"
        if frame_origin and directive == "frame-ancestors 'none'":
            directive = f"frame-ancestors 'self' {frame_origin}"
        out.append(directive)
    return "; ".join(out)


def refused(
    request: HttpRequest, code: str, message: "str | _StrPromise", status: int
) -> HttpResponse:
    response = render(
        request, "lti/refused.html", {"code": code, "message": message}, status=status
    )
    response["X-Error-Code"] = code
    return response


@require_GET
def jwks(request: HttpRequest) -> JsonResponse:
    response = JsonResponse(keys.jwks())
    response["Cache-Control"] = "public, max-age=300"
    return response


def _link_refused(request: HttpRequest) -> HttpResponse:
    return refused(
        request,
        "bad_registration_link",
        _(
            "This registration link is not valid: it was used already or has expired. "
            "Ask the Matika administrator for a new one."
        ),
        403,
    )


@require_GET
@xframe_options_exempt
def register(request: HttpRequest, token: str) -> HttpResponse:
    configuration_url = request.GET.get("openid_configuration")
    frame = net.origin(configuration_url) if net.acceptable_url(configuration_url) else ""
    if not registration.link_is_valid(token):
        return _link_refused(request)
    if not frame:
        return refused(
            request,
            "bad_configuration_url",
            _("Open this link from the LMS's tool registration (dynamic registration)."),
            400,
        )
    try:
        done = registration.register(
            token=token,
            request=request,
            configuration_url=configuration_url,
            registration_token=request.GET.get("registration_token"),
        )
    except LookupError:
        return _link_refused(request)
    except net.PlatformError as error:
        logger.warning("LTI registration failed: %s", error)
        return refused(
            request,
            f"registration_{error.code}",
            _(
                "The LMS did not accept the registration (%(code)s). The link stays valid: "
                "try again."
            )
            % {"code": error.code},
            502,
        )
    response = render(request, "lti/registered.html", {"platform": done.platform})
    response["Content-Security-Policy"] = _policy(request, frame_origin=done.origin)
    return response


@csrf_exempt
@require_http_methods(["GET", "POST"])
@xframe_options_exempt
def login_initiation(request: HttpRequest) -> HttpResponse:
    """Binds the new state to this browser: a cookie, and where the LMS offers its
    client-side storage (``lti_storage_target``), the same value put there too."""
    params = request.POST if request.method == "POST" else request.GET
    try:
        started = launch.begin_login(request, params)
    except launch.Refused as error:
        return refused(request, error.code, error.message, error.status)
    if started.storage_target:
        response = render(
            request,
            "lti/store.html",
            {
                "url": started.url,
                "target": started.storage_target,
                "origin": net.origin(started.platform.authorization_endpoint),
                "key": _storage_key(started.state),
                "value": started.binding,
            },
        )
        response["Content-Security-Policy"] = framing.framed_policy(
            policy_for(request), started.platform.framing_origins
        )
    else:
        response = HttpResponseRedirect(started.url)
    response.set_cookie(
        started.cookie_name,
        started.binding,
        max_age=launch.STATE_SECONDS,
        httponly=True,
        secure=True,
        samesite="None",
    )
    # Kept per top-level site (CHIPS) where the login runs in the LMS's frame.
    response.cookies[started.cookie_name]["samesite"] = "None; Partitioned"
    response["Cache-Control"] = "no-store"
    return response


def _storage_key(state: str) -> str:
    return "matika_state_" + launch.state_cookie_name(state)[-16:]


def _unbound(request: HttpRequest, error: launch.Refused, state: object) -> HttpResponse:
    """A launch this browser did not start (or whose cookie the frame lost): nothing
    is signed in. The platform's storage is asked for the binding where the login
    put it there; a frame without it offers a new window that logs in again."""
    pending = launch.pending_login(state)
    dest = request.headers.get("Sec-Fetch-Dest", "").lower()
    if pending is not None and dest in framing.FRAMED_DESTS | {""}:
        found, params = pending
        origins = found.platform.framing_origins
        assert isinstance(state, str)  # pending_login found it
        if params.get("_storage") and "lti_storage_value" not in request.POST:
            response = render(
                request,
                "lti/fetch.html",
                {
                    "action": reverse("lti:launch"),
                    "id_token": request.POST.get("id_token", ""),
                    "state": state,
                    "target": params["_storage"],
                    "origin": net.origin(found.platform.authorization_endpoint),
                    "key": _storage_key(state),
                    "open_url": _login_again_url(params),
                },
            )
        else:
            response = render(
                request,
                "lti/framed.html",
                {"open_url": _login_again_url(params), "again": True},
                status=403,
            )
            response["X-Error-Code"] = error.code
        response["Content-Security-Policy"] = framing.framed_policy(policy_for(request), origins)
        response["Cache-Control"] = "no-store"
        return response
    response = refused(request, error.code, error.message, error.status)
    response["Content-Security-Policy"] = policy_for(request)
    return response


def _login_again_url(params: dict) -> str:
    """The login initiation with the LMS's own parameters: in a new window, the LMS
    signs in whoever is signed in to it there."""
    from urllib.parse import urlencode

    query = {name: params[name] for name in launch.LOGIN_PARAMS if params.get(name)}
    return reverse("lti:login") + "?" + urlencode(query)


def _language(claims: dict) -> str:
    presentation = claims.get(launch.CLAIM + "launch_presentation")
    locale = presentation.get("locale") if isinstance(presentation, dict) else None
    if isinstance(locale, str) and locale[:2].lower() in {"cs", "sk", "en"}:
        return locale[:2].lower()
    return translation.get_language() or "cs"


@csrf_exempt
@require_POST
@xframe_options_exempt
def launch_view(request: HttpRequest) -> HttpResponse:
    state = request.POST.get("state")
    bound = launch.state_is_bound(request, state, request.POST.get("lti_storage_value"))
    try:
        validated = launch.validate(request.POST.get("id_token"), state, bound=bound)
    except launch.Unbound as error:
        return _unbound(request, error, state)
    except launch.Refused as error:
        response = refused(request, error.code, error.message, error.status)
        response["Content-Security-Policy"] = policy_for(request)
        return response
    try:
        language = _language(validated.claims)
        translation.activate(language)
        request.LANGUAGE_CODE = language
        outcome = services.accept(validated, language=language)
    except launch.Refused as error:
        response = refused(request, error.code, error.message, error.status)
        response["Content-Security-Policy"] = policy_for(request)
        return response
    if outcome.refresh_roster:
        from .tasks import refresh_roster

        try:
            refresh_roster.delay(outcome.course.pk)
        except Exception as error:  # noqa: BLE001 -- a broker outage must not refuse the launch
            logger.warning("LTI roster refresh not queued: %s", error)
    platform = validated.platform
    framed = framing.launch_is_framed(
        request, validated.claims, launch.CLAIM + "launch_presentation"
    )
    if not framed:
        # A launch in a window of its own ends any frame grant this browser still shows.
        framing.end_frame(request)
    if outcome.deep_link is not None:
        services.end_pupil_sessions(identity.read_token(request))
        login(request, outcome.user, backend="django.contrib.auth.backends.ModelBackend")
        if framed:
            framing.grant(
                request,
                platform=platform,
                person=outcome.person,
                role=outcome.role,
                destination=reverse("lti:launch"),
            )
        response = render(
            request,
            "lti/pick.html",
            {
                "token": outcome.deep_link_token,
                "games": registry.assignable_games(),
                "classroom": outcome.course.classroom,
                "days": services.DEFAULT_DAYS,
            },
        )
        response["Content-Security-Policy"] = _policy(
            request, frame_origin=" ".join(platform.framing_origins)
        )
        return response
    destination = outcome.destination
    if framed:
        # The landing checks that the frame kept its cookies, else offers a new window.
        _grant, ticket = framing.grant(
            request,
            platform=platform,
            person=outcome.person,
            role=outcome.role,
            destination=destination,
        )
        framing.keep_login(ticket, launch.login_params(state))
        destination = reverse("lti:frame", args=[ticket])
    response = HttpResponseRedirect(destination)
    response.status_code = 303
    _sign_in(request, response, outcome.role, outcome.user, outcome.player)
    return response


def _sign_in(
    request: HttpRequest,
    response: HttpResponse,
    role: str,
    user: User | None,
    player: PlayerProfile | None,
) -> None:
    """The LMS user signed in on this browser: a teacher's session, or the pupil's
    player selected on the browser's identity (any signed-in account signed out)."""
    if role == "instructor":
        services.end_pupil_sessions(identity.read_token(request))
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return
    if request.user.is_authenticated:
        from django.contrib.auth import logout

        logout(request)
    assert player is not None  # a learner's launch always binds a player (services)
    token = services.select_player(identity.read_token(request), player)
    identity.write_token(response, token)


@require_GET
@xframe_options_exempt
def frame_landing(request: HttpRequest, ticket: str) -> HttpResponse:
    """A framed launch's first stop: with the frame's cookie back, on to the
    destination (the ticket is spent); without, a button to open a new window."""
    found = framing.by_ticket(ticket)
    if found is None:
        return _ticket_refused(request)
    marker = framing.marker_grant(request)
    if marker is not None and marker.pk == found.pk:
        framing.take_ticket(ticket)
        onward = HttpResponseRedirect(found.destination)
        onward.status_code = 303
        return onward
    response = render(
        request,
        "lti/framed.html",
        {"open_url": reverse("lti:frame_open", args=[ticket]), "role": found.role},
    )
    response["Content-Security-Policy"] = framing.framed_policy(
        policy_for(request), found.platform.framing_origins
    )
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def frame_open(request: HttpRequest, ticket: str) -> HttpResponse:
    """The "open in a new window" ticket, once: it signs nobody in (a bearer URL
    would sign in any browser it reaches), it starts the LMS's login again in
    this window, where the LMS signs in whoever is signed in to it."""
    found = framing.take_ticket(ticket)
    params = framing.kept_login(ticket) if found is not None else None
    if found is None or not params:
        return _ticket_refused(request)
    response = HttpResponseRedirect(_login_again_url(params))
    response.status_code = 303
    response["Cache-Control"] = "no-store"
    return response


def _ticket_refused(request: HttpRequest) -> HttpResponse:
    return refused(
        request,
        "bad_frame_ticket",
        _("This link was used already or has expired. Open Matika from the LMS again."),
        403,
    )


@csrf_exempt
@require_POST
@xframe_options_exempt
def deep_link_choose(request: HttpRequest) -> HttpResponse:
    """The picker's one submit: the homework is made, the signed answer goes back."""
    try:
        deep_link, assignment = services.create_linked_assignment(
            token=request.POST.get("token"),
            game=request.POST.get("game"),
            language=translation.get_language() or "cs",
        )
    except launch.Refused as error:
        return refused(request, error.code, error.message, error.status)
    jwt = deep_linking.response_jwt(request, deep_link, assignment)
    platform = deep_link.course.deployment.platform
    response = render(
        request,
        "lti/return.html",
        {"return_url": deep_link.return_url, "jwt": jwt, "assignment": assignment},
    )
    response["Content-Security-Policy"] = _policy(
        request,
        form_origin=net.origin(deep_link.return_url),
        frame_origin=" ".join(platform.framing_origins),
    )
    return response


@login_required
@require_GET
def grades(request: HttpRequest, pk: int, assignment_id: int) -> HttpResponse:
    """Per pupil: whether the score reached the LMS gradebook (teachers of the class)."""
    assignment = homework_selectors.teacher_assignment(request.user, assignment_id)
    if assignment.classroom_id != pk:
        raise PermissionDenied
    sends = {
        grade.member_id: grade
        for grade in GradeSend.objects.filter(link__assignment=assignment).order_by("updated_at")
    }
    rows = [
        {"member": member, "grade": sends.get(member.pk)}
        for member in homework_selectors.roster_for(assignment.classroom)
    ]
    return render(
        request,
        "lti/grades.html",
        {"assignment": assignment, "classroom": assignment.classroom, "rows": rows},
    )


def grades_link(assignment: Assignment) -> list[tuple[str, str]]:
    """The teacher's homework page links here when an LMS links to the assignment."""
    if not ResourceLink.objects.filter(assignment=assignment).exists():
        return []
    url = reverse("lti:grades", args=[assignment.classroom_id, assignment.pk])
    return [(_("Scores sent to the LMS"), url)]


@login_required
@require_http_methods(["GET", "POST"])
def staff(request: HttpRequest) -> HttpResponse:
    """Staff: the registered LMSs, and a button for a new one-time registration link.
    The same second factor as ``/staff/`` and the admin (issue 38 §4): staff who
    enrolled TOTP give the code at the admin login first."""
    if not request.user.is_staff:
        raise PermissionDenied
    if not admin.site.has_permission(request):
        return redirect_to_login(request.get_full_path(), reverse("admin:login"))
    link = ""
    if request.method == "POST":
        token = registration.new_link(user=request.user)
        link = request.build_absolute_uri(registration.link_path(token))
    return render(
        request,
        "lti/staff.html",
        {
            "link": link,
            "platforms": Platform.objects.order_by("-created_at").prefetch_related("deployments"),
            "manual": registration.tool_configuration(registration.tool_urls(request)),
        },
    )
