from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MathessoConfig(AppConfig):
    name = "games.mathesso"
    label = "mathesso"
    verbose_name = _("Mathesso")

    def ready(self) -> None:
        """Plug the game into the rooms runtime: tables of 1-6 and solo practice."""
        from games.mathesso.adapter import MathessoSolo, MathessoTable
        from games.rooms import registry

        registry.register("mathesso", "table", MathessoTable())
        registry.register("mathesso", "solo", MathessoSolo())
