"""Mathesso's one write outside the rules: the host changes the table's settings in the lobby.

Class tables are opened by the class page with default settings (Pico), and an
open table's host may change their mind before the start; either way the host
picks the variant here. Everything else goes through the rooms runtime.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import PlayerProfile
from games.mathesso.adapter import clean_settings
from games.rooms.errors import RoomError
from games.rooms.models import Room


@transaction.atomic
def change_settings(*, room_id: int, actor: PlayerProfile, settings: dict) -> Room:
    """Store new settings for a Mathesso lobby; only its host may, only before the start."""
    room: Room | None = Room.objects.select_for_update().filter(pk=room_id, game="mathesso").first()
    if room is None:
        raise RoomError("unknown_room", _("There is no room with this code."))
    if room.host_id != actor.pk:
        raise RoomError("not_host", _("Only the host can do this."))
    if room.status != Room.Status.LOBBY:
        raise RoomError("already_started", _("The game has already started."))
    room.settings = clean_settings(settings)
    room.save(update_fields=["settings"])
    return room
