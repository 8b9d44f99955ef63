from django.contrib import admin

from .models import Deployment, Platform


class DeploymentInline(admin.TabularInline):
    model = Deployment
    extra = 1
    fields = ("deployment_id", "created_at")
    readonly_fields = ("created_at",)


@admin.register(Platform)
class PlatformAdmin(admin.ModelAdmin):
    list_display = ("issuer", "client_id", "product", "is_active", "created_at")
    list_filter = ("is_active",)
    search_fields = ("issuer", "client_id")
    fields = (
        "issuer",
        "client_id",
        "name",
        "product",
        "authorization_endpoint",
        "token_endpoint",
        "jwks_uri",
        "token_audience",
        "frame_origins",
        "accept_new_deployments",
        "is_active",
    )
    inlines = [DeploymentInline]
