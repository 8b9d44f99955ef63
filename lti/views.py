"""Thin views of the LTI tool; the work is in registration, launch, services."""

import logging

from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
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
from config.security import policy_for
from games import registry
from homework import selectors as homework_selectors

from . import deep_linking, keys, launch, net, registration, services
from .models import GradeSend, Platform, ResourceLink

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


def refused(request: HttpRequest, code: str, message, status: int) -> HttpResponse:
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
def login_initiation(request: HttpRequest) -> HttpResponse:
    params = request.POST if request.method == "POST" else request.GET
    try:
        url = launch.begin_login(request, params)
    except launch.Refused as error:
        return refused(request, error.code, error.message, error.status)
    return HttpResponseRedirect(url)


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
    try:
        validated = launch.validate(request.POST.get("id_token"), request.POST.get("state"))
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
    if outcome.deep_link is not None:
        login(request, outcome.user, backend="django.contrib.auth.backends.ModelBackend")
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
        response["Content-Security-Policy"] = _policy(request, frame_origin=platform.origin)
        return response
    response = HttpResponseRedirect(outcome.destination)
    response.status_code = 303
    if outcome.role == "instructor":
        login(request, outcome.user, backend="django.contrib.auth.backends.ModelBackend")
    else:
        if request.user.is_authenticated:
            from django.contrib.auth import logout

            logout(request)
        token = services.select_player(identity.read_token(request), outcome.player)
        identity.write_token(response, token)
    return response


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
        frame_origin=platform.origin,
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


def grades_link(assignment) -> list[tuple[str, str]]:
    """The teacher's homework page links here when an LMS links to the assignment."""
    if not ResourceLink.objects.filter(assignment=assignment).exists():
        return []
    url = reverse("lti:grades", args=[assignment.classroom_id, assignment.pk])
    return [(_("Scores sent to the LMS"), url)]


@login_required
@require_http_methods(["GET", "POST"])
def staff(request: HttpRequest) -> HttpResponse:
    """Staff: the registered LMSs, and a button for a new one-time registration link."""
    if not request.user.is_staff:
        raise PermissionDenied
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
