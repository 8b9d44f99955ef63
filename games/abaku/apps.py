from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AbakuConfig(AppConfig):
    name = "games.abaku"
    label = "abaku"
    verbose_name = _("Abaku")

    def ready(self) -> None:
        from core import registry

        from .game import SPEC

        registry.register(SPEC)
