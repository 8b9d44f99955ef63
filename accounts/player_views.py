"""The player's own profile pages: nickname, switcher, profile code, storage,
consent, export, reset and deletion (no account needed)."""

import functools
import json
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts import (
    consent,
    identity,
    limits,
    nicknames,
    selectors,
    services,
    trust,
)
from accounts.errors import AccountsError
from accounts.forms import NicknameForm, ProfileCodeForm
from accounts.models import Browser, PlayerProfile
from accounts.requests import PlayerRequest, PupilRequest


def next_url(request: HttpRequest, default: str) -> str:
    """Only same-site redirects: a crafted ``next`` must not send players elsewhere.

    Only a path counts: anything else (``next=NaN``) would be reversed as a view
    name by ``redirect`` and answer 500 (issue 27 §5)."""
    candidate = request.POST.get("next", "")
    if candidate.startswith("/") and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return resolve_url(default)


def _suggestions(error: AccountsError) -> list[str]:
    """Free nicknames offered with a taken one (``services``), shown as buttons."""
    return list(error.extra.get("suggestions", [])) if error.extra else []


def _profile_page(
    request: PlayerRequest,
    *,
    nickname_form: NicknameForm | None = None,
    code_form: ProfileCodeForm | None = None,
    status: int = 200,
    suggestions: Iterable[str] = (),
) -> HttpResponse:
    profiles = []
    if request.browser is not None:
        profiles = list(request.browser.profiles.filter(is_active=True).order_by("nickname"))
        # Another person's bound profile is never offered (issue 38 §1).
        others = identity.bound_profile_ids(p.pk for p in profiles) - {
            request.player.pk if request.player else None
        }
        profiles = [p for p in profiles if p.pk not in others]
    stats = selectors.player_stats(request.player) if request.player else None
    context = {
        "nickname_form": nickname_form
        or NicknameForm(
            initial={
                "nickname": request.player.nickname
                if request.player
                else nicknames.generate(language=get_language())
            }
        ),
        "code_form": code_form or ProfileCodeForm(),
        "nickname_suggestions": list(suggestions),
        "profiles": profiles,
        "profile_code": identity.format_profile_code(request.player.code)
        if request.player
        else None,
        "stats": stats,
        "stats_sections": selectors.profile_stats_sections(stats) if stats else [],
        "consent": selectors.current_consent(request.player) if request.player else None,
        "consent_question": consent.question(),
        "consent_age_statement": consent.age_statement(),
        "needs_verification": request.user.is_authenticated
        and not trust.may_act_for_others(request.user),
    }
    return render(request, "accounts/profile.html", context, status=status)


def profile(request: PlayerRequest) -> HttpResponse:
    return _profile_page(request)


def _storage_off_error(request: HttpRequest) -> HttpResponse:
    messages.error(
        request,
        _(
            "Saving is switched off in this browser, so a profile cannot be kept. Switch it on first."
        ),
    )
    return redirect("accounts:profile")


@require_POST
def create_profile(request: PlayerRequest) -> HttpResponse:
    if not request.storage_enabled:
        return _storage_off_error(request)
    form = NicknameForm(request.POST)
    if not form.is_valid():
        return _profile_page(request, nickname_form=form, status=400)
    client = limits.client_of(request)
    if limits.blocked(limits.profile_creations(), client):
        form.add_error(None, _("Too many new nicknames from here. Wait a while and try again."))
        return _profile_page(request, nickname_form=form, status=429)
    try:
        player, token = services.create_profile(
            browser_token=identity.read_token(request), nickname=form.cleaned_data["nickname"]
        )
    except AccountsError as error:
        form.add_error("nickname", error.message)
        return _profile_page(
            request, nickname_form=form, status=400, suggestions=_suggestions(error)
        )
    limits.count(limits.profile_creations(), client)
    _end_other_sessions(token, player)
    messages.success(request, _("Hello, %(nickname)s!") % {"nickname": player.nickname})
    response = redirect(next_url(request, "accounts:profile"))
    identity.write_token(response, token)
    return response


@require_POST
def rename_profile(request: PlayerRequest) -> HttpResponse:
    if request.player is None:
        return redirect("accounts:profile")
    form = NicknameForm(request.POST)
    suggestions: list[str] = []
    if form.is_valid():
        try:
            services.rename_profile(profile=request.player, nickname=form.cleaned_data["nickname"])
            messages.success(request, _("Your nickname was changed."))
            return redirect("accounts:profile")
        except AccountsError as error:
            form.add_error("nickname", error.message)
            suggestions = _suggestions(error)
    return _profile_page(request, nickname_form=form, status=400, suggestions=suggestions)


def _on_browser_profile(
    request: PlayerRequest, action: Callable[..., object], success: str | None
) -> None:
    """Run ``action(browser=..., profile_id=...)`` on a profile of this browser,
    turning refusals and a malformed id into a message."""
    try:
        if request.browser is None:
            raise AccountsError("no_browser", _("There are no profiles in this browser yet."))
        action(browser=request.browser, profile_id=int(request.POST.get("profile", "0")))
    except AccountsError as error:
        messages.error(request, error.message)
    except ValueError:
        messages.error(request, _("Unknown profile."))
    else:
        if success:
            messages.success(request, success)


def _select_shared_profile(*, browser: Browser, profile_id: int) -> PlayerProfile:
    """Switch to a profile of this browser; a person's bound profile is reached
    only by its own sign-in (the LMS, its code), and switching away from the
    selected bound profile ends its session in this browser."""
    if profile_id != browser.selected_id and identity.bound_profile_ids([profile_id]):
        raise AccountsError(
            "bound_profile",
            _("This profile belongs to another pupil: they sign in from their school's system."),
        )
    profile = services.select_profile(browser=browser, profile_id=profile_id)
    identity.end_bound_sessions(browser, keep_id=profile.pk)
    return profile


@require_POST
def switch_profile(request: PlayerRequest) -> HttpResponse:
    _on_browser_profile(request, _select_shared_profile, None)
    return redirect(next_url(request, "accounts:profile"))


def _end_other_sessions(token: str | None, player: PlayerProfile) -> None:
    """A new profile (or one brought by its code) selected: nobody else's bound
    profile stays in this browser."""
    if token:
        browser = Browser.objects.filter(token_hash=identity.hash_token(token)).first()
        identity.end_bound_sessions(browser, keep_id=player.pk)


@require_POST
def not_me(request: PlayerRequest) -> HttpResponse:
    """ "I am not <name>" on a shared computer, then the home page."""
    response = redirect("home")
    end_pupil_identity(request, response)
    return response


def end_pupil_identity(request: PlayerRequest, response: HttpResponse) -> None:
    """The pupil's identity leaves this browser completely -- their profile,
    every bound profile, the identity cookie (on ``response``) and any session:
    the next pupil starts with nothing."""
    from django.contrib.auth import logout

    browser = request.browser
    if browser is not None:
        identity.end_bound_sessions(browser)
        if browser.selected_id is not None:
            browser.profiles.remove(browser.selected_id)
            browser.selected = None
            browser.save(update_fields=["selected"])
    if request.user.is_authenticated:
        services.end_account_capabilities(browser=browser, user=request.user)
        logout(request)
    messages.success(request, _("You are signed out. The next pupil can sign in."))
    identity.forget_token(response)


@require_POST
def forget_profile(request: PlayerRequest) -> HttpResponse:
    _on_browser_profile(
        request, services.forget_profile, _("The profile was removed from this browser.")
    )
    return redirect("accounts:profile")


@require_POST
def continue_profile(request: PlayerRequest) -> HttpResponse:
    if not request.storage_enabled:
        return _storage_off_error(request)
    form = ProfileCodeForm(request.POST)
    if not form.is_valid():
        return _profile_page(request, code_form=form, status=400)
    try:
        player, token = services.continue_with_code(
            browser_token=identity.read_token(request),
            code=form.cleaned_data["code"],
            client=limits.client_of(request),
        )
    except AccountsError as error:
        form.add_error("code", error.message)
        return _profile_page(
            request, code_form=form, status=429 if error.code == "rate_limited" else 400
        )
    _end_other_sessions(token, player)
    messages.success(request, _("Welcome back, %(nickname)s!") % {"nickname": player.nickname})
    response = redirect("accounts:profile")
    identity.write_token(response, token)
    return response


@require_POST
def set_storage(request: HttpRequest) -> HttpResponse:
    enabled = request.POST.get("storage") == "on"
    response = redirect(next_url(request, "privacy"))
    if enabled:
        response.delete_cookie(settings.STORAGE_COOKIE_NAME)
        messages.success(request, _("Saving is on. Your games and profile can be kept."))
    else:
        response.set_cookie(
            settings.STORAGE_COOKIE_NAME,
            "off",
            max_age=settings.PLAYER_COOKIE_AGE,
            httponly=True,
            samesite="Lax",
            secure=settings.PLAYER_COOKIE_SECURE,
        )
        identity.forget_token(response)
        messages.success(
            request, _("Saving is off. This browser keeps no profile and nothing is recorded.")
        )
    return response


@require_GET
def suggest_nickname(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"nickname": nicknames.generate(language=get_language())})


def _require_player(request: PlayerRequest) -> HttpResponse | None:
    if request.player is None:
        messages.error(request, _("Choose a nickname first: there is no profile in this browser."))
        return redirect("accounts:profile")
    return None


def player_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """The view acts on the browser's profile: without one, say so on the profile page."""

    @functools.wraps(view)
    def wrapped(request: PlayerRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if (refusal := _require_player(request)) is not None:
            return refusal
        return view(request, *args, **kwargs)

    return wrapped


@require_POST
@player_required
def renew_code(request: PupilRequest) -> HttpResponse:
    services.renew_profile_code(player=request.player)
    messages.success(request, _("Your profile has a new code. The old one no longer works."))
    return redirect("accounts:profile")


@require_POST
@player_required
def sign_out_others(request: PupilRequest) -> HttpResponse:
    count = services.sign_out_other_browsers(player=request.player, browser=request.browser)
    messages.success(
        request,
        ngettext(
            "Signed out of %(count)s other device.",
            "Signed out of %(count)s other devices.",
            count,
        )
        % {"count": count},
    )
    return redirect("accounts:profile")


@require_POST
def set_consent(request: PlayerRequest) -> HttpResponse:
    """Record a yes/no answer; JSON in and out for the in-game dialog, a form otherwise."""
    wants_json = "application/json" in request.headers.get("accept", "")
    answer = request.POST.get("consent")
    error = None
    if request.player is None:
        error = AccountsError(
            "no_profile", _("Choose a nickname first: there is no profile in this browser.")
        )
    elif answer not in {"yes", "no"}:
        error = AccountsError("bad_answer", _("Please answer yes or no."))
    else:
        try:
            services.record_consent(
                player=request.player,
                granted=answer == "yes",
                language=get_language(),
                age_confirmed=request.POST.get("age") == "yes",
            )
        except AccountsError as refused:
            error = refused
    if error is not None:
        if wants_json:
            return JsonResponse({"code": error.code, "message": error.message}, status=400)
        messages.error(request, error.message)
        return redirect("accounts:profile")
    if wants_json:
        return JsonResponse({"consent": answer == "yes"})
    if answer == "yes":
        messages.success(request, _("Thank you. Your results may appear on public tables."))
    else:
        messages.success(request, _("Nothing of yours is published; public entries were removed."))
    return redirect(next_url(request, "accounts:profile"))


@require_GET
def export_data(request: PlayerRequest, fmt: str) -> HttpResponse:
    if fmt not in {"json", "csv"}:
        raise Http404
    if (refusal := _require_player(request)) is not None:
        return refusal
    player = request.player
    assert player is not None  # _require_player refused a browser without one
    from django.utils.http import content_disposition_header

    from accounts import export

    if fmt == "csv":
        response = HttpResponse(
            export.export_profile_csv(player), content_type="text/csv; charset=utf-8"
        )
    else:
        response = HttpResponse(
            json.dumps(export.export_profile(player), ensure_ascii=False, indent=2),
            content_type="application/json; charset=utf-8",
        )
    # The nickname keeps its diacritics (RFC 6266 filename*), with an ASCII fallback.
    response["Content-Disposition"] = content_disposition_header(
        True, f"matika-{player.nickname}.{fmt}"
    )
    return response


@require_POST
@player_required
def reset_stats(request: PupilRequest) -> HttpResponse:
    services.reset_stats(player=request.player)
    messages.success(request, _("Your statistics were reset."))
    return redirect("accounts:profile")


@require_POST
@player_required
def delete_profile(request: PupilRequest) -> HttpResponse:
    nickname = request.player.nickname
    services.delete_profile(player=request.player)
    messages.success(
        request, _("The profile %(nickname)s and its data were deleted.") % {"nickname": nickname}
    )
    return redirect("accounts:profile")
