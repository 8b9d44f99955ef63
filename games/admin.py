from django.contrib import admin

from games.models import GameRecord, GameResult


class GameResultInline(admin.TabularInline):
    model = GameResult
    extra = 0
    raw_id_fields = ("player",)


@admin.register(GameRecord)
class GameRecordAdmin(admin.ModelAdmin):
    list_display = ("__str__", "game", "mode", "classroom", "started_at", "finished_at")
    list_filter = ("game", "mode")
    date_hierarchy = "started_at"
    raw_id_fields = ("classroom",)
    inlines = [GameResultInline]


@admin.register(GameResult)
class GameResultAdmin(admin.ModelAdmin):
    list_display = ("player", "record", "score", "rank", "completed", "finished_at")
    list_filter = ("completed", "record__game")
    search_fields = ("player__nickname",)
    raw_id_fields = ("record", "player")
