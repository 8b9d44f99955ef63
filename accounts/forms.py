from django import forms
from django.contrib.auth.forms import BaseUserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.nicknames import MAX_LENGTH


class TeacherSignupForm(BaseUserCreationForm):
    class Meta:
        model = User
        fields = ("email", "name")
        labels = {"email": _("E-mail"), "name": _("Your name (shown to your students)")}

    def clean_email(self) -> str:
        # No "already exists" error: the sign-up answers alike for a new and a
        # known address (accounts.services.sign_up mails the owner instead).
        return self.cleaned_data["email"].strip().lower()

    def validate_unique(self) -> None:
        """Uniqueness is the service's business, never a form error (no oracle)."""


class TwoFactorForm(forms.Form):
    token = forms.CharField(
        label=_("Code from the authenticator app"),
        max_length=8,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}),
    )


class NicknameForm(forms.Form):
    nickname = forms.CharField(
        label=_("Nickname"),
        max_length=MAX_LENGTH + 16,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "words"}),
        help_text=_("2–24 letters, digits, spaces or - _ . — shown to other players."),
    )


class ProfileCodeForm(forms.Form):
    code = forms.CharField(
        label=_("Profile code"),
        max_length=20,
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )
