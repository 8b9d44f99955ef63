from django.urls import path

from . import views

app_name = "lti"

urlpatterns = [
    path("jwks/", views.jwks, name="jwks"),
    path("register/<str:token>/", views.register, name="register"),
    path("login/", views.login_initiation, name="login"),
    path("launch/", views.launch_view, name="launch"),
    path("frame/<str:ticket>/", views.frame_landing, name="frame"),
    path("frame/<str:ticket>/open/", views.frame_open, name="frame_open"),
    path("deep-link/", views.deep_link_choose, name="deep_link"),
    path("classes/<int:pk>/homework/<int:assignment_id>/grades/", views.grades, name="grades"),
    path("staff/", views.staff, name="staff"),
]
