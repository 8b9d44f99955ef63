from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TheoremsConfig(AppConfig):
    name = "games.theorems"
    label = "theorems"
    verbose_name = _("Mathematicians")

    def ready(self) -> None:
        from core import registry

        from .game import SPEC

        registry.register(SPEC)
