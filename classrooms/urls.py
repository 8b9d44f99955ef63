from django.urls import include, path

from classrooms import reports
from classrooms.views import classes, invitations, joining, live, roster

app_name = "classrooms"

urlpatterns = [
    path("", classes.index, name="index"),
    path("start/", classes.start, name="start"),
    path("new/", classes.create, name="create"),
    path("join/", joining.join, name="join"),
    path("code/", joining.by_code, name="by_code"),
    path("join/<str:code>/", joining.join_class, name="join_class"),
    path("invitations/<str:token>/", invitations.accept_invitation, name="accept_invitation"),
    path("<int:pk>/", classes.detail, name="detail"),
    path("<int:pk>/back/", classes.back, name="back"),
    path("<int:pk>/status.json", classes.status, name="status"),
    path("<int:pk>/waiting.json", live.waiting, name="live_waiting"),
    path("<int:pk>/waiting/approve/", live.approve, name="live_approve"),
    path("<int:pk>/edit/", classes.edit, name="edit"),
    path("<int:pk>/qr/", classes.qr_page, name="qr"),
    path("<int:pk>/archive/", classes.archive, name="archive"),
    path("<int:pk>/delete/", classes.delete, name="delete"),
    path("<int:pk>/code/regenerate/", classes.regenerate_code, name="regenerate_code"),
    path("<int:pk>/code/joining/", classes.set_joining, name="set_joining"),
    path("<int:pk>/co-teachers/", invitations.invite, name="invite"),
    path("<int:pk>/co-teachers/<int:co_teacher_id>/remove/", invitations.uninvite, name="uninvite"),
    path("<int:pk>/games/start/", classes.start_game, name="start_game"),
    path("<int:pk>/members/", roster.members, name="members"),
    path("<int:pk>/members/claim-codes/", roster.claim_codes, name="claim_codes"),
    path("<int:pk>/members/import/", include("classrooms.import_urls")),
    path("<int:pk>/members/add/", roster.add_members, name="add_members"),
    path("<int:pk>/members/<int:member_id>/approve/", roster.approve_member, name="approve_member"),
    path("<int:pk>/members/<int:member_id>/remove/", roster.remove_member, name="remove_member"),
    path("<int:pk>/members/pending/remove/", roster.remove_pending, name="remove_pending"),
    path("<int:pk>/members/pending/approve/", roster.approve_pending, name="approve_pending"),
    path("<int:pk>/members/<int:member_id>/rename/", roster.rename_member, name="rename_member"),
    path("<int:pk>/members/<int:member_id>/merge/", roster.merge_member, name="merge_member"),
    path("<int:pk>/members/<int:member_id>/", reports.member_results, name="member_results"),
    path("<int:pk>/members/<int:member_id>/results.csv", reports.member_csv, name="member_csv"),
    path(
        "<int:pk>/members/<int:member_id>/results.xlsx",
        reports.member_csv,
        {"fmt": "xlsx"},
        name="member_xlsx",
    ),
    path("<int:pk>/results/", reports.class_results, name="results"),
    path("<int:pk>/results/sessions.csv", reports.sessions_csv, name="sessions_csv"),
    path(
        "<int:pk>/results/sessions.xlsx",
        reports.sessions_csv,
        {"fmt": "xlsx"},
        name="sessions_xlsx",
    ),
    path("<int:pk>/results/participation.csv", reports.participation_csv, name="participation_csv"),
    path(
        "<int:pk>/results/participation.xlsx",
        reports.participation_csv,
        {"fmt": "xlsx"},
        name="participation_xlsx",
    ),
    path("<int:pk>/sessions/<int:record_id>/", reports.session_results, name="session"),
    path("<int:pk>/sessions/<int:record_id>/results.csv", reports.session_csv, name="session_csv"),
    path(
        "<int:pk>/sessions/<int:record_id>/results.xlsx",
        reports.session_csv,
        {"fmt": "xlsx"},
        name="session_xlsx",
    ),
    path("<int:pk>/my-results.csv", reports.my_results_csv, name="my_results_csv"),
    path(
        "<int:pk>/my-results.xlsx", reports.my_results_csv, {"fmt": "xlsx"}, name="my_results_xlsx"
    ),
]
