"""Admin for rooms: find a room by code, see its seats and its event log (read-only)."""

from typing import TYPE_CHECKING, TypeAlias

from django.contrib import admin
from django.http import HttpRequest

from games.rooms.models import Room, RoomEvent, Seat

if TYPE_CHECKING:  # generic in django-stubs only, not at run time
    _SeatInline: TypeAlias = admin.TabularInline[Seat, Room]
    _RoomAdmin: TypeAlias = admin.ModelAdmin[Room]
    _RoomEventAdmin: TypeAlias = admin.ModelAdmin[RoomEvent]
else:
    _SeatInline = admin.TabularInline
    _RoomAdmin = _RoomEventAdmin = admin.ModelAdmin


class SeatInline(_SeatInline):
    model = Seat
    extra = 0
    raw_id_fields = ("player",)
    fields = ("player", "role", "status", "joined_at", "left_at")
    readonly_fields = ("joined_at", "left_at")


@admin.register(Room)
class RoomAdmin(_RoomAdmin):
    list_display = ("code", "game", "mode", "status", "locked", "host", "classroom", "created_at")
    list_filter = ("status", "game", "mode", "locked")
    search_fields = ("code", "host__nickname")
    date_hierarchy = "created_at"
    raw_id_fields = ("host", "classroom", "record")
    readonly_fields = ("seq", "rng_seed", "state", "next_tick_at")
    inlines = [SeatInline]


@admin.register(RoomEvent)
class RoomEventAdmin(_RoomEventAdmin):
    """The log is append-only: the admin shows it, never adds or edits (it goes with its room)."""

    list_display = ("room", "seq", "kind", "actor", "created_at")
    list_filter = ("kind",)
    search_fields = ("room__code",)
    raw_id_fields = ("room", "actor")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: RoomEvent | None = None) -> bool:
        return False
