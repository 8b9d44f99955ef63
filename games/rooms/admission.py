"""Who a rooms socket speaks for: the browser and profile from the identity
cookie of the handshake, its language, and admission to the room (with the
login session when the acting profile is the teacher's own)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core import signing
from django.http.cookie import parse_cookie
from django.utils.translation import gettext as _
from django.utils.translation import trans_real

from accounts import identity, limits
from accounts import selectors as accounts_selectors
from accounts import sessions as account_sessions
from accounts.models import Browser, PlayerProfile
from games.rooms import lookups, registry, selectors
from games.rooms.errors import RoomError
from games.rooms.models import Room, Seat


def scope_cookies(scope: Mapping[str, Any]) -> dict[str, str]:
    for name, value in scope.get("headers", []):
        if name == b"cookie":
            cookies: dict[str, str] = parse_cookie(value.decode("latin-1"))
            return cookies
    return {}


def browser_from_cookies(cookies: dict[str, str]) -> Browser | None:
    """The browser whose identity cookie came with the handshake (with its selection)."""
    if cookies.get(settings.STORAGE_COOKIE_NAME) == "off":
        return None
    raw = cookies.get(settings.PLAYER_COOKIE_NAME)
    if not raw:
        return None
    try:
        token = signing.loads(raw, salt=identity.SALT)
    except signing.BadSignature:
        return None
    browser: Browser | None = (
        Browser.objects.select_related("selected")
        .filter(token_hash=identity.hash_token(token))
        .first()
    )
    return browser


def _selected(browser: Browser | None) -> PlayerProfile | None:
    if browser is None or browser.selected is None or not browser.selected.is_active:
        return None
    selected: PlayerProfile = browser.selected
    return selected


def player_from_cookies(cookies: dict[str, str]) -> PlayerProfile | None:
    """The selected profile of the browser whose identity cookie came with the handshake."""
    return _selected(browser_from_cookies(cookies))


def scope_language(scope: Mapping[str, Any], cookies: dict[str, str]) -> str:
    supported: set[str] = {code for code, _name in settings.LANGUAGES}
    chosen = cookies.get(settings.LANGUAGE_COOKIE_NAME)
    if chosen is not None and chosen in supported:
        return chosen
    for name, value in scope.get("headers", []):
        if name == b"accept-language":
            accepted: tuple[tuple[str, float], ...] = trans_real.parse_accept_lang_header(
                value.decode()
            )
            for lang, _q in accepted:
                if lang.split("-")[0] in supported:
                    return lang.split("-")[0]
    default: str = settings.LANGUAGE_CODE
    return default


def admit(
    code: str,
    cookies: dict[str, str],
    user: AbstractBaseUser | AnonymousUser | None = None,
    scope: dict[str, Any] | None = None,
) -> tuple[Room, PlayerProfile, int | None]:
    """The room, who acts in it and the browser's id (None without an identity
    cookie), or a RoomError.

    To anyone not in the room, an unknown code, a finished room, an expired room
    and a live room answer alike: ``no_identity`` without a profile, else
    ``not_in_room`` (``lookups``, which also counts the misses, per browser)."""
    browser = browser_from_cookies(cookies)
    cookie_player = _selected(browser)
    account_player = accounts_selectors.account_player(user)
    found = lookups.find(
        code,
        client=limits.client_of_scope(
            scope or {}, user=user, player=cookie_player, browser=browser
        ),
        player_for=lambda room: selectors.acting_player(
            room, cookie_player=cookie_player, account_player=account_player
        ),
    )
    room, player = found.room, found.player
    if room is None or player is None or not lookups.is_member(room, player):
        if cookie_player is None and account_player is None:
            raise RoomError("no_identity", _("Choose a nickname on the join page first."))
        raise RoomError("not_in_room", _("Join the room on its page first."))
    if room.status == Room.Status.EXPIRED:
        raise RoomError("room_expired", _("This room has expired."))
    registry.get(room.game, room.mode)  # a game no longer installed: unknown_game
    seat = selectors.seat_for(room, player)
    if seat is None or seat.status == Seat.Status.LEFT:
        raise RoomError("not_in_room", _("Join the room on its page first."))
    if seat.status == Seat.Status.KICKED:
        raise RoomError("kicked", _("The host removed you from this room."))
    return room, player, browser.pk if browser is not None else None


def admit_by_session(
    code: str,
    cookies: dict[str, str],
    user: AbstractBaseUser | AnonymousUser | None = None,
    scope: dict[str, Any] | None = None,
) -> tuple[Room, PlayerProfile, tuple[str | None, int] | None, int | None]:
    """``admit``, and the session the socket acts by: (session key, user id) when
    the acting profile is the logged-in teacher's own (host rights from the
    session), else None (a nickname profile from the identity cookie)."""
    room, player, browser_id = admit(code, cookies, user, scope)
    account = accounts_selectors.account_player(user)
    if account is None or user is None or account.pk != player.pk:
        return room, player, None, browser_id
    session_key = getattr((scope or {}).get("session"), "session_key", None)
    # The session middleware checked the login, not the idle timeout (page requests do).
    user_id = cast(int, user.pk)  # the account's own profile: a signed-in user
    if not account_sessions.session_alive(session_key, user_id):
        raise RoomError("session_ended", _("Your login has ended. Log in again to go on hosting."))
    return room, player, (session_key, user_id), browser_id
