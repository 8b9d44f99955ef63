from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AbakuConfig(AppConfig):
    name = "games.abaku"
    label = "abaku"
    verbose_name = _("Abaku")

    def ready(self) -> None:
        """Plug the game into the rooms runtime: tables of 2-4 and solo games."""
        from games.rooms import registry

        from .adapter import AbakuSolo, AbakuTable

        registry.register("abaku", "table", AbakuTable())
        registry.register("abaku", "solo", AbakuSolo())
