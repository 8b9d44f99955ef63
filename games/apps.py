from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from accounts import privacy
        from games.privacy import HOOKS

        # The shared results answer for themselves in erasure, export, the
        # profile statistics and their reset (accounts never reads them).
        privacy.register(HOOKS)
