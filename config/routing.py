"""WebSocket routes. Game rooms add theirs here.

The echo socket (config/health.py) relays any text to every socket of a group:
a development and test probe of the real-time path, and in production an
anonymous relay without caps that pupils could use as a hidden chat during a
class game (issue 27 §4). It is routed only under DEBUG or when the settings
ask for it (``ECHO_SOCKET``, set by the test settings); production has neither.
"""

from django.conf import settings
from django.urls import path

from config.health import EchoConsumer
from games.rooms.routing import websocket_urlpatterns as room_patterns


def echo_socket_enabled() -> bool:
    return bool(settings.DEBUG or getattr(settings, "ECHO_SOCKET", False))


websocket_urlpatterns = [
    *([path("ws/echo/<slug:group>/", EchoConsumer.as_asgi())] if echo_socket_enabled() else []),
    *room_patterns,
]
