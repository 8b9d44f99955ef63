from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from .models import DailyAttempt, DailyChallenge, LeaderboardEntry, SoloGame
from .services import leaderboards


@admin.register(SoloGame)
class SoloGameAdmin(admin.ModelAdmin):
    """Read-mostly: staff look at games; the state (with the secret deck) is not edited by hand."""

    list_display = (
        "player",
        "mode",
        "difficulty",
        "table",
        "seconds_per_card",
        "published",
        "created_at",
        "finished_at",
    )
    list_filter = ("mode", "difficulty", "table", "published", "leaderboard_hidden")
    search_fields = ("player__nickname",)
    readonly_fields = (
        "id",
        "state",
        "record",
        "day",
        "replay",
        "published",
        "leaderboard_hidden",
        "created_at",
        "updated_at",
        "finished_at",
    )
    raw_id_fields = ("player",)


@admin.register(LeaderboardEntry)
class LeaderboardEntryAdmin(admin.ModelAdmin):
    """Moderation: hide an entry (its game leaves every leaderboard for good)."""

    list_display = ("period", "player", "score", "difficulty", "duration_ms", "finished_at")
    list_filter = ("difficulty",)
    search_fields = ("player__nickname", "period")
    readonly_fields = (
        "period",
        "player",
        "game",
        "score",
        "duration_ms",
        "finished_at",
        "difficulty",
    )
    actions = ["hide_entries"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Hide the selected entries from the leaderboards"))
    def hide_entries(self, request: HttpRequest, queryset: QuerySet) -> None:
        for entry_id in list(queryset.values_list("pk", flat=True)):
            leaderboards.hide_leaderboard_entry(entry_id=entry_id)
        self.message_user(request, _("The entries were hidden."), messages.SUCCESS)


@admin.register(DailyChallenge)
class DailyChallengeAdmin(admin.ModelAdmin):
    list_display = ("day", "table", "published_at", "frozen_at")
    readonly_fields = ("day", "table", "published_at", "frozen_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(DailyAttempt)
class DailyAttemptAdmin(admin.ModelAdmin):
    """Moderation: take an attempt off its table of the day."""

    list_display = ("day", "player", "score", "duration_ms", "published", "rank", "finished_at")
    list_filter = ("published", "day")
    search_fields = ("player__nickname",)
    readonly_fields = (
        "player",
        "day",
        "game",
        "started_at",
        "finished_at",
        "score",
        "duration_ms",
        "published",
        "rank",
    )
    actions = ["hide_attempts"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Hide the selected results from the table of the day"))
    def hide_attempts(self, request: HttpRequest, queryset: QuerySet) -> None:
        for attempt_id in list(queryset.values_list("pk", flat=True)):
            leaderboards.hide_daily_attempt(attempt_id=attempt_id)
        self.message_user(request, _("The results were hidden."), messages.SUCCESS)
