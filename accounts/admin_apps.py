"""The admin app with Matika's admin site (accounts/admin_site.py: optional TOTP).

Kept apart from the site: an app config is imported before the models exist."""

from django.contrib.admin.apps import AdminConfig


class MatikaAdminConfig(AdminConfig):
    default_site = "accounts.admin_site.OptionalOTPAdminSite"
