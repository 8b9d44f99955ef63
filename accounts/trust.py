"""What a teacher account may do that other people see (issue 38 §4).

Anyone can sign up with any address, a colleague's included, and use the
account before the address is proved. Until it is, the account acts for itself
only: it creates no class, hosts no group game, duel or table that others join,
sets no homework and sends no invitation. Each of those services refuses with
the stable code ``email_unverified`` (403) and a message that says what to do;
the pages show it with a button that mails the link again.

Proved means: the owner opened the link mailed to the address (sign-up's link,
or the password-reset link, which takes the address over from a squatter), or
signed in through the school's identity provider with that verified address
(``accounts.sso.adapter``). An LMS instructor's account has a placeholder
address that cannot receive mail; the LMS, registered by our staff, vouches for
that person (``lti.Person``), so it counts as proved too.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from core.errors import DomainError

UNVERIFIED = "email_unverified"
STATUS = 403


def may_act_for_others(user: AbstractBaseUser | AnonymousUser | None) -> bool:
    """Whether ``user`` is a signed-in account whose address (or LMS identity) is proved."""
    if user is None or not user.is_authenticated:
        return False
    if getattr(user, "email_verified_at", None) is not None:
        return True
    from accounts.models import User

    return User.objects.filter(pk=user.pk, lti_person__isnull=False).exists()


def message() -> str:
    text: str = _("Confirm your e-mail address first: open the link we mailed to you.")
    return text


def require_verified(
    user: AbstractBaseUser | AnonymousUser | None,
    error: Callable[..., Exception] = DomainError,
) -> None:
    """Raise ``error`` (``email_unverified``, 403) unless ``user`` may act for others."""
    if not may_act_for_others(user):
        raise error(UNVERIFIED, message(), status=STATUS)


def verify_first(request: HttpRequest, status: int = STATUS) -> HttpResponse:
    """The refusal as an answer: JSON for API clients, else a page that explains
    what an unverified account cannot do and mails the link again."""
    from accounts.middleware import wants_json

    if wants_json(request):
        return JsonResponse({"code": UNVERIFIED, "message": message()}, status=status)
    context = {"message": message(), "code": UNVERIFIED}
    return render(request, "accounts/verify_first.html", context, status=status)
