"""Limits on teacher logins and password-reset requests (docs/decisions.md, "Teacher accounts").

Logins: django-axes counts failed logins per (account, address) and locks that
pair after ``AXES_FAILURE_LIMIT`` failures for ``AXES_COOLOFF_TIME`` (even the
right password is refused then). Because the pair is the key, one account's
failures do not lock another account at the same school address, and an
attacker elsewhere cannot lock a teacher out at school. Above that, failures
from one address over all accounts have a higher ceiling (``login_failures_address``),
so one address cannot try a password against every account; a class behind one
NAT never gets near it, as pupils do not log in.

Wrong current passwords inside a session (password change, account deletion)
count exactly like failed logins, in django-axes and in the per-address
ceiling: a stolen session must not become an unlimited password oracle
(issue 27 §5).

Password resets: requests are counted per address and per e-mail typed (the
answer stays the same either way, so the limit tells nothing about accounts).

School sign-ins started by anonymous browsers (``accounts.sso.views``): each
costs a session row and may cost a request to the provider, so they are counted
per address (``sso_logins_address``, 60 a quarter of an hour: the teachers of a
large school behind one address, each retrying twice, stay below it; pupils
never use it). Past it the start is refused before anything is stored or fetched.

The counters live in the cache through ``accounts.limits`` and fail open when it
is away; the address is the one the limits module counts (the proxy's
``X-Forwarded-For`` only from the deployment's own proxy).
"""

import ipaddress
from typing import Any

from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from accounts import limits


def _rate(name: str, default: str) -> str:
    return getattr(settings, "MATIKA_LIMITS", {}).get(name, default)


def login_failures() -> limits.Limit:
    rate = _rate("login_failures_address", "100/h")
    return limits.Limit("login-failures", rate, rate)


def password_resets() -> limits.Limit:
    return limits.Limit(
        "password-resets",
        _rate("password_resets_email", "3/h"),
        _rate("password_resets_address", "20/h"),
    )


def sso_logins() -> limits.Limit:
    rate = _rate("sso_logins_address", "60/15m")
    return limits.Limit("sso-logins", rate, rate)


def client_address(request: HttpRequest) -> str | None:
    """django-axes' idea of the address: the same as every other limit's (an
    IPv6 address by its /64 network's first address); None when there is none."""
    address = limits.address_of(request.META.get("REMOTE_ADDR"))
    try:
        return str(ipaddress.ip_network(address, strict=False).network_address)
    except ValueError:
        return None


def axes_username(request: HttpRequest | None, credentials: dict[str, Any] | None) -> str:
    """E-mail addresses are case-insensitive here, so are lockouts."""
    raw = (credentials or {}).get("username")
    if raw is None and request is not None:
        raw = request.POST.get("username")
    return (raw or "").strip().lower()


def _address_client(request: HttpRequest) -> limits.Client:
    return limits.Client(identity=None, address=client_address(request) or "unknown")


def login_blocked(request: HttpRequest) -> bool:
    return limits.blocked(login_failures(), _address_client(request))


def count_login_failure(request: HttpRequest) -> None:
    limits.count(login_failures(), _address_client(request))


def sso_login_blocked(request: HttpRequest) -> bool:
    return limits.blocked(sso_logins(), _address_client(request))


def count_sso_login(request: HttpRequest) -> None:
    limits.count(sso_logins(), _address_client(request))


def _own_credentials(request: HttpRequest) -> dict[str, str]:
    """The signed-in account's credentials, as django-axes keys a login (the views
    that ask are behind ``login_required``)."""
    user = request.user
    if not user.is_authenticated:
        raise PermissionDenied
    return {"username": user.email}


def current_password_blocked(request: HttpRequest) -> bool:
    """True when the logged-in account's guesses from this address are used up,
    as its logins would be (refused before the password is checked)."""
    return login_blocked(request) or not AxesProxyHandler.is_allowed(
        request, _own_credentials(request)
    )


def count_wrong_current_password(request: HttpRequest) -> None:
    """One failed guess of the account's own password, counted as a failed login
    (django-axes listens to ``user_login_failed``)."""
    user_login_failed.send(sender=__name__, credentials=_own_credentials(request), request=request)
    count_login_failure(request)


def password_reset_allowed(request: HttpRequest, email: str) -> bool:
    """Count one request; False when the address or the e-mail has used up its budget."""
    address = _address_client(request)
    per_email = limits.Client(identity=f"e:{email.strip().lower()}", address="any")
    limit = password_resets()
    if limits.blocked(limit, address) or limits.blocked(limit, per_email):
        return False
    limits.count(limit, address)
    limits.count(limit, per_email)
    return True
