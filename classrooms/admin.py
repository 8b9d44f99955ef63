from django.contrib import admin
from django.forms import BaseFormSet, ModelForm
from django.http import HttpRequest

from classrooms import services
from classrooms.models import Classroom, CoTeacher, Membership
from core import registry as game_registry


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

    def save_related(
        self, request: HttpRequest, form: ModelForm, formsets: list[BaseFormSet], change: bool
    ) -> None:
        # Staff editing a class (or its members inline) may forbid publication or
        # add members: the same domain event as the teacher's own services.
        super().save_related(request, form, formsets, change)
        if not form.instance.public_publication:
            game_registry.withdraw_public_data(services.member_player_ids(form.instance))


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("roster_name", "classroom", "player", "status", "joined_at")
    list_filter = ("status",)
    search_fields = ("roster_name", "classroom__name", "player__nickname")
    raw_id_fields = ("classroom", "player", "other_players")

    def save_related(
        self, request: HttpRequest, form: ModelForm, formsets: list[BaseFormSet], change: bool
    ) -> None:
        super().save_related(request, form, formsets, change)
        member = form.instance
        if not member.classroom.public_publication:
            players = [member.player_id, *member.other_players.values_list("pk", flat=True)]
            game_registry.withdraw_public_data(players)


@admin.register(CoTeacher)
class CoTeacherAdmin(admin.ModelAdmin):
    list_display = ("email", "classroom", "invited_by", "invited_at")
    search_fields = ("email", "classroom__name")
    raw_id_fields = ("classroom", "invited_by")
