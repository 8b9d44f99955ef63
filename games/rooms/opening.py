"""Opening a room from a game's page: the one flow every game configures.

A browser without a profile gives a nickname in the form that opens the room;
the profile and the room are made in one transaction, so a refused room leaves
no profile behind (and a refused nickname no room). The new identity token goes
into the response's cookie. A game's view says only which game and mode, the
settings, and whether the room starts at once (a solo game)::

    opened = opening.open_from_request(request, game="<slug>", mode="solo",
                                       settings=settings, start=True)
    return opening.to_room(opened)

Refusals are ``DomainError``s (``AccountsError`` for the nickname, ``RoomError``
for the room): the view shows their message and nothing has changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from accounts import identity, trust
from accounts import services as accounts_services
from accounts.models import PlayerProfile
from accounts.requests import PlayerRequest

from .errors import RoomError
from .lifecycle import create_and_start, create_room
from .models import Room


@dataclass(frozen=True)
class Opened:
    room: Room
    # A new identity token the response must store (None: the host had a profile).
    token: str | None = None


@transaction.atomic
def open_room(
    *,
    game: str,
    mode: str,
    settings: dict[str, Any],
    host: PlayerProfile | None,
    browser_token: str | None = None,
    nickname: str = "",
    start: bool = False,
) -> Opened:
    """Open a room (and start it when ``start``); without a host, make their
    profile with ``nickname`` first. One transaction: all or nothing."""
    token = None
    if host is None:
        host, token = accounts_services.create_profile(
            browser_token=browser_token, nickname=nickname
        )
    create = create_and_start if start else create_room
    room = create(game=game, mode=mode, host=host, settings=settings)
    return Opened(room=room, token=token)


def open_from_request(
    request: PlayerRequest,
    *,
    game: str,
    mode: str,
    settings: dict[str, Any],
    start: bool = False,
    nickname: str | None = None,
) -> Opened:
    """``open_room`` for the browser behind ``request``: its selected profile, or
    a new one named by ``nickname`` (the form's ``nickname`` field by default).
    A browser that keeps nothing cannot get a profile (``storage_off``)."""
    # A room others join (not a solo game, which starts at once): a signed-in account
    # that has not proved its address hosts none (``accounts.trust``).
    user = getattr(request, "user", None)
    if not start and user is not None and user.is_authenticated:
        trust.require_verified(user, RoomError)
    if request.player is None and not request.storage_enabled:
        raise RoomError(
            "storage_off",
            _("Saving is switched off in this browser, so you cannot open a room."),
        )
    opened: Opened = open_room(
        game=game,
        mode=mode,
        settings=settings,
        host=request.player,
        browser_token=identity.read_token(request),
        nickname=request.POST.get("nickname", "") if nickname is None else nickname,
        start=start,
    )
    return opened


def to_room(opened: Opened) -> HttpResponse:
    """Go to the room page; a new profile's identity token goes into the cookie."""
    response = redirect("rooms:room", code=opened.room.code)
    if opened.token:
        identity.write_token(response, opened.token)
    return response
