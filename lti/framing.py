"""Matika inside the LMS's frame (docs/decisions.md, "LTI launches inside the LMS's frame").

A launch whose request says it is framed (``Sec-Fetch-Dest: iframe``, or, from a
browser that sends no fetch metadata, the launch's ``document_target``) gets a
``FrameGrant``. The grant's id travels in a signed marker cookie; on every response
to a request carrying a live marker (or the launch that makes one):

- the Content-Security-Policy's ``frame-ancestors`` names exactly the grant's
  platform origins (never ``'self'`` or anyone else) and ``X-Frame-Options`` goes;
- every cookie the response sets or deletes is ``SameSite=None; Secure;
  Partitioned`` (CHIPS: kept per top-level site, so only the frame inside this LMS
  sees it, never a first-party visit to Matika).

Without a marker nothing changes: ``frame-ancestors 'none'`` and ``SameSite=Lax``
as for every visitor. A response that deletes the session or player cookie (a
logout) ends the grant and deletes the marker; a logged-out teacher's grants end
too (``user_logged_out``).

When the browser keeps no cookie in the frame (Safari, or third-party cookies
refused), the launch's landing (``/lti/frame/<ticket>/``) sees no marker and offers
"open in a new window": ``/lti/frame/<ticket>/open/`` works once, within
``TICKET_SECONDS``, and signs nobody in: it starts the LMS's login again in the new
window (issue 38 §3: the ticket was a bearer URL valid in any browser).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from accounts.models import User
from core.security import policy_for

from .models import FrameGrant, Person, Platform

MARKER_COOKIE = "matika_lti_frame"
SALT = "matika.lti-frame"
#: The "open in a new window" ticket works once, this long after the launch.
TICKET_SECONDS = 600
#: A grant (and its marker) lives at most this long; a new launch makes a new one.
GRANT_DAYS = 14
FRAMED_DESTS = {"iframe", "frame"}
# What a view did to the frame grant, for FramedSessionMiddleware on the way out:
# kept in the request's META, as Django keeps its own per-request marks
# (CSRF_COOKIE), so a plain HttpRequest carries them.
NEW_GRANT_KEY = "matika.lti_frame_grant"
ENDED_KEY = "matika.lti_frame_ended"


def _hash(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


def launch_is_framed(request: HttpRequest, claims: dict, claim_name: str) -> bool:
    """The browser's own word first (``Sec-Fetch-Dest``); the LMS's
    ``launch_presentation.document_target`` only when the browser says nothing."""
    dest = request.headers.get("Sec-Fetch-Dest", "").lower()
    if dest:
        return dest in FRAMED_DESTS
    presentation = claims.get(claim_name)
    target = presentation.get("document_target") if isinstance(presentation, dict) else None
    return target in FRAMED_DESTS


def grant(
    request: HttpRequest, *, platform: Platform, person: Person, role: str, destination: str
) -> tuple[FrameGrant, str]:
    """A new grant for this framed launch; returns it and its one-time ticket.
    The middleware sets the marker cookie on this response."""
    ticket = secrets.token_urlsafe(32)
    made = FrameGrant.objects.create(
        token_hash=_hash(ticket),
        platform=platform,
        person=person,
        role=role,
        destination=destination[:500],
    )
    request.META[NEW_GRANT_KEY] = made
    return made, ticket


def end_frame(request: HttpRequest) -> None:
    """The frame grant this browser shows ends with this response."""
    request.META[ENDED_KEY] = True


def _new_grant(request: HttpRequest) -> FrameGrant | None:
    made = request.META.get(NEW_GRANT_KEY)
    return made if isinstance(made, FrameGrant) else None


def keep_login(ticket: str, params: dict) -> None:
    """The launch's login parameters, for the ticket's "open in a new window"
    (which logs in again: the ticket signs nobody in)."""
    from django.core.cache import cache

    if params:
        cache.set(f"lti:frame-login:{_hash(ticket)}", params, TICKET_SECONDS)


def kept_login(ticket: str) -> dict | None:
    from django.core.cache import cache

    if not isinstance(ticket, str) or not ticket:
        return None
    return cache.get(f"lti:frame-login:{_hash(ticket)}")


def _live(queryset: QuerySet) -> QuerySet:
    return queryset.filter(
        ended_at__isnull=True,
        platform__is_active=True,
        created_at__gt=timezone.now() - timedelta(days=GRANT_DAYS),
    )


def by_ticket(ticket: object) -> FrameGrant | None:
    if not isinstance(ticket, str) or not ticket or len(ticket) > 200:
        return None
    return (
        _live(FrameGrant.objects.select_related("platform"))
        .filter(token_hash=_hash(ticket))
        .first()
    )


def take_ticket(ticket: object) -> FrameGrant | None:
    """The grant of an unused ticket younger than ``TICKET_SECONDS``, now used; else None."""
    found = by_ticket(ticket)
    if found is None:
        return None
    with transaction.atomic():
        taken = (
            FrameGrant.objects.select_for_update(of=("self",))
            .select_related("platform", "person__user", "person__player")
            .filter(
                pk=found.pk,
                ticket_used_at__isnull=True,
                created_at__gt=timezone.now() - timedelta(seconds=TICKET_SECONDS),
            )
            .first()
        )
        if taken is None:
            return None
        taken.ticket_used_at = timezone.now()
        taken.save(update_fields=["ticket_used_at"])
        return taken


def marker_grant(request: HttpRequest) -> FrameGrant | None:
    """The live grant the request's marker cookie names, if any."""
    raw = request.COOKIES.get(MARKER_COOKIE)
    if not raw:
        return None
    try:
        pk = signing.loads(raw, salt=SALT, max_age=GRANT_DAYS * 86400)
    except signing.BadSignature:
        return None
    if not isinstance(pk, int):
        return None
    return _live(FrameGrant.objects.select_related("platform")).filter(pk=pk).first()


def end_grants_of_user(user: User) -> int:
    return FrameGrant.objects.filter(person__user=user, ended_at__isnull=True).update(
        ended_at=timezone.now()
    )


def framed_policy(policy: str, origins: list[str]) -> str:
    """``policy`` with its ``frame-ancestors`` replaced by exactly ``origins``."""
    out = []
    for directive in policy.split("; "):
        if directive.startswith("frame-ancestors"):
            directive = "frame-ancestors " + " ".join(origins)
        out.append(directive)
    return "; ".join(out)


def _deletes(response: HttpResponse, name: str) -> bool:
    morsel = response.cookies.get(name)
    return morsel is not None and str(morsel["max-age"]) == "0"


def _cross_site(response: HttpResponse) -> None:
    """Every cookie of the response: sent in the LMS's frame, kept per top-level site."""
    for morsel in response.cookies.values():
        morsel["secure"] = True
        # http.cookies before Python 3.14 knows no Partitioned attribute: it rides
        # on SameSite's value (written out verbatim: "SameSite=None; Partitioned").
        morsel["samesite"] = "None; Partitioned"


class FramedSessionMiddleware:
    """Placed right after the CSP middleware (before sessions, CSRF and the
    player identity), so it sees every cookie they set on the way out."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path.startswith("/admin/"):
            return response
        new = _new_grant(request)
        current = new or marker_grant(request)
        if current is None:
            if MARKER_COOKIE in request.COOKIES:  # forged, ended or expired: forget it
                response.delete_cookie(MARKER_COOKIE, samesite="None")
                _cross_site(response)
            return response
        # (A launch's own logout of whoever was signed in before does not end its new grant.)
        logged_out = _deletes(response, settings.SESSION_COOKIE_NAME) or _deletes(
            response, settings.PLAYER_COOKIE_NAME
        )
        ended = logged_out or request.META.get(ENDED_KEY) is True
        if new is None and ended:
            FrameGrant.objects.filter(pk=current.pk).update(ended_at=timezone.now())
            response.delete_cookie(MARKER_COOKIE, samesite="None")
            _cross_site(response)
            return response
        if new is not None:
            response.set_cookie(
                MARKER_COOKIE,
                signing.dumps(new.pk, salt=SALT),
                httponly=True,
                secure=True,
                samesite="None",
            )
        policy = response.get("Content-Security-Policy") or policy_for(request)
        response["Content-Security-Policy"] = framed_policy(
            policy, current.platform.framing_origins
        )
        if "X-Frame-Options" in response:
            del response["X-Frame-Options"]
        _cross_site(response)
        return response


def on_logged_out(
    sender: object, request: HttpRequest | None = None, user: User | None = None, **kwargs: object
) -> None:
    """``user_logged_out``: a teacher's frame grants end with the session."""
    if user is not None and getattr(user, "pk", None):
        end_grants_of_user(user)
    if request is not None:
        end_frame(request)
