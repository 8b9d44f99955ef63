"""Teacher sign-up and the player's own profile pages (nickname, switcher, code, storage)."""

import base64
import functools
import json

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render, resolve_url
from django.urls import reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_otp import login as otp_login
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts import (
    consent,
    identity,
    limits,
    login_limits,
    mail_links,
    nicknames,
    selectors,
    services,
    tasks,
)
from accounts import signup as signup_services
from accounts.errors import AccountsError
from accounts.forms import NicknameForm, ProfileCodeForm, TeacherSignupForm, TwoFactorForm


def signup(request: HttpRequest) -> HttpResponse:
    """The same answer for a new and a known address (accounts.signup)."""
    if request.user.is_authenticated:
        return redirect("home")
    form = TeacherSignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            signup_services.sign_up(
                email=form.cleaned_data["email"],
                name=form.cleaned_data.get("name", ""),
                password=form.cleaned_data["password1"],
                base_url=mail_links.site_url(request),
                address=request.META.get("REMOTE_ADDR", ""),
            )
        except AccountsError as refused:
            context = {"form": form, "refusal": refused.message, "refusal_code": refused.code}
            return render(request, "accounts/signup.html", context, status=refused.status)
        return redirect("accounts:signup_sent")
    return render(request, "accounts/signup.html", {"form": form})


def signup_sent(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/signup_sent.html")


def verify_email(request: HttpRequest, token: str) -> HttpResponse:
    try:
        signup_services.verify_email(token=token)
    except signup_services.VerificationError:
        return render(request, "accounts/verify_email.html", {"valid": False}, status=400)
    return render(request, "accounts/verify_email.html", {"valid": True})


@login_required
@require_POST
def resend_verification(request: HttpRequest) -> HttpResponse:
    if not request.user.email_verified and not signup_services.resend_verification(
        user=request.user, base_url=mail_links.site_url(request)
    ):
        messages.error(
            request,
            _("We have already sent you several links today. Check your inbox and spam folder."),
        )
    else:
        messages.success(request, _("We sent the link again. Check your inbox and spam folder."))
    return redirect(_next_url(request, "home"))


class LoginView(auth_views.LoginView):
    """Django's login behind django-axes (per account and address) and a higher
    ceiling of failures per address over all accounts (accounts.login_limits)."""

    template_name = "accounts/login.html"

    def post(self, request, *args, **kwargs):
        if login_limits.login_blocked(request):
            # Refused before the password is checked at all.
            form = self.get_form_class()(
                request, initial={"username": request.POST.get("username")}
            )
            context = self.get_context_data(form=form)
            context["refusal"] = _("Too many failed logins from here. Please try again later.")
            return self.render_to_response(context, status=429)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        login_limits.count_login_failure(self.request)
        return super().form_invalid(form)


class PasswordResetView(auth_views.PasswordResetView):
    """Requests are limited per address and per e-mail. Every valid address typed
    queues one mail task (accounts.tasks), an account or not, so the answer tells
    nothing about accounts; when the task cannot be queued the page says so
    (503, ``mail_unavailable``) instead of claiming a mail is on its way."""

    template_name = "accounts/form_page.html"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form):
        email = form.cleaned_data["email"]
        if not login_limits.password_reset_allowed(self.request, email):
            return redirect(self.success_url)
        domain, use_https = mail_links.domain_and_https(self.request)
        try:
            tasks.queue_password_reset(
                email=email,
                domain=domain,
                use_https=use_https,
                language=get_language(),
            )
        except tasks.MailQueueUnavailable as exc:
            context = self.get_context_data(form=form)
            context["refusal_code"] = exc.code
            context["refusal"] = _(
                "We cannot send e-mail right now. Nothing was sent; please try again "
                "in a few minutes."
            )
            return self.render_to_response(context, status=503)
        return redirect(self.success_url)


def lockout(request: HttpRequest, credentials=None, *args, **kwargs) -> HttpResponse:
    """What django-axes answers to a locked (account, address) pair."""
    minutes = max(1, round(float(settings.AXES_COOLOFF_TIME) * 60))
    return render(request, "accounts/locked_out.html", {"cooloff_minutes": minutes}, status=429)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change; a wrong current password counts as a failed
    login (accounts.login_limits), and a locked pair gets the lockout answer."""

    template_name = "accounts/form_page.html"
    success_url = reverse_lazy("accounts:password_change_done")

    def post(self, request, *args, **kwargs):
        if login_limits.current_password_blocked(request):
            return lockout(request)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        if form.has_error("old_password", "password_incorrect"):
            login_limits.count_wrong_current_password(self.request)
        return super().form_invalid(form)


def _staff_only(request: HttpRequest) -> None:
    if not request.user.is_staff:
        raise Http404


@login_required
def two_factor(request: HttpRequest) -> HttpResponse:
    """Staff enrol a TOTP device; from then on the admin asks for its code."""
    _staff_only(request)
    confirmed = TOTPDevice.objects.filter(user=request.user, confirmed=True).first()
    if confirmed is not None:
        return render(request, "accounts/two_factor.html", {"enrolled": True})
    device = TOTPDevice.objects.filter(user=request.user, confirmed=False).first()
    if device is None:
        device = TOTPDevice.objects.create(user=request.user, name="Matika", confirmed=False)
    form = TwoFactorForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if device.verify_token(form.cleaned_data["token"].strip()):
            device.confirmed = True
            device.save(update_fields=["confirmed"])
            otp_login(request, device)
            messages.success(request, _("Two-factor sign-in is on. The admin now asks for a code."))
            return redirect("accounts:two_factor")
        form.add_error("token", _("This code is not right. Check the time on your phone."))
    qr = segno.make(device.config_url, error="m")
    return render(
        request,
        "accounts/two_factor.html",
        {
            "enrolled": False,
            "form": form,
            "secret": base64.b32encode(device.bin_key).decode().rstrip("="),
            "qr_svg": mark_safe(
                qr.svg_inline(scale=1, border=2, omitsize=True, dark="#000", light="#fff")
            ),
        },
        status=400 if form.errors else 200,
    )


def _next_url(request: HttpRequest, default: str) -> str:
    """Only same-site redirects: a crafted ``next`` must not send players elsewhere.

    Only a path counts: anything else (``next=NaN``) would be reversed as a view
    name by ``redirect`` and answer 500 (issue 27 §5)."""
    candidate = request.POST.get("next", "")
    if candidate.startswith("/") and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return resolve_url(default)


def _profile_page(request: HttpRequest, *, nickname_form=None, code_form=None, status=200):
    profiles = []
    if request.browser is not None:
        profiles = list(request.browser.profiles.filter(is_active=True).order_by("nickname"))
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
        "profiles": profiles,
        "profile_code": identity.format_profile_code(request.player.code)
        if request.player
        else None,
        "stats": stats,
        "stats_sections": selectors.profile_stats_sections(stats) if stats else [],
        "consent": selectors.current_consent(request.player) if request.player else None,
        "consent_question": consent.question(),
        "consent_age_statement": consent.age_statement(),
    }
    return render(request, "accounts/profile.html", context, status=status)


def profile(request: HttpRequest) -> HttpResponse:
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
def create_profile(request: HttpRequest) -> HttpResponse:
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
        return _profile_page(request, nickname_form=form, status=400)
    limits.count(limits.profile_creations(), client)
    messages.success(request, _("Hello, %(nickname)s!") % {"nickname": player.nickname})
    response = redirect(_next_url(request, "accounts:profile"))
    identity.write_token(response, token)
    return response


@require_POST
def rename_profile(request: HttpRequest) -> HttpResponse:
    if request.player is None:
        return redirect("accounts:profile")
    form = NicknameForm(request.POST)
    if form.is_valid():
        try:
            services.rename_profile(profile=request.player, nickname=form.cleaned_data["nickname"])
            messages.success(request, _("Your nickname was changed."))
            return redirect("accounts:profile")
        except AccountsError as error:
            form.add_error("nickname", error.message)
    return _profile_page(request, nickname_form=form, status=400)


def _on_browser_profile(request: HttpRequest, action, success: str | None) -> None:
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


@require_POST
def switch_profile(request: HttpRequest) -> HttpResponse:
    _on_browser_profile(request, services.select_profile, None)
    return redirect(_next_url(request, "accounts:profile"))


@require_POST
def forget_profile(request: HttpRequest) -> HttpResponse:
    _on_browser_profile(
        request, services.forget_profile, _("The profile was removed from this browser.")
    )
    return redirect("accounts:profile")


@require_POST
def continue_profile(request: HttpRequest) -> HttpResponse:
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
    messages.success(request, _("Welcome back, %(nickname)s!") % {"nickname": player.nickname})
    response = redirect("accounts:profile")
    identity.write_token(response, token)
    return response


@require_POST
def set_storage(request: HttpRequest) -> HttpResponse:
    enabled = request.POST.get("storage") == "on"
    response = redirect(_next_url(request, "privacy"))
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


def _require_player(request: HttpRequest) -> HttpResponse | None:
    if request.player is None:
        messages.error(request, _("Choose a nickname first: there is no profile in this browser."))
        return redirect("accounts:profile")
    return None


def player_required(view):
    """The view acts on the browser's profile: without one, say so on the profile page."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if (refusal := _require_player(request)) is not None:
            return refusal
        return view(request, *args, **kwargs)

    return wrapped


@require_POST
@player_required
def renew_code(request: HttpRequest) -> HttpResponse:
    services.renew_profile_code(player=request.player)
    messages.success(request, _("Your profile has a new code. The old one no longer works."))
    return redirect("accounts:profile")


@require_POST
@player_required
def sign_out_others(request: HttpRequest) -> HttpResponse:
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


class LogoutView(auth_views.LogoutView):
    """Logging out also takes out of this browser whatever the account gave it."""

    def post(self, request, *args, **kwargs):
        services.end_account_capabilities(browser=request.browser, user=request.user)
        return super().post(request, *args, **kwargs)


@require_POST
def set_consent(request: HttpRequest) -> HttpResponse:
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
    return redirect(_next_url(request, "accounts:profile"))


@require_GET
def export_data(request: HttpRequest, fmt: str) -> HttpResponse:
    if fmt not in {"json", "csv"}:
        raise Http404
    if (refusal := _require_player(request)) is not None:
        return refusal
    from django.utils.http import content_disposition_header

    from accounts import export

    if fmt == "csv":
        response = HttpResponse(
            export.export_profile_csv(request.player), content_type="text/csv; charset=utf-8"
        )
    else:
        response = HttpResponse(
            json.dumps(export.export_profile(request.player), ensure_ascii=False, indent=2),
            content_type="application/json; charset=utf-8",
        )
    # The nickname keeps its diacritics (RFC 6266 filename*), with an ASCII fallback.
    response["Content-Disposition"] = content_disposition_header(
        True, f"matika-{request.player.nickname}.{fmt}"
    )
    return response


@require_POST
@player_required
def reset_stats(request: HttpRequest) -> HttpResponse:
    services.reset_stats(player=request.player)
    messages.success(request, _("Your statistics were reset."))
    return redirect("accounts:profile")


@require_POST
@player_required
def delete_profile(request: HttpRequest) -> HttpResponse:
    nickname = request.player.nickname
    services.delete_profile(player=request.player)
    messages.success(
        request, _("The profile %(nickname)s and its data were deleted.") % {"nickname": nickname}
    )
    return redirect("accounts:profile")


def privacy(request: HttpRequest) -> HttpResponse:
    """What is stored, where, for how long (from ``settings.RETENTION``) and the rights."""
    from accounts import retention

    return render(
        request,
        "privacy.html",
        {
            "retention": retention.periods_for_display(),
            "controller_name": settings.DATA_CONTROLLER_NAME,
            "controller_contact": settings.DATA_CONTROLLER_CONTACT,
        },
    )


@login_required
@require_GET
def export_account(request: HttpRequest) -> HttpResponse:
    """A teacher's own data as JSON (``accounts.teacher_data``)."""
    from django.utils.http import content_disposition_header

    from accounts import teacher_data

    response = HttpResponse(
        json.dumps(teacher_data.export_account(request.user), ensure_ascii=False, indent=2),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = content_disposition_header(
        True, f"matika-{request.user.email}.json"
    )
    return response


@login_required
def delete_account(request: HttpRequest) -> HttpResponse:
    """Deleting a teacher's account: a page that says what happens to each class,
    then the password and a tick confirm it."""
    from django.contrib.auth import logout

    from accounts import teacher_data

    error = None
    if request.method == "POST":
        if login_limits.current_password_blocked(request):
            return lockout(request)
        if request.POST.get("confirm") != "yes":
            error = _("Tick the box to confirm.")
        elif not request.user.check_password(request.POST.get("password", "")):
            login_limits.count_wrong_current_password(request)
            error = _("The password is not right.")
        else:
            teacher_data.delete_account(request.user)
            logout(request)
            messages.success(request, _("Your teacher account and its data were deleted."))
            return redirect("home")
    return render(
        request,
        "accounts/delete_account.html",
        {"plan": teacher_data.deletion_plan(request.user), "error": error},
        status=400 if error else 200,
    )
