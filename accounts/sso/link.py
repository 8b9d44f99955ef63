"""Linking a school account to an existing teacher account: the owner confirms.

``accounts.sso.adapter`` keeps the provider's verified identity in the session
(``PENDING_LINK``) and sends the browser here. The link is made only when the
account's owner confirms: signed in as that account already, by a button; else
by the account's Matika password, checked through django-axes and the
per-address ceiling exactly like the login form. Until then nothing is stored
but the session entry, which expires after ``LINK_SECONDS`` and is used once.
"""

from __future__ import annotations

from allauth.socialaccount.models import SocialAccount
from django.contrib import messages
from django.contrib.auth import authenticate
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import login_limits
from accounts.models import User
from accounts.sso import adapter

LINK_SECONDS = 10 * 60


def _pending(request: HttpRequest) -> tuple[dict, User] | None:
    pending = request.session.get(adapter.PENDING_LINK)
    if not isinstance(pending, dict):
        return None
    if timezone.now().timestamp() - float(pending.get("created", 0)) > LINK_SECONDS:
        request.session.pop(adapter.PENDING_LINK, None)
        return None
    user_id = pending.get("user_id")
    if not isinstance(user_id, int):
        return None
    owner = User.objects.filter(pk=user_id, is_active=True).first()
    if owner is None:
        return None
    return pending, owner


@require_http_methods(["GET", "POST"])
def confirm_link(request: HttpRequest) -> HttpResponse:
    found = _pending(request)
    if found is None:
        return adapter.refusal(request, adapter.LINK_EXPIRED, status=400)
    pending, owner = found
    provider = pending["provider_name"]
    signed_in_as_owner = request.user.is_authenticated and request.user.pk == owner.pk
    context = {
        "provider": provider,
        "email": owner.email,
        "signed_in_as_owner": signed_in_as_owner,
    }
    if request.method == "GET":
        return render(request, "accounts/sso_link.html", context)

    if request.POST.get("action") == "cancel":
        request.session.pop(adapter.PENDING_LINK, None)
        messages.info(request, _("Nothing was linked."))
        return redirect("accounts:login")

    if not signed_in_as_owner:
        if login_limits.login_blocked(request):
            context["error"] = _("Too many failed logins from here. Please try again later.")
            return render(request, "accounts/sso_link.html", context, status=429)
        user = authenticate(
            request, username=owner.email, password=request.POST.get("password", "")
        )
        if user is None or user.pk != owner.pk:
            login_limits.count_login_failure(request)
            context["error"] = _("The password is not right.")
            return render(request, "accounts/sso_link.html", context, status=400)

    request.session.pop(adapter.PENDING_LINK, None)
    if SocialAccount.objects.filter(provider=pending["provider"], uid=pending["uid"]).exists():
        return adapter.refusal(request, adapter.TAKEN, provider, status=409)
    try:
        with transaction.atomic():
            SocialAccount.objects.create(
                user=owner,
                provider=pending["provider"],
                uid=pending["uid"],
                extra_data=pending["extra_data"],
                last_login=timezone.now(),
            )
    except IntegrityError:
        return adapter.refusal(request, adapter.TAKEN, provider, status=409)
    messages.success(
        request,
        _("Your %(provider)s account is linked. Next time, just sign in with %(provider)s.")
        % {"provider": provider},
    )
    return adapter.sign_in(request, owner, pending.get("next"))
