from django.urls import path

from . import homework_views, views

app_name = "theorems"

urlpatterns = [
    path("", views.index, name="index"),
    path("rules/", views.rules, name="rules"),
    path("tables/new/", views.new_table, name="new_table"),
    path("decks/new/", views.builder, name="new_deck"),
    path("decks/check/", views.check_deck, name="check_deck"),
    path("decks/<int:deck_id>/", views.builder, name="deck"),
    path("decks/<int:deck_id>/delete/", views.delete_deck, name="delete_deck"),
    path("homework/<int:assignment_id>/", homework_views.play, name="homework"),
    path("api/games/", homework_views.api_games, name="api_games"),
]
