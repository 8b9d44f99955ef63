from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HomeworkConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "homework"
    verbose_name = _("Homework")

    def ready(self) -> None:
        from accounts import privacy
        from core import registry

        from .gate import HomeworkGate
        from .privacy import HOOKS

        # Games ask homework through the gate; the privacy jobs reach its tables through the hooks.
        registry.provide_assignments(HomeworkGate())
        privacy.register(HOOKS)
