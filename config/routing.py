"""WebSocket routes. Game rooms add theirs here.

The echo socket (config/health.py) relays any text to every socket of a group:
a development and test probe of the real-time path, and in production an
anonymous relay without caps that pupils could use as a hidden chat during a
class game (issue 27 §4). It is routed only under DEBUG or when the settings
ask for it (``ECHO_SOCKET``, set by the test settings); production has neither.

Any other path is refused by ``NoRoute`` (the handshake is answered 403, as for
a refused room socket): Channels' router raised ``ValueError`` for an unrouted
path, and uvicorn logged "Exception in ASGI application" with a traceback for
every anonymous probe (issue 38 §4).
"""

from channels.generic.websocket import WebsocketConsumer
from django.conf import settings
from django.urls import path, re_path

from config.health import EchoConsumer
from games.rooms.routing import websocket_urlpatterns as room_patterns

#: The close code of a refused unknown path (like HTTP's 404).
NO_ROUTE = 4404


class NoRoute(WebsocketConsumer):
    """Refuses the handshake of a path no consumer serves."""

    def connect(self) -> None:
        self.close(code=NO_ROUTE)


def echo_socket_enabled() -> bool:
    return bool(settings.DEBUG or getattr(settings, "ECHO_SOCKET", False))


# Channels' URLRouter takes Django's patterns with an ASGI app where django-stubs
# expects a view.
websocket_urlpatterns = [
    *(
        [path("ws/echo/<slug:group>/", EchoConsumer.as_asgi())]  # type: ignore[arg-type]
        if echo_socket_enabled()
        else []
    ),
    *room_patterns,
    re_path(r"", NoRoute.as_asgi()),  # type: ignore[arg-type]
]
