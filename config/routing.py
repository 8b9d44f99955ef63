"""WebSocket routes. Game rooms add theirs here."""

from django.urls import path

from config.health import EchoConsumer
from games.rooms.routing import websocket_urlpatterns as room_patterns

websocket_urlpatterns = [
    path("ws/echo/<slug:group>/", EchoConsumer.as_asgi()),
    *room_patterns,
]
