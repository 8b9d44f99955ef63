from django.urls import path

from . import homework_views, views

app_name = "abaku"

urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.new_game, name="new_game"),
    path("rules/", views.rules, name="rules"),
    path("homework/<int:assignment_id>/", homework_views.play, name="homework"),
    path("api/games/", homework_views.api_games, name="api_games"),
    path("rooms/<str:code>/preview/", views.preview, name="preview"),
    path("rooms/<str:code>/hint/", views.hint, name="hint"),
    path("rooms/<str:code>/review/", views.review, name="review"),
]
