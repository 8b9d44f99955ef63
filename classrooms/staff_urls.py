from django.urls import path

from classrooms import staff

app_name = "staff"

urlpatterns = [
    path("", staff.dashboard, name="dashboard"),
]
