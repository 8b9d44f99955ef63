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
        email = self.cleaned_data["email"].strip().lower()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(
                _("An account with this e-mail already exists."), code="email_taken"
            )
        return email


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
