"""Importing a class list (classrooms.import_views), included under /classes/<pk>/members/import/."""

from django.urls import path

from classrooms import import_views

urlpatterns = [
    path("", import_views.upload, name="import_upload"),
    path("map/", import_views.map_columns, name="import_map"),
    path("confirm/", import_views.confirm, name="import_confirm"),
]
