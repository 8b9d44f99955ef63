from django.contrib import admin

from classrooms.models import Classroom, CoTeacher, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("player", "other_players")


class CoTeacherInline(admin.TabularInline):
    model = CoTeacher
    extra = 0
    raw_id_fields = ("invited_by",)


@admin.register(Classroom)
class ClassroomAdmin(admin.ModelAdmin):
    list_display = ("name", "school_year", "teacher", "join_enabled", "archived_at", "created_at")
    list_filter = ("join_enabled", "public_publication", "school_year")
    search_fields = ("name", "teacher__email", "join_code", "co_teachers__email")
    raw_id_fields = ("teacher",)
    inlines = [CoTeacherInline, MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("roster_name", "classroom", "player", "status", "joined_at")
    list_filter = ("status",)
    search_fields = ("roster_name", "classroom__name", "player__nickname")
    raw_id_fields = ("classroom", "player", "other_players")


@admin.register(CoTeacher)
class CoTeacherAdmin(admin.ModelAdmin):
    list_display = ("email", "classroom", "invited_by", "invited_at")
    search_fields = ("email", "classroom__name")
    raw_id_fields = ("classroom", "invited_by")
