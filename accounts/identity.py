"""The browser identity token: creation, signing, hashing.

The cookie carries ``token`` signed with the project's secret (so a forged or
truncated cookie is ignored); the database stores ``sha256(token)`` only.
"""

import hashlib
import secrets

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse

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
