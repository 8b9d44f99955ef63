"""Homework pages, under ``/classes/<class id>/homework/`` (config/urls.py)."""

from django.urls import path

from . import views

app_name = "homework"

urlpatterns = [
    path("<int:pk>/homework/new/", views.create, name="create"),
    path("<int:pk>/homework/<int:assignment_id>/", views.detail, name="detail"),
    path("<int:pk>/homework/<int:assignment_id>/edit/", views.edit, name="edit"),
    path("<int:pk>/homework/<int:assignment_id>/close/", views.close, name="close"),
    path("<int:pk>/homework/<int:assignment_id>/delete/", views.delete, name="delete"),
    path(
        "<int:pk>/homework/<int:assignment_id>/review/<int:attempt_id>/",
        views.review,
        name="review",
    ),
]
