from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RoomsConfig(AppConfig):
    name = "games.rooms"
    label = "rooms"
    verbose_name = _("Rooms")

    def ready(self) -> None:
        # The end of a teacher session reaches the room sockets acting by it.
        from django.contrib.auth import get_user_model
        from django.contrib.auth.signals import user_logged_out
        from django.contrib.sessions.models import Session
        from django.db.models.signals import post_delete, post_save

        from accounts import privacy
        from games.rooms import hostsessions
        from games.rooms.privacy import HOOKS, RUNTIME_PLACES

        # The runtime answers for rooms in erasure, retention and export; its own
        # places of players in JSON hold in every game's rooms ("").
        privacy.register(HOOKS)
        privacy.register_places("", RUNTIME_PLACES)

        user_logged_out.connect(hostsessions.on_user_logged_out, dispatch_uid="rooms.logout")
        post_delete.connect(
            hostsessions.on_session_deleted, sender=Session, dispatch_uid="rooms.session_deleted"
        )
        user = get_user_model()
        post_save.connect(hostsessions.on_user_saved, sender=user, dispatch_uid="rooms.user_saved")
        post_delete.connect(
            hostsessions.on_user_deleted, sender=user, dispatch_uid="rooms.user_deleted"
        )
