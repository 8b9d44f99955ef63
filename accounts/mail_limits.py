"""Limits on the mail that visitors and accounts make Matika send (issue 27 §4).

Sign-up and co-teacher invitations mail addresses the *sender* chooses, so
without limits the site is a mail cannon: an unverified account re-invited one
address ten times (ten mails), twenty sign-ups with a teacher's address sent
that teacher twenty "you already have an account" mails. Each kind of mail is
counted by whoever could abuse it:

- sign-ups per network address, with a school-sized budget (``signups_address``,
  60 an hour: the thirty teachers of a school behind one NAT sign up in one
  staff meeting and have room to mistype);
- the "you already have an account" notice at most once a day per address
  (``signup_notices_email``); further sign-ups with the address answer alike
  and mail nothing;
- resent verification links per address (``verification_resends_email``, 5 a
  day): an account signed up with someone else's address must not resend its
  link to them without end;
- co-teacher invitations per inviting account (``invitations_account``), per
  invited e-mail address over all senders (``invitations_recipient``) and per
  network address (``invitations_address``).

The counters are accounts.limits' (cache, fixed windows, failing open when the
cache is away); ``MATIKA_LIMITS`` overrides each rate by its name.
"""

from __future__ import annotations

from django.conf import settings

from accounts import limits

DEFAULT_RATES = {
    "signups_address": "60/h",
    "signup_notices_email": "1/d",
    "verification_resends_email": "5/d",
    "invitations_account": "30/d",
    "invitations_recipient": "3/d",
    "invitations_address": "100/d",
}


def _limit(name: str) -> limits.Limit:
    rate = getattr(settings, "MATIKA_LIMITS", {}).get(name, DEFAULT_RATES[name])
    return limits.Limit(f"mail-{name.replace('_', '-')}", rate, rate)


def _bucket(key: str) -> limits.Client:
    return limits.Client(identity=None, address=key)


def _take(counted: list[tuple[limits.Limit, limits.Client]]) -> int | None:
    """Minutes to wait when any bucket is used up (nothing counted); otherwise
    count one in every bucket and return None."""
    waits = [
        limits.wait_minutes(limit, key) for limit, key in counted if limits.blocked(limit, key)
    ]
    if waits:
        return max(waits)
    for limit, key in counted:
        limits.count(limit, key)
    return None


def _email(address: str) -> str:
    return f"e:{address.strip().lower()}"


def take_signup(*, address: str) -> int | None:
    """One sign-up from ``address`` (a network address); minutes to wait when refused."""
    return _take([(_limit("signups_address"), _bucket(limits.address_of(address)))])


def take_signup_notice(*, email: str) -> bool:
    """Whether the "you already have an account" notice may go to ``email`` now."""
    return _take([(_limit("signup_notices_email"), _bucket(_email(email)))]) is None


def take_verification_resend(*, email: str) -> bool:
    """Whether the verification link may be resent to ``email`` now."""
    return _take([(_limit("verification_resends_email"), _bucket(_email(email)))]) is None


def take_invitation(*, account_id: int, recipient: str, address: str) -> int | None:
    """One co-teacher invitation mail; minutes to wait when any budget is used up."""
    return _take(
        [
            (_limit("invitations_account"), _bucket(f"u:{account_id}")),
            (_limit("invitations_recipient"), _bucket(_email(recipient))),
            (_limit("invitations_address"), _bucket(limits.address_of(address))),
        ]
    )
