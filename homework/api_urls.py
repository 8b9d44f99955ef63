from django.urls import path

from . import api

app_name = "homework_api"

urlpatterns = [
    path("classes/<int:pk>/assignments/", api.AssignmentList.as_view(), name="assignments"),
    path("assignments/<int:pk>/", api.AssignmentDetail.as_view(), name="assignment"),
    path("assignments/<int:pk>/close/", api.AssignmentClose.as_view(), name="close"),
    path("assignments/<int:pk>/results/", api.Results.as_view(), name="results"),
    path(
        "assignments/<int:pk>/results.csv",
        api.ResultsFile.as_view(fmt="csv"),
        name="results_csv",
    ),
    path(
        "assignments/<int:pk>/results.xlsx",
        api.ResultsFile.as_view(fmt="xlsx"),
        name="results_xlsx",
    ),
]
