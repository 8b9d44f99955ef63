from django.urls import path

from . import views

app_name = "poker"

urlpatterns = [
    path("", views.index, name="index"),
    path("play/", views.play, name="play"),
    path("ranked/", views.ranked, name="ranked"),
    path("daily/", views.daily, name="daily"),
    path("robot/", views.robot, name="robot"),
    path("daily/table/", views.daily_table, name="daily_table"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("scoresheet/", views.scoresheet, name="scoresheet"),
    path("picker/", views.picker, name="picker"),
    path("rules/", views.rules, name="rules"),
    path("rules/print/", views.print_board, name="print_board"),
    path("offline/", views.offline, name="offline"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("review/<str:game_id>/", views.review, name="review"),
    path("api/games/", views.api_games, name="api_games"),
    path("api/games/<str:game_id>/", views.api_game, name="api_game"),
    path("api/games/<str:game_id>/actions/", views.api_actions, name="api_actions"),
    path("api/games/<str:game_id>/hint/", views.api_hint, name="api_hint"),
    path("api/hint/", views.api_board_hint, name="api_board_hint"),
]
