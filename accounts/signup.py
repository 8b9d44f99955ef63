"""Teacher sign-up and e-mail verification (docs/decisions.md, "Teacher accounts").

Sign-up answers alike whether the address is new or already has an account: a
new address gets an unverified account and a verification link, a known one
gets a note to its owner (nothing changes). Verification is a signed link
(``django.core.signing``, with an expiry) mailed to the address; until it is
opened the account works for its own classes but is granted nothing tied to
the address (a co-teacher invitation).

Someone may sign up with a colleague's address and never verify it (a
squatter, issue 38 §4). The address's real owner takes it over by a mail link
or by school sign-in: a new password set through the mailed password-reset
link proves the address and verifies the account (``OwnerSetPasswordForm``;
the squatter's password and sessions are gone with it), and a school sign-in
with that verified address takes over an unverified account
(``accounts.sso.adapter``). Deleting an unverified account keeps invitations
addressed to its e-mail (``classrooms.privacy``): they were meant for the owner.

Sign-ups are counted per network address with a budget a whole staff room fits
in, and a known address gets its note at most once a day
(accounts.mail_limits): sign-up must not mail a teacher twenty times.
"""

from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.hashers import make_password
from django.core import signing
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import mail_limits, tasks
from accounts.errors import AccountsError
from accounts.models import User

VERIFY_SALT = "accounts.verify-email"
VERIFY_MAX_AGE = 3 * 24 * 3600


class VerificationError(Exception):
    pass


def verification_token(user: User) -> str:
    return signing.dumps({"u": user.pk, "e": user.email}, salt=VERIFY_SALT, compress=True)


def _mail(subject: str, body: str, email: str) -> None:
    """Queued, retried for about an hour when SMTP fails (accounts.tasks); a
    broker that is away is logged as an error and the answer stays the same."""
    tasks.queue_mail(subject=subject, body=body, to=[email])


def send_verification(*, user: User, base_url: str) -> None:
    link = base_url + reverse("accounts:verify_email", kwargs={"token": verification_token(user)})
    _mail(
        _("Matika: confirm your e-mail address"),
        _(
            "Please confirm that this address belongs to your Matika teacher account "
            "by opening this link within 3 days:\n\n%(link)s\n\n"
            "If you did not create an account, ignore this e-mail."
        )
        % {"link": link},
        user.email,
    )


def resend_verification(*, user: User, base_url: str) -> bool:
    """The link again, on the account's request; False (nothing sent) when the
    address has had its resends for today (accounts.mail_limits)."""
    if not mail_limits.take_verification_resend(email=user.email):
        return False
    send_verification(user=user, base_url=base_url)
    return True


def sign_up(*, email: str, name: str, password: str, base_url: str, address: str) -> User | None:
    """Create an unverified account and mail the link; for a known address mail
    its owner instead (once a day). Returns the new user, or None (the caller
    answers alike). Refused (``too_many_signups``) when the network ``address``
    has used up its sign-ups, whether the e-mail address is known or not."""
    wait = mail_limits.take_signup(address=address)
    if wait is not None:
        raise AccountsError(
            "too_many_signups",
            ngettext(
                "Too many accounts were created from this network. Try again in %(minutes)d minute.",
                "Too many accounts were created from this network. Try again in %(minutes)d minutes.",
                wait,
            )
            % {"minutes": wait},
            status=429,
        )
    email = email.strip().lower()
    existing = User.objects.filter(email__iexact=email).first()
    if existing is None:
        try:
            with transaction.atomic():
                user = User.objects.create_user(email, password, name=name)
        except IntegrityError:  # the same address signed up a moment ago
            existing = User.objects.filter(email__iexact=email).first()
        else:
            send_verification(user=user, base_url=base_url)
            return user
    make_password(password)  # about the same time as creating an account
    if existing is not None and mail_limits.take_signup_notice(email=existing.email):
        _mail(
            _("Matika: you already have an account"),
            _(
                "Someone, perhaps you, tried to create a Matika teacher account with this "
                "address. It already has one: log in at %(login)s or, if you forgot the "
                "password, choose a new one at %(reset)s.\n\n"
                "If it was not you, you can ignore this e-mail; nothing was changed."
            )
            % {
                "login": base_url + reverse("accounts:login"),
                "reset": base_url + reverse("accounts:password_reset"),
            },
            existing.email,
        )
    return None


class OwnerSetPasswordForm(SetPasswordForm):
    """The password-reset link's form: whoever opened the mailed link owns the
    address, so an unverified account becomes verified -- its owner takes it
    over from whoever signed up with the address (their password, and with it
    their sessions, no longer work)."""

    def save(self, commit: bool = True) -> User:
        user = super().save(commit=False)
        if user.email_verified_at is None:
            user.email_verified_at = timezone.now()
        if commit:
            user.save()
        return user


@transaction.atomic
def verify_email(*, token: str) -> User:
    """Mark the address verified; refused when the link is forged, expired, or
    was made for an address the account no longer has."""
    try:
        data = signing.loads(token, salt=VERIFY_SALT, max_age=VERIFY_MAX_AGE)
    except signing.BadSignature as exc:  # SignatureExpired is one
        raise VerificationError from exc
    user = User.objects.select_for_update().filter(pk=data.get("u")).first()
    if user is None or user.email.lower() != str(data.get("e", "")).lower():
        raise VerificationError
    if user.email_verified_at is None:
        user.email_verified_at = timezone.now()
        user.save(update_fields=["email_verified_at"])
    return user
