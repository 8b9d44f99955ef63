"""WebSocket routes of the rooms runtime: one consumer for every game."""

from django.urls import re_path

from games.rooms.consumers import RoomConsumer

websocket_urlpatterns: list = [
    re_path(r"^ws/rooms/(?P<code>[A-Za-z0-9]{1,12})/$", RoomConsumer.as_asgi()),
]
