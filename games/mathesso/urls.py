from django.urls import path

from games.mathesso import assignments, views
from games.rooms import homework

app_name = "mathesso"

urlpatterns = [
    path("", views.index, name="index"),
    path("table/", views.create_table, name="create_table"),
    path("solo/", views.create_solo, name="create_solo"),
    path("table/<str:code>/settings/", views.change_settings, name="change_settings"),
    path("catalogue.json", views.catalogue_json, name="catalogue"),
    *homework.start_urls(assignments.GAME, assignments.start_assignment_room),
    path("rules/", views.rules, name="rules_default"),
    path("rules/<slug:variant>/", views.rules, name="rules"),
]
