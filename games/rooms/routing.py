"""WebSocket routes of the rooms runtime: one consumer for every game."""

from typing import Any

from django.urls import re_path

from games.rooms.consumers import RoomConsumer

# Channels' URLRouter takes Django's patterns with an ASGI app where django-stubs
# expects a view.
websocket_urlpatterns: list[Any] = [
    re_path(r"^ws/rooms/(?P<code>[A-Za-z0-9]{1,12})/$", RoomConsumer.as_asgi()),  # type: ignore[arg-type]
]
