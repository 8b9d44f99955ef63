"""The browser identity token: creation, signing, hashing.

The cookie carries ``token`` signed with the project's secret (so a forged or
truncated cookie is ignored); the database stores ``sha256(token)`` only.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.conf import settings
from django.core import signing
from django.db.models import Q
from django.http import HttpRequest, HttpResponse

if TYPE_CHECKING:
    from accounts.models import Browser, PlayerProfile

SALT = "matika.player-identity"
# Profile codes: no look-alike characters (0/O, 1/I/L), grouped for reading aloud.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 10


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def read_token(request: HttpRequest) -> str | None:
    raw = request.COOKIES.get(settings.PLAYER_COOKIE_NAME)
    if not raw:
        return None
    try:
        return signing.loads(raw, salt=SALT)
    except signing.BadSignature:
        return None


def write_token(response: HttpResponse, token: str) -> None:
    response.set_cookie(
        settings.PLAYER_COOKIE_NAME,
        signing.dumps(token, salt=SALT),
        max_age=settings.PLAYER_COOKIE_AGE,
        httponly=True,
        secure=settings.PLAYER_COOKIE_SECURE,
        samesite="Lax",
    )


def forget_token(response: HttpResponse) -> None:
    response.delete_cookie(settings.PLAYER_COOKIE_NAME, samesite="Lax")


def storage_enabled(request: HttpRequest) -> bool:
    return request.COOKIES.get(settings.STORAGE_COOKIE_NAME) != "off"


def new_profile_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_profile_code(raw: str) -> str:
    return "".join(ch for ch in (raw or "").upper() if ch.isalnum())


def format_profile_code(code: str) -> str:
    return f"{code[:5]}-{code[5:]}"


# --- profiles bound to a person (the shared classroom computer, issue 38 §1) --------


def _bound_filter() -> Q:
    # A profile an LMS identity signs in (lti.Person, reverse name ``lti_person``), or
    # one that took a class roster entry with the entry's claim code: a person's own.
    return Q(lti_person__isnull=False) | Q(
        memberships__claim_code__gt="", memberships__status="approved"
    )


def bound_profile_ids(profile_ids: Iterable[int | None]) -> set[int]:
    """Of ``profile_ids``, those bound to a person (not shared nickname profiles)."""
    from accounts.models import PlayerProfile

    ids = [pk for pk in profile_ids if pk is not None]
    if not ids:
        return set()
    return set(
        PlayerProfile.objects.filter(_bound_filter(), pk__in=ids).values_list("pk", flat=True)
    )


def is_bound(profile: PlayerProfile | None) -> bool:
    return profile is not None and bool(bound_profile_ids([profile.pk]))


def end_bound_sessions(browser: Browser | None, *, keep_id: int | None = None) -> int:
    """A person's bound profile lives in a browser only while it is that person's
    session: take every bound profile but ``keep_id`` out of ``browser`` (and
    deselect it). Returns how many were taken out."""
    if browser is None:
        return 0
    held = list(browser.profiles.values_list("pk", flat=True))
    if browser.selected_id is not None:
        held.append(browser.selected_id)
    gone = bound_profile_ids(held) - {keep_id}
    if not gone:
        return 0
    browser.profiles.remove(*gone)
    if browser.selected_id in gone:
        browser.selected = None
        browser.save(update_fields=["selected"])
    return len(gone)
