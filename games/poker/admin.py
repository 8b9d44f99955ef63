from django.contrib import admin

from .models import SoloGame


@admin.register(SoloGame)
class SoloGameAdmin(admin.ModelAdmin):
    """Read-mostly: staff look at games; the state (with the secret deck) is not edited by hand."""

    list_display = ("player", "mode", "table", "seconds_per_card", "created_at", "finished_at")
    list_filter = ("mode", "table")
    search_fields = ("player__nickname",)
    readonly_fields = ("id", "state", "record", "created_at", "updated_at", "finished_at")
    raw_id_fields = ("player",)
