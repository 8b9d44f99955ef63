from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HomeworkConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "homework"
    verbose_name = _("Homework")

    def ready(self) -> None:
        from games import registry

        from .gate import HomeworkGate

        registry.provide_assignments(HomeworkGate())
