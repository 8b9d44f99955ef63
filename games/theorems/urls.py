from django.urls import path

from games.rooms import homework

from . import assignments, views

app_name = "theorems"

urlpatterns = [
    path("", views.index, name="index"),
    path("rules/", views.rules, name="rules"),
    path("tables/new/", views.new_table, name="new_table"),
    path("decks/new/", views.builder, name="new_deck"),
    path("decks/check/", views.check_deck, name="check_deck"),
    path("decks/<int:deck_id>/", views.builder, name="deck"),
    path("decks/<int:deck_id>/delete/", views.delete_deck, name="delete_deck"),
    *homework.start_urls(assignments.GAME, assignments.start_assignment_room),
]
