from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.permissions import AllowAny

from classrooms import api

app_name = "api"

urlpatterns = [
    path("classes/", api.ClassroomList.as_view(), name="classes"),
    path("classes/<int:pk>/", api.ClassroomDetail.as_view(), name="class"),
    path("classes/<int:pk>/code/", api.RegenerateCode.as_view(), name="class_code"),
    path("classes/<int:pk>/members/", api.MemberList.as_view(), name="members"),
    path("classes/<int:pk>/members/<int:member_id>/", api.MemberDetail.as_view(), name="member"),
    path(
        "classes/<int:pk>/members/<int:member_id>/results/",
        api.MemberResults.as_view(),
        name="member_results",
    ),
    path("classes/<int:pk>/participation/", api.Participation.as_view(), name="participation"),
    path("classes/<int:pk>/sessions/", api.SessionList.as_view(), name="sessions"),
    path(
        "classes/<int:pk>/sessions/<int:session_id>/",
        api.SessionDetail.as_view(),
        name="session",
    ),
    # The schema and its docs page describe the API; they hold no data, so anyone may read them.
    path("schema/", SpectacularAPIView.as_view(permission_classes=[AllowAny]), name="schema"),
    path(
        "docs/",
        # The split view serves its start-up script as a file: the CSP forbids inline scripts.
        SpectacularSwaggerSplitView.as_view(
            url_name="api:schema",
            permission_classes=[AllowAny],
            template_name="classrooms/swagger_ui.html",
        ),
        name="docs",
    ),
]
