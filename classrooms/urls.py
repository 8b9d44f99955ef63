from django.urls import include, path

from classrooms import reports, views

app_name = "classrooms"

urlpatterns = [
    path("", views.index, name="index"),
    path("start/", views.start, name="start"),
    path("new/", views.create, name="create"),
    path("join/", views.join, name="join"),
    path("join/<str:code>/", views.join_class, name="join_class"),
    path("invitations/<str:token>/", views.accept_invitation, name="accept_invitation"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/back/", views.back, name="back"),
    path("<int:pk>/status.json", views.status, name="status"),
    path("<int:pk>/edit/", views.edit, name="edit"),
    path("<int:pk>/qr/", views.qr_page, name="qr"),
    path("<int:pk>/archive/", views.archive, name="archive"),
    path("<int:pk>/delete/", views.delete, name="delete"),
    path("<int:pk>/code/regenerate/", views.regenerate_code, name="regenerate_code"),
    path("<int:pk>/code/joining/", views.set_joining, name="set_joining"),
    path("<int:pk>/co-teachers/", views.invite, name="invite"),
    path("<int:pk>/co-teachers/<int:co_teacher_id>/remove/", views.uninvite, name="uninvite"),
    path("<int:pk>/games/start/", views.start_game, name="start_game"),
    path("<int:pk>/members/", views.members, name="members"),
    path("<int:pk>/members/claim-codes/", views.claim_codes, name="claim_codes"),
    path("<int:pk>/members/import/", include("classrooms.import_urls")),
    path("<int:pk>/members/add/", views.add_members, name="add_members"),
    path("<int:pk>/members/<int:member_id>/approve/", views.approve_member, name="approve_member"),
    path("<int:pk>/members/<int:member_id>/remove/", views.remove_member, name="remove_member"),
    path("<int:pk>/members/pending/remove/", views.remove_pending, name="remove_pending"),
    path("<int:pk>/members/pending/approve/", views.approve_pending, name="approve_pending"),
    path("<int:pk>/members/<int:member_id>/rename/", views.rename_member, name="rename_member"),
    path("<int:pk>/members/<int:member_id>/merge/", views.merge_member, name="merge_member"),
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
