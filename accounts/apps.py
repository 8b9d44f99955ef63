from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts and players")

    def ready(self) -> None:
        from accounts import privacy
        from accounts.sso.privacy import HOOKS

        # School sign-in's tables (django-allauth) in the teacher's export and deletion.
        privacy.register(HOOKS)
