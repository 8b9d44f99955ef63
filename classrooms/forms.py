from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from accounts.nicknames import MAX_LENGTH
from core import registry as game_registry


class ClassroomForm(forms.Form):
    name = forms.CharField(label=_("Class name"), max_length=80)
    school_year = forms.CharField(
        label=_("School year"),
        max_length=9,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": "2026/27"}),
    )
    subject = forms.CharField(label=_("Subject or grade"), max_length=80, required=False)


class NewClassroomForm(ClassroomForm):
    roster = forms.CharField(
        label=_("Students (optional)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_(
            "Paste a list of names, one a line. Students then pick their name when they join."
        ),
    )


class EditClassroomForm(ClassroomForm):
    public_publication = forms.BooleanField(
        label=_("Members' results may appear on public leaderboards"),
        required=False,
        help_text=_("Only for students who also agreed themselves. Off by default."),
    )


class JoinCodeForm(forms.Form):
    code = forms.CharField(
        label=_("Class code"),
        max_length=16,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "inputmode": "text"}
        ),
    )


class RosterForm(forms.Form):
    names = forms.CharField(
        label=_("Add students"),
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=_("One name a line."),
    )


class InviteForm(forms.Form):
    email = forms.EmailField(label=_("Colleague's e-mail"))


class JoinForm(forms.Form):
    """Either a roster name picked from the list or a typed name; plus a nickname
    when the browser has no profile yet."""

    #: other nicknames to offer when the one typed is taken (set by the join view)
    nickname_suggestions: list[str] = []
    member = forms.IntegerField(required=False)  # a roster entry's id, rendered as radios
    typed_name = forms.CharField(label=_("Your name"), max_length=80, required=False)
    nickname = forms.CharField(
        label=_("Your nickname"),
        max_length=MAX_LENGTH + 16,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
        help_text=_("Other players see only your nickname. Do not use your full name."),
    )


def game_settings_form(
    game: str, data: QueryDict | None = None
) -> game_registry.SettingsForm | None:
    """The settings form of a game started from the class page (None: no settings).

    Each game declares its form (``GameSpec.class_launch.settings_form``); it turns
    what was posted into the settings dict its rooms adapter takes, and the
    adapter's ``clean_settings`` (run by ``create_room``) decides whether they are
    acceptable, exactly as on the game's own page. The game's slug is the prefix:
    every game card on the class page is its own form, but ids must stay unique.
    """
    spec = game_registry.get(game)
    launch = spec.class_launch if spec else None
    if launch is None or launch.settings_form is None:
        return None
    return launch.settings_form(data, prefix=game)
