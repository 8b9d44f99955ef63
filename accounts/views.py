"""Teacher accounts (sign-up, e-mail verification, login, password, two-factor
sign-in for staff, logout, export and deletion) and the privacy page; the
player's own profile pages are in ``accounts.player_views``."""

import base64
import json
from typing import Any, cast

import segno
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_otp import login as otp_login
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts import (
    login_limits,
    mail_links,
    services,
    tasks,
)
from accounts import signup as signup_services
from accounts.errors import AccountsError
from accounts.forms import TeacherSignupForm, TwoFactorForm
from accounts.player_views import next_url
from accounts.requests import PlayerRequest, TeacherRequest


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
def resend_verification(request: TeacherRequest) -> HttpResponse:
    if not request.user.email_verified and not signup_services.resend_verification(
        user=request.user, base_url=mail_links.site_url(request)
    ):
        messages.error(
            request,
            _("We have already sent you several links today. Check your inbox and spam folder."),
        )
    else:
        messages.success(request, _("We sent the link again. Check your inbox and spam folder."))
    return redirect(next_url(request, "home"))


class LoginView(auth_views.LoginView):
    """Django's login behind django-axes (per account and address) and a higher
    ceiling of failures per address over all accounts (accounts.login_limits)."""

    template_name = "accounts/login.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        from accounts.sso.buttons import sign_in_buttons

        context = super().get_context_data(**kwargs)
        # "Sign in with …" for each configured school provider (accounts/sso/).
        context["sso_buttons"] = sign_in_buttons(self.request, self.get_redirect_url())
        return context

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if login_limits.login_blocked(request):
            # Refused before the password is checked at all.
            form = self.get_form_class()(
                request, initial={"username": request.POST.get("username")}
            )
            context = self.get_context_data(form=form)
            context["refusal"] = _("Too many failed logins from here. Please try again later.")
            return self.render_to_response(context, status=429)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: Any) -> HttpResponse:
        login_limits.count_login_failure(self.request)
        return super().form_invalid(form)


class PasswordResetView(auth_views.PasswordResetView):
    """Requests are limited per address and per e-mail. Every valid address typed
    queues one mail task (accounts.tasks), an account or not, so the answer tells
    nothing about accounts; when the task cannot be queued the page says so
    (503, ``mail_unavailable``) instead of claiming a mail is on its way."""

    template_name = "accounts/form_page.html"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form: Any) -> HttpResponse:
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


def lockout(
    request: HttpRequest, credentials: dict[str, Any] | None = None, *args: Any, **kwargs: Any
) -> HttpResponse:
    """What django-axes answers to a locked (account, address) pair."""
    minutes = max(1, round(float(settings.AXES_COOLOFF_TIME) * 60))
    return render(request, "accounts/locked_out.html", {"cooloff_minutes": minutes}, status=429)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change; a wrong current password counts as a failed
    login (accounts.login_limits), and a locked pair gets the lockout answer."""

    template_name = "accounts/form_page.html"
    success_url = reverse_lazy("accounts:password_change_done")

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if login_limits.current_password_blocked(request):
            return lockout(request)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: Any) -> HttpResponse:
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


class LogoutView(auth_views.LogoutView):
    """Logging out also takes out of this browser whatever the account gave it."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        browser = cast(PlayerRequest, request).browser  # set by PlayerIdentityMiddleware
        services.end_account_capabilities(browser=browser, user=request.user)
        return super().post(request, *args, **kwargs)


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
def export_account(request: TeacherRequest) -> HttpResponse:
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
def delete_account(request: TeacherRequest) -> HttpResponse:
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
