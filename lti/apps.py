from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LtiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "lti"
    verbose_name = _("LTI (school LMS)")

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_out
        from django.db.models.signals import post_save

        from accounts import privacy
        from homework import links as homework_links
        from homework import signals

        from . import framing, tasks
        from .models import ResourceLink
        from .privacy import HOOKS
        from .views import grades_link

        # A finished homework game sends its counted score back to the LMS.
        signals.attempt_finished.connect(tasks.on_attempt_finished, dispatch_uid="lti-grades")
        post_save.connect(tasks.on_link_saved, sender=ResourceLink, dispatch_uid="lti-link-saved")
        signals.grading_changed.connect(tasks.on_grading_changed, dispatch_uid="lti-regrade")
        privacy.register(HOOKS)
        # A teacher's logout ends the frame grants of their LMS launches.
        user_logged_out.connect(framing.on_logged_out, dispatch_uid="lti-frame-logout")
        # The teacher's homework page links to what reached the LMS gradebook.
        homework_links.register(grades_link)
