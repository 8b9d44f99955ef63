"""Every decision after the provider's token was verified (``accounts.sso.provider``).

allauth's own sign-up, e-mail matching and connect flows are never reached:
``pre_social_login`` ends every sign-in with an answer of its own, so what
happens is exactly this:

1. the school's claim (Google ``hd``, Microsoft ``tid``) must be allowed
   (``policy.school_refusal``) -- or a refusal page, nothing stored;
2. an identity linked before signs its teacher in;
3. an address that belongs to an existing account is never signed in or
   linked on the provider's word: a verified address gets a confirmation page
   where the account's owner gives the Matika password (or, signed in
   already, confirms), an unverified one a refusal (``accounts.sso.link``);
4. otherwise a verified address from an allowed domain makes a new teacher
   account (with no password) and signs it in; anything else is refused.

Pupils have no e-mail accounts: only teacher accounts (``User``) are made or
signed in here; a player profile is never touched.
"""

from __future__ import annotations

import logging
from typing import Any, NoReturn

from allauth.core.exceptions import ImmediateHttpResponse
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from allauth.socialaccount.models import SocialAccount
from django.conf import settings
from django.contrib.auth import login
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.sso import policy

log = logging.getLogger(__name__)

BACKEND = "django.contrib.auth.backends.ModelBackend"
PENDING_LINK = "sso_pending_link"
FAILED = "sso_failed"
CANCELLED = "sso_cancelled"
INACTIVE = "sso_account_inactive"
TAKEN = "sso_identity_taken"
LINK_EXPIRED = "sso_link_expired"
TOO_MANY = "sso_too_many"
UNREACHABLE = "sso_provider_unreachable"


def messages_by_code(provider: str) -> dict[str, str]:
    return {
        policy.WRONG_SCHOOL: _(
            "This %(provider)s account does not belong to a school that can sign in here. "
            "Please use your school account, or your Matika e-mail and password."
        )
        % {"provider": provider},
        policy.EMAIL_MISSING: _(
            "%(provider)s did not give us your e-mail address, so we cannot sign you in."
        )
        % {"provider": provider},
        policy.EMAIL_UNVERIFIED: _(
            "%(provider)s has not confirmed your e-mail address, so it cannot create a "
            "teacher account or be linked to one."
        )
        % {"provider": provider},
        policy.EMAIL_DOMAIN: _(
            "Teacher accounts here need an e-mail address of your school's domain."
        ),
        FAILED: _(
            "Signing in with %(provider)s did not work. Nothing was changed; please try again."
        )
        % {"provider": provider},
        CANCELLED: _("You cancelled signing in with %(provider)s. Nothing was changed.")
        % {"provider": provider},
        INACTIVE: _("This teacher account is switched off. Please contact the administrator."),
        TAKEN: _("This %(provider)s account is already linked to another teacher account.")
        % {"provider": provider},
        LINK_EXPIRED: _("This confirmation has expired or was already used. Please sign in again."),
        TOO_MANY: _(
            "Too many sign-ins were started from here. Please wait a few minutes and try again."
        ),
        UNREACHABLE: _(
            "%(provider)s cannot be reached just now. Nothing was changed; please try again "
            "later, or log in with your Matika e-mail and password."
        )
        % {"provider": provider},
    }


def refusal(request: HttpRequest, code: str, provider: str = "", status: int = 403) -> HttpResponse:
    """The readable refusal page; nothing was stored before it."""
    message = messages_by_code(provider or _("the provider"))[code]
    return render(
        request,
        "accounts/sso_refused.html",
        {"refusal": message, "refusal_code": code},
        status=status,
    )


def refuse(request: HttpRequest, code: str, provider: str = "", status: int = 403) -> NoReturn:
    log.info("school sign-in refused: %s (%s)", code, provider)
    raise ImmediateHttpResponse(refusal(request, code, provider, status))


def next_url(request: HttpRequest, candidate: str | None) -> str:
    if candidate and url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return resolve_url(settings.LOGIN_REDIRECT_URL)


def sign_in(request: HttpRequest, user: User, candidate: str | None) -> HttpResponse:
    login(request, user, backend=BACKEND)
    return redirect(next_url(request, candidate))


class SchoolSocialAccountAdapter(DefaultSocialAccountAdapter):
    def is_open_for_signup(self, request: HttpRequest, sociallogin: Any) -> bool:
        # allauth's own sign-up never runs: pre_social_login answers first.
        return False

    def is_auto_signup_allowed(self, request: HttpRequest, sociallogin: Any) -> bool:
        return False

    def can_authenticate_by_email(self, login: Any, email: str) -> bool:
        # An address alone never signs anybody in (accounts.sso.link).
        return False

    def on_authentication_error(
        self,
        request: HttpRequest,
        provider: Any,
        error: str | None = None,
        exception: BaseException | None = None,
        extra_context: dict[str, Any] | None = None,
    ) -> NoReturn:
        from allauth.socialaccount.providers.base.constants import AuthError

        name = getattr(provider, "name", "") or ""
        log.info("school sign-in failed (%s): %s %r", name, error, exception)
        if error == AuthError.CANCELLED:
            raise ImmediateHttpResponse(refusal(request, CANCELLED, name, status=400))
        raise ImmediateHttpResponse(refusal(request, FAILED, name, status=400))

    def _take_over(
        self,
        request: HttpRequest,
        owner: User,
        person: policy.Identity,
        kept: dict[str, Any],
        candidate: str | None,
        provider: str,
        name: str,
    ) -> HttpResponse:
        with transaction.atomic():
            owner = User.objects.select_for_update().get(pk=owner.pk)
            if not owner.is_active:
                return refusal(request, INACTIVE, name)
            # The squatter's password goes (and with it every session it opened).
            owner.set_unusable_password()
            owner.email_verified_at = timezone.now()
            owner.name = person.name or owner.name
            owner.save(update_fields=["password", "email_verified_at", "name"])
            try:
                with transaction.atomic():
                    SocialAccount.objects.create(
                        user=owner,
                        provider=provider,
                        uid=person.uid,
                        extra_data=kept,
                        last_login=timezone.now(),
                    )
            except IntegrityError:
                return refusal(request, TAKEN, name, status=409)
        log.info("unverified account taken over by its address's school sign-in (%s)", name)
        return sign_in(request, owner, candidate)

    def pre_social_login(self, request: HttpRequest, sociallogin: Any) -> None:
        provider = sociallogin.provider
        app_settings = provider.app.settings
        name = provider.app.name or provider.name
        claims = getattr(sociallogin, "id_token_claims", None) or {}
        if code := policy.school_refusal(claims, app_settings):
            refuse(request, code, name)
        person = policy.identity(claims, app_settings)
        kept = policy.kept_claims(claims, app_settings)
        candidate = (sociallogin.state or {}).get("next")

        if sociallogin.is_existing:
            user = sociallogin.account.user
            if not user.is_active:
                refuse(request, INACTIVE, name)
            SocialAccount.objects.filter(pk=sociallogin.account.pk).update(
                extra_data=kept, last_login=timezone.now()
            )
            raise ImmediateHttpResponse(sign_in(request, user, candidate))

        owner = User.objects.filter(email__iexact=person.email).first() if person.email else None
        if code := policy.email_refusal(person, app_settings):
            refuse(request, code, name)
        if owner is not None and owner.email_verified_at is None:
            # Nobody proved this address; the school just did: its owner takes over
            # the account from whoever signed up with it (issue 38 §4).
            raise ImmediateHttpResponse(
                self._take_over(
                    request, owner, person, kept, candidate, provider.app.provider_id, name
                )
            )
        if owner is not None:
            # Never on the provider's word alone: the owner confirms (accounts.sso.link).
            request.session[PENDING_LINK] = {
                "provider": provider.app.provider_id,
                "provider_name": name,
                "uid": person.uid,
                "user_id": owner.pk,
                "extra_data": kept,
                "next": candidate or "",
                "created": timezone.now().timestamp(),
            }
            raise ImmediateHttpResponse(redirect("sso_link"))

        try:
            with transaction.atomic():
                user = User.objects.create_user(
                    email=person.email,
                    password=None,
                    name=person.name,
                    email_verified_at=timezone.now(),
                )
                SocialAccount.objects.create(
                    user=user,
                    provider=provider.app.provider_id,
                    uid=person.uid,
                    extra_data=kept,
                    last_login=timezone.now(),
                )
        except IntegrityError:
            refuse(request, FAILED, name, status=409)
        log.info("teacher account created by school sign-in (%s)", name)
        raise ImmediateHttpResponse(sign_in(request, user, candidate))
