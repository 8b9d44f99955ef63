from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClassroomsConfig(AppConfig):
    name = "classrooms"
    verbose_name = _("Classes")

    def ready(self) -> None:
        from accounts import privacy
        from classrooms import selectors
        from classrooms.privacy import HOOKS
        from games.rooms import selectors as room_selectors

        # The classes answer for their tables in erasure, export, teacher deletion
        # and the publication policy (accounts.privacy).
        privacy.register(HOOKS)
        # A teacher's own profile acts in a class's rooms only while teaching the class.
        room_selectors.set_class_teacher_check(selectors.teaches)
        # The host of a class game sees each pupil's roster name beside the nickname.
        room_selectors.set_roster_names(selectors.roster_names_by_player)
