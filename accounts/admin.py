from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts.models import Browser, PlayerProfile, PublicationConsent, User
from core import registry as game_registry


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    ordering = ("email",)
    list_display = ("email", "name", "is_staff", "is_active", "date_joined", "email_verified_at")
    list_filter = ("is_staff", "is_superuser", "is_active")
    search_fields = ("email", "name")
    fieldsets = (
        (None, {"fields": ("email", "password", "name", "player")}),
        (
            _("Permissions"),
            {"fields": ("is_active", "is_staff", "is_superuser", "groups", "user_permissions")},
        ),
        (_("Dates"), {"fields": ("last_login", "date_joined", "email_verified_at")}),
    )
    add_fieldsets = ((None, {"classes": ("wide",), "fields": ("email", "password1", "password2")}),)
    raw_id_fields = ("player",)


@admin.register(PlayerProfile)
class PlayerProfileAdmin(admin.ModelAdmin):
    list_display = ("nickname", "is_active", "nickname_hidden", "created_at", "last_seen_at")
    list_filter = ("is_active", "nickname_hidden")
    search_fields = ("nickname",)
    readonly_fields = ("code", "created_at", "last_seen_at")
    actions = ["hide_nicknames", "ban_profiles"]

    @admin.action(description=_("Hide the selected nicknames from public pages"))
    def hide_nicknames(self, request: HttpRequest, queryset: QuerySet[PlayerProfile]) -> None:
        game_registry.withdraw_public_data(queryset.values_list("pk", flat=True))
        queryset.update(nickname_hidden=True)

    @admin.action(description=_("Ban the selected profiles (they can no longer play)"))
    def ban_profiles(self, request: HttpRequest, queryset: QuerySet[PlayerProfile]) -> None:
        game_registry.withdraw_public_data(queryset.values_list("pk", flat=True))
        queryset.update(is_active=False)


@admin.register(Browser)
class BrowserAdmin(admin.ModelAdmin):
    list_display = ("__str__", "selected", "created_at", "last_seen_at")
    readonly_fields = ("token_hash", "created_at", "last_seen_at")
    raw_id_fields = ("selected", "profiles")


@admin.register(PublicationConsent)
class PublicationConsentAdmin(admin.ModelAdmin):
    list_display = ("player", "granted", "text_version", "language", "created_at")
    list_filter = ("granted", "text_version", "language")
    search_fields = ("player__nickname",)
    raw_id_fields = ("player",)
    readonly_fields = ("player", "granted", "text_version", "language", "text", "created_at")
