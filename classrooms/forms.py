from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.nicknames import MAX_LENGTH
from classrooms.errors import ClassroomError
from games.abaku import adapter as abaku
from games.mathesso.forms import GameForm
from games.poker.forms import RoomSettingsForm


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

    member = forms.IntegerField(required=False)  # a roster entry's id, rendered as radios
    typed_name = forms.CharField(label=_("Your name"), max_length=80, required=False)
    nickname = forms.CharField(
        label=_("Your nickname"),
        max_length=MAX_LENGTH + 16,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
        help_text=_("Other players see only your nickname. Do not use your full name."),
    )


# --- settings of the games a teacher starts for a class ---------------------------------
#
# Each form offers a game's main settings and turns what was posted into the
# settings dict its rooms adapter takes. The adapter's ``clean_settings`` (run by
# ``create_room``) decides whether they are acceptable, exactly as on the game's
# own page. Table forms carry the game's slug as prefix: every game card on the
# class page is its own form, but ids must stay unique on the page.


class MathessoTableForm(GameForm):
    """Mathesso's own form (variant, extensions, scoring) without the nickname:
    the students are seated with their own profiles."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["nickname"]

    def settings(self) -> dict:
        if self.add_prefix("variant") not in self.data:
            return {}  # nothing chosen: the adapter's defaults
        if not self.is_valid():
            raise ClassroomError(
                "bad_settings", " ".join(str(e) for errors in self.errors.values() for e in errors)
            )
        return self.cleaned_data["settings"]


ABAKU_LEVELS = {
    "beginner": _("beginner"),
    "greedy": _("greedy"),
    "strong": _("strong"),
}


def _abaku_turn_choices() -> list[tuple[str, str]]:
    choices = [("", _("no limit"))]
    for seconds in abaku.TURN_SECONDS_CHOICES:
        if seconds is not None:
            choices.append((str(seconds), _("%(seconds)s s") % {"seconds": seconds}))
    return choices


class AbakuTableForm(forms.Form):
    turn_seconds = forms.ChoiceField(
        label=_("Time for one turn"),
        choices=_abaku_turn_choices,
        initial=str(abaku.DEFAULT_TURN_SECONDS),
        required=False,
    )
    robot_level = forms.ChoiceField(
        label=_("Robots in empty seats"),
        choices=[(level, ABAKU_LEVELS.get(level, level)) for level in abaku.LEVELS],
        initial=abaku.DEFAULT_LEVEL,
        required=False,
        help_text=_("A robot joins only a student who would sit at a table alone."),
    )
    plain = forms.BooleanField(label=_("A board without premium squares"), required=False)

    def settings(self) -> dict:
        settings = {"layout": "plain" if self["plain"].value() else "standard"}
        # What was not posted keeps the adapter's default; anything but a listed
        # number or level reaches the adapter as it came, to be refused there.
        if self.add_prefix("turn_seconds") in self.data:
            seconds = self.data[self.add_prefix("turn_seconds")].strip()
            settings["turn_seconds"] = int(seconds) if seconds.isdigit() else seconds or None
        if self.add_prefix("robot_level") in self.data:
            settings["robot_level"] = self.data[self.add_prefix("robot_level")]
        return settings


class TheoremsTableForm(forms.Form):
    no_burn = forms.BooleanField(
        label=_("Small-deck variant: no burning at the end of a turn"), required=False
    )

    def settings(self) -> dict:
        return {"burn": not self["no_burn"].value()}


TABLE_SETTINGS_FORMS = {
    "mathesso": MathessoTableForm,
    "abaku": AbakuTableForm,
    "theorems": TheoremsTableForm,
}


def game_settings_form(game: str, data=None) -> forms.Form | None:
    """The settings form of a game started from the class page (None: no settings)."""
    if game == "poker":
        return RoomSettingsForm(data, mode="group")
    form_class = TABLE_SETTINGS_FORMS.get(game)
    return form_class(data, prefix=game, label_suffix="") if form_class else None
