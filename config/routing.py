"""WebSocket routes. Game rooms add theirs here."""

from django.urls import path

from config.health import EchoConsumer

websocket_urlpatterns = [
    path("ws/echo/<slug:group>/", EchoConsumer.as_asgi()),
]
