from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from accounts import player_views, signup, views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("signup/sent/", views.signup_sent, name="signup_sent"),
    path("verify/resend/", views.resend_verification, name="resend_verification"),
    path("verify/<str:token>/", views.verify_email, name="verify_email"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("two-factor/", views.two_factor, name="two_factor"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path(
        "password/change/",
        views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(template_name="accounts/message_page.html"),
        name="password_change_done",
    ),
    path(
        "password/reset/",
        views.PasswordResetView.as_view(),
        name="password_reset",
    ),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="accounts/message_page.html"),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            form_class=signup.OwnerSetPasswordForm,
            template_name="accounts/form_page.html",
            success_url=reverse_lazy("accounts:password_reset_complete"),
        ),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(template_name="accounts/message_page.html"),
        name="password_reset_complete",
    ),
    path("player/", player_views.profile, name="profile"),
    path("player/new/", player_views.create_profile, name="create_profile"),
    path("player/rename/", player_views.rename_profile, name="rename_profile"),
    path("player/switch/", player_views.switch_profile, name="switch_profile"),
    path("player/not-me/", player_views.not_me, name="not_me"),
    path("player/forget/", player_views.forget_profile, name="forget_profile"),
    path("player/continue/", player_views.continue_profile, name="continue_profile"),
    path("player/code/renew/", player_views.renew_code, name="renew_code"),
    path("player/sign-out-others/", player_views.sign_out_others, name="sign_out_others"),
    path("player/storage/", player_views.set_storage, name="set_storage"),
    path("player/suggest/", player_views.suggest_nickname, name="suggest_nickname"),
    path("player/consent/", player_views.set_consent, name="set_consent"),
    path("player/export.<str:fmt>", player_views.export_data, name="export_data"),
    path("player/reset/", player_views.reset_stats, name="reset_stats"),
    path("player/delete/", player_views.delete_profile, name="delete_profile"),
    path("teacher/export.json", views.export_account, name="export_account"),
    path("teacher/delete/", views.delete_account, name="delete_account"),
]
