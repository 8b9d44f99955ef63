from django.contrib import admin

from classrooms.models import Classroom, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("player",)


@admin.register(Classroom)
class ClassroomAdmin(admin.ModelAdmin):
    list_display = ("name", "school_year", "teacher", "join_enabled", "archived_at", "created_at")
    list_filter = ("join_enabled", "public_publication", "school_year")
    search_fields = ("name", "teacher__email", "join_code")
    raw_id_fields = ("teacher",)
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("roster_name", "classroom", "player", "status", "joined_at")
    list_filter = ("status",)
    search_fields = ("roster_name", "classroom__name", "player__nickname")
    raw_id_fields = ("classroom", "player")
