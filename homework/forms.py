"""The teacher's "New homework" form: the game, its settings, the dates and the rules."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import registry

from .models import Assignment

#: Dates on the form are read and shown in the school's zone.
SCHOOL_ZONE = ZoneInfo("Europe/Prague")
LOCAL_FORMAT = "%Y-%m-%dT%H:%M"


class LocalDateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def format_value(self, value):
        if isinstance(value, datetime):
            return value.astimezone(SCHOOL_ZONE).strftime(LOCAL_FORMAT)
        return value


class LocalDateTimeField(forms.DateTimeField):
    widget = LocalDateTimeInput
    input_formats = [LOCAL_FORMAT, "%Y-%m-%d %H:%M"]

    def to_python(self, value):
        moment = super().to_python(value)
        if moment is None:
            return None
        return moment.replace(tzinfo=None).replace(tzinfo=SCHOOL_ZONE)


def _setting_key(game: str, name: str) -> str:
    return f"{game}__{name}"


class AssignmentForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=120)
    game = forms.ChoiceField(label=_("Game"))
    opens_at = LocalDateTimeField(
        label=_("Opens at"), required=False, help_text=_("Empty: now. Time in Prague.")
    )
    due_at = LocalDateTimeField(label=_("Due at"), help_text=_("Time in Prague."))
    attempts = forms.ChoiceField(
        label=_("Which attempt counts"),
        choices=Assignment.Attempts.choices,
        initial=Assignment.Attempts.FIRST,
    )
    practice = forms.BooleanField(
        label=_("Practice mode: hints and extra attempts that do not count"), required=False
    )
    late = forms.BooleanField(label=_("Late play allowed (marked late)"), required=False)
    table_visible = forms.BooleanField(
        label=_("Pupils see the class table after the deadline"), required=False
    )
    reviews_visible = forms.BooleanField(
        label=_("Pupils see the coach's review of their game after the deadline"),
        required=False,
    )
    mail_summary = forms.BooleanField(
        label=_("Send me a summary e-mail at the deadline"), required=False
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        specs = registry.assignable_games()
        self.fields["game"].choices = [(spec.slug, spec.name) for spec in specs]
        self.setting_names: dict[str, list[str]] = {}
        for spec in specs:
            assert spec.assignable is not None
            names = []
            for name, label, choices, default in spec.assignable.setting_fields():
                key = _setting_key(spec.slug, name)
                if choices is None:
                    field = forms.IntegerField(label=label, initial=default, required=False)
                else:
                    field = forms.ChoiceField(label=label, choices=choices, initial=default)
                field.widget.attrs["data-game"] = spec.slug
                self.fields[key] = field
                names.append(name)
            self.setting_names[spec.slug] = names
        if not self.is_bound:
            self.fields["due_at"].initial = (timezone.now() + timedelta(days=7)).replace(
                second=0, microsecond=0
            )

    def game_settings(self) -> dict:
        game = self.cleaned_data["game"]
        return {
            name: self.cleaned_data.get(_setting_key(game, name))
            for name in self.setting_names.get(game, [])
        }

    def setting_fields(self):
        return [field for field in self if "__" in field.name]

    def main_fields(self, names: str):
        return [self[name] for name in names.split()]
