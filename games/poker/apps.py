from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PokerConfig(AppConfig):
    name = "games.poker"
    label = "poker"
    verbose_name = _("Mathematical poker")

    def ready(self) -> None:
        from accounts import privacy
        from core import registry

        from .game import SPEC
        from .privacy import PLACES

        registry.register(SPEC)
        privacy.register_places(SPEC.slug, PLACES)
