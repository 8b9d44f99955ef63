from typing import Any

from django import forms
from django.contrib.auth.forms import BaseUserCreationForm, PasswordResetForm
from django.core.mail import EmailMultiAlternatives
from django.template import loader
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


class PasswordResetMailForm(PasswordResetForm):
    """Django's reset form, run by the mail task (accounts.tasks.send_password_reset):
    the same users (active, with a usable password, the address matching) and the
    same token machinery, but a mail that cannot be sent raises instead of being
    only logged, so the task can retry it."""

    sent = 0

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        body = loader.render_to_string(email_template_name, context)
        message = EmailMultiAlternatives(subject, body, from_email, [to_email])
        if html_email_template_name is not None:
            html = loader.render_to_string(html_email_template_name, context)
            message.attach_alternative(html, "text/html")
        message.send()
        self.sent += 1


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
