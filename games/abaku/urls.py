from django.urls import path

from games.rooms import homework

from . import assignments, views

app_name = "abaku"

urlpatterns = [
    path("", views.index, name="index"),
    path("new/", views.new_game, name="new_game"),
    path("rules/", views.rules, name="rules"),
    *homework.start_urls(assignments.GAME, assignments.start_assignment_room),
    path("rooms/<str:code>/preview/", views.preview, name="preview"),
    path("rooms/<str:code>/hint/", views.hint, name="hint"),
    path("rooms/<str:code>/review/", views.review, name="review"),
]
