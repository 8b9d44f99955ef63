from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MathessoConfig(AppConfig):
    name = "games.mathesso"
    label = "mathesso"
    verbose_name = _("Mathesso")

    def ready(self) -> None:
        from accounts import privacy
        from core import registry

        from .game import SPEC
        from .privacy import PLACES

        registry.register(SPEC)
        privacy.register_places(SPEC.slug, PLACES)
