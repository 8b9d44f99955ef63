from django.urls import path

from games.mathesso import homework_views, views

app_name = "mathesso"

urlpatterns = [
    path("", views.index, name="index"),
    path("table/", views.create_table, name="create_table"),
    path("solo/", views.create_solo, name="create_solo"),
    path("table/<str:code>/settings/", views.change_settings, name="change_settings"),
    path("catalogue.json", views.catalogue_json, name="catalogue"),
    path("homework/<int:assignment_id>/", homework_views.play, name="homework"),
    path("api/games/", homework_views.api_games, name="api_games"),
    path("rules/", views.rules, name="rules_default"),
    path("rules/<slug:variant>/", views.rules, name="rules"),
]
