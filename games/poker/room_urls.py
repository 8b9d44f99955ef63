"""URLs of the poker group game and duel pages (rooms run them; see room_games/).

Include under the poker root: ``path("poker/", include("games.poker.room_urls"))``.
"""

from django.urls import path

from .room_games import views

app_name = "poker_room"

urlpatterns = [
    path("room/new/<str:mode>/", views.new_room, name="new"),
    path("room/<str:code>/standings.json", views.group_standings, name="standings"),
    path("room/<str:code>/projector/", views.projector, name="projector"),
    path("room/<str:code>/new-round/", views.new_round, name="new_round"),
]
